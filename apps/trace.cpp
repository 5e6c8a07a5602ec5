// trace FILE.cfg [--out DIR] [--overwrite] [--quiet] [--primary-only] [--switch IDS] [--from STATE] [--plot]
//       [--vtk] [--follow IDS] [--sweep NAME=START:STOP:COUNT[:log] [--jobs N]]
//       [--imperfection NAME=START:STOP:COUNT] [--help] [section.key=value ...]
//
// Follows the equilibrium path of the structure in FILE.cfg and writes
// DIR/path.csv and DIR/summary.json (docs/config.md). Exit codes: 0 the trace ran
// (completed or max-steps), 1 it ended with step-too-small or diverged (results
// kept), 2 bad input (nothing written), 130 interrupted, 3 internal error.
// With --plot (or output.plot = true) it then writes DIR/plot.gp and
// DIR/critical.csv and runs gnuplot (the program named by $SENDA_GNUPLOT, default
// gnuplot) in DIR; a missing or failing gnuplot is a message on stderr and leaves
// the exit code of the trace as it was. --plot (or output.drawings = true) also
// writes SVG drawings to DIR/drawings/, --vtk (or output.vtk = true) VTK files
// for ParaView to DIR/vtk/.
// With --sweep it traces the model once per value of a [parameters] entry
// (apps/sweep.cpp); exit 0 every value ran, 1 some value failed, 130 interrupted.
//
// Progress goes to stdout: one line per point when stdout is not a terminal; on
// a terminal a single line updated in place (points, lambda, step length,
// critical points so far, elapsed time), with the messages about crossings,
// critical points and branches printed above it; nothing with --quiet.
#include <fmt/core.h>

#include <fstream>

#include <boost/program_options.hpp>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"
#include "senda/io/design.hpp"
#include "senda/io/plot.hpp"
#include "senda/io/results.hpp"
#include "senda/io/study.hpp"
#include "senda/io/trace.hpp"
#include "sweep.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_signal(int) { g_stop = 1; }

constexpr const char* kUsage =
    "usage: trace FILE.cfg [--out DIR] [--overwrite] [--quiet] [--primary-only] [--switch BP1,BP3]\n"
    "             [--from DIR/states/BP1.json] [--plot] [--vtk]\n"
    "             [--follow LP1,BP1] [--sweep NAME=START:STOP:COUNT[:log] [--jobs N]]\n"
    "             [--imperfection NAME=START:STOP:COUNT]\n"
    "             [--help] [section.key=value ...]";

constexpr const char* kExitCodes =
    "exit codes:\n"
    "  0    the trace ran: completed (a stop criterion was met) or max-steps\n"
    "  1    the trace ended early: step-too-small or diverged (results kept)\n"
    "  2    bad input or command line (message on stderr, nothing written)\n"
    "  3    internal error (a bug: please report it)\n"
    "  130  interrupted by SIGINT or SIGTERM (summary.json says interrupted)\n";

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
      "input (nothing written), 130 interrupted (sweep.csv/json hold the finished values).\n\n");
  std::ostringstream o;
  o << opts;
  fmt::print("{}\n", o.str());
  fmt::print(
      "overrides:\n"
      "  section.key=value after FILE.cfg replaces the file's value of a key; for a\n"
      "  repeatable key (node, truss, load, track, ...) it adds one more entry.\n"
      "  e.g. trace problems/von-mises.cfg stop.max_steps=50\n"
      "  parameters.NAME=value changes a [parameters] entry wherever ${{NAME}} is used.\n\n");
  fmt::print("{}\n", kExitCodes);
  fmt::print("configuration keys (key = default, then meaning; docs/config.md has the details):\n\n{}",
             senda::io::format_option_table());
}

// Progress output. Not a terminal: every text as it comes (one line per point).
// A terminal: the per-point lines are replaced by one line redrawn in place
// (at most every kRedraw seconds), the other messages go above it.
class Console {
 public:
  explicit Console(bool tty) : tty_(tty), t0_(std::chrono::steady_clock::now()) {}
  ~Console() { clear(); }
  senda::io::Progress progress;

