#include "senda/input/config.hpp"

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "senda/input/expression.hpp"

namespace senda::input {

namespace fs = std::filesystem;
using T = ValueType;

// ---------------------------------------------------------------------------
// The option table: one row per key. Ranges use interval notation ("(0, inf)",
// "[1, 1000]") or a set ("{2, 3}"); choices are "a|b|c"; records give their
// fields. docs/config.md documents every row (a test checks it).
// ---------------------------------------------------------------------------
const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = {
      // [problem]
      {"problem.title", T::Text, nullptr, nullptr, false, "title of the problem (free text)"},
      {"problem.description", T::Text, nullptr, nullptr, false, "one-line description (free text)"},
      // [model]
      {"model.dim", T::Integer, "2", "{2, 3}", false, "spatial dimension"},
      {"model.strain", T::Choice, "green-lagrange", "green-lagrange|engineering|logarithmic", false,
       "default strain measure of truss bars"},
      {"model.node", T::Record, nullptr, "ID X Y [Z]", true,
       "node with integer label ID at (X, Y[, Z]); Z required in 3D, not allowed in 2D"},
      {"model.mesh", T::Text, nullptr, "a Gmsh MSH 4.1 file (ASCII or binary)", false,
       "nodes and 2-node line elements from a Gmsh mesh, relative to the .cfg's directory; its physical groups "
       "are named by group:NAME in truss, beam, fix, load and dead_load"},
      {"model.truss", T::Record, nullptr, "ID NODE_A NODE_B EA [STRAIN]", true,
       "truss bar between two nodes, axial stiffness EA > 0 (force units), optional strain measure; "
       "group:NAME: a bar on every 2-node line of that physical group of model.mesh"},
      {"model.beam", T::Record, nullptr, "ID NODE_A NODE_B EA GAS EI [N]", true,
       "geometrically exact beam member meshed into N elements (default 1); 2D: plane (dofs ux uy rz); "
       "3D (model.dim = 3): ID NODE_A NODE_B EA GA2 GA3 GJ EI2 EI3 VX VY VZ [N], space beam (dofs ux uy uz rx ry rz), "
       "section axis y in the plane of the member and (VX, VY, VZ); group:NAME in place of ID NODE_A NODE_B "
       "(without N): a one-element member on every 2-node line of that physical group of model.mesh"},
      {"model.beam_formulation", T::Choice, "simo-reissner", "simo-reissner|corotational", false,
       "element of every beam member: Simo-Reissner (shear-flexible) or co-rotational Euler-Bernoulli (GAS unused)"},
      {"model.max_elements", T::Integer, "2000000", "[1, 2000000000]", false,
       "largest number of elements the model may have, beam members' N included (a bound on memory, raise it for a large model)"},
      {"model.imperfection", T::Record, nullptr, "MODE_FILE AMPLITUDE", false,
       "geometric imperfection: every node moved by AMPLITUDE times a mode (a modes/<id>.csv of an earlier run, "
       "translations only); AMPLITUDE may be ${eps}"},
      {"model.hinge", T::Record, nullptr, "NODE MEMBER [MEMBER ...] [spring K] [about VX VY VZ [WX WY WZ]]", true,
       "moment release: the listed beam members get their own end rotation at NODE (translations stay "
       "shared); spring K > 0 joins each to the node's rotation (moment/radian); in 3D a ball joint (own "
       "rx ry rz, isotropic spring), with 'about VX VY VZ' a one-axis hinge (own angle, spring on it), or "
       "with 'about VX VY VZ WX WY WZ' a two-axis (universal) joint: the end turns about V (carried by the "
       "node), then about W (carried by the cross), two angles, a spring K on each; partial releases by "
       "name refused"},
      {"model.thin_walled", T::Record, nullptr, "MEMBER EIW GIW [EK4]", true,
       "3D: the beam member MEMBER is thin-walled (open section, shear centre at the centroid): its nodes get a "
       "warping unknown 'warp' (the twist rate of the warping, shared with the other thin-walled members at the "
       "node; free unless 'fix = NODE warp'), EIW > 0 the warping stiffness E I_w, GIW > 0 the warping shear "
       "stiffness tying it to the twist (large: Vlasov), the Wagner term r^2 = (EI2 + EI3)/EA, and EK4 >= 0 "
       "(default 0) the fourth-order torsion term E (int rho^4 dA - Ip^2/A) that makes the torsional "
       "post-buckling path rise (0: neutral)"},
      {"model.spring", T::Record, nullptr, "ID NODE_A NODE_B|ground COMPONENT K", true,
       "linear spring K > 0 on COMPONENT (ux uy rz; in 3D also uz rx ry) between two nodes or to ground; "
       "COMPONENT axial: a spring along the line between the nodes (force/length)"},
      {"model.penalty_fix", T::Record, nullptr, "ID NODE KAPPA COMP [COMP ...] [at X Y [Z]]", true,
       "penalty support (seed 003 Fix): the listed components (ux uy uz rz, rx ry in 3D, all = every translation) "
       "held by the energy 1/2 KAPPA (x - p)^2, p the node's position or the point after 'at'; KAPPA > 0"},
      {"model.penalty_tie", T::Record, nullptr, "ID NODE_A NODE_B KAPPA COMP [COMP ...]", true,
       "penalty joint (seed 003 Tie) between two nodes at the same position: energy 1/2 KAPPA (x_b - x_a)^2 on the "
       "listed components (as penalty_fix); KAPPA > 0"},
      {"model.fix", T::Record, nullptr, "NODE COMP [COMP ...]", true,
       "support: fixes the listed components (ux uy uz rz, rx ry in 3D, or all = every translation; warp: the "
       "warping unknown of a thin-walled member's node, 3D); "
       "group:NAME: at every node of that physical group of model.mesh"},
      {"model.load", T::Record, nullptr, "NODE COMP VALUE [semitangential|quasitangential]", true,
       "reference load pattern r, scaled by the load factor lambda (force units; moments on rx ry rz); "
       "group:NAME: VALUE at every node of the group; a 3D moment may instead be 'semitangential' (the "
       "conservative moment of potential lambda |m0| tau) or 'quasitangential' (dead-force couples on levers "
       "fixed to the node: spatial moment (tr R I - R^T) m0 / 2) in place of the psi-conjugate one"},
      {"model.dead_load", T::Record, nullptr, "NODE COMP VALUE", true,
       "dead load, not scaled by lambda (imperfections, prestress); group:NAME as in load"},
      // [continuation]
      {"continuation.constraint", T::Choice, "spherical", "spherical|cylindrical|pseudo-arclength|load|displacement",
       false, "step constraint of the path follower"},
      {"continuation.control", T::Record, nullptr, "NODE COMP", false,
       "controlled degree of freedom; required with constraint = displacement"},
      {"continuation.initial_step", T::Real, "0.05", "(0, inf)", false,
       "load-factor increment of the first predictor; fixes the first step length (refused, exit 2, below "
       "what the model resolves: a force under the residual tolerance)"},
      {"continuation.min_step_ratio", T::Real, "1e-6", "(0, 1]", false,
       "smallest step length relative to the first; below it the path (or the branch) ends with step-too-small"},
      {"continuation.max_step_ratio", T::Real, "10", "[1, inf)", false, "largest step length relative to the first"},
      {"continuation.max_step_growth", T::Real, "2", "[1, inf)", false, "largest factor between consecutive steps"},
      {"continuation.max_turn", T::Real, "20", "(0, 180]", false,
       "arc-length and displacement-controlled steps: largest angle (degrees) between the tangents at the two "
       "ends of a step; a step that "
       "turns more is cut (it may have jumped across a fold); 180: off"},
      {"continuation.target_iterations", T::Integer, "4", "[1, 100]", false,
       "Newton iterations per step the step control aims at"},
      {"continuation.max_iterations", T::Integer, "15", "[1, 1000]", false,
       "Newton iterations before a step is cut in half (final_chord may add one predicted to converge)"},
      {"continuation.residual_tolerance", T::Real, "1e-10", "(0, 1)", false,
       "convergence: residual norm relative to the load norm"},
      {"continuation.increment_tolerance", T::Real, "1e-9", "(0, 1)", false,
       "convergence: scaled Newton increment relative to the step length (under load or displacement control, "
       "to the predictor's length when that is larger)"},
      {"continuation.direction", T::Integer, "1", "{-1, 1}", false, "sign of the first load increment"},
      {"continuation.reuse_factorization", T::Bool, "true", nullptr, false,
       "an accepted point keeps the factorization of its last Newton iteration when that provably has the "
       "same inertia (theory eq. 2.12); false: K is factorized again at every point"},
      {"continuation.final_chord", T::Bool, "true", nullptr, false,
       "the corrector's last update reuses the factorization in hand when the Newton updates before it "
       "predict that it converges (theory eq. 2.7b), also at max_iterations; false: Newton throughout"},
      {"continuation.auto_scale", T::Bool, "true", nullptr, false,
       "scale unknowns per kind (translation, rotation) from the first tangent"},
      {"continuation.psi", T::Real, "1", "[0, inf)", false, "weight of lambda in the scaled norm"},
      {"continuation.start_state", T::Text, nullptr, "a file DIR/states/<id>.json", false,
       "start the primary path from this saved state of the model (Newton at its lambda from its q; from a limit "
       "point, along its mode, sign = continuation.direction): trace's located points, simulate's final.json; "
       "not with branches.from"},
      // [stop]
      {"stop.max_steps", T::Integer, "200", "[1, 10000000]", false,
       "steps per path (the primary path, and each branch anew) before it ends with max-steps"},
      {"stop.lambda_min", T::Real, nullptr, "any finite", false, "end when lambda drops below this (none: no bound)"},
      {"stop.lambda_max", T::Real, nullptr, "any finite", false, "end when lambda exceeds this (none: no bound)"},
      {"stop.displacement", T::Record, nullptr, "NODE COMP LIMIT", false,
       "end when |displacement of NODE COMP| exceeds LIMIT > 0 (length units)"},
      {"stop.zero_load", T::Bool, "false", nullptr, false, "end when lambda returns to zero"},
      // [output]
      {"output.track", T::Record, nullptr, "NODE COMP", true,
       "displacement written to path.csv and the progress line (default: the first load's dof)"},
      {"output.name", T::Text, nullptr, nullptr, false, "problem name in summary.json (default: the file's stem)"},
      {"output.plot", T::Bool, "false", nullptr, false,
       "write plot.gp and critical.csv and render lambda_<column>.png/.svg with gnuplot (same as --plot)"},
      {"output.vtk", T::Bool, "false", nullptr, false,
       "write the structure at every point and every mode as VTK files for ParaView, DIR/vtk/ (same as --vtk)"},
      {"output.drawings", T::Bool, "false", nullptr, false,
       "write SVG drawings of the structure, each critical shape and mode, DIR/drawings/ (also with --plot)"},
      // [critical]  critical points: detection and location (implemented in lib/critical)
      {"critical.detect", T::Choice, "both", "both|det|inertia", false,
       "critical points: crossing test, sign of det K, inertia of K, or both"},
      {"critical.locate", T::Bool, "true", nullptr, false,
       "critical points: locate each crossing exactly with the augmented systems"},
      {"critical.tolerance", T::Real, "1e-10", "(0, 1)", false,
       "critical points: tolerance on the scaled augmented residual"},
      {"critical.max_iterations", T::Integer, "20", "[1, 1000]", false,
       "critical points: Newton iterations on the augmented system"},
      {"critical.bifurcation_tolerance", T::Real, "1e-6", "(0, 1)", false,
       "critical points: |phi.r|/(|phi||r|) below this classifies a bifurcation (not where det K changes "
       "and the bordered determinant does not: a limit point)"},
      {"critical.refine_fraction", T::Real, "1e-3", "[0, 1)", false,
       "critical points: a step that is not one simple crossing (2+ eigenvalues, a fold and a bifurcation, a "
       "point located outside it) is bisected down to this fraction of it (0: off)"},
      {"critical.monitor_eigenvalues", T::Bool, "true", nullptr, false,
       "critical points: watch the eigenvalues of K nearest zero along each step; a step along which one "
       "crosses zero and back (no sign at its ends shows it) is split and its points located"},
      // [branches]  branch switching at located simple bifurcation points (lib/critical/branch)
      {"branches.switch", T::Bool, "true", nullptr, false,
       "branches: trace the secondary branches of located simple bifurcation points (false: primary path only)"},
      {"branches.at", T::Text, nullptr, "ids, e.g. BP1,BP3", false,
       "branches: switch only at these points (default: every bifurcation point)"},
      {"branches.max_depth", T::Integer, "2", "[0, 20]", false,
       "branches: depth of the branch tree (primary path = 0; branches of branches = 2)"},
      {"branches.direction", T::Choice, "both", "both|positive|negative", false,
       "branches: which half of each secondary branch to trace, along +/- its tangent"},
      {"branches.max_branches", T::Integer, "32", "[1, 10000]", false,
       "branches: at most this many branches in one run, the primary path included (1: no secondary branch)"},
      {"branches.from", T::Text, nullptr, "a file DIR/states/BPn.json", false,
       "branches: start from this saved bifurcation point instead of tracing the primary path"},
      {"branches.symmetric_tolerance", T::Real, "1e-5", "(0, 1)", false,
       "branches: |C| <= tol max(|A|,|B|) classifies a bifurcation as symmetric"},
      {"branches.switch_step_ratio", T::Real, "1", "(0, 1e3]", false,
       "branches: the first step of a secondary branch relative to the first step of the path, measured in "
       "(q, lambda) (or, in the "
       "branch's own metric, to initial_step / max(|lambda_c|, initial_step) of the structure's size)"},
      // [parameters]  user-named numbers, used elsewhere as ${NAME} or ${expression}.
      // One row stands for every key of the section (find_option).
      {kParameterRow, T::Real, nullptr, "any finite", false,
       "a named parameter NAME = number (NAME: [A-Za-z_][A-Za-z0-9_]*), used in any value as ${NAME} or "
       "${expression}; override with parameters.NAME=value"},
      // [design]  design studies (sweeps, sensitivities)
      {"design.parameter", T::Text, nullptr, "a name of [parameters]", true,
       "design: a design parameter mu (one name of [parameters] per line); sensitivities d lambda_cr/d mu"},
      {"design.follow", T::Text, nullptr, "ids of critical points, e.g. LP1 BP2", false,
       "design: follow the critical load of these points as the first design parameter varies "
       "(curves/<id>-<mu>-<up|down>.csv)"},
      {"design.direction", T::Choice, "both", "both|up|down", false,
       "design: follow each curve with mu increasing (up), decreasing (down) or both"},
      {"design.mu_min", T::Real, nullptr, "any finite", false, "design: a curve ends when mu falls below this"},
      {"design.mu_max", T::Real, nullptr, "any finite", false, "design: a curve ends when mu rises above this"},
      {"design.step", T::Real, "0.05", "(0, 1]", false,
       "design: first step of a curve, arc length in the plane (mu/mu_s, lambda/lambda_s) of the scaled values"},
      {"design.max_points", T::Integer, "100", "[1, 100000]", false,
       "design: points per curve and direction (this key and direction, mu_min, mu_max, step act on curves only: "
       "without design.follow, trace prints a note)"},
      // [cosim]  co-simulation (the cosim command; lib/input/cosim.cpp, docs/config.md "Co-simulation")
      {"cosim.end_time", T::Real, nullptr, "(0, inf)", false,
       "co-simulation: simulated time from 0 (s), a whole multiple of macro_step; required"},
      {"cosim.macro_step", T::Real, nullptr, "(0, inf)", false,
       "co-simulation: macro step H (s), where the units exchange their outputs; required"},
      {"cosim.scheme", T::Choice, "jacobi", "jacobi|gauss-seidel", false,
       "co-simulation: every unit steps from the outputs at t_n (jacobi), or one after the other using the "
       "outputs at t_n+1 of those before it (gauss-seidel)"},
      {"cosim.order", T::Text, nullptr, "every unit name once, e.g. ss2 ss1", false,
       "co-simulation: gauss-seidel: the order in which the units step (default: the order of the unit lines)"},
      {"cosim.max_iterations", T::Integer, "1", "[1, 1000]", false,
       "co-simulation: sweeps of a macro step (states restored) until the outputs at t_n+1 settle; 1: no iteration"},
      {"cosim.tolerance", T::Real, "1e-10", "(0, 1)", false,
       "co-simulation: iteration converged when max |change of an output| / (1 + |output|) is below this"},
      {"cosim.unit", T::Record, nullptr, "NAME oscillator|structure FIELD=VALUE ...", true,
       "co-simulation: a unit. oscillator: mass=M [k=K x0= v0=]; structure: file=F.cfg node=N comp=ux|uy|uz "
       "mass=M [inertia=J v0=]; both: [kc=KC share=S integrator=symplectic-euler|exact h=MICRO_STEP]"},
      {"cosim.connect", T::Record, nullptr, "UNIT.INPUT UNIT.OUTPUT [input=zoh|foh|soh] [output=zoh|foh|soh]", true,
       "co-simulation: an output feeds an input; input= its extrapolation over the micro steps, output= the "
       "one the unit's feedthrough output uses at t_n+1"},
      {"cosim.plot", T::Bool, "false", nullptr, false,
       "co-simulation: write energy.gp and render energy.png/.svg with gnuplot (same as --plot)"},
      // [dynamics] (the simulate command; docs/config.md "[dynamics]")
      {"dynamics.integrator", T::Choice, "energy-momentum", "energy-momentum|midpoint|newmark|hht|index1-rk4", false,
       "dynamics: time integrator (energy-momentum conserves energy exactly, and linear and angular momentum with "
       "truss bars and springs; beams keep energy only; index1-rk4: explicit RK4 on the index-1 equations, the one "
       "that takes rigid links)"},
      {"dynamics.dt", T::Real, "0.01", "(0, inf)", false, "dynamics: time step (time units)"},
      {"dynamics.t_end", T::Real, "1", "(0, inf)", false, "dynamics: end time of the simulation"},
      {"dynamics.max_steps", T::Integer, "1000000", "[1, 100000000]", false,
       "dynamics: the most steps a run may take (t_end/dt above it is refused)"},
      {"dynamics.beta", T::Real, "0.25", "(0, 0.5]", false, "dynamics: Newmark beta (newmark only)"},
      {"dynamics.gamma", T::Real, "0.5", "[0.5, 1]", false,
       "dynamics: Newmark gamma (newmark only); below 1/2 the scheme amplifies the motion (negative damping)"},
      {"dynamics.alpha", T::Real, "-0.05", "[-0.3333333333333333, 0]", false,
       "dynamics: HHT alpha (hht only; beta = (1 - alpha)^2/4, gamma = 1/2 - alpha)"},
      {"dynamics.tangent", T::Choice, "exact", "exact|symmetric", false,
       "dynamics: energy-momentum iteration matrix of truss bars: exact (unsymmetric, LU) or symmetric (LDL^T)"},
      {"dynamics.convergence", T::Choice, "residual", "residual|energy|both", false,
       "dynamics: Newton's test: relative residual, work of the correction, or both (not with index1-rk4)"},
      {"dynamics.tolerance", T::Real, "1e-12", "(0, 1)", false, "dynamics: relative residual tolerance (not with index1-rk4)"},
      {"dynamics.energy_tolerance", T::Real, "1e-20", "(0, 1)", false,
       "dynamics: work of the last correction relative to the first (not with index1-rk4)"},
      {"dynamics.max_iterations", T::Integer, "25", "[1, 1000]", false, "dynamics: Newton iterations per step (not with index1-rk4)"},
      {"dynamics.mass", T::Record, nullptr, "NODE M [J]", true,
       "dynamics: lumped mass M >= 0 on every translation of NODE, rotary inertia J >= 0 on its rotations "
       "(M refused on a node with no free translation, J on one with no free rotation of its own)"},
      {"dynamics.line_density", T::Real, "0", "[0, inf)", false,
       "dynamics: mass per reference length (rho A) of every truss bar and beam element"},
      {"dynamics.line_rotary_inertia", T::Real, "0", "[0, inf)", false,
       "dynamics: rotary inertia per length (rho I) of every beam element's rotations"},
      {"dynamics.mass_matrix", T::Choice, "lumped", "lumped|consistent", false,
       "dynamics: member mass lumped at the ends or consistent (linear shape functions)"},
      {"dynamics.damping_mass", T::Real, "0", "[0, inf)", false, "dynamics: Rayleigh damping C = a M + b K0: a"},
      {"dynamics.damping_stiffness", T::Real, "0", "[0, inf)", false,
       "dynamics: Rayleigh damping C = a M + b K0: b (K0 the tangent at q = 0)"},
      {"dynamics.load", T::Choice, "step", "step|ramp|table", false,
       "dynamics: load history lambda(t) on the reference load: step, ramp to lambda over ramp_time, table"},
      {"dynamics.lambda", T::Real, nullptr, "any finite", false,
       "dynamics: load factor of a step or ramp (default 0, or FACTOR times the initial state's lambda)"},
      {"dynamics.ramp_time", T::Real, nullptr, "(0, inf)", false, "dynamics: duration of the ramp (load = ramp)"},
      {"dynamics.load_point", T::Record, nullptr, "T LAMBDA", true,
       "dynamics: a point (t, lambda) of a piecewise linear load history (load = table), t increasing"},
      {"dynamics.initial_state", T::Record, nullptr, "STATE_FILE [FACTOR]", false,
       "dynamics: start at rest at a saved state of trace (DIR/states/<id>.json) or simulate's final.json under "
       "FACTOR (default 1) times its lambda"},
      {"dynamics.velocity", T::Record, nullptr, "NODE COMP VALUE", true, "dynamics: initial velocity of a free dof"},
      {"dynamics.kick", T::Record, nullptr, "MODE_FILE AMPLITUDE", false,
       "dynamics: initial velocity AMPLITUDE times a mode (DIR/modes/<id>.csv, max |phi| = 1), added to velocity"},
      {"dynamics.event", T::Record, nullptr, "NODE COMP VALUE", true,
       "dynamics: record in summary.json every time the displacement of NODE COMP passes VALUE"},
      {"dynamics.rigid_link", T::Record, nullptr, "NODE_A NODE_B", true,
       "dynamics: a rigid link (Lagrange multiplier) of the reference length between two nodes (index1-rk4 only; "
       "refused by trace)"},
      {"dynamics.baumgarte", T::Record, nullptr, "ALPHA BETA", false,
       "dynamics: Baumgarte stabilisation of the rigid links, Phi'' + 2 ALPHA Phi' + BETA^2 Phi = 0 (ALPHA, BETA >= 0)"},
      {"dynamics.projection", T::Choice, "none", "none|every-step|when-violated", false,
       "dynamics: project positions and velocities on the rigid links after every step, or when |Phi| or |Phi'| "
       "exceeds its tolerance"},
      {"dynamics.projection_weight", T::Choice, "mass", "mass|identity", false,
       "dynamics: the norm of the projection: W = M (keeps the centre of mass) or W = I"},
      {"dynamics.phi_tolerance", T::Real, "1e-8", "(0, inf)", false,
       "dynamics: when-violated projects when |Phi| (length) exceeds this"},
      {"dynamics.phi_dot_tolerance", T::Real, "1e-8", "(0, inf)", false,
       "dynamics: when-violated projects when |Phi'| (length/time) exceeds this"},
      {"dynamics.projection_tolerance", T::Real, "1e-13", "(0, inf)", false,
       "dynamics: a position projection iterates until |Phi| <= this (length; above the round-off of the positions)"},
      {"dynamics.output_every", T::Integer, "1", "[1, 100000000]", false,
       "dynamics: write a history row (and a VTK frame) every this many steps"},
      // [linalg]
      {"linalg.solver", T::Choice, "auto", "auto|cholmod|mumps", false,
       "sparse LDL^T of the tangent: auto (MUMPS from 1000 unknowns where CHOLMOD's analysis predicts at least 5000 flops per unknown, CHOLMOD otherwise, so a band matrix stays on CHOLMOD at any size; MUMPS always under mpirun -np P > 1), cholmod (one process only) or mumps"},
  };
  return table;
}

