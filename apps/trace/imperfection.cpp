// trace --imperfection NAME=START:STOP:COUNT (analysis::imperfection_study over
// the ConfigFamily of NAME): the maximum load against the imperfection amplitude
// and the fitted exponent, to DIR/imperfection.csv and .json.
#include <fmt/core.h>

#include <algorithm>

#include "app.hpp"
#include "senda/analysis/studies.hpp"
#include "senda/input/family.hpp"
#include "senda/input/parameters.hpp"
#include "senda/output/files.hpp"
#include "senda/output/studies.hpp"

namespace trace_app {

namespace in = senda::input;

int run_imperfection(const in::Config& config, const Command& cmd) {
  const std::string& text = cmd.imperfection;
  senda::analysis::SweepSpec spec;
  try {
    if (std::count(text.begin(), text.end(), ':') != 2)
      throw in::ConfigError(in::kCommandLine, 0, "--imperfection", "expected NAME=START:STOP:COUNT",
                            "NAME=START:STOP:COUNT, amplitudes spaced geometrically");
    spec = in::parse_sweep(text, config);
  } catch (const in::ConfigError& e) {
    if (e.key() == "--imperfection") throw;
    throw in::ConfigError(e.file(), e.line(), "--imperfection", e.message(),
                          e.valid().empty() ? "NAME=START:STOP:COUNT, NAME a [parameters] entry" : e.valid());
  }
  if (!(spec.start > 0.0) || !(spec.stop > 0.0) || spec.count < 2 || spec.start == spec.stop)
    throw in::ConfigError(in::kCommandLine, 0, "--imperfection",
                          "amplitudes must be positive, at least two, and START and STOP distinct (they are spaced "
                          "geometrically, and the law is fitted over them)",
                          "NAME=START:STOP:COUNT with 0 < START, 0 < STOP, START != STOP, COUNT >= 2");
  spec.log = true;
  const in::Spec reference = in::build(config);
  in::check_mechanism(reference);  // a mechanism is bad input: found before anything is written
  // The model's notes (a member of one element: every amplitude's path would be as
  // stiff); the keys' notes are this study's own, below.
  print_notes(reference, false);
  // The study follows no curves: every curve key is without effect here, design.follow
  // and --follow too (the generic notes would point to them).
  std::vector<const char*> keys{"design.follow"};
  keys.insert(keys.end(), in::kCurveKeys.begin(), in::kCurveKeys.end());
  for (const char* key : keys)
    if (const in::Entry* e = config.find(key))
      fmt::print(stderr, "note: {}: {} has no effect with --imperfection, which follows no curves\n",
                 in::location(e->file, e->line), key);
  if (stop_requested()) return kExitInterrupted;  // before the old results are touched
  const senda::output::ResultsDir dir = senda::output::ResultsDir::prepare(cmd.out_dir, cmd.overwrite);
  if (!cmd.quiet)
    fmt::print("imperfection sensitivity: {} = 0, then {} amplitudes in [{:g}, {:g}]\n", spec.parameter, spec.count,
               spec.start, spec.stop);
  const in::ConfigFamily family(config, spec.parameter, reference);
  const senda::analysis::ImperfectionRun r =
      senda::analysis::imperfection_study(family, spec.parameter, senda::analysis::sweep_values(spec),
                                          reference.analysis.explorer.path, reference.analysis.explorer.finder,
                                          [] { return stop_requested(); });
  senda::output::write_file_atomically(dir.path() / "imperfection.csv", senda::output::imperfection_csv(r));
  senda::output::write_file_atomically(dir.path() / "imperfection.json", senda::output::imperfection_json(r));
  if (r.study.interrupted) {
    fmt::print("\n  interrupted after {} of {} amplitudes; results in {}\n", r.study.points.size(), spec.count,
               cmd.out_dir.string());
    return kExitInterrupted;
  }
  if (!r.message.empty()) {
    fmt::print(stderr, "trace: --imperfection: {}\n", r.message);
    return kExitFailed;
  }
  fmt::print("\n  perfect structure ({} = 0): {} {} at lambda = {:.12g}\n", spec.parameter, r.perfect_id,
             senda::critical::to_string(r.perfect_kind), r.study.lambda_perfect);
  fmt::print("  {:>14} {:>20} {:>14}\n", spec.parameter, "lambda_max", "1 - ratio");
  int missing = 0;
  for (const auto& p : r.study.points) {
    if (p.found) {
      fmt::print("  {:>14.6g} {:>20.12g} {:>14.6e}\n", p.amplitude, p.lambda_max,
                 1.0 - p.lambda_max / r.study.lambda_perfect);
      if (!p.message.empty()) fmt::print("  {:>14}  {}\n", "", p.message);
    } else {
      fmt::print("  {:>14.6g}  no maximum load: {}\n", p.amplitude, p.message);
      ++missing;
    }
  }
  const auto& f = r.study.fit;
  if (f.valid)
  {
    fmt::print("  fit: 1 - lambda_max/lambda_cr = {:.6g} {}^{:.6f} over {} amplitudes (max log residual {:.2g})\n",
               f.coefficient, spec.parameter, f.exponent, f.points, f.max_log_residual);
    if (!f.message.empty()) fmt::print("  warning: {}\n", f.message);
  }
  else
    fmt::print("  no fit: {}\n", f.message);
  fmt::print("  results in {}\n", cmd.out_dir.string());
  return missing == 0 && f.valid ? kExitOk : kExitFailed;
}

}  // namespace trace_app
