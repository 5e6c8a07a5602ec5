#pragma once
// A whole simulation: steps of an Integrator to t_end, events (a displacement passing
// a value), statistics, one observer for what happens (the simulate command's files and
// console). Nothing prints; the end is a status.
#include <string>
#include <vector>

#include "senda/dynamics/integrator.hpp"

namespace senda::dynamics {

struct Event {
  int equation = -1;  // the unknown watched
  double value = 0.0;
  std::string name;   // "u_2_uy = -1"
};

struct EventRecord {
  std::string name;
  double t = 0.0;     // linear interpolation in the step where it passed
  int direction = 0;  // +1: the displacement rose through the value, −1: fell
};

enum class SimulationEnd { Completed, StepFailed, Interrupted };
const char* to_string(SimulationEnd e);  // "completed", "step-failed", "interrupted"

struct SimulationResult {
  SimulationEnd end = SimulationEnd::Completed;
  StepStatus failed_status = StepStatus::Converged;  // with StepFailed
  std::string message;
  long steps = 0;                     // steps taken
  double max_relative_error = 0.0;    // max over the run of |E_err|, over the energy supplied in the whole run (Energies::supplied at its end)
  int max_iterations = 0;
  double mean_iterations = 0.0;
  std::vector<EventRecord> events;
};

class SimulationObserver {
 public:
  virtual ~SimulationObserver() = default;
  virtual void on_start(const Integrator&) {}
  // After every converged step (k = 1, 2, …).
  virtual void on_step(long /*k*/, const Integrator&, const StepReport&) {}
  virtual void on_event(const EventRecord&) {}
  virtual void on_end(const Integrator&, const SimulationResult&) {}
  virtual bool stop_requested() { return false; }
};

// Runs `steps` steps of an integrator already started.
SimulationResult simulate(Integrator& integrator, long steps, const std::vector<Event>& events,
                          SimulationObserver& observer);

}  // namespace senda::dynamics
