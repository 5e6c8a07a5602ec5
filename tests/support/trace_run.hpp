#pragma once
// A Spec run as the trace command runs it (tests only): the mechanism check, the
// analysis with the config's design parameters, a Recorder writing `dir` (its
// old results replaced), and an optional extra observer (events, Ctrl-C).
#include <filesystem>
#include <vector>

#include "app.hpp"
#include "senda/analysis/analysis.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/family.hpp"
#include "senda/output/files.hpp"
#include "senda/output/recorder.hpp"

namespace senda::testing {

inline analysis::TraceResult run_into(const input::Spec& spec, const std::filesystem::path& dir,
                                      const input::Config* config = nullptr, analysis::Observer* extra = nullptr,
                                      output::RecorderOptions recorder_options = {}) {
  input::check_mechanism(spec);
  std::vector<analysis::DesignParameter> design;
  if (config) design = input::design_parameters(*config, spec);
  analysis::Analysis a(*spec.model, spec.analysis, design);
  const output::ResultsDir d = output::ResultsDir::prepare(dir, true);
  output::Recorder recorder(d, *spec.model, trace_app::run_info(spec), recorder_options);
  analysis::ObserverList observers;
  observers.add(recorder);
  if (extra) observers.add(*extra);
  return a.run(observers);
}

}  // namespace senda::testing
