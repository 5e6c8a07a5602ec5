#pragma once
// One interface for everything an analysis reports while it runs: the console's
// progress lines, the files of a results directory (output::Recorder), a Python
// callback. Every method has an empty default; stop_requested() is polled
// before every step, every curve and every curve point.
//
// Order of the events of Analysis::run:
//   on_branch_start(primary)  on_point(0, start point)  { on_point  [on_crossing]  [on_critical ... | on_neutral] }
//   on_branch_end(primary)    { on_branch_start  on_point ...  on_branch_end }   (secondary branches)
//   on_paths_end(result)      { on_curve_start  on_curve_end }   (design studies)
//   on_end(result)
// With a saved state (AnalysisOptions::from) the primary path's events are missing.
#include <vector>

#include "senda/continuation/constraint.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/critical/critical_point.hpp"

namespace senda::analysis {

struct TraceResult;
struct CurveRecord;

// A critical point located (is_new) or met again on another branch. scaling and
// initial_step are the path's: what a saved state needs to restart there.
struct CriticalEvent {
  int branch = 0;
  const critical::CriticalPoint& point;
  bool is_new = true;
  const continuation::Scaling& scaling;
  double initial_step = 0.0;
};

class Observer {
 public:
  virtual ~Observer() = default;
  // A converged point of branch `branch` (0 = primary; the start point has index 0).
  virtual void on_point(int /*branch*/, const continuation::PathPoint& /*point*/) {}
  // The step that produced the last point crossed something (after its on_point).
  virtual void on_crossing(int /*branch*/, const continuation::Crossing& /*crossing*/) {}
  virtual void on_critical(const CriticalEvent& /*event*/) {}
  // The branch entered a neutral stretch (critical::NeutralStretch), at its first
  // crossing: its later crossings are not located, and this is said once.
  virtual void on_neutral(int /*branch*/, const critical::NeutralStretch& /*stretch*/) {}
  virtual void on_branch_start(const critical::Branch& /*branch*/) {}
  virtual void on_branch_end(const critical::Branch& /*branch*/) {}
  // The paths are traced; result holds everything but the design studies.
  virtual void on_paths_end(const TraceResult& /*result*/) {}
  virtual void on_curve_start(const CurveRecord& /*curve*/) {}
  virtual void on_curve_end(const CurveRecord& /*curve*/) {}
  // The analysis is over (the result is the one run() returns).
  virtual void on_end(const TraceResult& /*result*/) {}
  // True ends the run as interrupted at the next step, curve or curve point.
  virtual bool stop_requested() { return false; }
};

// Several observers as one, called in the order they were added (e.g. the files
// first, then the console). stop_requested() is true when any is.
class ObserverList final : public Observer {
 public:
  ObserverList() = default;
  explicit ObserverList(std::vector<Observer*> observers) : list_(std::move(observers)) {}
  void add(Observer& o) { list_.push_back(&o); }
  void on_point(int branch, const continuation::PathPoint& p) override {
    for (Observer* o : list_) o->on_point(branch, p);
  }
  void on_crossing(int branch, const continuation::Crossing& c) override {
    for (Observer* o : list_) o->on_crossing(branch, c);
  }
  void on_critical(const CriticalEvent& e) override {
    for (Observer* o : list_) o->on_critical(e);
  }
  void on_neutral(int branch, const critical::NeutralStretch& n) override {
    for (Observer* o : list_) o->on_neutral(branch, n);
  }
  void on_branch_start(const critical::Branch& b) override {
    for (Observer* o : list_) o->on_branch_start(b);
  }
  void on_branch_end(const critical::Branch& b) override {
    for (Observer* o : list_) o->on_branch_end(b);
  }
  void on_paths_end(const TraceResult& r) override {
    for (Observer* o : list_) o->on_paths_end(r);
  }
  void on_curve_start(const CurveRecord& c) override {
    for (Observer* o : list_) o->on_curve_start(c);
  }
  void on_curve_end(const CurveRecord& c) override {
    for (Observer* o : list_) o->on_curve_end(c);
  }
  void on_end(const TraceResult& r) override {
    for (Observer* o : list_) o->on_end(r);
  }
  bool stop_requested() override {
    bool stop = false;
    for (Observer* o : list_) stop = o->stop_requested() || stop;  // every one polled
    return stop;
  }

 private:
  std::vector<Observer*> list_;
};

}  // namespace senda::analysis
