// Lattice-dome benchmark: the shallow single-layer dome of senda/input/dome.hpp
// (apex load, rim pinned), its .cfg text read and built as `trace` does, traced from
// rest through its first critical point (the crown's limit point LP1, located with
// SPL), once per linear solver. Each solver runs in its own child process so that
// the peak memory (getrusage ru_maxrss) is that solver's. Prints JSON.
//
//   bench_dome                         34 rings (10 101 unknowns), mumps and cholmod
//   bench_dome --rings N [--rings M ...] [--layers 1|2] [--max-steps S] [--solver mumps|cholmod|auto ...]
//              [--set KEY=VALUE ...]
//
// --max-steps S stops the path after S steps (the .cfg's 200 otherwise): LP1's
// bracket ends at point 10 at every size (λ in units of P_star, the stop in units of
// h₁: the path is the same), so S = 10 traces from rest through LP1 and no further.
// --set KEY=VALUE is applied to the .cfg as `trace KEY=VALUE` would (e.g.
// critical.monitor_eigenvalues=false); each run lists them in "overrides".
//
// Per run: unknowns, bars, points, Newton iterations, factorizations (path and
// location, and the paths' alone), the time of the paths' numeric factorizations
// and per path factorization (the location's time is not in the figures), the
// symbolic analysis, assembly, solves and the whole run, LP1 (λ, residual,
// iterations, the load λ P_star), the crossings (negative pivots before/after), the
// negative pivots at every point, peak RSS; and per size, the backends compared:
// the same inertia at every point, the largest relative difference of λ on the path
// and at LP1. Output: {"runs": [...], "comparisons": [...]}.
// The run stops when the crown has moved 0.8 h₁ (past LP1 at about 0.3 h₁), or
// after --max-steps.
//
//   mpirun -np P bench_dome --mpi [--rings N] [--layers L] [--max-steps S]   (a SENDA_MPI build)
//
// One MUMPS run in this process (no child: an MPI process does not fork), the
// factorizations distributed over the P ranks (senda/linalg/distributed.hpp), plus
// "processes", the peak RSS of every rank ("peak_rss_mib_per_rank") and MUMPS's
// own statistics ("mumps") of one more factorization of K at LP1's state: factor
// entries INFOG(29), flops RINFOG(3), memory INFOG(21) (largest rank) and INFOG(22)
// (all ranks), and that factorization's time.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "senda/analysis/analysis.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/dome.hpp"
#include "senda/linalg/distributed.hpp"
#include "senda/linalg/factorization.hpp"
#include "blas_kernel.hpp"
#include "host.hpp"

using namespace senda;

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// The inertia (negative pivots) and λ of every accepted point, to compare backends.
struct PointLog : analysis::Observer {
  std::vector<int> negative_pivots;
  std::vector<double> lambda;
  void on_point(int, const continuation::PathPoint& p) override {
    negative_pivots.push_back(p.negative_pivots);
    lambda.push_back(p.lambda);
  }
};

// MUMPS's statistics of one factorization of K at (q, λ) (the located LP1).
nlohmann::json mumps_figures(const Problem& p, const Vector& q, double lambda) {
  SparseMatrix K = p.tangent_pattern();
  p.tangent(q, lambda, K);
  linalg::SymmetricFactorization f(K, linalg::Solver::Mumps);
  const auto t0 = std::chrono::steady_clock::now();
  const linalg::FactorStatus st = f.factorize(K);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const linalg::MumpsFigures m = f.mumps_figures();
  return {{"status", linalg::to_string(st)},
          {"negative_pivots", f.negative_pivots()},
          {"factorize_s", seconds},
          {"analyze_s", f.stats().analyze_seconds},
          {"factor_entries_INFOG29", m.factor_entries},
          {"flops_RINFOG3", m.flops},
          {"memory_max_rank_mb_INFOG21", m.memory_max_mb},
          {"memory_all_ranks_mb_INFOG22", m.memory_total_mb}};
}

