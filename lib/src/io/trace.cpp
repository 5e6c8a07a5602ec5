#include "senda/io/trace.hpp"

#include "senda/io/design.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fmt/core.h>

#include "senda/io/svg.hpp"
#include "senda/io/vtk.hpp"
#include "senda/linalg/factorization.hpp"

namespace senda::io {

namespace fs = std::filesystem;
using continuation::Termination;

TraceRun::TraceRun(const Setup& setup) : setup_(setup), follower_(*setup.model, setup.options) {}

std::vector<double> TraceRun::tracked(const continuation::PathPoint& p) const { return tracked(p.q); }

std::vector<double> TraceRun::tracked(const Vector& q) const {
  std::vector<double> out;
  for (const TrackedDof& t : setup_.track)
    out.push_back(t.equation >= 0 && t.equation < q.size() ? q[t.equation] : 0.0);
  return out;
}

critical::ExplorerOptions TraceRun::explorer_options() const {
  critical::ExplorerOptions eo;
  eo.path = setup_.options;
  const CriticalSettings& k = setup_.critical;
  eo.finder.detect = critical::detect_test_from_string(k.detect).value_or(critical::DetectTest::Both);
  eo.finder.locate = k.locate;
  eo.finder.locate_options.tolerance = k.tolerance;
  eo.finder.locate_options.max_iterations = k.max_iterations;
  eo.finder.locate_options.bifurcation_tolerance = k.bifurcation_tolerance;
  eo.finder.refine_fraction = k.refine_fraction;
  const BranchSettings& b = setup_.branches;
  eo.switch_branches = b.enabled && k.locate;
  eo.switch_at = b.at;
  eo.max_depth = b.max_depth;
  eo.direction = b.direction;
  eo.max_branches = b.max_branches;
  eo.symmetric_tolerance = b.symmetric_tolerance;
  return eo;
}

void TraceRun::write_mode(const fs::path& dir, const critical::CriticalPoint& cp) const {
  if (cp.phi.size() == 0) return;
  fs::create_directories(dir / "modes");
  const fs::path file = dir / "modes" / (cp.id + ".csv");
  std::FILE* out = std::fopen(file.string().c_str(), "w");
  if (!out) throw OutputError(file.string() + ": cannot write: " + std::strerror(errno));
  // The mode scaled to max |phi_j| = 1.
  const double m = cp.phi.cwiseAbs().maxCoeff();
  int rc = std::fprintf(out, "equation,dof,phi\n");
  for (int i = 0; i < cp.phi.size() && rc >= 0; ++i)
    rc = std::fprintf(out, "%d,%s,%.17g\n", i, setup_.model->dof_name(i).c_str(), m > 0 ? cp.phi[i] / m : 0.0);
  if (std::fclose(out) != 0 || rc < 0) throw OutputError(file.string() + ": write failed");
}

// K(0) singular means the structure can move without strain: a mechanism or a
// missing support. Checked on its own factorization so that the answer does not
// depend on what the path follower's start Newton did with dead loads.
void TraceRun::check_mechanism() const {
  const model::Model& m = *setup_.model;
  SparseMatrix K = m.tangent_pattern();
  m.tangent(Vector::Zero(m.size()), 0.0, K);
  linalg::SymmetricFactorization f(K);
  linalg::FactorStatus st = f.factorize(K);
  // A mechanism gives an exactly zero pivot, or one at rounding level relative
  // to the largest (a stiffness contrast of 1e14 between members is not a model).
  constexpr double kRoundingPivot = 1e-14;
  if (st == linalg::FactorStatus::Ok && f.pivot_ratio() >= kRoundingPivot) return;
  const std::string file = setup_.config_file.string();
  if (st != linalg::FactorStatus::Singular || f.first_zero_pivot() < 0) {
    // Nearly singular (a pivot at rounding level, e.g. an unsprung hinge): the
    // mechanism's motion is the null vector, found by inverse iteration; name the
    // unknowns it moves most.
    std::string moves;
    if (st == linalg::FactorStatus::Ok) {
      Vector x = Vector::Ones(m.size());
      for (int it = 0; it < 3; ++it) {
        x = f.solve(x);
        const double nx = x.norm();
        if (!(nx > 0) || !std::isfinite(nx)) break;
        x /= nx;
      }
      if (x.allFinite() && x.size() > 0) {
        std::vector<int> order(static_cast<std::size_t>(x.size()));
        for (int i = 0; i < x.size(); ++i) order[static_cast<std::size_t>(i)] = i;
        std::sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); });
        const double top = std::abs(x[order.front()]);
        for (std::size_t k = 0; k < order.size() && k < 4 && std::abs(x[order[k]]) >= 0.3 * top; ++k)
          moves += (moves.empty() ? "" : ", ") + m.dof_name(order[k]);
      }
    }
    throw ConfigError(file, 0, "model.fix",
                      "the structure is a mechanism or is not supported: the tangent stiffness is " +
                          (st == linalg::FactorStatus::Ok
                               ? "nearly singular (smallest/largest pivot " + fmt::format("{:.3g}", f.pivot_ratio()) + ")"
                               : std::string(linalg::to_string(st))) +
                          " at the undeformed state" + (moves.empty() ? "" : "; the mechanism moves " + moves) +
                          "; add supports (fix), elements or a spring at a hinge");
  }
  // Every free dof: hold the one found with a stiff diagonal entry, factorize
  // again, until K is regular (or enough have been named).
  double scale = 0.0;
  for (int k = 0; k < K.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(K, k); it; ++it)
      if (it.row() == it.col()) scale = std::max(scale, std::abs(it.value()));
  if (!(scale > 0.0)) scale = 1.0;
  std::vector<int> free_eqs;
  while (st == linalg::FactorStatus::Singular && f.first_zero_pivot() >= 0 && free_eqs.size() < 10) {
    const int eq = f.first_zero_pivot();
    if (std::find(free_eqs.begin(), free_eqs.end(), eq) != free_eqs.end()) break;
    free_eqs.push_back(eq);
    K.coeffRef(eq, eq) += scale;
    st = f.factorize(K);
  }
  std::string dofs;
  for (int eq : free_eqs) dofs += (dofs.empty() ? "" : ", ") + m.dof_name(eq);  // "node 3 uy"
  if (st != linalg::FactorStatus::Ok) dofs += ", ...";
  // Locate the message at the first free dof's node line.
  int line = 0;
  std::string where = file;
  for (int n = 0; n < m.node_count(); ++n)
    for (int c = 0; c < model::kComponents; ++c)
      if (m.equation(n, static_cast<model::Component>(c)) == free_eqs.front() &&
          n < static_cast<int>(setup_.node_entries.size())) {
        line = setup_.node_entries[n].line;
        where = setup_.node_entries[n].file;
      }
  throw ConfigError(where, line, "model.fix",
                    "the structure is a mechanism or is not supported: the tangent stiffness is singular at the "
                    "undeformed state; free degree" + std::string(free_eqs.size() > 1 ? "s" : "") +
                        " of freedom: " + dofs +
                        (free_eqs.size() > 1 ? " (fix them, or add bars or springs that hold them)"
                                             : " (fix it, or add a bar or spring that holds it)"));
}

