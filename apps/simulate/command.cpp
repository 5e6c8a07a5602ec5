// The command line of simulate (docs/config.md "The simulate command").
#include <fmt/core.h>

#include <boost/program_options.hpp>

#include <sstream>

#include "common.hpp"
#include "simulate.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace simulate_app {

namespace {

constexpr const char* kUsage =
    "usage: simulate FILE.cfg [--out DIR] [--overwrite] [--quiet] [--plot] [--vtk] [--help] [section.key=value ...]";

constexpr const char* kExitCodes =
    "exit codes:\n"
    "  0    the simulation reached dynamics.t_end\n"
    "  1    a step failed (Newton did not converge, a singular or non-finite iteration matrix,\n"
    "       a state that is not finite, a step that created energy: unstable) or a write\n"
    "       failed (results kept)\n"
    "  2    bad input or command line (message on stderr, nothing written)\n"
    "  3    internal error (a bug: please report it)\n"
    "  130  interrupted by SIGINT or SIGTERM (every step written so far kept, summary.json says\n"
    "       interrupted); a second signal a second or more after the first ends the process at once\n";

void print_help(const po::options_description& opts) {
  fmt::print("{}\n\n", kUsage);
  fmt::print(
      "Integrates in time the motion of the structure in FILE.cfg, M q'' + C q' + f(q) = lambda(t) r + d,\n"
      "with the [dynamics] section's mass, damping, load history, integrator and initial state\n"
      "(at rest, a saved state of trace with lambda raised by a factor, a velocity, a kick along a mode),\n"
      "and writes DIR/history.csv (one row per step, written as computed: t, lambda, the tracked\n"
      "displacements and velocities, kinetic, strain and load-potential energy, the energy error,\n"
      "Newton iterations; with dynamics.rigid_link and the index1-rk4 integrator also |Phi|, |Phi'|\n"
      "and the projections done), DIR/summary.json (integrator, dt, energy drift, events, the\n"
      "constraint statistics) and\n"
      "DIR/states/final.json (the last state; dynamics.initial_state of a later simulation, or\n"
      "continuation.start_state of a trace that continues statically from it).\n"
      "DIR defaults to results/<FILE stem>; an existing DIR is refused unless --overwrite.\n"
      "--plot writes DIR/history.gp and runs gnuplot: DIR/u_t, energy_t and phase .png/.svg.\n"
      "--vtk writes the structure at every written step: DIR/vtk/simulation.pvd (timestep = t).\n\n");
  std::ostringstream o;
  o << opts;
  fmt::print("{}\n", o.str());
  fmt::print(
      "overrides:\n"
      "  section.key=value after FILE.cfg replaces the file's value of a key (appends to a\n"
      "  repeatable key; a non-repeatable key given twice on the command line is refused),\n"
      "  e.g. simulate tests/dynamics/von-mises-step.cfg dynamics.lambda=0.03\n\n");
  fmt::print("{}\n", kExitCodes);
  fmt::print("configuration keys (key = default, then meaning; docs/config.md has the details):\n\n{}",
             senda::input::format_option_table());
}

}  // namespace

Parsed parse_command(int argc, char** argv) {
  std::string out;
  Command c;
  po::options_description opts("options");
  opts.add_options()("help,h", "print this help, the exit codes and every configuration key")(
      "out,o", po::value<std::string>(&out), "results directory (default: results/<FILE stem>)")(
      "overwrite", po::bool_switch(&c.overwrite), "replace the results in an existing directory")(
      "quiet,q", po::bool_switch(&c.quiet), "no progress output, only the closing summary")(
      "plot", po::bool_switch(&c.plot), "draw u(t), E(t) and the phase portrait with gnuplot (output.plot)")(
      "vtk", po::bool_switch(&c.vtk), "write the structure at every written step as VTK files (output.vtk)");
  po::variables_map vm;
  std::vector<std::string> positional;
  if (!senda_app::parse_options(argc, argv, opts, "simulate", kUsage, vm, positional))
    return {std::nullopt, senda_app::kExitBadInput};
  if (vm.count("help")) {
    print_help(opts);
    return {std::nullopt, senda_app::kExitOk};
  }
  if (const auto why = senda_app::split_inputs(positional, c.cfg, c.overrides)) {
    fmt::print(stderr, "simulate: {}\n{}\n", *why, kUsage);
    return {std::nullopt, senda_app::kExitBadInput};
  }
  if (vm.count("out") && out.empty()) {
    fmt::print(stderr, "simulate: --out needs a directory name (it was empty)\n{}\n", kUsage);
    return {std::nullopt, senda_app::kExitBadInput};
  }
  c.out_dir = out.empty() ? senda_app::default_out_dir(c.cfg) : fs::path(out);
  return {c, senda_app::kExitOk};
}

}  // namespace simulate_app
