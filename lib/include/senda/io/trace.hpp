#pragma once
// The trace driver: a Setup → a followed path written to a results directory.
// Used by apps/trace; never prints, never exits. Progress goes to TraceEvents.
//
//   TraceRun run(setup);
//   run.start();                         // throws ConfigError for a mechanism
//   check_output_dir(dir, overwrite);    // validation before anything is written
//   TraceSummary s = run.run(dir, overwrite, events);
//
// The path is followed by critical::BranchExplorer: crossings are located as
// critical points (LP1, BP1, ...), secondary branches are switched to at simple
// bifurcation points ([branches] keys), every branch's rows go to path.csv with
// its branch id, each mode to DIR/modes/<id>.csv. With OutputOptions::vtk the
// structure at every point and every mode also go to DIR/vtk/ (vtk.hpp), with
// OutputOptions::drawings SVG drawings to DIR/drawings/ (svg.hpp), each file
// as its point is produced.
#include <filesystem>
#include <functional>
#include <string>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/io/builder.hpp"
#include "senda/io/results.hpp"
#include "senda/io/state.hpp"

namespace senda::io {

class TraceRun;

// Optional result files (the [output] keys vtk and drawings, --vtk, --plot).
struct OutputOptions {
  bool vtk = false;       // DIR/vtk/: .vtu per point and per mode, .pvd indexes
  bool drawings = false;  // DIR/drawings/: structure.svg, <ID>_shape.svg, <ID>_mode.svg
};

// What the single updating progress line of a terminal shows.
struct Progress {
  int points = 0;  // written so far, the start point included
  int branch = 0;
  double lambda = 0.0;
  double step_length = 0.0;
  double elapsed_s = 0.0;
  int critical_points = 0;  // located so far
};
// The text of the progress line (no control characters, no newline), e.g.
// "points 42  lambda=+3.442650e-02  ds=1.000e-02  critical 1  elapsed 0:03.2"
// (with "branch 2  " in front on a secondary branch; elapsed m:ss.s, or h:mm:ss
// from an hour on). At most max_width characters (0: no limit).
std::string progress_line(const Progress& p, std::size_t max_width = 0);

struct TraceEvents {
  // After the start point is written (run.follower().current() is it).
  std::function<void(const TraceRun&)> on_start;
  // After each new point is written.
  std::function<void(const TraceRun&, const continuation::PathPoint&)> on_point;
  // After a crossing between previous() and current() was recorded.
  std::function<void(const TraceRun&, const continuation::Crossing&)> on_crossing;
  // Polled before each step; true ends the run as interrupted after the current step.
  std::function<bool()> stop_requested;
  // A critical point was located (is_new) or found again on another branch.
  std::function<void(const TraceRun&, const critical::CriticalPoint&, bool is_new)> on_critical;
  // A secondary branch starts / a branch (the primary one included) ends.
  std::function<void(const TraceRun&, const critical::Branch&)> on_branch_start;
  std::function<void(const TraceRun&, const critical::Branch&)> on_branch_end;
  // A curve of critical points ([design] follow) is about to start / has ended.
  std::function<void(const TraceRun&, const CurveResult&)> on_curve_start;
  std::function<void(const TraceRun&, const CurveResult&)> on_curve;
};

class TraceRun {
 public:
  // The setup must outlive the run.
  explicit TraceRun(const Setup& setup);

  // With branches.from: reads the saved state (ConfigError if it does not fit
  // the model) and traces only the secondary branches from it.
  // Otherwise: equilibrium at λ = 0 and the first tangent. Throws ConfigError when the
  // tangent stiffness is singular at the undeformed state (a mechanism or an
  // unsupported structure), naming the free degree of freedom and its node's
  // line. Returns false for a numerical failure (the run then ends as diverged).
  bool start();

  // Follows the path and writes DIR/path.csv and DIR/summary.json. Calls start()
  // first if it was not called. Throws ConfigError (directory refused, before
  // anything is written) or OutputError (a write failed).
  TraceSummary run(const std::filesystem::path& out_dir, bool overwrite, TraceEvents& events,
                   const OutputOptions& output = {});

  continuation::PathFollower& follower() { return follower_; }
  const continuation::PathFollower& follower() const { return follower_; }
  const Setup& setup() const { return setup_; }
  // The tracked displacements of a state q, in the order of setup().track.
  std::vector<double> tracked(const continuation::PathPoint& p) const;
  std::vector<double> tracked(const Vector& q) const;
  // The branch being traced (0 = primary) while run() calls the events.
  int current_branch() const { return branch_; }
  // Options of the branch explorer built from the setup.
  critical::ExplorerOptions explorer_options() const;

 private:
  class Adapter;
  void check_mechanism() const;
  // Sensitivities and curves of critical points ([design]), after the path.
  void run_design(const std::filesystem::path& out_dir, TraceSummary& s, TraceEvents& events) const;
  std::vector<std::string> follow_ids() const;
  void write_mode(const std::filesystem::path& dir, const critical::CriticalPoint& cp) const;

  const Setup& setup_;
  continuation::PathFollower follower_;
  bool started_ = false, start_ok_ = false;
  std::optional<SavedState> saved_;  // branches.from
  int branch_ = 0;
};

// Exit status of the trace command for a finished run: 0 completed or max-steps,
// 1 step-too-small or diverged, 130 interrupted (2, bad input, is the caller's).
int exit_code(continuation::Termination t);

}  // namespace senda::io
