// The defaults of the key table (`trace --help`, docs/config.md) are the defaults
// of the structs the keys fill (analysis::AnalysisOptions, input::OutputRequest,
// the model's element defaults): the defaults live in the structs and the table
// repeats them for the help text, so they are checked here against each other.
// Every key with a default must be listed below, so that a new key cannot drift.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>

#include "senda/analysis/options.hpp"
#include "senda/continuation/constraint.hpp"
#include "senda/core/number.hpp"
#include "senda/cosim/master.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/cosim.hpp"
#include "senda/input/config.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/truss.hpp"

namespace {

using namespace senda;

std::string num(double v) { return core::format_number(v); }
std::string boolean(bool b) { return b ? "true" : "false"; }
const input::DynamicsSpec& dyn() {
  static const input::DynamicsSpec d;
  return d;
}

// The default of the struct field a key fills, as the table would write it.
using Getter = std::function<std::string(const analysis::AnalysisOptions&, const input::OutputRequest&)>;

const std::map<std::string, Getter>& fields() {
  static const std::map<std::string, Getter> m = {
      {"model.beam_formulation",
       [](auto&, auto&) { return std::string(model::to_string(model::BeamFormulation::SimoReissner)); }},
      {"model.max_elements", [](auto&, auto&) { return num(static_cast<double>(input::kDefaultMaxElements)); }},
      {"continuation.constraint", [](auto& o, auto&) { return std::string(continuation::to_string(o.explorer.path.constraint)); }},
      {"continuation.initial_step", [](auto& o, auto&) { return num(o.explorer.path.initial_load_increment); }},
      {"continuation.min_step_ratio", [](auto& o, auto&) { return num(o.explorer.path.min_step_ratio); }},
      {"continuation.max_step_ratio", [](auto& o, auto&) { return num(o.explorer.path.max_step_ratio); }},
      {"continuation.max_step_growth", [](auto& o, auto&) { return num(o.explorer.path.max_step_growth); }},
      {"continuation.max_turn", [](auto& o, auto&) { return num(o.explorer.path.max_turn_degrees); }},
      {"continuation.target_iterations", [](auto& o, auto&) { return num(o.explorer.path.target_iterations); }},
      {"continuation.max_iterations", [](auto& o, auto&) { return num(o.explorer.path.max_iterations); }},
      {"continuation.residual_tolerance", [](auto& o, auto&) { return num(o.explorer.path.residual_tolerance); }},
      {"continuation.increment_tolerance", [](auto& o, auto&) { return num(o.explorer.path.increment_tolerance); }},
      {"continuation.direction", [](auto& o, auto&) { return num(o.explorer.path.direction); }},
      {"continuation.auto_scale", [](auto& o, auto&) { return boolean(o.explorer.path.auto_scale); }},
      {"continuation.reuse_factorization", [](auto& o, auto&) { return boolean(o.explorer.path.reuse_factorization); }},
      {"continuation.final_chord", [](auto& o, auto&) { return boolean(o.explorer.path.final_chord); }},
      {"continuation.psi", [](auto& o, auto&) { return num(o.explorer.path.psi); }},
      {"stop.max_steps", [](auto& o, auto&) { return num(o.explorer.path.max_steps); }},
      {"stop.zero_load", [](auto& o, auto&) { return boolean(o.explorer.path.stop_at_zero_load); }},
      {"output.plot", [](auto&, auto& r) { return boolean(r.plot); }},
      {"output.vtk", [](auto&, auto& r) { return boolean(r.vtk); }},
      {"output.drawings", [](auto&, auto& r) { return boolean(r.drawings); }},
      {"critical.detect", [](auto& o, auto&) { return std::string(critical::to_string(o.explorer.finder.detect)); }},
      {"critical.locate", [](auto& o, auto&) { return boolean(o.explorer.finder.locate); }},
      {"critical.tolerance", [](auto& o, auto&) { return num(o.explorer.finder.locate_options.tolerance); }},
      {"critical.max_iterations", [](auto& o, auto&) { return num(o.explorer.finder.locate_options.max_iterations); }},
      {"critical.bifurcation_tolerance",
       [](auto& o, auto&) { return num(o.explorer.finder.locate_options.bifurcation_tolerance); }},
      {"critical.refine_fraction", [](auto& o, auto&) { return num(o.explorer.finder.refine_fraction); }},
      {"critical.monitor_eigenvalues", [](auto& o, auto&) { return boolean(o.explorer.finder.monitor_eigenvalues); }},
      {"branches.switch", [](auto& o, auto&) { return boolean(o.explorer.switch_branches); }},
      {"branches.max_depth", [](auto& o, auto&) { return num(o.explorer.max_depth); }},
      {"branches.direction",
       [](auto& o, auto&) { return std::string(o.explorer.direction == 0 ? "both" : o.explorer.direction > 0 ? "positive" : "negative"); }},
      {"branches.max_branches", [](auto& o, auto&) { return num(o.explorer.max_branches); }},
      {"branches.symmetric_tolerance", [](auto& o, auto&) { return num(o.explorer.symmetric_tolerance); }},
      {"branches.switch_step_ratio", [](auto& o, auto&) { return num(o.explorer.switch_step_ratio); }},
      {"design.direction", [](auto& o, auto&) { return std::string(analysis::to_string(o.design.directions)); }},
      {"design.step", [](auto& o, auto&) { return num(o.design.curve.step); }},
      {"design.max_points", [](auto& o, auto&) { return num(o.design.curve.max_points); }},
      {"linalg.solver", [](auto& o, auto&) { return std::string(linalg::to_string(o.explorer.path.linear_solver)); }},
      {"cosim.scheme", [](auto&, auto&) { return std::string(cosim::to_string(cosim::MasterOptions{}.scheme)); }},
      {"cosim.max_iterations", [](auto&, auto&) { return num(cosim::MasterOptions{}.max_iterations); }},
      {"cosim.tolerance", [](auto&, auto&) { return num(cosim::MasterOptions{}.tolerance); }},
      {"cosim.plot", [](auto&, auto&) { return boolean(input::CosimSpec{}.plot); }},
      // [dynamics]: the defaults of dynamics::IntegratorOptions, MassSpec, LoadHistory, input::DynamicsSpec
      {"dynamics.integrator", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().integrator.scheme)); }},
      {"dynamics.dt", [](auto&, auto&) { return num(dyn().integrator.dt); }},
      {"dynamics.t_end", [](auto&, auto&) { return num(dyn().t_end); }},
      {"dynamics.max_steps", [](auto&, auto&) { return num(static_cast<double>(input::kDefaultDynamicsMaxSteps)); }},
      {"dynamics.beta", [](auto&, auto&) { return num(dyn().integrator.beta); }},
      {"dynamics.gamma", [](auto&, auto&) { return num(dyn().integrator.gamma); }},
      {"dynamics.alpha", [](auto&, auto&) { return num(dyn().integrator.alpha); }},
      {"dynamics.tangent", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().integrator.em_tangent)); }},
      {"dynamics.convergence", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().integrator.test)); }},
      {"dynamics.tolerance", [](auto&, auto&) { return num(dyn().integrator.residual_tolerance); }},
      {"dynamics.energy_tolerance", [](auto&, auto&) { return num(dyn().integrator.energy_tolerance); }},
      {"dynamics.max_iterations", [](auto&, auto&) { return num(dyn().integrator.max_iterations); }},
      {"dynamics.line_density", [](auto&, auto&) { return num(dyn().mass.line_density); }},
      {"dynamics.line_rotary_inertia", [](auto&, auto&) { return num(dyn().mass.line_rotary_inertia); }},
      {"dynamics.mass_matrix", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().mass.lumping)); }},
      {"dynamics.damping_mass", [](auto&, auto&) { return num(dyn().damping_mass); }},
      {"dynamics.damping_stiffness", [](auto&, auto&) { return num(dyn().damping_stiffness); }},
      {"dynamics.load", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().load.kind)); }},
      {"dynamics.output_every", [](auto&, auto&) { return num(static_cast<double>(dyn().output_every)); }},
      {"dynamics.projection", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().integrator.index1.projection)); }},
      {"dynamics.projection_weight", [](auto&, auto&) { return std::string(dynamics::to_string(dyn().integrator.index1.weight)); }},
      {"dynamics.phi_tolerance", [](auto&, auto&) { return num(dyn().integrator.index1.position_tolerance); }},
      {"dynamics.phi_dot_tolerance", [](auto&, auto&) { return num(dyn().integrator.index1.velocity_tolerance); }},
      {"dynamics.projection_tolerance", [](auto&, auto&) { return num(dyn().integrator.index1.projection_tolerance); }},
  };
  return m;
}