nlohmann::json run(int rings, int layers, int max_steps, linalg::Solver solver, const std::vector<std::string>& sets) {
  input::DomeOptions o;
  o.rings = rings;
  o.layers = layers;
  o.max_steps = 200;
  // The Config is freed once the spec is built, as trace frees it once its analysis
  // has started (apps/trace/run.cpp): the peak memory is that of trace's run.
  const input::Spec spec = [&] {
    input::Config config = input::Config::parse(input::dome_config(o), "dome-" + std::to_string(rings) + ".cfg");
    config.apply_override("stop.displacement=1 uz " + std::to_string(0.8 * input::crown_height(o)));
    config.apply_override(std::string("linalg.solver=") + linalg::to_string(solver));
    if (max_steps > 0) config.apply_override("stop.max_steps=" + std::to_string(max_steps));
    for (const std::string& kv : sets) config.apply_override(kv);
    return input::build(config);
  }();
  analysis::Analysis a(*spec.model, spec.analysis);
  PointLog log;
  const analysis::TraceResult r = a.run(log);
  nlohmann::json j;
  j["rings"] = rings;
  j["layers"] = layers;
  j["overrides"] = sets;
  j["solver"] = linalg::to_string(solver);
  j["host"] = benchmarks::host();
  j["unknowns"] = r.unknowns;
  j["bars"] = spec.model->element_count();
  j["termination"] = continuation::to_string(r.termination);
  j["points"] = r.points;
  j["newton_iterations"] = r.stats.newton_iterations;
  j["factorizations"] = r.stats.factorizations;
  j["factorizations_per_point"] = r.points ? double(r.stats.factorizations) / r.points : 0.0;
  j["locate_factorizations"] = r.stats.locate_factorizations;
  // The times are the paths' (RunStats: the location's are kept out of them), so the
  // time per factorization is over the paths' factorizations only.
  const long path_factorizations = r.stats.factorizations - r.stats.locate_factorizations;
  j["path_factorizations"] = path_factorizations;
  j["time_s"] = {{"total", r.stats.wall_time_s},
                 {"factorize", r.stats.factorize_s},
                 {"per_factorization", path_factorizations > 0 ? r.stats.factorize_s / path_factorizations : 0.0},
                 {"analyze", r.stats.analyze_s},
                 {"assembly", r.stats.assembly_s},
                 {"solve", r.stats.solve_s}};
  if (const analysis::CriticalRecord* lp = r.find("LP1")) {
    j["LP1"] = {{"lambda", lp->point.lambda},
                {"load", lp->point.lambda * input::star_limit_load(o)},  // λ is in units of P_star
                {"P_star", input::star_limit_load(o)},
                {"converged", lp->point.converged},
                {"residual", lp->point.residual},
                {"newton_iterations", lp->point.newton_iterations}};
    if (solver == linalg::Solver::Mumps) j["mumps"] = mumps_figures(*spec.model, lp->point.q, lp->point.lambda);
  } else {
    j["LP1"] = nullptr;
  }
  nlohmann::json crossings = nlohmann::json::array();
  for (const analysis::CrossingRecord& c : r.crossings)
    crossings.push_back({{"point_after", c.crossing.point_after},
                         {"negative_pivots_before", c.crossing.negative_pivots_before},
                         {"negative_pivots_after", c.crossing.negative_pivots_after}});
  j["crossings"] = crossings;
  j["negative_pivots"] = log.negative_pivots;  // at every accepted point, in order
  j["lambda"] = log.lambda;
  j["peak_rss_mib"] = peak_rss_mib();
  return j;
}

