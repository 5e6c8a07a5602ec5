// One simulation: the config → a Spec (its [dynamics] section) → mass, damping and an
// Integrator → dynamics::simulate observed by the SimulationRecorder (the results
// directory) and a console line → the closing report and, with --plot, the figures.
#include <fmt/core.h>
#include <unistd.h>

#include <cmath>

#include "common.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/dynamics/simulation.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/history.hpp"
#include "simulate.hpp"

namespace simulate_app {

namespace {

// Progress: one line every ~1 % of the run (or every step of a short one), and Ctrl-C.
class Console final : public senda::dynamics::SimulationObserver {
 public:
  Console(long steps, bool quiet) : steps_(steps), every_(std::max(1L, steps / 100)), quiet_(quiet) {}
  void on_step(long k, const senda::dynamics::Integrator& in, const senda::dynamics::StepReport& r) override {
    if (quiet_ || (k % every_ != 0 && k != steps_)) return;
    const senda::dynamics::Energies e = in.energies();
    fmt::print("step {:>8}/{}  t = {:<12.6g} iterations {:>2}  E = {:<14.8g} energy error {:.2e}\n", k, steps_,
               in.state().t, r.iterations, e.total + e.dissipated, e.relative);
  }
  bool stop_requested() override { return senda_app::stop_requested(); }

 private:
  long steps_, every_;
  bool quiet_;
};

class Observers final : public senda::dynamics::SimulationObserver {
 public:
  Observers(SimulationObserver& a, SimulationObserver& b) : a_(a), b_(b) {}
  void on_start(const senda::dynamics::Integrator& in) override {
    a_.on_start(in);
    b_.on_start(in);
  }
  void on_step(long k, const senda::dynamics::Integrator& in, const senda::dynamics::StepReport& r) override {
    a_.on_step(k, in, r);
    b_.on_step(k, in, r);
  }
  void on_event(const senda::dynamics::EventRecord& e) override {
    a_.on_event(e);
    b_.on_event(e);
  }
  void on_end(const senda::dynamics::Integrator& in, const senda::dynamics::SimulationResult& r) override {
    a_.on_end(in, r);
    b_.on_end(in, r);
  }
  bool stop_requested() override { return a_.stop_requested() || b_.stop_requested(); }

