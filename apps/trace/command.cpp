// The command line of trace (docs/config.md "Command line"): options, --help,
// and the flags that are keys (--primary-only is branches.switch=false, ...).
#include <fmt/core.h>

#include <boost/program_options.hpp>

#include <sstream>

#include "app.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace trace_app {

namespace {

constexpr const char* kUsage =
    "usage: trace FILE.cfg [--out DIR] [--overwrite] [--quiet] [--primary-only] [--switch BP1,BP3]\n"
    "             [--from DIR/states/BP1.json] [--plot] [--vtk]\n"
    "             [--follow LP1,BP1] [--sweep NAME=START:STOP:COUNT[:log] [--jobs N]]\n"
    "             [--imperfection NAME=START:STOP:COUNT]\n"
    "             [--help] [section.key=value ...]";

constexpr const char* kExitCodes =
    "exit codes:\n"
    "  0    the trace ran: completed (a stop criterion was met) or max-steps\n"
    "  1    the trace ended early: step-too-small or diverged, or stalled (max-steps\n"
    "       without the path moving) (results kept), or a curve of design.follow\n"
    "       (--follow) could not start (bad-start)\n"
    "  2    bad input or command line (message on stderr, nothing written)\n"
    "  3    internal error (a bug: please report it)\n"
    "  130  interrupted by SIGINT or SIGTERM (summary.json says interrupted); a second signal\n"
    "       a second or more after the first ends the process at once (files so far kept)\n";

void print_help(const po::options_description& opts) {
  fmt::print("{}\n\n", kUsage);
  fmt::print(
      "Follows the equilibrium path of the structure in FILE.cfg through limit points,\n"
      "locates every critical point (limit or bifurcation) on it, follows the secondary\n"
      "branches of its bifurcation points, and writes DIR/path.csv (one row per converged\n"
      "point, with its branch), DIR/summary.json and DIR/modes/<id>.csv.\n"
      "DIR defaults to results/<FILE stem>; an existing DIR is refused unless --overwrite.\n"
      "--plot also writes DIR/plot.gp and DIR/critical.csv and runs gnuplot there: one figure\n"
      "per tracked displacement, DIR/lambda_<column>.png and .svg (without gnuplot: a message,\n"
      "the exit code of the trace unchanged; run 'gnuplot plot.gp' in DIR later), and SVG drawings\n"
      "of the structure, of the deformed shape and of the mode of each critical point in\n"
      "DIR/drawings/. --vtk writes the structure at every point and every mode as VTK files for\n"
      "ParaView: DIR/vtk/branch<B>.pvd (open it in ParaView) and DIR/vtk/modes.pvd.\n"
      "Progress: one line per point, or on a terminal a single line updated in place.\n"
      "--sweep H=30:45:16 traces the model once per value of the parameter H ([parameters],\n"
      "used as ${{H}} in the file; COUNT values from START to STOP, ':log' for geometric spacing),\n"
      "--jobs at a time, each into DIR/sweep/NNN/, then writes DIR/sweep.csv (one row per value\n"
      "and critical point), DIR/sweep.json and DIR/sweep.gp, drawn as DIR/sweep.png/.svg (critical\n"
      "load factor against H) when gnuplot is there. One line per finished value (none with\n"
      "--quiet). Exit code: 0 every value ran, 1 some value failed (its row says why), 2 bad\n"
      "input (nothing written), 130 interrupted (sweep.csv/json hold the finished values).\n"
      "Distributed runs (a build configured with -DSENDA_MPI=ON): mpirun -np P trace FILE.cfg ...\n"
      "runs the same analysis with MUMPS distributing every factorization over the P processes;\n"
      "rank 0 assembles the matrices, prints and writes the results (once); linalg.solver = auto\n"
      "means mumps, cholmod is refused (exit 2); a sweep runs its values one at a time. As root,\n"
      "OpenMPI needs mpirun --allow-run-as-root (and --oversubscribe for more ranks than cores).\n"
      "Environment: OPENBLAS_NUM_THREADS sets the BLAS threads of the factorizations (every core\n"
      "by default). Where OpenBLAS falls back on its SSE3 'Prescott' kernels on a CPU it does not\n"
      "know (Debian's 0.3.21 on recent Intel CPUs), trace sets OPENBLAS_CORETYPE from the CPU's\n"
      "features (SkylakeX, Haswell, Sandybridge) and starts again; a value you set is kept.\n\n");
  std::ostringstream o;
  o << opts;
  fmt::print("{}\n", o.str());
  fmt::print(
      "overrides:\n"
      "  section.key=value after FILE.cfg replaces the file's value of a key; for a\n"
      "  repeatable key (node, truss, load, track, ...) it adds one more entry; a\n"
      "  non-repeatable key given twice on the command line is refused.\n"
      "  e.g. trace problems/von-mises.cfg stop.max_steps=50\n"
      "  parameters.NAME=value changes a [parameters] entry wherever ${{NAME}} is used.\n\n");
  fmt::print("{}\n", kExitCodes);
  fmt::print("configuration keys (key = default, then meaning; docs/config.md has the details):\n\n{}",
             senda::input::format_option_table());
}

}  // namespace

