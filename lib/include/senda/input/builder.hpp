#pragma once
// Model builder: a validated Config → a Spec: the finalized senda::model::Model,
// the analysis options and what to record (docs/config.md lists every key).
//
// Every inconsistency is reported as a ConfigError at the line that causes it:
// duplicate ids, references to missing nodes, zero-length bars, non-positive
// stiffness, unknown components, a node no element uses, a load on a dof no
// element uses, no load at all, conflicting options.
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/analysis/options.hpp"
#include "senda/dynamics/constraint.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/load.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/input/config.hpp"
#include "senda/model/model.hpp"

namespace senda::input {

// A displacement written to path.csv and shown in progress lines.
struct TrackedDof {
  int node_id = 0;     // user label
  int node = 0;        // model node index
  model::Component component = model::Component::Ux;
  int equation = -1;   // unknown index (always free)
  std::string column;  // "u_3_uy"
};

// model.max_elements: the most elements a model may have (trusses, springs and
// every element of the meshed beam members), checked before anything is meshed, so
// that a short file cannot ask for more memory than the machine has.
inline constexpr long kDefaultMaxElements = 2000000;

// dynamics.max_steps: the most time steps a simulation may take (t_end/dt above it is
// refused before anything runs).
inline constexpr long kDefaultDynamicsMaxSteps = 1000000;

// What the [output] keys plot, vtk and drawings ask the application to write
// (the output layer's options; input and output do not know each other).
struct OutputRequest {
  bool plot = false;      // output.plot
  bool vtk = false;       // output.vtk
  bool drawings = false;  // output.drawings
};

// A crossing to record (dynamics.event): the displacement of `equation` passing value.
struct DynamicsEvent {
  int equation = -1;
  double value = 0.0;
  std::string name;  // "u_2_uy = -1"
};

// The [dynamics] section (the simulate command; docs/config.md "[dynamics]"): mass,
// damping, load history, integrator, initial state, what to write.
struct DynamicsSpec {
  bool given = false;  // some dynamics.* key is in the file (or an override)
  dynamics::MassSpec mass;
  double damping_mass = 0.0, damping_stiffness = 0.0;  // C = a M + b K0
  dynamics::LoadHistory load;
  dynamics::IntegratorOptions integrator;
  double t_end = 1.0;
  long steps = 0;            // steps to t_end: ceil(t_end/dt − 1e-9)
  long output_every = 1;
  Vector q0, v0;             // initial state (q0 = 0 and v0 = 0 at rest)
  std::string initial_state;  // the state file, or ""
  std::string initial_id;     // its id ("LP1")
  double initial_lambda = 0.0;  // its lambda (before the factor)
  std::vector<DynamicsEvent> events;
  // dynamics.rigid_link (integrator index1-rk4 only): the links, on the model's unknowns
  // (their stabilisation, dynamics.baumgarte, projection, ..., is integrator.index1);
  // empty without links.
  std::optional<dynamics::ConstraintSet> constraints;
};

// Everything a .cfg says, each key read once: the model, the analysis options,
// what to record and how to name it. Keeps no Config (design studies that need
// the model at other parameter values get a ConfigFamily, family.hpp).
struct Spec {
  std::string problem_name;  // [output] name, or the file's stem
  std::string title, description;
  std::filesystem::path config_file;
  std::shared_ptr<const model::Model> model;
  analysis::AnalysisOptions analysis;  // path, critical points, branches, design, tracked unknowns, saved state
  std::vector<TrackedDof> track;       // the same unknowns as analysis.track, with their names
  std::vector<std::string> design_parameters;  // [design] parameter, in file order, without repeats
  OutputRequest output;
  DynamicsSpec dynamics;
  // Source line of every node, by model node index (for messages after the build).
  std::vector<Entry> node_entries;
  // Keys the input sets that this run does not use, one line each ("FILE:LINE: KEY
  // … has no effect …"), in the file's order: not errors (a file may keep them for
  // another run); the trace app prints them where they apply (a study words its own).
  std::vector<std::string> notes;
  // What the model itself may get wrong (members of one Simo–Reissner element), one
  // line each: said by every command that traces the model.
  std::vector<std::string> model_notes;
};

// The [design] keys that act on curves of critical points (design.follow) only.
inline constexpr std::array<const char*, 5> kCurveKeys = {"design.direction", "design.mu_min", "design.mu_max",
                                                          "design.step", "design.max_points"};

// The column names of the tracked displacements ("u_3_uy", ...), in order.
std::vector<std::string> track_columns(const Spec& spec);

// Builds everything from the config; with branches.from, reads the saved state
// (state.hpp). Throws ConfigError.
Spec build(const Config& config);

// Convenience: read_file, apply the overrides in order, build.
Spec load(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

// The structure must be held: throws ConfigError when K(0) is singular or nearly
// so (analysis::check_mechanism), naming the free degrees of freedom and the line
// of the first one's node.
void check_mechanism(const Spec& spec);

}  // namespace senda::input
