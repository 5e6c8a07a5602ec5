// trace FILE.cfg [--out DIR] [--overwrite] [--quiet] [--help] [section.key=value ...]
//
// Follows the equilibrium path of the structure in FILE.cfg and writes
// DIR/path.csv and DIR/summary.json (docs/config.md). Exit codes: 0 the trace ran
// (completed or max-steps), 1 it ended with step-too-small or diverged (results
// kept), 2 bad input (nothing written), 130 interrupted, 3 internal error.
#include <fmt/core.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"
#include "senda/io/results.hpp"
#include "senda/io/trace.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_signal(int) { g_stop = 1; }

constexpr const char* kUsage = "usage: trace FILE.cfg [--out DIR] [--overwrite] [--quiet] [--help] [section.key=value ...]";

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
      "Follows the equilibrium path of the structure in FILE.cfg through limit points\n"
      "and writes DIR/path.csv (one row per converged point) and DIR/summary.json.\n"
      "DIR defaults to results/<FILE stem>; an existing DIR is refused unless --overwrite.\n\n");
  std::ostringstream o;
  o << opts;
  fmt::print("{}\n", o.str());
  fmt::print(
      "overrides:\n"
      "  section.key=value after FILE.cfg replaces the file's value of a key; for a\n"
      "  repeatable key (node, truss, load, track, ...) it adds one more entry.\n"
      "  e.g. trace problems/von-mises.cfg stop.max_steps=50\n\n");
  fmt::print("{}\n", kExitCodes);
  fmt::print("configuration keys (key = default, then meaning; docs/config.md has the details):\n\n{}",
             senda::io::format_option_table());
}

std::string format_values(const senda::io::TraceRun& run, const senda::continuation::PathPoint& p) {
  std::string s;
  const std::vector<double> u = run.tracked(p);
  for (std::size_t i = 0; i < u.size(); ++i) s += fmt::format("  {}={:+.6e}", run.setup().track[i].column, u[i]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cfg, out;
  std::vector<std::string> overrides;
  bool overwrite = false, quiet = false;
  po::options_description opts("options");
  opts.add_options()("help,h", "print this help, the exit codes and every configuration key")(
      "out,o", po::value<std::string>(&out), "results directory (default: results/<FILE stem>)")(
      "overwrite", po::bool_switch(&overwrite), "replace the results in an existing directory")(
      "quiet,q", po::bool_switch(&quiet), "no progress lines, only the closing summary");
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
  const fs::path out_dir = out.empty() ? fs::path("results") / fs::path(cfg).stem() : fs::path(out);

  try {
    senda::io::Setup setup = senda::io::load(cfg, overrides);
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
    if (!quiet) {
      ev.on_start = [](const senda::io::TraceRun& r) {
        const auto& p = r.follower().current();
        fmt::print("{}: {} unknowns, constraint {}\n", r.setup().problem_name, r.setup().model->size(),
                   senda::continuation::to_string(r.setup().options.constraint));
        fmt::print("step {:>5}  lambda={:+.9e}{}  it={:>2}  ds={:.3e}  neg={}\n", p.index, p.lambda,
                   format_values(r, p), p.iterations, p.step_length, p.negative_pivots);
        std::fflush(stdout);
      };
      ev.on_point = [](const senda::io::TraceRun& r, const senda::continuation::PathPoint& p) {
        fmt::print("step {:>5}  lambda={:+.9e}{}  it={:>2}  ds={:.3e}  neg={}\n", p.index, p.lambda,
                   format_values(r, p), p.iterations, p.step_length, p.negative_pivots);
        std::fflush(stdout);
      };
      ev.on_crossing = [](const senda::io::TraceRun&, const senda::continuation::Crossing& c) {
        fmt::print("  crossing between points {} and {}: lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n",
                   c.point_before, c.point_after, c.lambda_before, c.lambda_after, c.negative_pivots_before,
                   c.negative_pivots_after, c.det_sign_changed ? ", det K changed sign" : "");
      };
    }
    const senda::io::TraceSummary s = run.run(out_dir, overwrite, ev);

    fmt::print("\n{}: {} points, termination {}: {}\n", s.problem, s.points,
               senda::continuation::to_string(s.termination), s.message);
    fmt::print("  lambda in [{:.9g}, {:.9g}], {} Newton iterations, {} factorizations, {:.3f} s\n", s.lambda_min,
               s.lambda_max, s.newton_iterations, s.factorizations, s.wall_time_s);
    if (s.crossings.empty()) fmt::print("  no crossings (no change of det K sign or inertia)\n");
    for (const auto& c : s.crossings)
      fmt::print("  crossing: points {}-{}, lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n", c.point_before,
                 c.point_after, c.lambda_before, c.lambda_after, c.negative_pivots_before, c.negative_pivots_after,
                 c.det_sign_changed ? ", det sign changed" : "");
    fmt::print("  results in {}\n", out_dir.string());
    return senda::io::exit_code(s.termination);
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
