#pragma once
// The whole analysis of a problem, in memory (docs/api.md "The whole analysis"):
// the path from the unloaded state, its critical points located, the secondary
// branches of its bifurcation points, then the design studies (sensitivities of
// every located point, curves of critical points).
//
//   analysis::Analysis a(problem, options, {{"h", 0.5, family}});
//   analysis::TraceResult r = a.run(observer);   // or a.run()
//
// Nothing is written and nothing printed: an Observer sees the events as they
// happen (output::Recorder writes the results directory from them). Numerical
// outcomes are statuses in the result (termination, message, "not located",
// curve terminations), never exceptions.
#include <memory>
#include <string>
#include <vector>

#include "senda/analysis/observer.hpp"
#include "senda/analysis/options.hpp"
#include "senda/analysis/result.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/core/family.hpp"
#include "senda/core/problem.hpp"

namespace senda::analysis {

// A design parameter μ of the problem: its value in the analysed problem and
// the family that gives the problem at other values (sensitivities, curves).
struct DesignParameter {
  std::string name;
  double value = 0.0;
  std::shared_ptr<const core::ProblemFamily> family;
};

class Analysis {
 public:
  // The problem must outlive the analysis. Throws std::invalid_argument when
  // options.validate() gives a reason, an unknown the options name (track,
  // explorer.path.monitor_dof, control_dof) is not in [0, problem.size()), or a
  // design parameter has no family.
  Analysis(const core::Problem& problem, AnalysisOptions options, std::vector<DesignParameter> design = {});

  // Equilibrium at λ = 0 (at the λ of options.start, from its q) and the first
  // tangent (nothing to do with options.from). False for a numerical failure:
  // run() then ends as diverged with the follower's message. run() calls it when
  // it was not called.
  bool start();

  // Traces the paths and runs the design studies; the observer sees every event.
  TraceResult run(Observer& observer);
  TraceResult run();

  const AnalysisOptions& options() const { return options_; }
  const std::vector<DesignParameter>& design() const { return design_; }
  const continuation::PathFollower& follower() const { return follower_; }
  // The values of AnalysisOptions::track in q (0 for an index out of range).
  std::vector<double> tracked(const Vector& q) const;

 private:
  void run_design(TraceResult& r, Observer& observer) const;

  const core::Problem& problem_;
  AnalysisOptions options_;
  std::vector<DesignParameter> design_;
  continuation::PathFollower follower_;
  bool started_ = false, start_ok_ = false;
};

}  // namespace senda::analysis
