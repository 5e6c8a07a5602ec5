#include "senda/analysis/analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "senda/core/number.hpp"
#include "senda/critical/branch.hpp"
#include "senda/linalg/factorization.hpp"

namespace senda::analysis {

using continuation::Termination;

const CriticalRecord* TraceResult::find(std::string_view id) const {
  for (const CriticalRecord& c : critical_points)
    if (c.point.id == id) return &c;
  return nullptr;
}

namespace {
// The options, checked before the path follower is made from them: their ranges
// (AnalysisOptions::validate) and the unknowns they name, which must be the
// problem's (an index out of range would be read past q, or give a column of zeros).
AnalysisOptions checked(const core::Problem& problem, AnalysisOptions o) {
  if (const std::string why = o.validate(); !why.empty()) throw std::invalid_argument("analysis options: " + why);
  const int n = problem.size();
  const std::string range = "[0, " + std::to_string(n) + ")";
  for (std::size_t k = 0; k < o.track.size(); ++k)
    if (o.track[k] < 0 || o.track[k] >= n)
      throw std::invalid_argument("analysis options: track[" + std::to_string(k) + "] = " + std::to_string(o.track[k]) +
                                  ": not an unknown of the problem (valid: " + range + ", n = " + std::to_string(n) +
                                  ")");
  const continuation::Options& p = o.explorer.path;
  if (p.monitor_dof < -1 || p.monitor_dof >= n)
    throw std::invalid_argument("analysis options: explorer.path.monitor_dof = " + std::to_string(p.monitor_dof) +
                                ": not an unknown of the problem (valid: " + range + ", or -1 for none)");
  // A bound on no unknown would be ignored without a word.
  if (p.monitor_dof == -1 && !std::isinf(p.max_displacement))
    throw std::invalid_argument("analysis options: explorer.path.max_displacement = " +
                                core::format_number(p.max_displacement) +
                                " bounds no unknown: explorer.path.monitor_dof is -1 (valid: an unknown in " + range +
                                " with a finite bound)");
  if (p.constraint == continuation::ConstraintKind::DisplacementControl && p.control_dof >= n)
    throw std::invalid_argument("analysis options: explorer.path.control_dof = " + std::to_string(p.control_dof) +
                                ": not an unknown of the problem (valid: " + range + ")");
  return o;
}
}  // namespace

Analysis::Analysis(const core::Problem& problem, AnalysisOptions options, std::vector<DesignParameter> design)
    : problem_(problem), options_(checked(problem, std::move(options))), design_(std::move(design)),
      follower_(problem, options_.explorer.path) {
  if (options_.start && options_.start->q.size() != problem_.size())
    throw std::invalid_argument("analysis options: start: the state has " + std::to_string(options_.start->q.size()) +
                                " unknowns, the problem " + std::to_string(problem_.size()));
  for (const DesignParameter& d : design_)
    if (!d.family) throw std::invalid_argument("design parameter '" + d.name + "' has no problem family");
}

std::vector<double> tracked_values(const Vector& q, const std::vector<int>& track) {
  std::vector<double> out;
  out.reserve(track.size());
  for (int eq : track) out.push_back(eq >= 0 && eq < q.size() ? q[eq] : 0.0);
  return out;
}

std::vector<double> Analysis::tracked(const Vector& q) const { return tracked_values(q, options_.track); }

bool Analysis::start() {
  if (started_) return start_ok_;
  started_ = true;
  if (options_.from) return start_ok_ = true;
  const std::optional<StartState>& s = options_.start;
  if (s && s->mode.size() > 0 && s->scaling)
    start_ok_ = follower_.start_at_limit(s->q, s->lambda, s->mode, *s->scaling);
  else
    start_ok_ = s ? follower_.start(s->q, s->lambda) : follower_.start(Vector::Zero(problem_.size()), 0.0);
  return start_ok_;
}

namespace {

// Explorer events → the result's records and the observer's events.
class Adapter final : public critical::ExplorerEvents {
 public:
  Adapter(Observer& observer, TraceResult& r, const critical::BranchExplorer& explorer)
      : observer_(observer), r_(r), explorer_(explorer) {}
  void on_branch_start(const critical::Branch& b) override {
    observer_.on_branch_start(b);
  }
  void on_point(const critical::Branch& b, const continuation::PathFollower& f) override {
    const continuation::PathPoint& p = f.current();
    if (r_.points == 0) r_.lambda_max = r_.lambda_min = p.lambda;
    r_.lambda_max = std::max(r_.lambda_max, p.lambda);
    r_.lambda_min = std::min(r_.lambda_min, p.lambda);
    ++r_.points;
    observer_.on_point(b.id, p);
    if (b.id == 0 && p.index == 0) return;  // the start point: no step, no crossing
    if (const auto& c = f.last_crossing()) {
      r_.crossings.push_back({b.id, *c});
      observer_.on_crossing(b.id, *c);
    }
  }
  void on_critical(const critical::Branch& b, const critical::CriticalPoint& cp, bool is_new) override {
    // The metric of the path the point was found on: a limit point's state starts a
    // path along its mode in it (start_state), a bifurcation point's gives its
    // branches their parent metric (--from), as in this run.
    observer_.on_critical(CriticalEvent{b.id, cp, is_new, explorer_.scaling(b.id), explorer_.initial_step(b.id)});
  }
  void on_neutral(const critical::Branch& b, const critical::NeutralStretch& n) override {
    observer_.on_neutral(b.id, n);
  }
  void on_branch_end(const critical::Branch& b, const continuation::PathFollower&) override {
    observer_.on_branch_end(b);
  }
  bool stop_requested() override { return observer_.stop_requested(); }