bool TraceRun::start() {
  if (started_) return start_ok_;
  check_mechanism();
  started_ = true;
  if (!setup_.branches.from.empty()) {
    saved_ = read_state(setup_.branches.from, setup_.model->size());
    return start_ok_ = true;
  }
  start_ok_ = follower_.start(Vector::Zero(setup_.model->size()), 0.0);
  return start_ok_;
}

std::string progress_line(const Progress& p, std::size_t max_width) {
  const double t = std::max(0.0, p.elapsed_s);
  std::string elapsed;
  if (t < 3600.0) {
    const int min = static_cast<int>(t / 60.0);
    elapsed = fmt::format("{}:{:04.1f}", min, std::min(t - 60.0 * min, 59.9));
  } else {
    const long s = static_cast<long>(t);
    elapsed = fmt::format("{}:{:02d}:{:02d}", s / 3600, static_cast<int>(s / 60 % 60), static_cast<int>(s % 60));
  }
  std::string line = p.branch > 0 ? fmt::format("branch {}  ", p.branch) : "";
  line += fmt::format("points {}  lambda={:+.6e}  ds={:.3e}  critical {}  elapsed {}", p.points, p.lambda,
                      p.step_length, p.critical_points, elapsed);
  if (max_width > 0 && line.size() > max_width) line.resize(max_width);
  return line;
}

int exit_code(Termination t) {
  switch (t) {
    case Termination::Completed:
    case Termination::MaxSteps: return 0;
    case Termination::Interrupted: return 130;
    case Termination::Running:
    case Termination::StepTooSmall:
    case Termination::Diverged: return 1;
  }
  return 1;
}

