// The cosim command: options and --help, then one co-simulation: the spec, the
// results directory, the master with the history as its record callback, the
// summary and, with --plot, the energy figure.
#include <fmt/core.h>

#include <boost/program_options.hpp>

#include <sstream>

#include "app.hpp"
#include "senda/output/files.hpp"
#include "senda/output/plot.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace cosim_app {

namespace {

constexpr const char* kUsage =
    "usage: cosim FILE.cfg [--out DIR] [--overwrite] [--quiet] [--plot [--compare DIR1,DIR2,...]] [--help]\n"
    "             [section.key=value ...]";

void print_help(const po::options_description& opts) {
  fmt::print("{}\n\n", kUsage);
  fmt::print(
      "Co-simulates the units of the [cosim] section of FILE.cfg: each unit (a mass-spring\n"
      "oscillator, or a Senda structure linearised at its unloaded state with lumped masses)\n"
      "keeps its own integrator and micro step; the units exchange their outputs only every\n"
      "macro step, Jacobi or Gauss-Seidel, with held (zoh) or extrapolated (foh, soh) inputs,\n"
      "optionally iterated. Writes DIR/cosim_history.csv (one row per macro step, flushed: the\n"
      "energy of each unit and of the whole, the mean power into each unit through its inputs,\n"
      "the interface energy residual, the exchanged outputs) and DIR/summary.json.\n"
      "DIR defaults to results/<FILE stem>; an existing DIR is refused unless --overwrite.\n"
      "--plot also writes DIR/energy.gp and runs gnuplot there: DIR/energy.png and .svg, the\n"
      "total energy against time (without gnuplot: a message, the exit code unchanged);\n"
      "--compare DIR1,DIR2 draws the total energy of earlier runs (their cosim_history.csv) in\n"
      "the same figure, as seed 002 compares schemes.\n\n");
  std::ostringstream o;
  o << opts;
  fmt::print("{}\n", o.str());
  fmt::print(
      "overrides:\n"
      "  section.key=value after FILE.cfg replaces the file's value of a key; for a repeatable\n"
      "  key (cosim.unit, cosim.connect) it adds one more entry; a non-repeatable key given\n"
      "  twice on the command line is refused.\n"
      "  e.g. cosim problems/cosim/seed002-fd.cfg cosim.scheme=gauss-seidel\n"
      "  parameters.NAME=value changes a [parameters] entry wherever ${{NAME}} is used.\n\n"
      "exit codes:\n"
      "  0    the co-simulation ran to its end time\n"
      "  1    the run diverged (a unit's state not finite: summary.json says diverged) or was\n"
      "       unstable (the coupling created more energy than the run started with: the\n"
      "       interface residual sum(delta_n) > E0; summary.json says unstable), the\n"
      "       history keeping every macro step up to that one; or writing the results failed\n"
      "       (what was written is kept)\n"
      "  2    bad input or command line (message on stderr, nothing written)\n"
      "  3    internal error (a bug: please report it)\n"
      "  130  interrupted by SIGINT or SIGTERM (summary.json says interrupted; the history\n"
      "       keeps every finished macro step); a second signal a second or more after the\n"
      "       first ends the process at once\n\n"
      "configuration keys of [cosim] (docs/config.md \"Co-simulation\" has the details):\n\n");
  std::istringstream table(senda::input::format_option_table());
  bool in_cosim = false;
  for (std::string line; std::getline(table, line);) {
    if (!line.empty() && line[0] == '[') in_cosim = line == "[cosim]";
    if (in_cosim) fmt::print("{}\n", line);
  }
}

}  // namespace

