// Factorization benchmark: CHOLMOD simplicial LDLᵀ against sequential MUMPS on
// the tangents of bench_trusses's space grids (the rest tangent, positive
// definite, and the same shifted to K − σI with σ at a fifth of its diagonal's
// mean, indefinite). Times are the median of --repeat numeric factorizations
// after one symbolic analysis; the negative pivot counts of the two are printed
// side by side. Prints JSON; never run by ctest (docs/performance.md).
//
//   bench_factorization                  grids 5, 10, 20, 30, 40
//   bench_factorization --grid 60 [--repeat 3]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "senda/linalg/factorization.hpp"
#include "space_grid.hpp"
#include "blas_kernel.hpp"
#include "host.hpp"

using namespace senda;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

nlohmann::json time_backend(const SparseMatrix& K, linalg::Solver s, int repeat) {
  const auto t0 = Clock::now();
  linalg::SymmetricFactorization f(K, s);
  const double analyse = seconds_since(t0);
  std::vector<double> times;
  linalg::FactorStatus st = linalg::FactorStatus::Failed;
  for (int r = 0; r < repeat; ++r) {
    const auto t1 = Clock::now();
    st = f.factorize(K);
    times.push_back(seconds_since(t1));
  }
  std::sort(times.begin(), times.end());
  double solve = 0.0;
  if (st == linalg::FactorStatus::Ok) {
    const Vector b = Vector::Ones(K.rows());
    const auto t2 = Clock::now();
    const Vector x = f.solve(b);
    solve = seconds_since(t2);
  }
  return {{"solver", linalg::to_string(s)}, {"status", linalg::to_string(st)},
          {"negative_pivots", f.negative_pivots()}, {"analyse_s", analyse},
          {"factorize_s", times[times.size() / 2]}, {"solve_s", solve}};
}
}  // namespace

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again
  senda_app::unblock_stop_signals();    // no handler here: Ctrl-C ends a benchmark
  std::vector<int> grids;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) {
      grids.push_back(std::atoi(argv[++i]));
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else {
      std::cerr << "usage: bench_factorization [--grid N]... [--repeat R]\n";
      return 2;
    }
  }
  if (grids.empty()) grids = {5, 10, 20, 30, 40};
  if (!linalg::mumps_available()) {
    std::cerr << "bench_factorization: this build has no MUMPS\n";
    return 1;
  }
  nlohmann::json runs = nlohmann::json::array();
  for (int g : grids) {
    const model::Model m = benchmarks::space_grid(g, g);
    SparseMatrix K = m.tangent_pattern();
    m.tangent(Vector::Zero(m.size()), 0.0, K);
    SparseMatrix Ks = K;
    const double sigma = 0.2 * K.diagonal().mean();
    for (int i = 0; i < Ks.rows(); ++i) Ks.coeffRef(i, i) -= sigma;
    for (const auto& [name, A] : {std::pair<const char*, const SparseMatrix&>{"rest", K}, {"shifted", Ks}}) {
      nlohmann::json r = {{"grid", g}, {"unknowns", m.size()}, {"nonzeros", A.nonZeros()}, {"tangent", name}};
      r["host"] = benchmarks::host();
      const nlohmann::json c = time_backend(A, linalg::Solver::Cholmod, repeat);
      const nlohmann::json u = time_backend(A, linalg::Solver::Mumps, repeat);
      r["cholmod"] = c;
      r["mumps"] = u;
      r["same_inertia"] = c["negative_pivots"] == u["negative_pivots"];
      r["speedup"] = c["factorize_s"].get<double>() / u["factorize_s"].get<double>();
      std::cerr << "grid " << g << " (" << m.size() << " unknowns, " << name << "): cholmod " << c["factorize_s"]
                << " s, mumps " << u["factorize_s"] << " s\n";
      runs.push_back(r);
    }
  }
  std::cout << runs.dump(2) << std::endl;
  return 0;
}