// A table default in the form num() writes it ("1e-6" and "1e-06" are one value).
std::string canonical(const input::OptionSpec& o) {
  const std::string v = o.default_value;
  if (o.type == input::ValueType::Real || o.type == input::ValueType::Integer) return num(std::stod(v));
  return v;
}

}  // namespace

TEST_CASE("defaults: every key table default is the default of the field it fills", "[input][defaults]") {
  const analysis::AnalysisOptions options;
  const input::OutputRequest output;
  int checked = 0;
  for (const input::OptionSpec& o : input::option_table()) {
    if (!o.default_value) continue;
    const std::string key = o.key;
    // model.dim and model.strain have no struct default: a Model is built for a
    // dimension and a TrussBar for a strain measure; the table is their only default.
    if (key == "model.dim" || key == "model.strain") continue;
    INFO("key " << key);
    const auto it = fields().find(key);
    REQUIRE(it != fields().end());  // a key with a default must be listed above
    CHECK(canonical(o) == it->second(options, output));
    ++checked;
  }
  CHECK(checked == static_cast<int>(fields().size()));
}

TEST_CASE("defaults: a file without optional keys builds the default options", "[input][defaults]") {
  const input::Config c = input::Config::parse(
      "[model]\nnode = 1 0 0\nnode = 2 1 0\ntruss = 1 1 2 1\nfix = 1 all\nfix = 2 uy\nload = 2 ux 1\n", "defaults.cfg");
  const input::Spec s = input::build(c);
  const analysis::AnalysisOptions d;
  const continuation::Options& p = s.analysis.explorer.path;
  CHECK(p.constraint == d.explorer.path.constraint);
  CHECK(p.initial_load_increment == d.explorer.path.initial_load_increment);
  CHECK(p.max_steps == d.explorer.path.max_steps);
  CHECK(p.residual_tolerance == d.explorer.path.residual_tolerance);
  CHECK(s.analysis.explorer.finder.locate_options.tolerance == d.explorer.finder.locate_options.tolerance);
  CHECK(s.analysis.explorer.finder.refine_fraction == d.explorer.finder.refine_fraction);
  CHECK(s.analysis.explorer.max_branches == d.explorer.max_branches);
  CHECK(s.analysis.design.curve.max_points == d.design.curve.max_points);
  CHECK(s.analysis.design.curve.step == d.design.curve.step);
  CHECK(s.analysis.design.curve.max_step == d.design.curve.max_step);
  CHECK(s.analysis.validate().empty());
  CHECK_FALSE(s.output.plot);
  CHECK(s.notes.empty());
}

