#pragma once
// Runs a PathFollower to the end and reports where the time went, as JSON.
//
//   total      wall time of start() + every advance()
//   assembly   residual, tangent and ∂g/∂λ evaluations (PathFollower::stats())
//   analysis   symbolic analysis of the pattern (AMD ordering, elimination tree) and
//              its copy for the follower's second factorization (FactorStats)
//   factorize  numeric LDLᵀ factorizations (FactorStats)
//   solve      triangular solves (FactorStats)
//   other      total − assembly − analysis − factorize − solve (the stepper's own
//              vector work, and the follower's set-up apart from the analysis)
//   other_fraction   (assembly + other) / total: the time outside the sparse
//              direct solver (analysis, factorization, solves)
//   critical   each crossing located with SPL/SPB (lib/critical): its λ, iterations,
//              factorizations and time, kept out of the path's figures above
//   peak_rss   getrusage(RUSAGE_SELF).ru_maxrss: the peak of the whole process so
//              far, so run sizes in increasing order.
//   host       the CPU and OpenBLAS's kernels (host.hpp)
#include <sys/resource.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "host.hpp"

namespace senda::benchmarks {

// Called after every accepted point; returning true ends the run (reason given).
using StopRule = std::function<bool(const continuation::PathFollower&, std::string& reason)>;

inline double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

inline nlohmann::json run_path(const std::string& name, const Problem& problem, const continuation::Options& options,
                               const Vector& q0, double lambda0, const StopRule& stop = {}, bool locate = true) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const std::clock_t c0 = std::clock();
  continuation::PathFollower f(problem, options);
  const double setup = std::chrono::duration<double>(Clock::now() - t0).count();
  std::string reason;
  double lambda_max = lambda0;
  bool started = f.start(q0, lambda0);
  const double start = std::chrono::duration<double>(Clock::now() - t0).count() - setup;
  critical::CriticalPointFinder finder({});
  nlohmann::json located = nlohmann::json::array();
  double locate_s = 0.0, monitor_solve_s = 0.0;
  long monitor_solves = 0;
  long max_locate_factorizations = 0;
  if (started) {
    while (f.advance()) {
      lambda_max = std::max(lambda_max, f.current().lambda);
      if (locate) {
        const auto tl = Clock::now();
        const linalg::FactorStats before = f.factor_stats();
        const std::vector<critical::CriticalPointFinder::Found> found_all = finder.check(f, 0);
        const double dt = std::chrono::duration<double>(Clock::now() - tl).count();
        locate_s += dt;
        // The eigenvalue monitor solves with the path's own factorization: that time
        // is the location's (kept out of total), not the path's solves.
        const linalg::FactorStats after = f.factor_stats();
        monitor_solve_s += after.solve_seconds - before.solve_seconds;
        monitor_solves += after.solves - before.solves;
        for (const critical::CriticalPointFinder::Found& found : found_all) {
          const critical::CriticalPoint& cp = finder.points()[found.index];
          located.push_back({{"id", cp.id}, {"kind", critical::to_string(cp.kind)}, {"converged", cp.converged},
                             {"lambda", cp.lambda}, {"newton_iterations", cp.newton_iterations},
                             {"factorizations", cp.factorizations}, {"time_s", dt}});
          max_locate_factorizations = std::max(max_locate_factorizations, cp.factorizations);
        }
      }
      if (stop && stop(f, reason)) break;
    }
  }
  const double total = std::chrono::duration<double>(Clock::now() - t0).count() - locate_s;
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  if (reason.empty()) reason = std::string(continuation::to_string(f.termination())) + ": " + f.message();
  linalg::FactorStats fs = f.factor_stats();
  fs.solve_seconds -= monitor_solve_s;
  fs.solves -= monitor_solves;
  const continuation::Stats& st = f.stats();
  const double other = total - st.assembly_seconds - fs.analyze_seconds - fs.factorize_seconds - fs.solve_seconds;
  const int points = f.current().index;
  nlohmann::json j;
  j["problem"] = name;
  j["unknowns"] = problem.size();
  j["started"] = started;
  j["critical_points"] = located;
  j["max_factorizations_per_located_point"] = max_locate_factorizations;
  j["end"] = reason;
  j["points"] = points;
  j["failed_steps"] = st.failed_steps;
  j["newton_iterations"] = st.newton_iterations;
  j["factorizations"] = fs.factorizations;
  j["factorizations_per_point"] = points > 0 ? static_cast<double>(fs.factorizations) / points : 0.0;
  // Accepted points that kept their last Newton factorization (docs/theory.md eq.
  // 2.12), and those refactorized because the bound did not allow it.
  j["reused_factorizations"] = st.reused_factorizations;
  j["refused_reuses"] = st.refused_reuses;
  // Corrector updates made without a factorization (eq. 2.7b, the finishing chord).
  j["chord_iterations"] = st.chord_iterations;
  j["solves"] = fs.solves;
  j["residual_evaluations"] = st.residual_evaluations;
  j["tangent_assemblies"] = st.tangent_assemblies;
  j["lambda_max"] = lambda_max;
  j["lambda_last"] = f.current().lambda;
  j["time_s"] = {{"total", total},
                 {"assembly", st.assembly_seconds},
                 {"analysis", fs.analyze_seconds},
                 {"factorization", fs.factorize_seconds},
                 {"solves", fs.solve_seconds},
                 {"other", other},
                 {"setup", setup},
                 {"start", start},
                 {"cpu_total", cpu}};
  j["other_fraction"] = total > 0 ? (other + st.assembly_seconds) / total : 0.0;  // outside analysis, factorization, solves
  // The same with the symbolic analysis counted as outside, for comparison.
  j["other_fraction_with_analysis"] = total > 0 ? (other + st.assembly_seconds + fs.analyze_seconds) / total : 0.0;
  j["time_per_point_s"] = points > 0 ? total / points : 0.0;
  j["peak_rss_mib"] = peak_rss_mib();
  j["host"] = host();  // the CPU and OpenBLAS's kernels ("" for another BLAS)
  return j;
}

}  // namespace senda::benchmarks