// run() in a child process; its JSON back through a pipe.
nlohmann::json run_in_child(int rings, int layers, int max_steps, linalg::Solver solver,
                            const std::vector<std::string>& sets) {
  int fd[2];
  if (pipe(fd) != 0) return {{"error", "pipe failed"}};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    std::string text;
    try {
      text = run(rings, layers, max_steps, solver, sets).dump();
    } catch (const std::exception& e) {
      text = nlohmann::json{{"error", e.what()}}.dump();
    }
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = write(fd[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (text.empty()) return {{"error", "the child process failed"}, {"status", status}};
  return nlohmann::json::parse(text);
}

}  // namespace

// --mpi: one MUMPS run on rank 0, the other ranks serving its factorizations.
int run_distributed(int& argc, char**& argv, const std::vector<int>& rings, int layers, int max_steps,
                    const std::vector<std::string>& sets) {
  linalg::MpiSession mpi(argc, argv);
  if (mpi.rank() != 0) {
    mpi.serve_workers();
    return 0;
  }
  nlohmann::json runs = nlohmann::json::array();
  for (int n : rings) {
    nlohmann::json j = run(n, layers, max_steps, linalg::Solver::Mumps, sets);
    j["processes"] = mpi.size();
    runs.push_back(j);
  }
  const std::vector<double> peaks = mpi.finish();  // after every run: the peaks cover all of them
  for (nlohmann::json& r : runs) {
    r.erase("lambda");
    r["peak_rss_mib_per_rank"] = peaks;
  }
  std::cout << nlohmann::json{{"runs", runs}}.dump(2) << std::endl;
  return 0;
}

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again
  senda_app::unblock_stop_signals();    // no handler here: Ctrl-C ends a benchmark
  std::vector<int> rings;
  std::vector<linalg::Solver> solvers;
  std::vector<std::string> sets;  // --set KEY=VALUE, applied to the .cfg
  bool distributed = false;
  int layers = 1, max_steps = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rings" && i + 1 < argc) {
      rings.push_back(std::atoi(argv[++i]));
    } else if (a == "--layers" && i + 1 < argc) {
      layers = std::atoi(argv[++i]);
    } else if (a == "--max-steps" && i + 1 < argc) {
      max_steps = std::atoi(argv[++i]);
    } else if (a == "--solver" && i + 1 < argc && linalg::solver_from_string(argv[i + 1])) {
      solvers.push_back(*linalg::solver_from_string(argv[++i]));
    } else if (a == "--set" && i + 1 < argc && std::string(argv[i + 1]).find('=') != std::string::npos) {
      sets.emplace_back(argv[++i]);
    } else if (a == "--mpi") {
      distributed = true;
    } else {
      std::cerr << "usage: bench_dome [--rings N]... [--layers 1|2] [--max-steps S] [--solver auto|cholmod|mumps]...\n"
                   "                  [--set KEY=VALUE]...   (a .cfg override, as trace KEY=VALUE)\n"
                   "       mpirun -np P bench_dome --mpi [--rings N]... [--layers 1|2] [--max-steps S] [--set KEY=VALUE]...\n";
      return 2;
    }
  }
  if (distributed != linalg::mpi_build()) {
    std::cerr << (distributed ? "bench_dome: --mpi needs a build with -DSENDA_MPI=ON\n"
                              : "bench_dome: this build has the MPI MUMPS: run it as mpirun -np P bench_dome --mpi\n");
    return 2;
  }
  if (distributed)
    return run_distributed(argc, argv, rings.empty() ? std::vector<int>{34} : rings, layers, max_steps, sets);
  if (rings.empty()) rings = {34};
  if (solvers.empty()) {
    if (linalg::mumps_available()) solvers.push_back(linalg::Solver::Mumps);
    solvers.push_back(linalg::Solver::Cholmod);
  }
  nlohmann::json runs = nlohmann::json::array();
  for (int n : rings)
    for (linalg::Solver s : solvers) {
      runs.push_back(run_in_child(n, layers, max_steps, s, sets));
      std::cerr << "rings " << n << " " << linalg::to_string(s) << ": " << runs.back().value("time_s", nlohmann::json{})
                << "\n";
    }
  // Backends against each other, per size: the same inertia at every point, and the
  // largest relative difference of λ along the path and at LP1.
  nlohmann::json comparisons = nlohmann::json::array();
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t k = i + 1; k < runs.size(); ++k) {
      const nlohmann::json &a = runs[i], &b = runs[k];
      if (!a.contains("negative_pivots") || !b.contains("negative_pivots") || a["rings"] != b["rings"]) continue;
      double path = 0.0;
      const auto& la = a["lambda"];
      const auto& lb = b["lambda"];
      for (std::size_t p = 0; p < std::min(la.size(), lb.size()); ++p)
        path = std::max(path, std::abs(la[p].get<double>() - lb[p].get<double>()) /
                                  std::max(std::abs(la[p].get<double>()), 1e-300));
      nlohmann::json c = {{"rings", a["rings"]},
                          {"solvers", {a["solver"], b["solver"]}},
                          {"same_inertia_at_every_point", a["negative_pivots"] == b["negative_pivots"]},
                          {"max_relative_lambda_difference_on_path", path}};
      if (a["LP1"].is_object() && b["LP1"].is_object())
        c["LP1_relative_difference"] = std::abs(a["LP1"]["lambda"].get<double>() - b["LP1"]["lambda"].get<double>()) /
                                       std::abs(a["LP1"]["lambda"].get<double>());
      comparisons.push_back(c);
    }
  for (nlohmann::json& r : runs) r.erase("lambda");
  std::cout << nlohmann::json{{"runs", runs}, {"comparisons", comparisons}}.dump(2) << std::endl;
  return 0;
}
