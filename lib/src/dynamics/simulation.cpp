#include "senda/dynamics/simulation.hpp"

#include <cmath>

#include "senda/core/number.hpp"

namespace senda::dynamics {

const char* to_string(SimulationEnd e) {
  switch (e) {
    case SimulationEnd::Completed: return "completed";
    case SimulationEnd::StepFailed: return "step-failed";
    case SimulationEnd::Interrupted: return "interrupted";
  }
  return "?";
}

SimulationResult simulate(Integrator& in, long steps, const std::vector<Event>& events, SimulationObserver& observer) {
  SimulationResult r;
  in.set_stop_requested([&observer] { return observer.stop_requested(); });
  observer.on_start(in);
  long iterations = 0;
  // The largest |error| over the run against the energy supplied over the whole run: the
  // running ratio (history.csv's relative_error) divides by what was supplied so far,
  // tiny in the first steps of a run from rest under a ramp (5.5e-4 at its first
  // step, 1e-8 from the tenth on, for RK4 at dt = 0.01).
  double max_error = std::abs(in.energies().error);
  // Each event's side of its value, the last time the displacement was off it (0: not
  // yet). A passage is a change of side: a start exactly at the value (the von Mises
  // apex at uy = 0, event `2 uy 0`) is no passage, and neither is a touch that returns
  // to the side it came from (each was reported: "at t = 0 (falling)").
  const auto side = [](double x) { return x > 0.0 ? 1 : x < 0.0 ? -1 : 0; };
  std::vector<int> last_side;
  for (const Event& e : events) last_side.push_back(side(in.state().q[e.equation] - e.value));
  for (long k = 1; k <= steps; ++k) {
    const State before = in.state();
    const StepReport rep = in.step();
    if (rep.status != StepStatus::Converged) {
      r.end = rep.status == StepStatus::Interrupted ? SimulationEnd::Interrupted : SimulationEnd::StepFailed;
      r.failed_status = rep.status;
      r.message = in.message();
      break;
    }
    ++r.steps;
    iterations += rep.iterations;
    r.max_iterations = std::max(r.max_iterations, rep.iterations);
    max_error = std::max(max_error, std::abs(in.energies().error));
    const State& now = in.state();
    for (std::size_t j = 0; j < events.size(); ++j) {
      const Event& e = events[j];
      const double a = before.q[e.equation] - e.value, b = now.q[e.equation] - e.value;
      const int sb = side(b);
      if (sb == 0) continue;
      if (last_side[j] != 0 && sb != last_side[j]) {
        // In this step, interpolated; or when it left the value (a = 0, reached before).
        const double t = a == 0.0 ? before.t : before.t + (now.t - before.t) * a / (a - b);
        const EventRecord rec{e.name, t, sb};
        r.events.push_back(rec);
        observer.on_event(rec);
      }
      last_side[j] = sb;
    }
    observer.on_step(k, in, rep);
  }
  r.mean_iterations = r.steps > 0 ? double(iterations) / double(r.steps) : 0.0;
  {
    const Energies e = in.energies();
    const double ref = e.supplied > 0.0 ? e.supplied : e.kinetic + e.strain;
    r.max_relative_error = ref > 0.0 ? max_error / ref : 0.0;
  }
  // %g: a run of 1e-10 s read "reached t = 0.000000" in %f.
  if (r.end == SimulationEnd::Completed) r.message = "reached t = " + core::format_g(in.state().t, 6);
  observer.on_end(in, r);
  return r;
}

}  // namespace senda::dynamics