const char* to_string(ValueType t) {
  switch (t) {
    case T::Integer: return "integer";
    case T::Real: return "real";
    case T::Bool: return "bool";
    case T::Choice: return "choice";
    case T::Text: return "text";
    case T::Record: return "record";
  }
  return "?";
}

const OptionSpec* find_option(std::string_view key) {
  for (const OptionSpec& o : option_table())
    if (key == o.key) return &o;
  // The keys of [parameters] are the user's names: all share one row (its name
  // is checked by Config::add).
  const std::string_view prefix = std::string_view(kParameterSection);
  if (key.size() > prefix.size() + 1 && key.substr(0, prefix.size()) == prefix && key[prefix.size()] == '.') {
    for (const OptionSpec& o : option_table())
      if (std::string_view(o.key) == kParameterRow) return &o;
  }
  return nullptr;
}

std::vector<std::string> sections() {
  std::vector<std::string> out;
  for (const OptionSpec& o : option_table()) {
    std::string s(o.key, std::string_view(o.key).find('.'));
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  }
  return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string_view after_dot(std::string_view k) {
  const auto p = k.find('.');
  return p == std::string_view::npos ? k : k.substr(p + 1);
}

std::string_view trim(std::string_view s) {
  const char* ws = " \t\r\n\f\v";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

std::string join_sections() {
  std::string s;
  for (const std::string& n : sections()) s += (s.empty() ? "" : ", ") + ("[" + n + "]");
  return s;
}

// Numeric validity strings: "(a, b)", "[a, b]", mixed brackets, "{a, b, ...}", "any finite".
bool in_range(double v, const char* valid) {
  if (!valid) return true;
  std::string_view s = trim(valid);
  if (s == "any finite") return std::isfinite(v);
  auto number = [](std::string_view t) -> double {
    t = trim(t);
    if (t == "inf") return INFINITY;
    if (t == "-inf") return -INFINITY;
    double x = 0.0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size())
      throw std::logic_error("senda::input option table: bad range bound '" + std::string(t) + "'");
    return x;
  };
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') {
    std::string_view body = s.substr(1, s.size() - 2);
    while (!body.empty()) {
      const auto comma = body.find(',');
      if (number(body.substr(0, comma)) == v) return true;
      if (comma == std::string_view::npos) break;
      body = body.substr(comma + 1);
    }
    return false;
  }
  if (s.size() < 5 || (s.front() != '(' && s.front() != '[') || (s.back() != ')' && s.back() != ']'))
    throw std::logic_error("senda::input option table: bad range '" + std::string(s) + "'");
  const auto comma = s.find(',');
  const double lo = number(s.substr(1, comma - 1));
  const double hi = number(s.substr(comma + 1, s.size() - comma - 2));
  const bool lo_ok = s.front() == '[' ? v >= lo : v > lo;
  const bool hi_ok = s.back() == ']' ? v <= hi : v < hi;
  return lo_ok && hi_ok;
}