Parsed parse_command(int argc, char** argv) {
  std::string cfg, out;
  std::vector<std::string> overrides;
  bool overwrite = false, quiet = false, primary_only = false, plot = false, vtk = false;
  std::string switch_at, from, sweep, follow, imperfection;
  int jobs = 0;
  po::options_description opts("options");
  opts.add_options()("help,h", "print this help, the exit codes and every configuration key")(
      "out,o", po::value<std::string>(&out), "results directory (default: results/<FILE stem>)")(
      "overwrite", po::bool_switch(&overwrite), "replace the results in an existing directory")(
      "quiet,q", po::bool_switch(&quiet), "no progress output, only the closing summary")(
      "primary-only", po::bool_switch(&primary_only), "trace the primary path only (branches.switch=false)")(
      "switch", po::value<std::string>(&switch_at), "switch branches only at these points, e.g. BP1,BP3 (branches.at)")(
      "from", po::value<std::string>(&from),
      "trace only the branches of a saved bifurcation point, e.g. results/x/states/BP1.json (branches.from)")(
      "plot", po::bool_switch(&plot),
      "draw lambda against each tracked displacement with gnuplot: DIR/plot.gp, DIR/lambda_<column>.png/.svg "
      "(output.plot); also SVG drawings of the structure and its critical shapes and modes in DIR/drawings/")(
      "vtk", po::bool_switch(&vtk),
      "write the structure at every point and every mode as VTK files for ParaView: DIR/vtk/*.vtu, *.pvd "
      "(output.vtk)")(
      "sweep", po::value<std::string>(&sweep),
      "trace once per value of a parameter: NAME=START:STOP:COUNT[:log], e.g. H=30:45:16; writes DIR/sweep.csv, "
      "DIR/sweep.json, DIR/sweep.gp and DIR/sweep.png/.svg")(
      "jobs,j", po::value<int>(&jobs), "with --sweep: values traced at a time (default: the number of cores)")(
      "follow", po::value<std::string>(&follow),
      "after the run, follow the critical load of these points as the design parameter varies, e.g. LP1,BP1: "
      "DIR/curves/<id>-<mu>-<up|down>.csv (design.follow)")(
      "imperfection", po::value<std::string>(&imperfection),
      "imperfection sensitivity: NAME=START:STOP:COUNT, amplitudes of the [parameters] entry NAME (geometric "
      "spacing, START > 0); the first critical point at NAME = 0 and at each amplitude, and the fit "
      "1 - lambda_max/lambda_cr = c NAME^beta: DIR/imperfection.csv, DIR/imperfection.json (not with --sweep)");
  po::variables_map vm;
  std::vector<std::string> positional;
  if (!senda_app::parse_options(argc, argv, opts, "trace", kUsage, vm, positional)) return {std::nullopt, kExitBadInput};
  if (vm.count("help")) {
    print_help(opts);
    return {std::nullopt, kExitOk};
  }
  if (const auto why = senda_app::split_inputs(positional, cfg, overrides)) {
    fmt::print(stderr, "trace: {}\n{}\n", *why, kUsage);
    return {std::nullopt, kExitBadInput};
  }
  if (primary_only) overrides.push_back("branches.switch=false");
  if (!switch_at.empty()) overrides.push_back("branches.at=" + switch_at);
  if (!from.empty()) overrides.push_back("branches.from=" + from);
  if (!follow.empty()) overrides.push_back("design.follow=" + follow);
  if (vm.count("out") && out.empty()) {
    fmt::print(stderr, "trace: --out needs a directory name (it was empty)\n{}\n", kUsage);
    return {std::nullopt, kExitBadInput};
  }
  if (!sweep.empty() && !imperfection.empty()) {
    fmt::print(stderr, "trace: --sweep and --imperfection are two studies: run them one at a time\n{}\n", kUsage);
    return {std::nullopt, kExitBadInput};
  }
  const fs::path out_dir = out.empty() ? senda_app::default_out_dir(cfg) : fs::path(out);
  if (vm.count("jobs") && (jobs < 1 || sweep.empty())) {
    fmt::print(stderr, "trace: --jobs takes a number >= 1 and goes with --sweep\n{}\n", kUsage);
    return {std::nullopt, kExitBadInput};
  }
  const Command c{.cfg = cfg,
                  .overrides = overrides,
                  .out_dir = out_dir,
                  .overwrite = overwrite,
                  .quiet = quiet,
                  .plot = plot,
                  .vtk = vtk,
                  .sweep = sweep,
                  .imperfection = imperfection,
                  .jobs = jobs};
  return {c, kExitOk};
}

}  // namespace trace_app
