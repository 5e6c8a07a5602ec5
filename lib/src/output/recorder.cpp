#include "senda/output/recorder.hpp"

#include <system_error>

#include "senda/output/state.hpp"
#include "senda/output/studies.hpp"
#include "senda/output/svg.hpp"

namespace senda::output {

namespace fs = std::filesystem;

Recorder::Recorder(const ResultsDir& dir, const model::Model& model, RunInfo info, RecorderOptions options)
    : dir_(dir.path()), model_(model), info_(std::move(info)), options_(options), path_(dir_ / "path.csv", info_) {
  if (options_.vtk) vtk_.emplace(dir_, model_);
  if (options_.drawings)
    write_structure_drawing(dir_, model_, info_.title.empty() ? info_.problem : info_.title);
}

void Recorder::on_point(int branch, const continuation::PathPoint& p) {
  path_.write(p, branch);
  if (vtk_) vtk_->write_point(p, branch);
}

void Recorder::on_critical(const analysis::CriticalEvent& e) {
  if (!e.is_new) return;
  const critical::CriticalPoint& cp = e.point;
  write_mode(dir_, model_, cp);
  // The branch it was located on: −1 for the saved point of a --from run (the event
  // comes from branch 0, not traced there, and the mode file said branch 0).
  if (vtk_) vtk_->write_mode(cp, cp.branches.empty() ? e.branch : cp.branches.front());
  if (options_.drawings) write_critical_drawings(dir_, model_, cp);
  // The state of a located point, for a later run that starts there: branches.from
  // (bifurcation points with a valid bifurcation equation), dynamics.initial_state (any).
  if (cp.converged) {
    std::error_code ec;
    fs::create_directories(dir_ / "states", ec);
    if (ec) throw OutputError((dir_ / "states").string() + ": cannot create: " + ec.message());
    // Once per run: a name per unknown, 10⁶ strings on the largest models.
    if (fingerprint_.empty()) fingerprint_ = core::unknowns_fingerprint(model_);
    write_state(dir_ / "states" / (cp.id + ".json"), info_.problem, fingerprint_, cp, e.scaling, e.initial_step);
  }
}

void Recorder::on_paths_end(const analysis::TraceResult& r) {
  if (vtk_) vtk_->finish();
  write_summary(dir_ / "summary.json", info_, r);
  paths_termination_ = r.termination;
}

void Recorder::on_curve_end(const analysis::CurveRecord& c) {
  if (c.followed) write_curve(dir_, c, info_.track_columns, info_.track);
}

void Recorder::on_end(const analysis::TraceResult& r) {
  bool studied = !r.curves.empty() || r.termination != paths_termination_;
  for (const analysis::CriticalRecord& c : r.critical_points) studied = studied || !c.sensitivities.empty();
  if (studied) write_summary(dir_ / "summary.json", info_, r);
}

}  // namespace senda::output