 private:
  Observer& observer_;
  TraceResult& r_;
  const critical::BranchExplorer& explorer_;
};

// A run from a saved state traces secondary branches only: it ended as the best
// of them did (issue 20: it was "completed" when every branch had diverged).
// Completed or rejoined, else max-steps, else step-too-small, else stalled, else
// diverged (no branch, or every one diverged or jumped onto the path it left).
// " on branch 2 (from BP1)": the secondary branch a stop request ended, or "".
std::string interrupted_where(const std::vector<critical::Branch>& branches) {
  std::string where;
  for (const critical::Branch& b : branches)
    if (b.id > 0 && b.termination == critical::BranchEnd::Interrupted)
      where = " on branch " + std::to_string(b.id) + " (from " + b.start_point + ")";
  return where;
}

Termination from_termination(const std::vector<critical::Branch>& branches) {
  using critical::BranchEnd;
  const auto any = [&](std::initializer_list<BranchEnd> ends) {
    return std::any_of(branches.begin(), branches.end(), [&](const critical::Branch& b) {
      return b.id > 0 && std::find(ends.begin(), ends.end(), b.termination) != ends.end();
    });
  };
  if (any({BranchEnd::Completed, BranchEnd::Rejoined})) return Termination::Completed;
  if (any({BranchEnd::MaxSteps})) return Termination::MaxSteps;
  if (any({BranchEnd::StepTooSmall})) return Termination::StepTooSmall;
  if (any({BranchEnd::Stalled})) return Termination::Stalled;
  return Termination::Diverged;
}

}  // namespace

TraceResult Analysis::run() {
  Observer none;
  return run(none);
}

TraceResult Analysis::run(Observer& observer) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const bool ok = start();