 private:
  SimulationObserver &a_, &b_;
};

int exit_code(senda::dynamics::SimulationEnd e) {
  switch (e) {
    case senda::dynamics::SimulationEnd::Completed: return senda_app::kExitOk;
    case senda::dynamics::SimulationEnd::Interrupted: return senda_app::kExitInterrupted;
    case senda::dynamics::SimulationEnd::StepFailed: return senda_app::kExitFailed;
  }
  return senda_app::kExitFailed;
}

}  // namespace

int run_simulation(const senda::input::Config& config, const Command& cmd) {
  using namespace senda;
  const input::Spec spec = input::build(config);
  const input::DynamicsSpec& d = spec.dynamics;
  if (!d.given)
    config.fail(nullptr, "dynamics.mass",
                "no [dynamics] section: simulate needs at least the masses (dynamics.mass or dynamics.line_density)");
  const model::Model& m = *spec.model;
  const SparseMatrix M = dynamics::mass_matrix(m, d.mass);
  SparseMatrix C;
  if (d.damping_mass > 0.0 || d.damping_stiffness > 0.0)
    C = dynamics::rayleigh_damping(m, M, d.damping_mass, d.damping_stiffness);
  dynamics::Integrator integrator(m, M, C, d.load, d.integrator, d.constraints);
  if (!integrator.start(0.0, d.q0, d.v0))
    config.fail(d.constraints ? config.find("dynamics.rigid_link") : nullptr,
                d.constraints ? "dynamics.rigid_link" : "dynamics.mass", integrator.message());
  output::ResultsDir::check(cmd.out_dir, cmd.overwrite);
  if (senda_app::stop_requested()) return senda_app::kExitInterrupted;
  // A start that violates the rigid links is integrated as given (a study of the
  // stabilisation may want it so), but never silently.
  if (const dynamics::Index1Options& x = d.integrator.index1;
      integrator.constraint_count() > 0 &&
      (integrator.initial_phi() > x.position_tolerance || integrator.initial_phi_dot() > x.velocity_tolerance))
    fmt::print(stderr,
               "simulate: warning: the initial state violates the rigid links: |Phi| = {:.3e}, |G v0| = {:.3e} "
               "(dynamics.phi_tolerance {:g}, phi_dot_tolerance {:g}); it is integrated as given, and the "
               "violation drifts unless stabilised (dynamics.baumgarte, dynamics.projection); give initial "
               "velocities along the links' motions\n",
               integrator.initial_phi(), integrator.initial_phi_dot(), x.position_tolerance, x.velocity_tolerance);

  const output::ResultsDir dir = output::ResultsDir::prepare(cmd.out_dir, cmd.overwrite);
  output::SimulationInfo info;
  info.problem = spec.problem_name;
  info.title = spec.title;
  info.config = spec.config_file.string();
  info.track_columns = input::track_columns(spec);
  info.track = spec.analysis.track;
  info.hook_columns = integrator.columns();
  if (d.load.kind == dynamics::LoadKind::Table) {
    info.load = "table";
    for (const auto& [t, lambda] : d.load.points) info.load += fmt::format(" ({:g}, {:.17g})", t, lambda);
  } else {
    info.load = fmt::format("{} lambda = {:.17g}", dynamics::to_string(d.load.kind), d.load.lambda);
  }
  if (!d.initial_state.empty())
    info.initial_state = fmt::format("{} ({}, lambda {:.17g})", d.initial_state, d.initial_id, d.initial_lambda);
  info.steps = d.steps;
  info.output_every = d.output_every;
  info.vtk = cmd.vtk || spec.output.vtk;
  output::SimulationRecorder recorder(dir, m, info);
  Console console(d.steps, cmd.quiet);
  Observers observers(recorder, console);
  std::vector<dynamics::Event> events;
  for (const input::DynamicsEvent& e : d.events) events.push_back({e.equation, e.value, e.name});
  const dynamics::SimulationResult r = dynamics::simulate(integrator, d.steps, events, observers);
  fmt::print("{}: {} after {} steps, t = {:g}: {}\n", spec.problem_name, dynamics::to_string(r.end), r.steps,
             integrator.state().t, r.message);
  fmt::print("  {} dt = {:g}, Newton iterations mean {:.2f} max {}, largest relative energy error {:.3e}\n",
             dynamics::to_string(d.integrator.scheme), d.integrator.dt, r.mean_iterations, r.max_iterations,
             r.max_relative_error);
  if (const dynamics::Index1Statistics* c = integrator.constraint_statistics(); c && integrator.constraint_count() > 0)
    fmt::print("  {} rigid links: largest |Phi| {:.3e}, |Phi'| {:.3e} (after a step, before its correction), "
               "{} projections\n",
               integrator.constraint_count(), c->max_phi, c->max_phi_dot, c->corrections);
  for (const dynamics::EventRecord& e : r.events)
    fmt::print("  event {} at t = {:.10g} ({})\n", e.name, e.t, e.direction > 0 ? "rising" : "falling");
  fmt::print("  results in {}\n", cmd.out_dir.string());
  if (cmd.plot || spec.output.plot) {
    const char* env = std::getenv("SENDA_GNUPLOT");
    const output::RenderResult pr =
        output::render_plot(output::write_history_plot(cmd.out_dir, info), env && *env ? env : "gnuplot");
    if (pr.status == output::RenderStatus::Rendered)
      fmt::print("  plot: {}\n", pr.message);
    else
      fmt::print(stderr, "simulate: --plot: {}\n", pr.message);
  }
  return exit_code(r.end);
}

}  // namespace simulate_app
