// Bratu benchmark: trace u'' + λ e^u = 0 (benchmarks/bratu.hpp) from λ = 0 over
// its fold and down the upper branch until λ < 1, for several N; print JSON.
//
//   bench_bratu                 N = 10, 100, 1e3, 1e4, 1e5
//   bench_bratu --full          ... and 1e6
//   bench_bratu --n 100000 [--n 1000 ...] [--mu 0.0] [--no-locate]
//
// --no-locate skips the location of the fold (SPL), so that peak_rss_mib is the
// path's own memory (the location's block inverse iteration holds several
// n-vectors and its QR more).
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "bratu.hpp"
#include "runner.hpp"
#include "blas_kernel.hpp"

using namespace senda;

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again
  senda_app::unblock_stop_signals();    // no handler here: Ctrl-C ends a benchmark
  std::vector<int> sizes;
  bool full = false;
  double mu = 0.0;
  bool locate = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--full") {
      full = true;
    } else if (a == "--n" && i + 1 < argc) {
      sizes.push_back(static_cast<int>(std::atof(argv[++i])));
    } else if (a == "--no-locate") {
      locate = false;
    } else if (a == "--mu" && i + 1 < argc) {
      mu = std::atof(argv[++i]);
    } else {
      std::cerr << "usage: bench_bratu [--full] [--n N]... [--mu MU] [--no-locate]\n";
      return 2;
    }
  }
  if (sizes.empty()) {
    sizes = {10, 100, 1000, 10000, 100000};
    if (full) sizes.push_back(1000000);
  }

  continuation::Options o;
  o.constraint = continuation::ConstraintKind::PseudoArclength;
  o.initial_load_increment = 0.1;
  o.max_step_ratio = 30.0;
  o.max_steps = 1000;
  nlohmann::json runs = nlohmann::json::array();
  for (int n : sizes) {
    // Once past the fold (λ has come down from above 1) stop below λ = 1.
    auto stop = [top = 0.0](const continuation::PathFollower& f, std::string& reason) mutable {
      top = std::max(top, f.current().lambda);
      if (f.current().lambda < 1.0 && top > 1.0) {
        reason = "past the fold, lambda < 1 on the upper branch";
        return true;
      }
      return false;
    };
    benchmarks::Bratu problem(n, mu);
    // Default tolerances: the force scale of the residual test includes ‖ |K| |q| ‖
    // (docs/theory.md eq. 2.9), so round-off in g does not stall large N.
    runs.push_back(benchmarks::run_path("bratu-1d", problem, o, Vector::Constant(n, mu), 0.0, stop, locate));
    runs.back()["N"] = n;
    runs.back()["mu"] = mu;
    std::cerr << "N = " << n << ": " << runs.back()["time_s"]["total"] << " s\n";
  }
  std::cout << runs.dump(2) << std::endl;
  return 0;
}