  TraceResult r;
  r.unknowns = problem_.size();
  // Every long loop polls the observer: steps and their cuts, Newton iterations,
  // the location of critical points and its bisection (issue 20).
  const std::function<bool()> stop = [&observer] { return observer.stop_requested(); };
  follower_.set_stop_requested(stop);
  critical::ExplorerOptions eo = options_.explorer;
  eo.path.stop_requested = stop;
  eo.finder.locate_options.stop_requested = stop;
  critical::BranchExplorer explorer(problem_, eo);
  Adapter adapter(observer, r, explorer);
  const std::optional<SavedState>& saved = options_.from;
  if (saved) {
    // The state's step is its path's base step: switch_step_ratio is applied once,
    // when the branches start (it was applied here too, twice in all).
    explorer.run_from(saved->point, saved->scaling, saved->initial_step, adapter);
    r.termination = explorer.interrupted() ? Termination::Interrupted : from_termination(explorer.branches());
    r.message = "secondary branches from " + saved->point.id + " (saved state " + saved->source + ")";
    if (explorer.interrupted()) r.message = "interrupted" + interrupted_where(explorer.branches()) + "; " + r.message;
  } else {
    if (ok) explorer.run(follower_, adapter);
    r.termination = explorer.interrupted() ? Termination::Interrupted : follower_.termination();
    r.message = follower_.message();
    // Interrupted on a secondary branch: the primary path's own end reason read as the
    // run's ("termination interrupted: load factor crossed lambda_min or lambda_max").
    if (explorer.interrupted() && follower_.termination() != continuation::Termination::Interrupted)
      r.message = "interrupted" + interrupted_where(explorer.branches()) + "; the primary path: " + r.message;
    if (options_.start) r.message = "primary path from the saved state " + options_.start->source + ": " + r.message;
  }
  if (!explorer.message().empty()) r.message += "; " + explorer.message();
  r.branches = explorer.branches();
  if (r.branches.empty() && !saved) {
    critical::Branch primary;
    primary.termination = critical::branch_end(follower_.termination());
    primary.message = follower_.message();
    r.branches.push_back(primary);
  }
  for (const critical::CriticalPoint& cp : explorer.critical_points()) {
    CriticalRecord c;
    c.point = cp;
    c.tracked = tracked(cp.q);
    if (cp.abe && cp.abe->valid)
      for (const critical::BranchTangent& t : cp.abe->tangents) c.tangents_tracked.push_back(tracked(t.q));
    r.critical_points.push_back(std::move(c));
  }
  const continuation::Stats& st = ok ? explorer.stats() : follower_.stats();
  const linalg::FactorStats fs = ok ? explorer.factor_stats() : follower_.factor_stats();
  RunStats& s = r.stats;
  s.newton_iterations = st.newton_iterations;
  s.failed_steps = st.failed_steps;
  s.locate_factorizations = explorer.locate_factorizations();
  s.factorizations = fs.factorizations + s.locate_factorizations;
  s.assembly_s = st.assembly_seconds;
  s.analyze_s = fs.analyze_seconds;
  s.factorize_s = fs.factorize_seconds;
  s.solve_s = fs.solve_seconds;
  s.wall_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  observer.on_paths_end(r);
  if (r.termination != Termination::Interrupted) run_design(r, observer);
  observer.on_end(r);
  return r;
}