std::string_view strip_plus(std::string_view t) {
  if (t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+') return t.substr(1);
  return t;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Position (1-based line) of the first byte sequence that is not UTF-8, or 0.
int first_non_utf8_line(std::string_view text) {
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') ++line;
    std::size_t n = 0;
    if (c < 0x80) n = 0;
    else if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c >= 0xE0 && c <= 0xEF) n = 2;
    else if (c >= 0xF0 && c <= 0xF4) n = 3;
    else return line;
    if (i + n >= text.size() && n > 0) return line;
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return line;
    }
    if (n == 2) {  // overlong and surrogate forms
      const auto d = static_cast<unsigned char>(text[i + 1]);
      if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0)) return line;
    } else if (n == 3) {
      const auto d = static_cast<unsigned char>(text[i + 1]);
      if ((c == 0xF0 && d < 0x90) || (c == 0xF4 && d >= 0x90)) return line;
    }
    i += n + 1;
  }
  return 0;
}

std::string quote_excerpt(std::string_view s) {
  std::string out(s.substr(0, 60));
  if (s.size() > 60) out += "...";
  return "'" + out + "'";
}

}  // namespace

std::string nearest_key(std::string_view key) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const OptionSpec& o : option_table()) {
    if (std::string_view(o.key) == kParameterRow) continue;  // not a key one can write
    // The whole key, and the part after the section (a key put in the wrong section).
    std::size_t d = edit_distance(key, o.key);
    const std::size_t d2 = edit_distance(after_dot(key), after_dot(o.key)) + 1;
    d = std::min(d, d2);
    if (d < best_d) {
      best_d = d;
      best = o.key;
    }
  }
  const std::size_t len = after_dot(key).size();
  return best_d <= std::max<std::size_t>(2, len / 2) ? best : std::string();
}

