#pragma once
// What the trace command prints: the progress of a run (an analysis::Observer)
// and the closing report. stdout only; nothing with --quiet but the report.
#include <chrono>
#include <cstddef>
#include <string>

#include "senda/analysis/observer.hpp"
#include "senda/analysis/result.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/plot.hpp"

namespace trace_app {

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

// Progress output. Not a terminal: every text as it comes (one line per point).
// A terminal: the per-point lines are replaced by one line redrawn in place
// (at most every 0.1 s), the other messages go above it.
class Console final : public senda::analysis::Observer {
 public:
  Console(const senda::input::Spec& spec, bool tty, bool quiet);
  ~Console() override { clear(); }

  void on_point(int branch, const senda::continuation::PathPoint& p) override;
  void on_crossing(int branch, const senda::continuation::Crossing& c) override;
  void on_critical(const senda::analysis::CriticalEvent& e) override;
  void on_neutral(int branch, const senda::critical::NeutralStretch& n) override;
  void on_branch_start(const senda::critical::Branch& b) override;
  void on_curve_start(const senda::analysis::CurveRecord& c) override;
  bool stop_requested() override;

  // A message that stays (crossings, critical points, branches).
  void say(const std::string& text);
  // Removes the progress line (before the closing summary).
  void clear();

 private:
  void point(const senda::continuation::PathPoint& p, const std::string& line);
  void erase();
  void draw();
  std::string values(const senda::Vector& q) const;

  const senda::input::Spec& spec_;
  bool tty_, quiet_;
  bool shown_ = false;
  Progress progress_;
  std::chrono::steady_clock::time_point t0_, last_;
};

// The closing report of a trace: points, termination, crossings, the table of
// critical points, sensitivities, curves, branches, where the results are.
void print_report(const senda::input::Spec& spec, const senda::analysis::TraceResult& r,
                  const std::filesystem::path& out_dir);

// Runs gnuplot ($SENDA_GNUPLOT, default gnuplot) on written plot files: "plot:
// ..." on stdout when rendered, else "trace: <what>: ..." on stderr. Never changes
// the exit code.
void render(const senda::output::PlotFiles& files, const std::string& what);

}  // namespace trace_app