// Explorer events → rows of path.csv, mode files, the summary and the caller's events.
class TraceRun::Adapter final : public critical::ExplorerEvents {
 public:
  Adapter(TraceRun& run, TraceEvents& events, PathWriter& path, TraceSummary& s, const fs::path& dir,
          const critical::BranchExplorer& explorer, VtkWriter* vtk, bool drawings)
      : run_(run), events_(events), path_(path), s_(s), dir_(dir), explorer_(explorer), vtk_(vtk),
        drawings_(drawings) {}
  void on_branch_start(const critical::Branch& b) override {
    run_.branch_ = b.id;
    if (b.id > 0 && events_.on_branch_start) events_.on_branch_start(run_, b);
  }
  void on_point(const critical::Branch& b, const continuation::PathFollower& f) override {
    const continuation::PathPoint& p = f.current();
    path_.write(p, b.id);
    if (vtk_) vtk_->write_point(p, b.id);
    if (s_.points == 0) s_.lambda_max = s_.lambda_min = p.lambda;
    s_.lambda_max = std::max(s_.lambda_max, p.lambda);
    s_.lambda_min = std::min(s_.lambda_min, p.lambda);
    ++s_.points;
    if (b.id == 0 && p.index == 0) {
      if (events_.on_start) events_.on_start(run_);
      return;
    }
    if (events_.on_point) events_.on_point(run_, p);
    if (const auto& c = f.last_crossing()) {
      s_.crossings.push_back(*c);
      s_.crossing_branches.push_back(b.id);
      if (events_.on_crossing) events_.on_crossing(run_, *c);
    }
  }
  void on_critical(const critical::Branch&, const critical::CriticalPoint& cp, bool is_new) override {
    if (is_new) run_.write_mode(dir_, cp);
    if (is_new && vtk_) vtk_->write_mode(cp, run_.branch_);
    if (is_new && drawings_) write_critical_drawings(dir_, *run_.setup().model, cp);
    // The state of a bifurcation point, for a later run that starts there (branches.from).
    if (is_new && cp.converged && cp.abe && cp.abe->valid) {
      fs::create_directories(dir_ / "states");
      write_state(dir_ / "states" / (cp.id + ".json"), run_.setup().problem_name, cp, explorer_.scaling(),
                  explorer_.initial_step());
    }
    if (events_.on_critical) events_.on_critical(run_, cp, is_new);
  }
  void on_branch_end(const critical::Branch& b, const continuation::PathFollower&) override {
    if (events_.on_branch_end) events_.on_branch_end(run_, b);
  }
  bool stop_requested() override { return events_.stop_requested && events_.stop_requested(); }

 private:
  TraceRun& run_;
  TraceEvents& events_;
  PathWriter& path_;
  TraceSummary& s_;
  fs::path dir_;
  const critical::BranchExplorer& explorer_;
  VtkWriter* vtk_;
  bool drawings_;
};

TraceSummary TraceRun::run(const fs::path& out_dir, bool overwrite, TraceEvents& events,
                           const OutputOptions& output) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const bool ok = start();  // may throw ConfigError: nothing written yet
  prepare_output_dir(out_dir, overwrite);

  TraceSummary s;
  s.problem = setup_.problem_name;
  s.title = setup_.title;
  s.config = setup_.config_file.string();
  s.unknowns = setup_.model->size();
  for (const TrackedDof& t : setup_.track) s.track_columns.push_back(t.column);
  PathWriter path(out_dir / "path.csv", setup_.track);
  critical::BranchExplorer explorer(*setup_.model, explorer_options());
  std::optional<VtkWriter> vtk;
  if (output.vtk) vtk.emplace(out_dir, *setup_.model);
  if (output.drawings)
    write_structure_drawing(out_dir, *setup_.model, setup_.title.empty() ? setup_.problem_name : setup_.title);
  Adapter adapter(*this, events, path, s, out_dir, explorer, vtk ? &*vtk : nullptr, output.drawings);
  if (saved_) {
    explorer.run_from(saved_->point, saved_->scaling, saved_->initial_step * explorer.options().switch_step_ratio,
                      adapter);
    s.termination = explorer.interrupted() ? Termination::Interrupted : Termination::Completed;
    s.message = "secondary branches from " + saved_->point.id + " (saved state " + setup_.branches.from + ")";
  } else {
    if (ok) explorer.run(follower_, adapter);
    s.termination = explorer.interrupted() ? Termination::Interrupted : follower_.termination();
    s.message = follower_.message();
  }
  if (!explorer.message().empty()) s.message += "; " + explorer.message();
  s.branches = explorer.branches();
  if (s.branches.empty() && !saved_) {
    critical::Branch primary;
    primary.termination = critical::branch_end(follower_.termination());
    primary.message = follower_.message();
    s.branches.push_back(primary);
  }
  s.critical_points = explorer.critical_points();
  for (const critical::CriticalPoint& cp : s.critical_points) {
    s.critical_tracked.push_back(tracked(cp.q));
    std::vector<std::vector<double>> tt;
    if (cp.abe && cp.abe->valid)
      for (const critical::BranchTangent& t : cp.abe->tangents) tt.push_back(tracked(t.q));
    s.tangent_tracked.push_back(tt);
  }
  const continuation::Stats& st = ok ? explorer.stats() : follower_.stats();
  const linalg::FactorStats fs_ = ok ? explorer.factor_stats() : follower_.factor_stats();
  s.newton_iterations = st.newton_iterations;
  s.failed_steps = st.failed_steps;
  s.locate_factorizations = explorer.locate_factorizations();
  s.factorizations = fs_.factorizations + s.locate_factorizations;
  s.assembly_s = st.assembly_seconds;
  s.analyze_s = fs_.analyze_seconds;
  s.factorize_s = fs_.factorize_seconds;
  s.solve_s = fs_.solve_seconds;
  s.wall_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (vtk) vtk->finish();
  write_summary(out_dir / "summary.json", s);
  if (s.termination != Termination::Interrupted && setup_.config) {
    run_design(out_dir, s, events);
    if (!s.curves.empty() || !s.sensitivities.empty() || s.termination == Termination::Interrupted)
      write_summary(out_dir / "summary.json", s);
  }
  return s;
}