std::string format_option_table() {
  std::ostringstream out;
  std::string section;
  for (const OptionSpec& o : option_table()) {
    const std::string s(o.key, std::string_view(o.key).find('.'));
    if (s != section) {
      out << (section.empty() ? "" : "\n") << "[" << s << "]\n";
      section = s;
    }
    std::string lhs = "  " + std::string(o.key);
    if (o.type == T::Record) lhs += " = " + std::string(o.valid);
    else lhs += " = " + std::string(o.default_value ? o.default_value : "(none)");
    if (o.repeatable) lhs += "  (repeatable)";
    out << lhs << "\n      " << o.doc;
    if (o.valid && o.type != T::Record && o.type != T::Text) out << "; valid: " << o.valid;
    if (o.type == T::Bool) out << "; valid: true|false";
    out << "\n";
  }
  return out.str();
}

// ---------------------------------------------------------------------------
// ConfigError
// ---------------------------------------------------------------------------
std::string location(const std::string& file, int line) {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

namespace {
std::string format_error(const std::string& file, int line, const std::string& key, const std::string& message,
                         const std::string& valid) {
  std::string s = location(file, line) + ": ";
  if (!key.empty()) s += "key '" + key + "': ";
  s += message;
  if (!valid.empty()) s += " (valid: " + valid + ")";
  return s;
}
}  // namespace

ConfigError::ConfigError(std::string file, int line, std::string key, std::string message, std::string valid)
    : std::runtime_error(format_error(file, line, key, message, valid)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      message_(std::move(message)),
      valid_(std::move(valid)) {}

// ---------------------------------------------------------------------------
// Field parsing
// ---------------------------------------------------------------------------
namespace {
[[noreturn]] void field_error(const Entry& e, std::string_view what, const std::string& message,
                              const std::string& valid) {
  std::string m = what.empty() ? message : std::string(what) + ": " + message;
  throw ConfigError(e.file, e.line, e.key, m, valid);
}
}  // namespace

std::vector<std::string> split_fields(std::string_view value) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && std::isspace(static_cast<unsigned char>(value[i]))) ++i;
    std::size_t j = i;
    while (j < value.size() && !std::isspace(static_cast<unsigned char>(value[j]))) ++j;
    if (j > i) out.emplace_back(value.substr(i, j - i));
    i = j;
  }
  return out;
}

