#pragma once
// The results of a simulation (the simulate command; docs/config.md "Output files"):
//
//   DIR/history.csv       one row per written step, handed to the system whole as it is
//                         computed (a killed run keeps every row): step,t,lambda,
//                         <tracked u_ID_COMP>,<their velocities v_ID_COMP>,kinetic,strain,
//                         load_potential,dissipated,total,energy_error,relative_error,
//                         iterations,residual,<Integrator::columns(): index1-rk4's phi_norm,
//                         phi_dot_norm,projections, a StepHook's> (%.17g)
//   DIR/summary.json      integrator, Δt, how the run ended, energy drift, iterations, events
//   DIR/states/final.json the last state (senda-state-1 with kind "dynamic", t and v):
//                         dynamics.initial_state of a later simulation
//   DIR/vtk/simulation.pvd, DIR/vtk/t_<NNNNNN>.vtu   with --vtk, timestep = t
//   DIR/history.gp        with --plot: u(t), E(t) and the phase portrait (u, v) of the
//                         first tracked dof: DIR/u_t, energy_t, phase .png/.svg
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "senda/dynamics/simulation.hpp"
#include "senda/model/model.hpp"
#include "senda/output/files.hpp"
#include "senda/output/plot.hpp"
#include "senda/output/vtk.hpp"

namespace senda::output {

struct SimulationInfo {
  std::string problem, title, config;
  std::vector<std::string> track_columns;  // "u_2_uy", ...
  std::vector<int> track;                  // their unknowns
  std::vector<std::string> hook_columns;   // Integrator::columns(): the constraint solver's and a StepHook's
  std::string load;                        // "step lambda = 0.02", for the summary
  std::string initial_state;               // the state file, or ""
  long steps = 0;                          // steps asked for (t_end/Δt)
  long output_every = 1;
  bool vtk = false;
};

// An observer of dynamics::simulate that writes the results directory.
class SimulationRecorder final : public dynamics::SimulationObserver {
 public:
  // Creates DIR/history.csv (and DIR/vtk). The model must outlive the recorder. Throws
  // OutputError.
  SimulationRecorder(const ResultsDir& dir, const model::Model& model, SimulationInfo info);
  void on_start(const dynamics::Integrator& in) override;
  void on_step(long k, const dynamics::Integrator& in, const dynamics::StepReport& r) override;
  void on_end(const dynamics::Integrator& in, const dynamics::SimulationResult& r) override;

 private:
  void row(long k, const dynamics::Integrator& in, int iterations, double residual);
  void frame(long k, const dynamics::Integrator& in, bool force);
  std::filesystem::path dir_;
  const model::Model& model_;
  SimulationInfo info_;
  RowFile history_;
  long last_row_ = -1;
  std::vector<PvdEntry> frames_;
  std::size_t frames_written_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// summary.json of a simulation.
std::string simulation_summary_json(const SimulationInfo& info, const dynamics::Integrator& in,
                                    const dynamics::SimulationResult& r, double wall_time_s);
// DIR/states/final.json: the state of the integrator. Throws OutputError.
void write_dynamic_state(const std::filesystem::path& file, const std::string& problem, const std::string& fingerprint,
                         const dynamics::Integrator& in);
// DIR/history.gp (u(t), E(t), phase portrait); returns what render_plot needs. Throws OutputError.
PlotFiles write_history_plot(const std::filesystem::path& dir, const SimulationInfo& info,
                             const PlotOptions& options = {});

}  // namespace senda::output
