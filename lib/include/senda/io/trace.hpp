#pragma once
// The trace driver: a Setup → a followed path written to a results directory.
// Used by apps/trace; never prints, never exits. Progress goes to TraceEvents.
//
//   TraceRun run(setup);
//   run.start();                         // throws ConfigError for a mechanism
//   check_output_dir(dir, overwrite);    // validation before anything is written
//   TraceSummary s = run.run(dir, overwrite, events);
//
// Every crossing (change of det sign or inertia between two points) goes through
// TraceRun::handle_crossing (trace.cpp), the one place where critical points are
// to be located: follower() is then at the point after the crossing, its
// factorization() is K there, previous() the point before.
#include <filesystem>
#include <functional>

#include "senda/continuation/path_follower.hpp"
#include "senda/io/builder.hpp"
#include "senda/io/results.hpp"

namespace senda::io {

class TraceRun;

struct TraceEvents {
  // After the start point is written (run.follower().current() is it).
  std::function<void(const TraceRun&)> on_start;
  // After each new point is written.
  std::function<void(const TraceRun&, const continuation::PathPoint&)> on_point;
  // After a crossing between previous() and current() was recorded.
  std::function<void(const TraceRun&, const continuation::Crossing&)> on_crossing;
  // Polled before each step; true ends the run as interrupted after the current step.
  std::function<bool()> stop_requested;
};

class TraceRun {
 public:
  // The setup must outlive the run.
  explicit TraceRun(const Setup& setup);

  // Equilibrium at λ = 0 and the first tangent. Throws ConfigError when the
  // tangent stiffness is singular at the undeformed state (a mechanism or an
  // unsupported structure), naming the free degree of freedom and its node's
  // line. Returns false for a numerical failure (the run then ends as diverged).
  bool start();

  // Follows the path and writes DIR/path.csv and DIR/summary.json. Calls start()
  // first if it was not called. Throws ConfigError (directory refused, before
  // anything is written) or OutputError (a write failed).
  TraceSummary run(const std::filesystem::path& out_dir, bool overwrite, TraceEvents& events);

  continuation::PathFollower& follower() { return follower_; }
  const continuation::PathFollower& follower() const { return follower_; }
  const Setup& setup() const { return setup_; }
  // The tracked displacements of a point, in the order of setup().track.
  std::vector<double> tracked(const continuation::PathPoint& p) const;

 private:
  void handle_crossing(const continuation::Crossing& c, TraceSummary& summary, TraceEvents& events);
  void check_mechanism() const;

  const Setup& setup_;
  continuation::PathFollower follower_;
  bool started_ = false, start_ok_ = false;
};

// Exit status of the trace command for a finished run: 0 completed or max-steps,
// 1 step-too-small or diverged, 130 interrupted (2, bad input, is the caller's).
int exit_code(continuation::Termination t);

}  // namespace senda::io