  // A message that stays (crossings, critical points, branches).
  void say(const std::string& text) {
    if (!tty_) {
      fmt::print("{}", text);
      return;
    }
    erase();
    fmt::print("{}", text);
    if (progress.points > 0) draw();  // the line exists once there is a point
  }
  // A new point: its line, or on a terminal the progress line.
  void point(const senda::io::TraceRun& r, const senda::continuation::PathPoint& p, const std::string& line) {
    ++progress.points;
    progress.branch = r.current_branch();
    progress.lambda = p.lambda;
    progress.step_length = p.step_length;
    if (!tty_) {
      fmt::print("{}", line);
      std::fflush(stdout);
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < kRedraw) return;
    erase();
    draw();
  }
  // Removes the progress line (before the closing summary).
  void clear() {
    if (tty_) erase();
  }

 private:
  static constexpr std::chrono::milliseconds kRedraw{100};
  void erase() {
    if (!shown_) return;
    fmt::print("\r\x1b[K");
    shown_ = false;
    std::fflush(stdout);
  }
  void draw() {
    last_ = std::chrono::steady_clock::now();
    progress.elapsed_s = std::chrono::duration<double>(last_ - t0_).count();
    winsize w{};
    const std::size_t width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 1 ? w.ws_col - 1 : 0;
    fmt::print("{}", senda::io::progress_line(progress, width));
    shown_ = true;
    std::fflush(stdout);
  }
  bool tty_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point t0_, last_;
};

std::string format_values(const senda::io::TraceRun& run, const Eigen::VectorXd& q) {
  std::string s;
  const std::vector<double> u = run.tracked(q);
  for (std::size_t i = 0; i < u.size(); ++i) s += fmt::format("  {}={:+.6e}", run.setup().track[i].column, u[i]);
  return s;
}

}  // namespace

// trace --imperfection NAME=START:STOP:COUNT (senda::io::imperfection_study).
int run_imperfection(const senda::io::Config& config, const std::string& spec_text, bool quiet, bool overwrite,
                     const fs::path& out_dir) {
  senda::io::SweepSpec spec;
  try {
    if (std::count(spec_text.begin(), spec_text.end(), ':') != 2)
      throw senda::io::ConfigError(senda::io::kCommandLine, 0, "--imperfection", "expected NAME=START:STOP:COUNT",
                                   "NAME=START:STOP:COUNT, amplitudes spaced geometrically");
    spec = senda::io::parse_sweep(spec_text, config);
  } catch (const senda::io::ConfigError& e) {
    if (e.key() == "--imperfection") throw;
    throw senda::io::ConfigError(e.file(), e.line(), "--imperfection", e.message(),
                                 e.valid().empty() ? "NAME=START:STOP:COUNT, NAME a [parameters] entry" : e.valid());
  }
  if (!(spec.start > 0.0) || !(spec.stop > 0.0) || spec.count < 2)
    throw senda::io::ConfigError(senda::io::kCommandLine, 0, "--imperfection",
                                 "amplitudes must be positive and at least two (they are spaced geometrically)",
                                 "NAME=START:STOP:COUNT with 0 < START, 0 < STOP, COUNT >= 2");
  spec.log = true;
  const senda::io::Setup setup = senda::io::build(config);
  senda::io::check_output_dir(out_dir, overwrite);
  senda::io::prepare_output_dir(out_dir, overwrite);
  if (!quiet)
    fmt::print("imperfection sensitivity: {} = 0, then {} amplitudes in [{:g}, {:g}]\n", spec.parameter, spec.count,
               spec.start, spec.stop);
  const senda::io::ImperfectionRun r =
      senda::io::imperfection_study(config, setup, spec.parameter, senda::io::sweep_values(spec));
  senda::io::write_file_atomically(out_dir / "imperfection.csv", senda::io::imperfection_csv(r));
  senda::io::write_file_atomically(out_dir / "imperfection.json", senda::io::imperfection_json(r));
  if (!r.message.empty()) {
    fmt::print(stderr, "trace: --imperfection: {}\n", r.message);
    return 1;
  }
  fmt::print("\n  perfect structure ({} = 0): {} {} at lambda = {:.12g}\n", spec.parameter, r.perfect_id,
             r.perfect_kind, r.study.lambda_perfect);
  fmt::print("  {:>14} {:>20} {:>14}\n", spec.parameter, "lambda_max", "1 - ratio");
  int missing = 0;
  for (const auto& p : r.study.points) {
    if (p.found)
      fmt::print("  {:>14.6g} {:>20.12g} {:>14.6e}\n", p.amplitude, p.lambda_max,
                 1.0 - p.lambda_max / r.study.lambda_perfect);
    else {
      fmt::print("  {:>14.6g}  no maximum load: {}\n", p.amplitude, p.message);
      ++missing;
    }
  }
  const auto& f = r.study.fit;
  if (f.valid)
    fmt::print("  fit: 1 - lambda_max/lambda_cr = {:.6g} {}^{:.6f} over {} amplitudes (max log residual {:.2g})\n",
               f.coefficient, spec.parameter, f.exponent, f.points, f.max_log_residual);
  else
    fmt::print("  no fit: {}\n", f.message);
  fmt::print("  results in {}\n", out_dir.string());
  return missing == 0 && f.valid ? 0 : 1;
}