long parse_integer(const Entry& e, std::string_view token, std::string_view what, const std::string& valid) {
  const std::string_view t = strip_plus(token);
  long v = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec == std::errc::result_out_of_range)
    field_error(e, what, "integer " + quote_excerpt(token) + " is out of range", valid);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size() || t.empty())
    field_error(e, what, "expected an integer, found " + quote_excerpt(token), valid);
  return v;
}

double parse_real(const Entry& e, std::string_view token, std::string_view what, const std::string& valid) {
  const std::string_view t = strip_plus(token);
  const std::string low = lowercase(t);
  if (low.find("nan") != std::string::npos)
    field_error(e, what, "NaN is not a valid number, found " + quote_excerpt(token), valid);
  if (low.find("inf") != std::string::npos)
    field_error(e, what, "an infinite value is not allowed, found " + quote_excerpt(token), valid);
  double v = 0.0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range)
    field_error(e, what, "number " + quote_excerpt(token) + " is out of the range of a double", valid);
  if (r.ec != std::errc() || t.empty())
    field_error(e, what, "expected a number, found " + quote_excerpt(token), valid);
  if (r.ptr != t.data() + t.size())
    field_error(e, what,
                "malformed number " + quote_excerpt(token) + " (trailing '" +
                    std::string(t.substr(static_cast<std::size_t>(r.ptr - t.data()))) + "')",
                valid);
  if (!std::isfinite(v)) field_error(e, what, "number " + quote_excerpt(token) + " is not finite", valid);
  return v;
}