Parsed parse_command(int argc, char** argv) {
  std::string out, compare;
  Command c;
  po::options_description opts("options");
  opts.add_options()("help,h", "print this help, the exit codes and the [cosim] keys")(
      "out,o", po::value<std::string>(&out), "results directory (default: results/<FILE stem>)")(
      "overwrite", po::bool_switch(&c.overwrite), "replace the results in an existing directory")(
      "quiet,q", po::bool_switch(&c.quiet), "no closing report")(
      "plot", po::bool_switch(&c.plot), "draw the total energy against time with gnuplot: DIR/energy.gp, DIR/energy.png/.svg (cosim.plot)")(
      "compare", po::value<std::string>(&compare),
      "with --plot: also draw the total energy of these earlier results directories, e.g. results/a,results/b");
  po::variables_map vm;
  std::vector<std::string> positional;
  if (!senda_app::parse_options(argc, argv, opts, "cosim", kUsage, vm, positional)) return {std::nullopt, senda_app::kExitBadInput};
  if (vm.count("help")) {
    print_help(opts);
    return {std::nullopt, senda_app::kExitOk};
  }
  if (const auto why = senda_app::split_inputs(positional, c.cfg, c.overrides)) {
    fmt::print(stderr, "cosim: {}\n{}\n", *why, kUsage);
    return {std::nullopt, senda_app::kExitBadInput};
  }
  if (vm.count("out") && out.empty()) {
    fmt::print(stderr, "cosim: --out needs a directory name (it was empty)\n{}\n", kUsage);
    return {std::nullopt, senda_app::kExitBadInput};
  }
  c.out_dir = out.empty() ? senda_app::default_out_dir(c.cfg) : fs::path(out);
  for (std::size_t b = 0; !compare.empty() && b <= compare.size();) {
    const std::size_t e = std::min(compare.find(',', b), compare.size());
    if (e > b) c.compare.push_back(compare.substr(b, e - b));
    b = e + 1;
  }
  for (const fs::path& d : c.compare)
    if (!fs::is_regular_file(d / "cosim_history.csv")) {
      fmt::print(stderr, "cosim: --compare: {} holds no cosim_history.csv\n{}\n", d.string(), kUsage);
      return {std::nullopt, senda_app::kExitBadInput};
    }
  if (!c.compare.empty() && !c.plot) {
    fmt::print(stderr, "cosim: --compare goes with --plot\n{}\n", kUsage);
    return {std::nullopt, senda_app::kExitBadInput};
  }
  return {c, senda_app::kExitOk};
}

int run_cosim(const senda::input::Config& config, const Command& cmd) {
  if (!senda::input::is_cosim(config))
    config.fail(nullptr, "", "not a co-simulation file: it has no [cosim] section (a structure is traced with 'trace')");
  senda::input::CosimSpec spec = senda::input::build_cosim(config);
  senda::output::ResultsDir::check(cmd.out_dir, cmd.overwrite);
  if (senda_app::stop_requested()) return senda_app::kExitInterrupted;  // nothing written yet

  const senda::output::ResultsDir dir = senda::output::ResultsDir::prepare(cmd.out_dir, cmd.overwrite);
  History history(dir.path() / "cosim_history.csv", spec);
  spec.options.stop_requested = [] { return senda_app::stop_requested(); };
  const senda::cosim::Summary s = senda::cosim::run(spec.pointers(), spec.connections, spec.options,
                                                    [&](const senda::cosim::MacroRecord& r) { history.write(r); });
  senda::output::write_file_atomically(dir.path() / "summary.json", summary_json(spec, s));
  if (!cmd.quiet)
    fmt::print("{}: {} after {} macro steps (t = {:g} s): E = {:.6g} J -> {:.6g} J, max |E - E0| = {:.4g} J, "
               "coupling residual {:+.4g} J{}\nresults in {}\n",
               spec.problem_name, senda::cosim::to_string(s.termination), s.steps, s.t_end, s.initial_energy,
               s.final_energy, s.max_energy_deviation, s.residual_sum,
               s.unconverged_steps ? fmt::format(", {} steps not converged", s.unconverged_steps) : std::string(),
               cmd.out_dir.string());
  if (const std::string m = end_message(spec, s); !m.empty()) fmt::print(stderr, "cosim: {}\n", m);
  if (cmd.plot || spec.plot) {
    // One run: its title; with --compare the runs are named by their directories.
    const std::string title = !cmd.compare.empty() ? "total energy against time"
                              : spec.title.empty() ? spec.problem_name
                                                   : spec.title;
    senda::output::SeriesFigure fig{"energy", title, "t [s]", "total energy E [J]",
                                    {{"cosim_history.csv", "t", "E_total", cmd.out_dir.filename().string()}}};
    for (const fs::path& d : cmd.compare)
      fig.curves.push_back({fs::absolute(d / "cosim_history.csv").string(), "t", "E_total", d.filename().string()});
    senda::output::PlotFiles pf;
    pf.dir = dir.path();
    pf.script = dir.path() / "energy.gp";
    pf.figures = {dir.path() / "energy.png", dir.path() / "energy.svg"};
    pf.log = dir.path() / "energy.log";
    senda::output::write_file_atomically(pf.script, senda::output::series_plot_script(fig));
    const senda::output::RenderResult r = senda::output::render_plot(pf);
    if (r.status != senda::output::RenderStatus::Rendered) fmt::print(stderr, "cosim: --plot: {}\n", r.message);
  }
  switch (s.termination) {
    case senda::cosim::Termination::Completed: return senda_app::kExitOk;
    case senda::cosim::Termination::Interrupted: return senda_app::kExitInterrupted;
    case senda::cosim::Termination::Diverged:
    case senda::cosim::Termination::Unstable: return senda_app::kExitFailed;
  }
  return senda_app::kExitFailed;
}

}  // namespace cosim_app