TEST_CASE("defaults: a curve's keys without a curve to follow are said to have no effect", "[input][defaults]") {
  // design.step, direction, … are used only by a curve of critical points; without
  // design.follow (or --follow) they were accepted in silence. Not refused: a file may
  // keep them for a later --follow run.
  const std::string model =
      "[model]\nnode = 1 0 0\nnode = 2 1 0\ntruss = 1 1 2 1\nfix = 1 all\nfix = 2 uy\nload = 2 ux 1\n"
      "[parameters]\nEA = 1\n[design]\nparameter = EA\nstep = 0.02\ndirection = up\n";
  const input::Spec s = input::build(input::Config::parse(model, "design.cfg"));
  REQUIRE(s.notes.size() == 2);  // in the file's order
  CHECK(s.notes[0].rfind("design.cfg:12: design.step has no effect", 0) == 0);
  CHECK(s.notes[1] == "design.cfg:13: design.direction has no effect: no critical point is followed (design.follow, "
                      "or --follow on the command line)");
  // With a curve to follow, nothing to say.
  const input::Spec f = input::build(input::Config::parse(model + "follow = LP1\n", "design.cfg"));
  CHECK(f.notes.empty());
}

TEST_CASE("defaults: one-element Simo-Reissner members of a frame are said to be too stiff", "[input][defaults]") {
  // A portal frame typed without N (the default 1): one element of one integration
  // point cannot bend in double curvature, and the sway went into shear, 8 400 times
  // the hand value of the sway stiffness, with nothing said.
  const auto portal = [](const std::string& n, const std::string& extra = "") {
    return "[model]\nnode = 1 0 0\nnode = 2 0 4\nnode = 3 6 4\nnode = 4 6 0\n" + extra +
           "beam = 100 1 2 1e8 1e8 1e4" + n + "\nbeam = 200 2 3 1e8 1e8 1e4" + n + "\nbeam = 300 4 3 1e8 1e8 1e4" +
           n + "\nfix = 1 ux uy rz\nfix = 4 ux uy rz\nload = 2 ux 1\n";
  };
  const input::Spec one = input::build(input::Config::parse(portal(""), "portal.cfg"));
  REQUIRE(one.model_notes.size() == 1);
  CHECK(one.notes.empty());  // a note on the model, not on a key without effect
  CHECK(one.model_notes[0].rfind("portal.cfg:6: model.beam: 3 members have one element (N = 1, the default; members 100, "
                           "200, 300)", 0) == 0);
  CHECK(input::build(input::Config::parse(portal(" 4"), "portal.cfg")).model_notes.empty());
  CHECK(input::build(input::Config::parse(portal("", "beam_formulation = corotational\n"), "portal.cfg"))
            .model_notes.empty());
  // A member meshed by hand, one element per member in line (a column of two
  // members, and a curve of members at 20°), is a discretization: nothing said.
  const std::string column =
      "[model]\nnode = 1 0 0\nnode = 2 0 1\nnode = 3 0 2\nbeam = 1 1 2 1e4 1e4 1\nbeam = 2 2 3 1e4 1e4 1\n"
      "fix = 1 ux uy rz\nload = 3 uy -1\n";
  CHECK(input::build(input::Config::parse(column, "column.cfg")).model_notes.empty());
  const std::string curve =
      "[model]\nnode = 1 0 0\nnode = 2 1 0\nnode = 3 1.9397 0.3420\nbeam = 1 1 2 1e4 1e4 1\n"
      "beam = 2 2 3 1e4 1e4 1\nfix = 1 ux uy rz\nload = 3 uy -1\n";
  CHECK(input::build(input::Config::parse(curve, "curve.cfg")).model_notes.empty());
  // A brace of one element, pinned at a support and hinged to the frame, or rigidly
  // joined: said either way (one element cannot buckle as the member does; a pinned
  // column of one element found no buckling up to 3.5 times its Euler load).
  const std::string braced =
      "[model]\nnode = 1 0 0\nnode = 2 0 4\nnode = 3 4 4\nnode = 4 4 0\nnode = 5 -1 0\n"
      "beam = 10 1 2 1e7 1e6 1e4 8\nbeam = 20 2 3 1e7 1e6 1e4 8\nbeam = 30 3 4 1e7 1e6 1e4 8\n"
      "beam = 40 5 3 1e7 1e6 1e4\nfix = 1 ux uy rz\nfix = 5 ux uy\nfix = 4 ux uy rz\nload = 2 ux 1\n";
  CHECK(input::build(input::Config::parse(braced + "hinge = 3 40\n", "brace.cfg")).model_notes.size() == 1);
  CHECK(input::build(input::Config::parse(braced, "brace.cfg")).model_notes.size() == 1);
  // The same portal from a mesh whose curves are one line each (Transfinite Curve = 2):
  // the lines are members of one element, said (it found no sway buckling up to 6
  // times its load, with nothing said); at 4 lines a curve nothing is said.
  const auto meshed = [](const std::string& mesh) {
    return "[model]\nmesh = " + std::string(SENDA_SOURCE_DIR) + "/tests/input/mesh/" + mesh +
           "\nbeam = group:frame 1e8 1e8 1e4\nfix = group:base ux uy rz\nload = group:top ux 1\n";
  };
  const input::Spec lines = input::build(input::Config::parse(meshed("portal-1.msh"), "mesh.cfg"));
  REQUIRE(lines.model_notes.size() == 1);
  CHECK(lines.model_notes[0].rfind("mesh.cfg:3: model.beam: 3 lines of the mesh are members of one element", 0) == 0);
  CHECK(lines.model_notes[0].find("mesh each curve into N >= 4 lines") != std::string::npos);
  CHECK(input::build(input::Config::parse(meshed("portal-4.msh"), "mesh.cfg")).model_notes.empty());
}