int main(int argc, char** argv) {
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
      "1 - lambda_max/lambda_cr = c NAME^beta: DIR/imperfection.csv, DIR/imperfection.json");
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    fmt::print(stderr, "trace: {}\n{}\n", e.what(), kUsage);
    return 2;
  }
  if (vm.count("help")) {
    print_help(opts);
    return 0;
  }
  if (vm.count("input")) {
    const auto& in = vm["input"].as<std::vector<std::string>>();
    cfg = in.front();
    overrides.assign(in.begin() + 1, in.end());
  }
  if (cfg.empty()) {
    fmt::print(stderr, "trace: no configuration file given\n{}\n", kUsage);
    return 2;
  }
  for (const std::string& o : overrides)
    if (o.find('=') == std::string::npos) {
      fmt::print(stderr, "trace: '{}' is not an override 'section.key=value' (only one FILE.cfg is read)\n{}\n", o,
                 kUsage);
      return 2;
    }
  if (primary_only) overrides.push_back("branches.switch=false");
  if (!switch_at.empty()) overrides.push_back("branches.at=" + switch_at);
  if (!from.empty()) overrides.push_back("branches.from=" + from);
  if (!follow.empty()) overrides.push_back("design.follow=" + follow);
  const fs::path out_dir = out.empty() ? fs::path("results") / fs::path(cfg).stem() : fs::path(out);

  try {
    senda::io::Config config = senda::io::Config::read_file(cfg);
    for (const std::string& o : overrides) config.apply_override(o);
    if (vm.count("jobs") && (jobs < 1 || sweep.empty())) {
      fmt::print(stderr, "trace: --jobs takes a number >= 1 and goes with --sweep\n{}\n", kUsage);
      return 2;
    }
    if (!sweep.empty()) return run_sweep(config, SweepCommand{sweep, jobs, quiet, overwrite, out_dir});
    if (!imperfection.empty()) return run_imperfection(config, imperfection, quiet, overwrite, out_dir);
    senda::io::Setup setup = senda::io::build(config);
    plot = plot || config.boolean("output.plot").value_or(false);
    senda::io::TraceRun run(setup);
    run.start();  // a mechanism is bad input: found before anything is written
    senda::io::check_output_dir(out_dir, overwrite);

    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    senda::io::TraceEvents ev;
    ev.stop_requested = [] { return g_stop != 0; };
    Console console(isatty(STDOUT_FILENO) != 0);
    if (!quiet) {
      ev.on_start = [&console](const senda::io::TraceRun& r) {
        const auto& p = r.follower().current();
        console.say(fmt::format("{}: {} unknowns, constraint {}\n", r.setup().problem_name, r.setup().model->size(),
                                senda::continuation::to_string(r.setup().options.constraint)));
        console.point(r, p,
                      fmt::format("step {:>5}  lambda={:+.9e}{}  it={:>2}  ds={:.3e}  neg={}\n", p.index, p.lambda,
                                  format_values(r, p.q), p.iterations, p.step_length, p.negative_pivots));
      };
      ev.on_point = [&console](const senda::io::TraceRun& r, const senda::continuation::PathPoint& p) {
        const std::string b = r.current_branch() > 0 ? fmt::format("b{} ", r.current_branch()) : "";
        console.point(r, p,
                      fmt::format("{}step {:>5}  lambda={:+.9e}{}  it={:>2}  ds={:.3e}  neg={}\n", b, p.index,
                                  p.lambda, format_values(r, p.q), p.iterations, p.step_length, p.negative_pivots));
      };
      ev.on_critical = [&console](const senda::io::TraceRun& r, const senda::critical::CriticalPoint& cp,
                                  bool is_new) {
        if (!is_new) {
          console.say(fmt::format("  branch {} meets {} (located before): the branch ends there\n",
                                  r.current_branch(), cp.id));
          return;
        }
        ++console.progress.critical_points;
        std::string text;
        if (cp.converged)
          text = fmt::format("  {} {} point: lambda = {:.12g}{}  ({} in {} iterations, residual {:.1e})\n", cp.id,
                             senda::critical::to_string(cp.kind), cp.lambda, format_values(r, cp.q), cp.system,
                             cp.newton_iterations, cp.residual);
        else
          text = fmt::format("  {} {}: not located: {} (bracket lambda in [{:.9g}, {:.9g}])\n", cp.id,
                             senda::critical::to_string(cp.kind), cp.message, cp.lambda_before, cp.lambda_after);
        if (cp.abe && cp.abe->valid)
          text += fmt::format("     bifurcation equation: A = {:.6g}, B1 = {:.6g}, B2 = {:.6g}, C = {:.6g}: {}\n",
                              cp.abe->A, cp.abe->B1, cp.abe->B2, cp.abe->C, cp.abe->message);
        console.say(text);
      };
      ev.on_branch_start = [&console](const senda::io::TraceRun&, const senda::critical::Branch& b) {
        console.say(fmt::format("branch {}: from {} along {}its secondary tangent (parent branch {})\n", b.id,
                                b.start_point, b.direction > 0 ? "+" : "-", b.parent));
      };
      ev.on_curve_start = [&console](const senda::io::TraceRun&, const senda::io::CurveResult& c) {
        console.say(fmt::format("curve of {}: {} {} ...\n", c.point, c.parameter,
                                c.direction > 0 ? "increasing" : "decreasing"));
      };
      ev.on_crossing = [&console](const senda::io::TraceRun&, const senda::continuation::Crossing& c) {
        console.say(fmt::format(
            "  crossing between points {} and {}: lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n",
            c.point_before, c.point_after, c.lambda_before, c.lambda_after, c.negative_pivots_before,
            c.negative_pivots_after, c.det_sign_changed ? ", det K changed sign" : ""));
      };
    }
    senda::io::OutputOptions output;
    output.vtk = vtk || config.boolean("output.vtk").value_or(false);
    output.drawings = plot || config.boolean("output.drawings").value_or(false);
    const senda::io::TraceSummary s = run.run(out_dir, overwrite, ev, output);
    console.clear();

    fmt::print("\n{}: {} points, termination {}: {}\n", s.problem, s.points,
               senda::continuation::to_string(s.termination), s.message);
    fmt::print("  lambda in [{:.9g}, {:.9g}], {} Newton iterations, {} factorizations, {:.3f} s\n", s.lambda_min,
               s.lambda_max, s.newton_iterations, s.factorizations, s.wall_time_s);
    if (s.crossings.empty()) fmt::print("  no crossings (no change of det K sign, inertia or bordered determinant)\n");
    for (std::size_t k = 0; k < s.crossings.size(); ++k) {
      const auto& c = s.crossings[k];
      fmt::print("  crossing: branch {}, points {}-{}, lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n",
                 s.crossing_branches[k], c.point_before, c.point_after, c.lambda_before, c.lambda_after,
                 c.negative_pivots_before, c.negative_pivots_after, c.det_sign_changed ? ", det sign changed" : "");
    }
    if (!s.critical_points.empty()) {
      fmt::print("\n  critical points:\n  {:<5} {:<12} {:>20} {:>6}  {}\n", "id", "kind", "lambda", "iter",
                 "status");
      for (std::size_t k = 0; k < s.critical_points.size(); ++k) {
        const auto& cp = s.critical_points[k];
        std::string u;
        for (std::size_t i = 0; i < s.critical_tracked[k].size(); ++i)
          u += fmt::format("  {}={:+.9e}", s.track_columns[i], s.critical_tracked[k][i]);
        std::string kind = senda::critical::to_string(cp.kind);
        if (cp.abe && cp.abe->valid) kind += cp.abe->symmetric ? " (sym)" : " (asym)";
        fmt::print("  {:<5} {:<12} {:>20.12g} {:>6}  {}{}\n", cp.id, kind, cp.lambda, cp.newton_iterations,
                   cp.converged ? "located" : "NOT located: " + cp.message, u);
      }
    }
    bool any_sensitivity = false;
    for (const auto& v : s.sensitivities) any_sensitivity = any_sensitivity || !v.empty();
    if (any_sensitivity) {
      fmt::print("\n  sensitivities d lambda_cr / d mu:\n");
      for (std::size_t k = 0; k < s.sensitivities.size(); ++k)
        for (const auto& ps : s.sensitivities[k])
          fmt::print("  {:<5} {} = {:.9g}: {}\n", s.critical_points[k].id, ps.parameter, ps.value,
                     ps.sensitivity.valid ? fmt::format("{:+.9e}", ps.sensitivity.dlambda_dmu)
                                          : "none: " + ps.sensitivity.message);
    }
    if (!s.curves.empty()) {
      fmt::print("\n  curves of critical points:\n");
      for (const auto& c : s.curves) {
        std::string end;
        if (!c.curve.points.empty())
          end = fmt::format(", ends at {} = {:.9g}, lambda = {:.9g}", c.parameter, c.curve.points.back().mu,
                            c.curve.points.back().lambda);
        fmt::print("  {} {} {}: {} points, {}{}{}\n", c.point, c.parameter, c.direction > 0 ? "up" : "down",
                   c.curve.points.size(), senda::critical::to_string(c.curve.termination), end,
                   c.file.empty() ? "" : " (" + c.file.generic_string() + ")");
        if (!c.curve.message.empty()) fmt::print("      {}\n", c.curve.message);
        for (const auto& e : c.curve.events)
          fmt::print("      {} at {} = {:.9g}, lambda = {:.9g}{}\n", senda::critical::to_string(e.kind), c.parameter,
                     e.mu, e.lambda, e.located ? " (located)" : " (not located)");
      }
    }
    if (s.branches.size() > 1) {
      fmt::print("\n  branches:\n");
      for (const auto& b : s.branches) {
        const std::string indent(2 * static_cast<std::size_t>(b.depth) + 4, ' ');
        if (b.id == 0)
          fmt::print("{}0 primary path: {}\n", indent,
                     b.termination == senda::critical::BranchEnd::NotTraced
                         ? b.message
                         : fmt::format("{} points, {}", b.points + 1, senda::critical::to_string(b.termination)));
        else
          fmt::print("{}{} from {} ({}): {} points, {}{}\n", indent, b.id, b.start_point, b.direction > 0 ? "+" : "-",
                     b.points + 1, senda::critical::to_string(b.termination), b.end_point.empty() ? "" : " at " + b.end_point);
      }
    }
    fmt::print("  results in {}\n", out_dir.string());
    const int code = senda::io::exit_code(s.termination);
    if (plot) {
      // The results are complete: whatever happens to the figures, the exit
      // code stays the trace's (a failed write of plot.gp is an OutputError, 1).
      const senda::io::PlotFiles files = senda::io::write_plot_files(out_dir, s);
      const char* env = std::getenv("SENDA_GNUPLOT");
      const senda::io::RenderResult r = senda::io::render_plot(files, env && *env ? env : "gnuplot");
      if (r.status == senda::io::RenderStatus::Rendered)
        fmt::print("  plot: {}\n", r.message);
      else
        fmt::print(stderr, "trace: --plot: {}\n", r.message);
      if (!s.curves.empty()) {
        // λ_cr against μ ([design] follow): DIR/curves.gp, curves.png/.svg; its
        // own log, curves.log, so that plot.log keeps the first run's messages.
        senda::io::PlotFiles cf;
        cf.dir = out_dir;
        cf.script = out_dir / "curves.gp";
        cf.figures = {out_dir / "curves.png", out_dir / "curves.svg"};
        cf.log = out_dir / "curves.log";
        bool written = true;
        try {
          senda::io::write_file_atomically(cf.script, senda::io::curves_plot_script(s.curves));
        } catch (const senda::io::OutputError& e) {
          fmt::print(stderr, "trace: --plot: {}\n", e.what());
          written = false;
        }
        if (written) {
          const senda::io::RenderResult rc = senda::io::render_plot(cf, env && *env ? env : "gnuplot");
          if (rc.status == senda::io::RenderStatus::Rendered)
            fmt::print("  plot: {}\n", rc.message);
          else
            fmt::print(stderr, "trace: --plot: curves: {}\n", rc.message);
        }
      }
    }
    return code;
  } catch (const senda::io::ConfigError& e) {
    fmt::print(stderr, "trace: {}\n", e.what());
    return 2;
  } catch (const senda::io::OutputError& e) {
    fmt::print(stderr, "trace: {}\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "trace: internal error: {}\n", e.what());
    return 3;
  }
}