bool parse_bool(const Entry& e, std::string_view token, std::string_view what) {
  const std::string t = lowercase(token);
  if (t == "true" || t == "yes" || t == "on" || t == "1") return true;
  if (t == "false" || t == "no" || t == "off" || t == "0") return false;
  field_error(e, what, "expected a boolean, found " + quote_excerpt(token), "true|false|yes|no|on|off|1|0");
}

// ---------------------------------------------------------------------------
// Config
// ---------------------------------------------------------------------------
void Config::fail(const Entry* entry, std::string_view key, const std::string& message,
                  const std::string& valid) const {
  if (entry) throw ConfigError(entry->file, entry->line, std::string(key), message, valid);
  throw ConfigError(file_, 0, std::string(key), message, valid);
}

namespace {
// Checks a scalar entry's value against its row; throws ConfigError.
void validate_scalar(const Entry& e, const OptionSpec& o) {
  const std::string valid = o.valid ? o.valid : "";
  switch (o.type) {
    case T::Integer: {
      if (split_fields(e.value).size() != 1) field_error(e, "", "expected one integer, found " + quote_excerpt(e.value), valid);
      const long v = parse_integer(e, e.value, "", valid);
      if (!in_range(static_cast<double>(v), o.valid)) field_error(e, "", "value " + std::to_string(v) + " is out of range", valid);
      break;
    }
    case T::Real: {
      if (split_fields(e.value).size() != 1) field_error(e, "", "expected one number, found " + quote_excerpt(e.value), valid);
      const double v = parse_real(e, e.value, "", valid);
      if (!in_range(v, o.valid)) field_error(e, "", "value " + e.value + " is out of range", valid);
      break;
    }
    case T::Bool: parse_bool(e, e.value, ""); break;
    case T::Choice: {
      std::string_view choices = o.valid;
      bool ok = false;
      while (true) {
        const auto bar = choices.find('|');
        if (choices.substr(0, bar) == e.value) ok = true;
        if (bar == std::string_view::npos) break;
        choices = choices.substr(bar + 1);
      }
      if (!ok) field_error(e, "", "unknown value " + quote_excerpt(e.value), valid);
      break;
    }
    case T::Text:
    case T::Record: break;  // records are checked by the builder
  }
}
}  // namespace

void Config::add(Entry e, bool is_override, bool defer_substitution) {
  const OptionSpec* o = find_option(e.key);
  if (!o) {
    const std::string section(e.key.substr(0, e.key.find('.')));
    const std::vector<std::string> known = sections();
    const std::string near = nearest_key(e.key);
    const std::string hint = near.empty() ? "" : "; did you mean '" + near + "'?";
    if (e.key.find('.') != std::string::npos && std::find(known.begin(), known.end(), section) == known.end())
      throw ConfigError(e.file, e.line, e.key, "unknown section [" + section + "]" + hint, join_sections());
    throw ConfigError(e.file, e.line, e.key, "unknown key" + hint);
  }
  if (e.value.empty()) {
    std::string valid = o->valid ? o->valid : "";
    if (o->type == T::Bool) valid = "true|false";
    throw ConfigError(e.file, e.line, e.key, "missing value", valid);
  }
  const bool is_parameter = std::string_view(o->key) == kParameterRow;
  if (is_parameter) {
    const std::string name(after_dot(e.key));
    const bool well_formed =
        (std::isalpha(static_cast<unsigned char>(name[0])) && static_cast<unsigned char>(name[0]) < 0x80) ||
        name[0] == '_';
    const bool rest_ok = std::all_of(name.begin(), name.end(), [](char c) {
      return (static_cast<unsigned char>(c) < 0x80 && std::isalnum(static_cast<unsigned char>(c))) || c == '_';
    });
    if (!well_formed || !rest_ok)
      throw ConfigError(e.file, e.line, e.key, "malformed parameter name " + quote_excerpt(name),
                        "a letter or '_', then letters, digits or '_'");
    if (is_reserved_name(name))
      throw ConfigError(e.file, e.line, e.key,
                        "'" + name + "' is a name of the expression syntax, not a parameter name",
                        "any name but pi, sqrt, sin, cos, tan");
    if (e.value.find("${") != std::string::npos)
      throw ConfigError(e.file, e.line, e.key, "a parameter's value is a number, not an expression",
                        "a finite number");
    if (is_override && !find(e.key)) {
      std::string names;
      for (const Entry& x : entries_)
        if (find_option(x.key) == o) names += (names.empty() ? "" : ", ") + std::string(after_dot(x.key));
      throw ConfigError(e.file, e.line, e.key,
                        "unknown parameter '" + name + "': an override changes a parameter of the file",
                        names.empty() ? "the file has no [parameters]" : names);
    }
  }
  if (e.value.find("${") != std::string::npos) {
    e.raw = e.value;
    // In a file the parameters may come after their use: substituted at the end.
    if (!defer_substitution) {
      substitute(e);
      validate_scalar(e, *o);
    }
  } else {
    validate_scalar(e, *o);
  }
  if (!o->repeatable) {
    if (const auto at = last_.find(e.key); at != last_.end()) {
      Entry* it = &entries_[at->second];
      if (is_override) {
        *it = std::move(e);
        if (is_parameter) substitute_all();
        return;
      }
      throw ConfigError(e.file, e.line, e.key,
                        "given twice (first at line " + std::to_string(it->line) + "); only repeatable keys may repeat");
    }
  }
  last_[e.key] = entries_.size();
  entries_.push_back(std::move(e));
}

