// One trace: the config → a Spec → an Analysis observed by the Recorder (the
// results directory) and the Console (progress), then the closing report and,
// with --plot, the figures.
#include <fmt/core.h>
#include <unistd.h>

#include "app.hpp"
#include "console.hpp"
#include "senda/analysis/analysis.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/family.hpp"
#include "senda/output/files.hpp"
#include "senda/output/plot.hpp"
#include "senda/output/recorder.hpp"
#include "senda/output/studies.hpp"

namespace trace_app {

namespace fs = std::filesystem;
using senda::continuation::Termination;

int exit_code(Termination t) {
  switch (t) {
    case Termination::Completed:
    case Termination::MaxSteps: return kExitOk;
    case Termination::Interrupted: return kExitInterrupted;
    case Termination::Running:
    case Termination::StepTooSmall:
    case Termination::Diverged:
    case Termination::Stalled: return kExitFailed;
  }
  return kExitFailed;
}

senda::output::RunInfo run_info(const senda::input::Spec& spec) {
  senda::output::RunInfo info;
  info.problem = spec.problem_name;
  info.title = spec.title;
  info.config = spec.config_file.string();
  info.track_columns = senda::input::track_columns(spec);
  info.track = spec.analysis.track;
  return info;
}

void refuse_unresolvable_step(const senda::input::Config& config, senda::analysis::Analysis& analysis) {
  // The follower refuses a first step below what the model resolves (issue 20):
  // the user asked for it, so it is bad input, at the line of the key.
  if (analysis.start() || analysis.follower().termination() != Termination::StepTooSmall) return;
  config.fail(config.find("continuation.initial_step"), "continuation.initial_step", analysis.follower().message(),
              fmt::format("[{:g}, inf) for this model", analysis.follower().smallest_load_increment()));
}

void print_notes(const senda::input::Spec& spec, bool key_notes) {
  for (const std::string& note : spec.model_notes) fmt::print(stderr, "note: {}\n", note);
  if (key_notes)
    for (const std::string& note : spec.notes) fmt::print(stderr, "note: {}\n", note);
}

int run_trace(std::unique_ptr<const senda::input::Config> config, const Command& cmd) {
  const senda::input::Spec spec = senda::input::build(*config);
  const bool plot = cmd.plot || spec.output.plot;
  senda::input::check_mechanism(spec);  // a mechanism is bad input: found before anything is written
  senda::analysis::Analysis analysis(*spec.model, spec.analysis, senda::input::design_parameters(*config, spec));
  refuse_unresolvable_step(*config, analysis);
  print_notes(spec, true);
  config.reset();  // the design families keep their own copies
  senda::output::ResultsDir::check(cmd.out_dir, cmd.overwrite);
  // Interrupted while reading, building or starting: the old results stay as they are.
  if (stop_requested()) return kExitInterrupted;

  const senda::output::ResultsDir dir = senda::output::ResultsDir::prepare(cmd.out_dir, cmd.overwrite);
  senda::output::RecorderOptions ro;
  ro.vtk = cmd.vtk || spec.output.vtk;
  ro.drawings = plot || spec.output.drawings;
  senda::output::Recorder recorder(dir, *spec.model, run_info(spec), ro);
  Console console(spec, isatty(STDOUT_FILENO) != 0, cmd.quiet);
  senda::analysis::ObserverList observers({&recorder, &console});
  const senda::analysis::TraceResult r = analysis.run(observers);
  console.clear();
  print_report(spec, r, cmd.out_dir);
  if (plot) {
    // The results are complete: whatever happens to the figures, the exit
    // code stays the trace's (a failed write of plot.gp is an OutputError, 1).
    render(senda::output::write_plot_files(cmd.out_dir, recorder.info(), r), "--plot");
    if (!r.curves.empty()) {
      // λ_cr against μ ([design] follow): DIR/curves.gp, curves.png/.svg; its
      // own log, curves.log, so that plot.log keeps the first run's messages.
      senda::output::PlotFiles cf;
      cf.dir = cmd.out_dir;
      cf.script = cmd.out_dir / "curves.gp";
      cf.figures = {cmd.out_dir / "curves.png", cmd.out_dir / "curves.svg"};
      cf.log = cmd.out_dir / "curves.log";
      try {
        senda::output::write_file_atomically(cf.script, senda::output::curves_plot_script(r.curves));
        render(cf, "--plot: curves");
      } catch (const senda::output::OutputError& e) {
        fmt::print(stderr, "trace: --plot: {}\n", e.what());
      }
    }
  }
  // A curve asked for (design.follow, --follow) that could not start: the run did not
  // give what was asked, whatever its path did (it exited 0 with both curves bad-start).
  int code = exit_code(r.termination);
  if (code == kExitOk)
    for (const senda::analysis::CurveRecord& c : r.curves)
      if (!c.followed) {
        fmt::print(stderr, "trace: the curve of {} could not start ({}): exit code {}\n", c.point,
                   c.curve.message.empty() ? "bad-start" : c.curve.message, kExitFailed);
        code = kExitFailed;
        break;
      }
  return code;
}

}  // namespace trace_app