TEST_CASE("defaults: validate() names the field of a bad value", "[analysis][defaults]") {
  analysis::AnalysisOptions o;
  CHECK(o.validate().empty());
  o.explorer.path.initial_load_increment = 0.0;
  CHECK(o.validate().find("initial_load_increment") != std::string::npos);
  o = {};
  o.explorer.finder.refine_fraction = 1.0;
  CHECK(o.validate().find("refine_fraction") != std::string::npos);
  o = {};
  o.design.curve.max_points = 0;
  CHECK(o.validate().find("max_points") != std::string::npos);
  o = {};
  o.explorer.path.constraint = continuation::ConstraintKind::DisplacementControl;
  CHECK(o.validate().find("control_dof") != std::string::npos);
}

TEST_CASE("ranges: the bounds the table states are accepted and the doubles beyond refused", "[input][defaults]") {
  // HHT's alpha = -1/3 is the documented limit (docs/config.md [-1/3, 0]); the
  // table's bound once read -0.333333333333333 (15 digits), above the double nearest
  // -1/3, and refused it. Newmark's gamma below 1/2 is refused by the same range.
  const std::string model =
      "[model]\nnode = 1 0 0\nnode = 2 1 0\ntruss = 1 1 2 1\nfix = 1 all\nfix = 2 uy\nload = 2 ux 1\n"
      "[dynamics]\nmass = 2 1\n";
  const auto with = [&](const std::string& extra) {
    return input::build(input::Config::parse(model + extra, "ranges.cfg")).dynamics.integrator;
  };
  CHECK(with("integrator = hht\nalpha = ${-1/3}\n").alpha == -1.0 / 3.0);
  CHECK_THROWS_AS(with("integrator = hht\nalpha = -0.33333333333333337\n"), input::ConfigError);
  CHECK(with("integrator = newmark\ngamma = 0.5\n").gamma == 0.5);
  CHECK_THROWS_WITH(with("integrator = newmark\ngamma = 0.49\n"),
                    Catch::Contains("value 0.49 is out of range") && Catch::Contains("[0.5, 1]"));
}