namespace {
constexpr std::uintmax_t kMaxFileBytes = 64u * 1024u * 1024u;
}  // namespace

Config Config::read_file(const fs::path& file) {
  const std::string name = file.string();
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  // A symlink loop, a permission denied: the system's words, not "no such file".
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw ConfigError(name, 0, "", "cannot be read: " + ec.message());
  if (ec || !fs::exists(st)) throw ConfigError(name, 0, "", "no such file");
  if (fs::is_directory(st)) throw ConfigError(name, 0, "", "is a directory, not a configuration file");
  if (!fs::is_regular_file(st)) throw ConfigError(name, 0, "", "not a regular file");
  // The size before the bytes: a huge (or sparse) file is refused without reading it.
  const std::uintmax_t size = fs::file_size(file, ec);
  if (!ec && size > kMaxFileBytes) throw ConfigError(name, 0, "", "the file is larger than 64 MiB");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw ConfigError(name, 0, "", "cannot be opened for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw ConfigError(name, 0, "", "read error");
  return parse(buf.str(), name);
}

Config Config::parse(std::string_view text, const std::string& file) {
  Config c;
  c.file_ = file;
  if (text.empty()) throw ConfigError(file, 0, "", "the file is empty");
  if (text.size() > kMaxFileBytes) throw ConfigError(file, 0, "", "the file is larger than 64 MiB");
  // A UTF-8 byte-order mark (written by some Windows editors) is not part of the text.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.empty()) throw ConfigError(file, 0, "", "the file is empty");
  if (const int bad = first_non_utf8_line(text))
    throw ConfigError(file, bad, "", "the line holds bytes that are not UTF-8 text");
  if (text.find('\0') != std::string_view::npos) {
    const auto pos = text.find('\0');
    throw ConfigError(file, 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n')), "",
                      "the line holds a NUL byte");
  }
  std::string section;
  int line = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    std::string_view raw = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line;
    const std::string_view s = trim(raw.substr(0, raw.find('#')));
    if (s.empty()) {
      if (eol == text.size()) break;
      continue;
    }
    if (s.front() == '[') {
      if (s.back() != ']' || s.size() < 3)
        throw ConfigError(file, line, "", "malformed section header " + quote_excerpt(s), "[section]");
      section = std::string(trim(s.substr(1, s.size() - 2)));
      const std::vector<std::string> known = sections();
      if (std::find(known.begin(), known.end(), section) == known.end())
        throw ConfigError(file, line, "", "unknown section [" + section + "]", join_sections());
    } else {
      const auto eq = s.find('=');
      if (eq == std::string_view::npos)
        throw ConfigError(file, line, "", "expected 'key = value' or '[section]', found " + quote_excerpt(s));
      const std::string_view k = trim(s.substr(0, eq));
      if (k.empty()) throw ConfigError(file, line, "", "missing key before '=' in " + quote_excerpt(s));
      if (k.find_first_of(" \t") != std::string_view::npos)
        throw ConfigError(file, line, "", "a key has no spaces, found " + quote_excerpt(k));
      Entry e;
      e.key = section.empty() ? std::string(k) : section + "." + std::string(k);
      e.value = std::string(trim(s.substr(eq + 1)));
      e.file = file;
      e.line = line;
      c.add(std::move(e), false, true);
    }
    if (eol == text.size()) break;
  }
  if (c.entries_.empty()) throw ConfigError(file, 0, "", "the file is empty (no 'key = value' line)");
  c.substitute_all();
  c.check_design();
  return c;
}

void Config::apply_override(std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw ConfigError(kCommandLine, 0, "", "expected 'section.key=value', found " + quote_excerpt(assignment));
  Entry e;
  e.key = std::string(trim(assignment.substr(0, eq)));
  e.value = std::string(trim(assignment.substr(eq + 1)));
  e.file = kCommandLine;
  e.line = 0;
  if (e.key.find('.') == std::string::npos) {
    const std::string near = nearest_key(e.key);
    throw ConfigError(kCommandLine, 0, e.key,
                      "an override names section and key" + (near.empty() ? "" : "; did you mean '" + near + "'?"),
                      "section.key=value");
  }
  if (first_non_utf8_line(e.value) || first_non_utf8_line(e.key))
    throw ConfigError(kCommandLine, 0, e.key, "the argument holds bytes that are not UTF-8 text");
  add(std::move(e), true, false);
  check_design();
}

void Config::apply_overrides(const std::vector<std::string>& assignments) {
  // Two of one non-repeatable key on one command line contradict each other (the
  // last won in silence: dynamics.dt=0.1 dynamics.dt=0.5 ran at 0.5). A parameter is
  // overridden again by the design studies' families, on copies, one at a time.
  std::map<std::string, std::string, std::less<>> given;
  for (const std::string& a : assignments) {
    const auto eq = a.find('=');
    if (eq != std::string::npos) {
      const std::string key(trim(std::string_view(a).substr(0, eq)));
      const std::string value(trim(std::string_view(a).substr(eq + 1)));
      const OptionSpec* o = find_option(key);
      if (o && !o->repeatable && std::string_view(o->key) != kParameterRow) {
        const auto [at, fresh] = given.emplace(key, value);
        // The same value twice is no contradiction (--primary-only with
        // branches.switch=false). "and", not "then": trace's flags are applied after
        // the key=value arguments, whatever the order they were typed in (--switch BP1
        // branches.at=BP2 read "('BP2', then 'BP1')").
        if (!fresh && at->second != value)
          throw ConfigError(kCommandLine, 0, key,
                            "given twice on the command line (" + quote_excerpt(at->second) + " and " +
                                quote_excerpt(value) + "); only repeatable keys may repeat" +
                                (key == "branches.switch" || key == "branches.at" || key == "branches.from" ||
                                         key == "design.follow"
                                     ? " (trace's --primary-only, --switch, --from and --follow set branches.switch, "
                                       "branches.at, branches.from and design.follow)"
                                     : ""));
      }
    }
    apply_override(a);
  }
}