void Analysis::run_design(TraceResult& r, Observer& observer) const {
  if (design_.empty()) return;
  // The tolerances of the run's own critical points, for the sensitivities and the
  // curves alike (the sensitivities used the defaults: critical.bifurcation_tolerance
  // = 1e-2 still called a φᵀg_μ of 1.25e-5 an imperfection, whose curve was followed).
  critical::SensitivityOptions so;
  so.bifurcation_tolerance = options_.explorer.finder.locate_options.bifurcation_tolerance;
  so.symmetric_tolerance = options_.explorer.symmetric_tolerance;
  // Sensitivities of every located simple point to every design parameter (eqs. 8.2, 8.3).
  for (CriticalRecord& rec : r.critical_points) {
    const critical::CriticalPoint& cp = rec.point;
    if (!cp.converged || cp.kind == critical::CriticalKind::Multiple) continue;
    for (const DesignParameter& d : design_) {
      // Each sensitivity rebuilds the model six times: a stop is answered between them.
      if (observer.stop_requested()) {
        r.termination = Termination::Interrupted;
        r.message += "; interrupted during the sensitivities of the critical points";
        return;
      }
      ParameterSensitivity ps;
      ps.parameter = d.name;
      ps.value = d.value;
      try {
        ps.sensitivity = critical::sensitivity(*d.family, d.value, cp, so);
      } catch (const core::InvalidMember& e) {
        // A family that cannot give the problem at μ ± δ (the input layer
        // refuses a value that makes the model invalid); anything else is a bug.
        ps.sensitivity.valid = false;
        ps.sensitivity.message = "the model cannot be built near " + d.name + " = " + core::format_number(d.value) +
                                 ": " + e.what();
      }
      rec.sensitivities.push_back(std::move(ps));
    }
  }
  // Curves λ_cr(μ) of the points asked for, μ = the first design parameter (eq. 8.4).
  const DesignParameter& mu = design_.front();
  critical::CurveOptions co = options_.design.curve;
  const critical::FinderOptions& finder = options_.explorer.finder;
  co.lambda_min = options_.explorer.path.lambda_min;
  co.lambda_max = options_.explorer.path.lambda_max;
  co.locate = critical::LocateOptions{};
  co.locate.tolerance = finder.locate_options.tolerance;
  co.locate.max_iterations = finder.locate_options.max_iterations;
  co.locate.bifurcation_tolerance = finder.locate_options.bifurcation_tolerance;
  co.sensitivity = so;
  // Ctrl-C inside a curve: it ends within the current point's iterations (the
  // locator polls it too), the points so far kept.
  co.stop_requested = [&observer] { return observer.stop_requested(); };
  std::vector<int> directions;
  if (options_.design.directions != CurveDirections::Down) directions.push_back(+1);
  if (options_.design.directions != CurveDirections::Up) directions.push_back(-1);
  for (const std::string& id : options_.design.follow) {
    const CriticalRecord* rec = r.find(id);
    for (int d : directions) {
      CurveRecord c;
      c.point = id;
      c.parameter = mu.name;
      c.direction = d;
      if (!rec) {
        c.curve.termination = critical::CurveTermination::BadStart;
        c.curve.message = "no critical point " + id + " in this run";
      } else if (!rec->point.converged || rec->point.kind == critical::CriticalKind::Multiple) {
        c.curve.termination = critical::CurveTermination::BadStart;
        c.curve.message = rec->point.kind == critical::CriticalKind::Multiple
                              ? id + " is a multiple point: no curve (curves start at simple points)"
                              : id + " was not located: no curve";
      } else if (mu.value < co.mu_min || mu.value > co.mu_max) {
        // The curve starts at the run's μ: outside [mu_min, mu_max] it ended after one
        // step each way, "mu-range", with nothing said.
        c.curve.termination = critical::CurveTermination::BadStart;
        c.curve.message = "the curve starts at " + mu.name + " = " + core::format_g(mu.value, 9) +
                          ", outside [design.mu_min, design.mu_max] = [" + core::format_g(co.mu_min, 9) + ", " +
                          core::format_g(co.mu_max, 9) + "]";
      } else {
        observer.on_curve_start(c);
        c.followed = true;
        critical::CurveOptions o = co;
        o.direction = d;
        try {
          c.curve = critical::follow_critical_curve(*mu.family, mu.value, rec->point, o);
          // A curve that could not leave its point (its sensitivity invalid: the
          // parameter breaks the bifurcation) was not followed either: exit 1.
          c.followed = c.curve.termination != critical::CurveTermination::BadStart;
        } catch (const std::exception& e) {
          // The family refused a value next to the start (μ₀ ± δ of the first
          // derivatives); later failures cut the step inside follow_critical_curve.
          c.curve.termination = critical::CurveTermination::InvalidModel;
          c.curve.message = e.what();
        }
      }
      observer.on_curve_end(c);
      const bool stopped = c.curve.termination == critical::CurveTermination::Interrupted;
      r.curves.push_back(std::move(c));
      if (stopped || observer.stop_requested()) {
        r.termination = Termination::Interrupted;
        r.message += "; interrupted during the curves of critical points";
        return;
      }
    }
  }
}

}  // namespace senda::analysis