std::vector<std::string> TraceRun::follow_ids() const {
  std::vector<std::string> ids;
  if (!setup_.config) return ids;
  if (auto t = setup_.config->text("design.follow")) {
    std::string v = *t;
    std::replace(v.begin(), v.end(), ',', ' ');
    for (const std::string& id : split_fields(v)) ids.push_back(id);
  }
  return ids;
}

void TraceRun::run_design(const fs::path& out_dir, TraceSummary& s, TraceEvents& events) const {
  const Config& config = *setup_.config;
  const std::vector<std::string> names = design_parameters(config);
  if (names.empty()) return;
  // Sensitivities of every located simple point to every design parameter (eqs. 8.2, 8.3).
  s.sensitivities.assign(s.critical_points.size(), {});
  for (std::size_t k = 0; k < s.critical_points.size(); ++k) {
    const critical::CriticalPoint& cp = s.critical_points[k];
    if (!cp.converged || cp.kind == critical::CriticalKind::Multiple) continue;
    for (const ParameterSensitivity& ps : parameter_sensitivities(config, setup_, cp))
      if (std::find(names.begin(), names.end(), ps.parameter) != names.end()) s.sensitivities[k].push_back(ps);
  }
  // Curves λ_cr(μ) of the points asked for, μ = the first design parameter (eq. 8.4).
  critical::CurveOptions co = curve_options(config, setup_);
  // Ctrl-C inside a curve: it ends at the next point, the points so far kept.
  co.stop_requested = events.stop_requested;
  auto interrupted = [&s] {
    s.termination = Termination::Interrupted;
    s.message += "; interrupted during the curves of critical points";
  };
  const std::string dir = config.text("design.direction").value_or("both");
  std::vector<int> directions;
  if (dir != "down") directions.push_back(+1);
  if (dir != "up") directions.push_back(-1);
  for (const std::string& id : follow_ids()) {
    const critical::CriticalPoint* cp = nullptr;
    for (const critical::CriticalPoint& c : s.critical_points)
      if (c.id == id) cp = &c;
    for (int d : directions) {
      CurveResult c;
      c.point = id;
      c.parameter = names.front();
      c.direction = d;
      if (!cp) {
        c.curve.termination = critical::CurveTermination::BadStart;
        c.curve.message = "no critical point " + id + " in this run";
      } else if (!cp->converged || cp->kind == critical::CriticalKind::Multiple) {
        c.curve.termination = critical::CurveTermination::BadStart;
        c.curve.message = cp->kind == critical::CriticalKind::Multiple
                              ? id + " is a multiple point: no curve (curves start at simple points)"
                              : id + " was not located: no curve";
      } else {
        if (events.on_curve_start) events.on_curve_start(*this, c);
        c = follow_curve(config, setup_, *cp, names.front(), co, d);
        write_curve(out_dir, c, setup_);
      }
      if (events.on_curve) events.on_curve(*this, c);
      const bool stopped = c.curve.termination == critical::CurveTermination::Interrupted;
      s.curves.push_back(std::move(c));
      if (stopped || (events.stop_requested && events.stop_requested())) {
        interrupted();
        return;
      }
    }
  }
}

}  // namespace senda::io