std::optional<double> Config::parameter(std::string_view name) const {
  const Entry* e = find(std::string(kParameterSection) + "." + std::string(name));
  if (!e) return std::nullopt;
  return parse_real(*e, e->value, "");
}

std::map<std::string, double, std::less<>> Config::parameter_map() const {
  std::map<std::string, double, std::less<>> out;
  for (const Entry& e : entries_)
    if (const OptionSpec* o = find_option(e.key); o && std::string_view(o->key) == kParameterRow)
      out[std::string(after_dot(e.key))] = parse_real(e, e.value, "");
  return out;
}

void Config::substitute(Entry& e) const { substitute(e, parameter_map()); }

void Config::substitute(Entry& e, const std::map<std::string, double, std::less<>>& params) const {
  const std::string& raw = e.raw;
  std::string out;
  std::size_t i = 0;
  while (true) {
    const std::size_t p = raw.find("${", i);
    if (p == std::string::npos) {
      out += raw.substr(i);
      break;
    }
    out += raw.substr(i, p - i);
    const std::size_t q = raw.find('}', p + 2);
    if (q == std::string::npos)
      throw ConfigError(e.file, e.line, e.key, "unclosed '${' in " + quote_excerpt(raw), "${NAME} or ${expression}");
    const std::string expr = raw.substr(p + 2, q - p - 2);
    const std::string where = "in " + quote_excerpt("${" + expr + "}");
    double v = 0.0;
    try {
      v = evaluate_expression(expr, [&params](std::string_view name) -> std::optional<double> {
        const auto it = params.find(name);
        if (it == params.end()) return std::nullopt;
        return it->second;
      });
    } catch (const ExpressionError& x) {
      std::string names;
      for (const Entry& p2 : entries_)
        if (const OptionSpec* o = find_option(p2.key); o && std::string_view(o->key) == kParameterRow)
          names += (names.empty() ? "" : ", ") + std::string(after_dot(p2.key));
      if (!x.name().empty())
        throw ConfigError(e.file, e.line, e.key, std::string(x.what()) + " " + where,
                          names.empty() ? "no [parameters] defined" : "parameters " + names);
      throw ConfigError(e.file, e.line, e.key, where + ": " + x.what(),
                        "+ - * / ^ ( ), numbers, parameter names, sqrt sin cos tan pi");
    }
    out += format_number(v);
    i = q + 1;
  }
  e.value = std::move(out);
}

void Config::substitute_all() {
  const auto params = parameter_map();
  for (Entry& e : entries_) {
    if (e.raw.empty()) continue;
    substitute(e, params);
    validate_scalar(e, *find_option(e.key));
  }
}

void Config::check_design() const {
  for (const Entry* e : all("design.parameter")) {
    if (parameter(e->value)) continue;
    std::string names;
    for (const Entry& p : entries_)
      if (const OptionSpec* o = find_option(p.key); o && std::string_view(o->key) == kParameterRow)
        names += (names.empty() ? "" : ", ") + std::string(after_dot(p.key));
    throw ConfigError(e->file, e->line, e->key, "'" + e->value + "' is not a parameter of [parameters]",
                      names.empty() ? "no [parameters] defined" : names);
  }
  // design.follow: ids of critical points (LP1, BP2, MP1), and a parameter to follow them in.
  if (const Entry* e = find("design.follow")) {
    std::string v = e->value;
    std::replace(v.begin(), v.end(), ',', ' ');
    const std::vector<std::string> ids = split_fields(v);
    if (ids.empty()) fail(e, e->key, "no critical point id given", "ids such as LP1 BP2");
    for (const std::string& id : ids) {
      const bool prefix = id.size() > 2 && (id.rfind("LP", 0) == 0 || id.rfind("BP", 0) == 0 || id.rfind("MP", 0) == 0);
      const bool digits = prefix && id.size() <= 11 &&
                          std::all_of(id.begin() + 2, id.end(), [](unsigned char c) { return std::isdigit(c); });
      if (!digits) fail(e, e->key, "'" + id + "' is not a critical point id", "LP<n>, BP<n> or MP<n>, e.g. LP1 BP2");
    }
    if (all("design.parameter").empty())
      fail(e, e->key, "a curve of critical points needs a design parameter to vary",
           "set [design] parameter = NAME (a [parameters] entry)");
  }
}

const Entry* Config::find(std::string_view key) const {
  const auto at = last_.find(key);
  return at == last_.end() ? nullptr : &entries_[at->second];
}

std::vector<const Entry*> Config::all(std::string_view key) const {
  std::vector<const Entry*> out;
  for (const Entry& e : entries_)
    if (e.key == key) out.push_back(&e);
  return out;
}

namespace {
const OptionSpec& spec_of(std::string_view key, ValueType t1, ValueType t2) {
  const OptionSpec* o = find_option(key);
  if (!o || (o->type != t1 && o->type != t2))
    throw std::logic_error("senda::input::Config: '" + std::string(key) + "' is not a key of that type");
  return *o;
}
}  // namespace

std::optional<long> Config::integer(std::string_view key) const {
  const OptionSpec& o = spec_of(key, T::Integer, T::Integer);
  if (const Entry* e = find(key)) return parse_integer(*e, e->value, "");
  if (!o.default_value) return std::nullopt;
  return std::stol(o.default_value);
}

std::optional<double> Config::real(std::string_view key) const {
  const OptionSpec& o = spec_of(key, T::Real, T::Real);
  if (const Entry* e = find(key)) return parse_real(*e, e->value, "");
  if (!o.default_value) return std::nullopt;
  return std::stod(o.default_value);
}

std::optional<bool> Config::boolean(std::string_view key) const {
  const OptionSpec& o = spec_of(key, T::Bool, T::Bool);
  const Entry def{std::string(key), o.default_value ? o.default_value : "", "", 0, ""};
  if (const Entry* e = find(key)) return parse_bool(*e, e->value, "");
  if (!o.default_value) return std::nullopt;
  return parse_bool(def, def.value, "");
}

std::optional<std::string> Config::text(std::string_view key) const {
  const OptionSpec& o = spec_of(key, T::Text, T::Choice);
  if (const Entry* e = find(key)) return e->value;
  if (!o.default_value) return std::nullopt;
  return std::string(o.default_value);
}

}  // namespace senda::input
