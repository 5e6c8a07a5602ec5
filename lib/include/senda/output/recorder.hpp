#pragma once
// The results directory of an analysis, written as the events arrive
// (an analysis::Observer; docs/config.md "Output files"):
//
//   ResultsDir dir = ResultsDir::prepare(out, overwrite);
//   Recorder rec(dir, model, info, {.vtk = true});
//   analysis::TraceResult r = analysis.run(rec);     // or with an ObserverList
//
// path.csv gets a row per point as it converges (flushed), modes/<id>.csv,
// states/<id>.json (bifurcation points with a valid bifurcation equation),
// drawings and VTK files per critical point as it is located, summary.json after
// the paths (and again at the end when the design studies added to it: curves,
// sensitivities, an interruption), curves/*.csv per curve. An interrupted or
// failed run keeps every file written so far. Write failures throw OutputError
// out of the event (and so out of Analysis::run).
#include <memory>
#include <optional>
#include <string>

#include "senda/analysis/observer.hpp"
#include "senda/analysis/result.hpp"
#include "senda/model/model.hpp"
#include "senda/output/files.hpp"
#include "senda/output/results.hpp"
#include "senda/output/vtk.hpp"

namespace senda::output {

// Optional result files (the [output] keys vtk and drawings, --vtk, --plot).
struct RecorderOptions {
  bool vtk = false;       // DIR/vtk/: .vtu per point and per mode, .pvd indexes
  bool drawings = false;  // DIR/drawings/: structure.svg, <ID>_shape.svg, <ID>_mode.svg
};

class Recorder final : public analysis::Observer {
 public:
  // Creates path.csv (its header), DIR/vtk and the structure's drawing as asked.
  // The model must outlive the recorder. Throws OutputError.
  Recorder(const ResultsDir& dir, const model::Model& model, RunInfo info, RecorderOptions options = {});

  void on_point(int branch, const continuation::PathPoint& p) override;
  void on_critical(const analysis::CriticalEvent& e) override;
  void on_paths_end(const analysis::TraceResult& r) override;
  void on_curve_end(const analysis::CurveRecord& c) override;
  void on_end(const analysis::TraceResult& r) override;

  const RunInfo& info() const { return info_; }

 private:
  std::filesystem::path dir_;
  const model::Model& model_;
  RunInfo info_;
  std::string fingerprint_;  // core::unknowns_fingerprint(model_), at the first state written
  RecorderOptions options_;
  PathWriter path_;
  std::optional<VtkWriter> vtk_;
  continuation::Termination paths_termination_ = continuation::Termination::Running;
};

}  // namespace senda::output
