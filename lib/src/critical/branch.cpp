#include "senda/critical/branch.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "senda/core/differences.hpp"
#include "senda/core/number.hpp"

namespace senda::critical {

namespace {

// A secondary branch whose state stays within b (1 + ‖q_c‖) of its start point q_c
// in q, and within b (1 + |λ_c|) in λ, b = min(max(kCrawlTolerance, 100 × the location
// tolerance), kMaxSameRadius), for kCrawlSteps steps is crawling (trace_branch). The
// q bound is the one under which CriticalPointFinder calls two located points the
// same; like it, it measures states in units of the structure's size
// (core::UnknownScale; uncapped, at critical.tolerance = 1e-3 it was 0.1 of Eriksson's
// frame, and every branch "did not leave" its point); the λ bound is looser than the finder's, because the path's points
// near a singular K carry λ only to about the corrector's tolerance (measured: 8.8e-8
// above the located point on a column's crawling branch, constant to 1e-15).
// A bifurcation point whose C changes, with the difference step halved and doubled,
// by more than 1/kUnresolvedC of itself is symmetric: C is round-off (eq. 5.2a).
constexpr double kUnresolvedC = 10.0;
constexpr int kCrawlSteps = 5;
constexpr double kCrawlTolerance = 1e-6;
// A secondary branch gets its own metric (branch_start) where the inherited one would
// move the structure, in the branch's first step, by less than this fraction of what
// its own metric moves it.
constexpr double kOwnMetricFraction = 1e-2;

std::string short_g(double x) { return core::format_g(x, 3); }

// A branch that reaches a bifurcation point o of a path it descends from arrives
// along o's other tangent (a secondary branch crosses that path there). Its chord
// across o, dq, is split in the two tangents' displacements, dq ≈ α t_path + β t_other
// (least squares in the scaled norm); the other tangent's share |β|‖t_other‖ /
// (|α|‖t_path‖ + |β|‖t_other‖) is ≈ 1 on a branch crossing o and ≈ 0 on a path moving
// along o's own path. Measured on the catalogue's branches (118 runs: steps, metrics,
// constraints, depth): 0.83 to 1 at every rejoining point; 0.002 where Eriksson's
// frame at auto_scale = false came back to BP5 along the primary path.
constexpr double kAlongPathShare = 0.1;
// How many times a branch's first step is halved when it lands on the path it starts
// from (trace_branch).
constexpr int kFirstStepHalvings = 4;

// That share; NaN when it cannot be told: no bifurcation equation; o's path not told
// from its other branch (the path's secant within 25.8° of neither tangent,
// |cos| < kIncomingAlignment; 0.9985 to 1 on the catalogue; a saved point's, whose
// incoming tangent was told in the run that found it, is trusted); no chord; or the two
// tangents' displacements parallel to within 1e-3 (a one-unknown model).
constexpr double kIncomingAlignment = 0.9;
// The share of the other tangent in the chord (dq, dλ): in the displacements alone
// (dl NaN), or in (q, λ) in the path's scaled norm (ψ λ).
double tangent_share(const CriticalPoint& o, const Vector& dq, double dl, const continuation::Scaling& s) {
  if (!o.abe || !o.abe->valid) return std::numeric_limits<double>::quiet_NaN();
  const bool saved = !o.branches.empty() && o.branches.front() == -1;
  if (!saved && !(o.abe->incoming_alignment >= kIncomingAlignment)) return std::numeric_limits<double>::quiet_NaN();
  const BranchTangent& path = o.abe->tangents[o.abe->incoming];
  const BranchTangent& other = o.abe->tangents[1 - o.abe->incoming];
  if (path.q.size() != dq.size() || other.q.size() != dq.size() || s.w.size() != dq.size())
    return std::numeric_limits<double>::quiet_NaN();
  const bool with_lambda = !std::isnan(dl);
  const auto scaled = [&](const Vector& q, double l) {
    Vector v(q.size() + 1);
    v.head(q.size()) = s.w.cwiseProduct(q);
    v[q.size()] = with_lambda ? s.psi * l : 0.0;
    return v;
  };
  const Vector a = scaled(path.q, path.lambda), c = scaled(other.q, other.lambda), d = scaled(dq, dl);
  const double na = a.norm(), nc = c.norm(), nd = d.norm();
  if (!(na > 0.0) || !(nc > 0.0) || !(nd > 0.0) || !std::isfinite(nd)) return std::numeric_limits<double>::quiet_NaN();
  const double cosine = a.dot(c) / (na * nc);
  if (!(std::abs(cosine) < 1.0 - 1e-3)) return std::numeric_limits<double>::quiet_NaN();
  // Normal equations of the two unit directions (well conditioned: |cos| < 1 − 1e-3).
  const double ad = a.dot(d) / na, cd = c.dot(d) / nc, det = 1.0 - cosine * cosine;
  const double alpha = (ad - cosine * cd) / det, beta = (cd - cosine * ad) / det;  // coefficients of a/na, c/nc
  const double total = std::abs(alpha) + std::abs(beta);
  return total > 0.0 ? std::abs(beta) / total : std::numeric_limits<double>::quiet_NaN();
}

double other_tangent_share(const CriticalPoint& o, const Vector& dq, const continuation::Scaling& s) {
  return tangent_share(o, dq, std::numeric_limits<double>::quiet_NaN(), s);
}

// Why a path ends whose step went past a load-factor bound between its two ends: a
// critical point located in the step lies beyond stop.lambda_max or below
// stop.lambda_min, while both ends are within them (empty when none is).
std::string bound_inside_step(const std::vector<CriticalPoint>& points,
                              const std::vector<CriticalPointFinder::Found>& found,
                              const continuation::PathFollower& f) {
  const continuation::Options& o = f.options();
  const double a = f.previous().lambda, b = f.current().lambda;
  const auto within = [&](double l) { return l >= o.lambda_min && l <= o.lambda_max; };
  if (!within(a) || !within(b)) return {};
  for (const CriticalPointFinder::Found& k : found) {
    const CriticalPoint& cp = points[static_cast<std::size_t>(k.index)];
    if (!cp.converged || within(cp.lambda)) continue;
    const bool above = cp.lambda > o.lambda_max;
    const std::string key = above ? "lambda_max" : "lambda_min";
    std::string why = "load factor crossed " + key + " inside the last step: " + cp.id + " at lambda = ";
    why += core::format_g(cp.lambda, 10) + (above ? " is above stop." : " is below stop.") + key + " = ";
    why += core::format_g(above ? o.lambda_max : o.lambda_min, 10);
    why += (above ? ", and the step came back below it, to lambda = " : ", and the step came back above it, to lambda = ");
    return why + core::format_g(b, 10);
  }
  return {};
}

}  // namespace

std::string describe(const NeutralStretch& n) {
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "a neutral stretch from point %d to %d: lambda = %.10g constant to %.2g over arc length %.4g, K singular "
                "along it to the path's precision (%d crossing%s",
                n.first_point, n.last_point, n.lambda, n.lambda_spread, n.arc_length, n.crossings,
                n.crossings == 1 ? "" : "s");
  std::string s = buf;
  if (!n.located.empty()) {
    s += "; located before it was recognised:";
    for (const std::string& id : n.located) s += " " + id;
    s += "; the others";
  }
  s += " not located)";
  s += n.lambda_left ? ": lambda left the band after it, so the branch is flat there, not neutral: too flat at "
                       "this step length to tell its critical points from round-off"
                     : ": lambda stayed in the band to the end of the branch: a neutral path to the end of the "
                       "branch, every point of it critical, or a branch too flat at this step length (trace "
                       "it further, or with longer steps, to tell)";
  return s;
}

const char* to_string(BranchEnd e) {
  switch (e) {
    case BranchEnd::Running: return "running";
    case BranchEnd::Completed: return "completed";
    case BranchEnd::MaxSteps: return "max-steps";
    case BranchEnd::StepTooSmall: return "step-too-small";
    case BranchEnd::Diverged: return "diverged";
    case BranchEnd::Interrupted: return "interrupted";
    case BranchEnd::Stalled: return "stalled";
    case BranchEnd::Rejoined: return "rejoined";
    case BranchEnd::Jumped: return "jumped";
    case BranchEnd::NotTraced: return "not-traced";
  }
  return "?";
}

BranchEnd branch_end(continuation::Termination t) {
  using continuation::Termination;
  switch (t) {
    case Termination::Running: return BranchEnd::Running;
    case Termination::Completed: return BranchEnd::Completed;
    case Termination::MaxSteps: return BranchEnd::MaxSteps;
    case Termination::StepTooSmall: return BranchEnd::StepTooSmall;
    case Termination::Diverged: return BranchEnd::Diverged;
    case Termination::Interrupted: return BranchEnd::Interrupted;
    case Termination::Stalled: return BranchEnd::Stalled;
  }
  return BranchEnd::Running;
}

BifurcationEquation bifurcation_equation(const Problem& problem, const CriticalPoint& cp,
                                         const continuation::Scaling& scaling, const Vector& secant_q,
                                         double secant_l, double symmetric_tolerance) {
  BifurcationEquation abe;
  const Vector& q0 = cp.q;
  const Vector& phi = cp.phi;
  const Vector& v = cp.v;
  if (v.size() != q0.size() || phi.size() != q0.size() || !(phi.norm() > 0)) {
    abe.message = "the point has no mode or particular solution";
    return abe;
  }
  SparseMatrix K0 = problem.tangent_pattern(), Kp = problem.tangent_pattern(), Km = problem.tangent_pattern();
  problem.tangent(q0, cp.lambda, K0);
  const Vector K0v = K0 * v, K0phi = K0 * phi;
  // Central differences, [K(q₀ + εd) − K(q₀ − εd)]/(2ε), ε = cbrt(eps)(1 + ‖q‖)/‖d‖: the
  // forward form of eq. (5.2) leaves a truncation of O(ε K⁗), which with stiff axial
  // members (Eriksson's frame) reached 3e-4 |B| in C and misclassified symmetric points.
  // ℓ₀ + ‖q‖ rather than 1 + ‖q‖: ℓ₀ = min(1, L) (core::difference_length), so that the
  // step is not the whole structure in a model less than 1 across.
  const double eps = std::numeric_limits<double>::epsilon();
  const double l0 = core::difference_length(problem);
  const auto step = [&](const Vector& d) { return std::cbrt(eps) * (l0 + q0.norm()) / d.norm(); };
  auto central = [&](const Vector& d, double e, double& with_v, double& with_phi) {
    problem.tangent(q0 + e * d, cp.lambda, Kp);
    problem.tangent(q0 - e * d, cp.lambda, Km);
    with_v = phi.dot(Kp * v - Km * v) / (2.0 * e);
    with_phi = phi.dot(Kp * phi - Km * phi) / (2.0 * e);
  };
  central(phi, step(phi), abe.B1, abe.C);  // along φ: B₁ and C
  if (v.norm() > 0) central(v, step(v), abe.A, abe.B2);  // along v: A and B₂ (v = 0 only if r = 0)
  // C again with the difference step halved and doubled (eq. 5.2a): its spread is
  // what the differences resolve of C. A C that is round-off changes at random with
  // the step; a true one changes by its O(ε²) truncation. With stiff axial members
  // the round-off of K (eps |K|, |K| ≈ EA/L) can exceed the bound tol·max(|A|, |B|): a
  // fixed-base portal (EA = 1e5 EI/L²) had C = 7.9e-6 against B = 0.77 at its sway
  // point, symmetric by the frame's mirror symmetry, and C = −1.9e-5, −3.3e-5 at the
  // other two steps; it was called asymmetric. Measured on the catalogue: |C|/spread
  // ≤ 2.8 at the symmetric points where C is round-off, ≥ 3.5e4 at the asymmetric ones.
  double c_spread = 0.0;
  {
    double b_unused = 0.0, c_half = 0.0, c_double = 0.0;
    central(phi, 0.5 * step(phi), b_unused, c_half);
    central(phi, 2.0 * step(phi), b_unused, c_double);
    c_spread = std::max({std::abs(abe.C - c_half), std::abs(abe.C - c_double), std::abs(c_half - c_double)});
  }
  if (!problem.is_proportional()) {
    // Extra terms of a λ-dependent g: A += 2φᵀK_λv + φᵀg_λλ, B += φᵀK_λφ.
    const double el = core::kLambdaStep * std::max(1.0, std::abs(cp.lambda));
    problem.tangent(q0, cp.lambda + el, Kp);
    Vector gl0, gl1;
    problem.dg_dlambda(q0, cp.lambda, gl0);
    problem.dg_dlambda(q0, cp.lambda + el, gl1);
    const double phiKlv = phi.dot(Kp * v - K0v) / el;
    const double phiKlphi = phi.dot(Kp * phi - K0phi) / el;
    abe.A += 2.0 * phiKlv + phi.dot(gl1 - gl0) / el;
    abe.B1 += phiKlphi;
    abe.B2 += phiKlphi;
  }
  const double B = 0.5 * (abe.B1 + abe.B2);
  const double scale = std::max(std::abs(abe.A), std::abs(B));
  const bool c_small = std::abs(abe.C) <= symmetric_tolerance * scale;
  const bool c_unresolved = std::abs(abe.C) <= kUnresolvedC * c_spread;
  abe.symmetric = c_small || c_unresolved;
  // Null directions (ξ, η) of the form [[A, B], [B, C]].
  Eigen::Vector2d d[2];
  if (abe.symmetric) {
    if (!(std::abs(B) > 0)) {
      abe.message = "degenerate bifurcation equation (A = B = C = 0)";
      return abe;
    }
    d[0] = Eigen::Vector2d(2.0 * B, -abe.A);  // A ξ + 2B η = 0
    d[1] = Eigen::Vector2d(0.0, 1.0);         // ξ = 0: λ̇ = 0, q̇ = φ
  } else {
    Eigen::Matrix2d M;
    M << abe.A, B, B, abe.C;
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es(M);
    const double m1 = es.eigenvalues()[0], m2 = es.eigenvalues()[1];
    if (!(m1 < 0 && m2 > 0)) {
      abe.message = "B^2 - AC <= 0: no two distinct real branch tangents";
      return abe;
    }
    d[0] = std::sqrt(m2) * es.eigenvectors().col(0) + std::sqrt(-m1) * es.eigenvectors().col(1);
    d[1] = std::sqrt(m2) * es.eigenvectors().col(0) - std::sqrt(-m1) * es.eigenvectors().col(1);
  }
  const double sec_norm = scaling.norm(secant_q, secant_l);
  double best = -1.0;
  for (int k = 0; k < 2; ++k) {
    Vector tq = d[k][0] * v + d[k][1] * phi;
    double tl = d[k][0];
    const double nrm = scaling.norm(tq, tl);
    tq /= nrm;
    tl /= nrm;
    abe.tangents[k] = {tq, tl};
    const double align = sec_norm > 0 ? std::abs(scaling.dot(tq, tl, secant_q, secant_l)) / sec_norm : 0.0;
    if (align > best) {
      best = align;
      abe.incoming = k;
    }
  }
  abe.incoming_alignment = best;
  abe.valid = true;
  abe.message = !abe.symmetric ? "asymmetric (transcritical)"
                : c_small     ? "symmetric (pitchfork)"
                              : "symmetric (pitchfork): C = " + short_g(abe.C) + " is round-off, it changes by " +
                                    short_g(c_spread) + " with the difference step";
  return abe;
}

BranchExplorer::BranchExplorer(const Problem& problem, const ExplorerOptions& options)
    : problem_(problem), options_(options), finder_(options.finder) {
  finder_.measure_by(problem);
}

bool BranchExplorer::wanted(const std::string& id) const {
  if (!options_.switch_branches) return false;
  if (options_.switch_at.empty()) return true;
  return std::find(options_.switch_at.begin(), options_.switch_at.end(), id) != options_.switch_at.end();
}

void BranchExplorer::absorb(const continuation::PathFollower& f) {
  stats_ += f.stats();
  factor_stats_ += f.factor_stats();
}

void BranchExplorer::trace_branch(continuation::PathFollower& f, Branch& b, ExplorerEvents& events,
                                  std::vector<Pending>& queue, const FirstStep* first) {
  events.on_branch_start(b);
  events.on_point(b, f);
  bool rejoined = false, stalled = false;
  // The first step's retries (below): how many, at what length, and whether the last
  // one still landed on the path the branch starts from.
  int halvings = 0;
  double landed_longest = 0.0, landed_shortest = 0.0, first_taken = 0.0;
  double landed_share = std::numeric_limits<double>::quiet_NaN();
  bool landed = false;
  // (Asked only after a retry, so with first given.)
  const auto start_path = [&] {
    return first->parent >= 0 ? "the path of branch " + std::to_string(first->parent)
                               : "the path through " + first->point->id + " (not traced in this run)";
  };
  // A secondary branch that has not left its start point (bound: about what a
  // location resolves) after kCrawlSteps steps is crawling: its steps are too short
  // in the unknowns' own units. It ends Stalled, with the reason, instead of "rejoining" its own start point or
  // reporting the round-off of a singular K as critical points.
  // By index: locating appends to points(), which may move its elements.
  int origin = -1;
  for (std::size_t k = 0; k < finder_.points().size(); ++k) {
    const CriticalPoint& p = finder_.points()[k];
    if (!b.start_point.empty() && p.id == b.start_point && p.converged) origin = static_cast<int>(k);
  }
  bool left = origin < 0;
  double walked = 0.0;
  // As CriticalPointFinder's same-point bound in q, min(max(1e-6, 100 tol), 1e-2).
  const double bound =
      std::min(std::max(kCrawlTolerance, 100.0 * finder_.options().locate_options.tolerance), kMaxSameRadius);
  auto crawling = [&]() {
    stalled = true;
    const continuation::PathPoint& c = f.current();
    const CriticalPoint& o = finder_.points()[static_cast<std::size_t>(origin)];
    const std::string id = o.id;
    b.message = "the branch did not leave " + id + ": after " + std::to_string(b.points) + " steps (arc length " +
                short_g(walked) + ") its state is within " + short_g(bound) + " (1 + |q_" + id + "|) of " + id +
                ", in units of the structure's size " + short_g(scale().size()) + " (|q - q_" + id +
                "| = " + short_g(scale().distance(c.q, o.q)) + ", |lambda - lambda_" + id +
                "| = " + short_g(std::abs(c.lambda - o.lambda)) +
                "): its steps are too short in the unknowns' own units. " +
                (b.own_metric
                     ? std::string("The branch was traced in its own metric (the structure's size and the "
                                   "critical load), its first step switch_step_ratio * initial_step / "
                                   "max(|lambda_c|, initial_step) of the structure's size: raise "
                                   "branches.switch_step_ratio")
                 : options_.path.auto_scale
                     ? std::string("On a nearly inextensible primary path the per-kind weights of "
                                   "continuation.auto_scale make them so: set continuation.auto_scale = false "
                                   "(and continuation.psi), or raise branches.switch_step_ratio")
                     : std::string("With continuation.auto_scale = false a step on the branch moves the "
                                   "structure by about initial_step times max(psi, |dq/dlambda|): raise "
                                   "continuation.psi, branches.switch_step_ratio or continuation.initial_step (a "
                                   "model whose displacements are all below this bound, in its units, is below "
                                   "what a location resolves)"));
  };
  // The run of points, ending at the current one, over which λ stays within
  // kNeutralTolerance, with what was found in its steps. A run flat over an arc of
  // kNeutralArcSteps first steps in which a second step shows a crossing is a neutral
  // path (NeutralStretch). One crossing is not enough: a fold traced with short steps
  // is as flat over a step (three-bar at initial_step = 1e-4: λ constant to 6.5e-9
  // over the step that crosses LP1), and it crosses once.
  struct FlatRun {
    int first = 0;
    double lambda_first = 0.0, lo = 0.0, hi = 0.0, arc = 0.0;
    int crossings = 0;
    std::vector<int> located;  // indices into the finder's points
  };
  FlatRun run{0, f.current().lambda, f.current().lambda, f.current().lambda, 0.0, 0, {}};
  double lambda_previous = f.current().lambda;
  bool stretch_open = false;
  // (stretch, index into the finder's points) of the points located in a stretch's run
  // before it was recognised: marked at the branch's end, once it is known whether λ
  // left the band (then they stay isolated points, switched at as any other).
  std::vector<std::pair<std::size_t, int>> stretch_points;
  // Relative to |λ| alone, as λ's units are the load pattern's: with a floor of 1 a
  // model whose critical loads are 1e-9 (a pattern of 1e9 units) would be flat
  // everywhere. A path through λ = 0 is never flat there.
  const auto flat_within = [](double lo, double hi) {
    return hi - lo <= kNeutralTolerance * std::max(std::abs(lo), std::abs(hi));
  };
  const auto extend_run = [&](double lambda, double step) {
    if (flat_within(std::min(run.lo, lambda), std::max(run.hi, lambda))) {
      run.lo = std::min(run.lo, lambda);
      run.hi = std::max(run.hi, lambda);
      run.arc += step;
      return true;
    }
    // Left the plateau: a new run from the previous point, or from this one.
    const double lo = std::min(lambda_previous, lambda), hi = std::max(lambda_previous, lambda);
    if (flat_within(lo, hi))
      run = {b.points - 1, lambda_previous, lo, hi, step, 0, {}};
    else
      run = {b.points, lambda, lambda, lambda, 0.0, 0, {}};
    return false;
  };
  while (!f.done()) {
    if (events.stop_requested()) {
      f.interrupt();
      interrupted_ = true;
      break;
    }
    if (!f.advance()) break;
    // A secondary branch's first step. Where the two paths cross at an acute angle (an
    // asymmetric bifurcation) its constraint (eq. 5.4), normal to the branch's tangent,
    // also meets the path the branch leaves, and a long step can converge there
    // (Roorda's frame at branches.switch_step_ratio = 10: the first point was the
    // primary path's at λ = 11.6, below BP1 at 14.0, and the branch's 60 points were
    // the primary path's). Its chord from the point is then along that path's tangent
    // (its share of the branch's tangent in (q, ψλ) below kAlongPathShare; a branch's
    // own first chord has about 1; docs/theory.md §5): the step is taken again from the
    // point, halved, up to kFirstStepHalvings times, before any event sees it.
    // Only at an asymmetric point: at a symmetric one the branch's tangent (φ, λ̇ = 0)
    // is normal to the path's in the scaled norm, the hyperplane does not meet the
    // path near the point, and a branch curving strongly in λ (ψ large) has a small
    // share without having landed anywhere.
    if (first && b.points == 0 && first->point->abe && !first->point->abe->symmetric) {
      const CriticalPoint& o = *first->point;
      const double share = tangent_share(o, f.current().q - o.q, f.current().lambda - o.lambda, f.scaling());
      if (share < kAlongPathShare) {
        const double taken = f.current().step_length;  // the corrector may have cut the step
        if (halvings == 0) landed_longest = taken;
        landed_shortest = taken;
        landed_share = share;
        if (halvings == kFirstStepHalvings) {
          landed = true;
          break;
        }
        ++halvings;
        if (!f.start_along(o.q, o.lambda, first->tq, first->tl, 0.5 * taken, first->scaling)) break;
        continue;
      }
    }
    ++b.points;
    if (b.points == 1) first_taken = f.current().step_length;
    events.on_point(b, f);
    walked += f.current().step_length;
    if (!extend_run(f.current().lambda, f.current().step_length) && stretch_open) {
      stretch_open = false;
      b.neutral.back().lambda_left = true;
    }
    lambda_previous = f.current().lambda;
    if (!left) {
      const CriticalPoint& o = finder_.points()[static_cast<std::size_t>(origin)];
      left = scale().distance(f.current().q, o.q) > bound * (1.0 + scale().norm(o.q)) ||
             std::abs(f.current().lambda - o.lambda) > bound * (1.0 + std::abs(o.lambda));
      if (!left && b.points >= kCrawlSteps) {
        crawling();
        break;
      }
      // Still at the start point: what a singular K shows here is round-off (a
      // crawling column showed a dozen "critical points" in five steps), and a
      // point located here is the start point again. The step that leaves it is
      // checked (its signs; the eigenvalue monitor needs its first point's data and
      // has none).
      if (!left) continue;
    }
    const bool flat = run.first < b.points && run.arc >= kNeutralArcSteps * f.initial_step_length();
    // The stretch's record, from the run, and what was located in it before.
    const auto begin_stretch = [&] {
      NeutralStretch n;
      n.first_point = run.first;
      n.lambda = run.lambda_first;
      n.crossings = run.crossings;
      for (int k : run.located) {
        n.located.push_back(finder_.points()[static_cast<std::size_t>(k)].id);
        stretch_points.emplace_back(b.neutral.size(), k);
      }
      b.neutral.push_back(std::move(n));
      stretch_open = true;
    };
    const auto update_stretch = [&](bool crossing, bool begins) {
      NeutralStretch& n = b.neutral.back();
      n.last_point = b.points;
      n.lambda_spread = run.hi - run.lo;
      n.arc_length = run.arc;
      if (crossing) ++n.crossings;
      if (begins) events.on_neutral(b, n);
    };
    if (flat && (stretch_open || run.crossings > 0)) {
      // A crossing here is one of a neutral path's: counted, not located. A step
      // without one extends an open stretch.
      const bool crossing = finder_.crossed(f, b.id);
      const bool begins = crossing && !stretch_open;
      if (begins) begin_stretch();
      if (stretch_open) update_stretch(crossing, begins);
      continue;
    }
    const std::vector<CriticalPointFinder::Found> step_found = finder_.check(f, b.id);
    run.crossings += static_cast<int>(step_found.size());
    for (const CriticalPointFinder::Found& found : step_found)
      if (found.is_new) run.located.push_back(found.index);
    // One step that held two crossings or more of a flat run (a refined step of a
    // neutral path finds one per piece): the stretch begins here.
    if (flat && run.crossings >= 2) {
      begin_stretch();
      update_stretch(false, true);
    }
    for (const CriticalPointFinder::Found& found : step_found) {
      CriticalPoint& cp = finder_.points()[found.index];
      if (rejoined) {
        // Past the point where the branch rejoined (one refined step held both):
        // recorded and reported, not switched at.
        if (found.is_new) events.on_critical(b, cp, true);
        continue;
      }
      if (found.is_new) {
        if (cp.converged && cp.kind == CriticalKind::Bifurcation) {
          cp.abe = bifurcation_equation(problem_, cp, f.scaling(), found.secant_q, found.secant_lambda,
                                        options_.symmetric_tolerance);
          if (cp.abe->valid && b.depth < options_.max_depth && wanted(cp.id)) {
            // A point beyond a load-factor bound, located inside the step that crossed
            // it: reported, not switched at. A branch that starts outside the bounds
            // never crosses one and ran on to max_steps (a cylindrical step of the
            // fork-supported beam from λ = 0 to 1.9e5, and branches traced at 325
            // against stop.lambda_max = 4).
            if (const std::string why = beyond_bounds(cp); !why.empty()) {
              add_message("no branch from " + cp.id + ": " + why);
              beyond_said_.push_back(cp.id);
            } else {
              queue.push_back({found.index, b.id, b.depth + 1});
            }
          }
        }
        events.on_critical(b, cp, true);
      } else {
        // A branch that returns to a point already located ends there: it rejoined
        // that point's path, unless it was moving along a path it descends from (its
        // parent, or further up), which a branch crosses only at bifurcation points:
        // then its steps jumped onto that path (or the branch is that path itself).
        const int path = cp.branches.front();
        bool ancestor = path == -1;  // a run from a saved point: the untraced path through it
        for (int p = b.parent; p >= 0 && !ancestor; p = branches_[static_cast<std::size_t>(p)].parent)
          ancestor = p == path;
        const double share = other_tangent_share(cp, found.secant_q, f.scaling());
        const bool along = ancestor && cp.converged &&
                           (cp.kind == CriticalKind::Limit ||
                            (cp.kind == CriticalKind::Bifurcation && share < kAlongPathShare));
        events.on_critical(b, cp, false);
        rejoined = true;
        // −1: the path through a --from run's saved point, which that run does not trace.
        const std::string path_name = path == -1 ? "the path through " + cp.id + " (not traced in this run)"
                                                 : "the path of branch " + std::to_string(path);
        b.end_point = cp.id;
        if (!along) {
          cp.switched = true;
          b.termination = BranchEnd::Rejoined;
          b.message = "rejoined " + path_name + " at " + cp.id;
          // Reached in a load-controlled step that jumped: no equilibrium path led there
          // (three-bar's branch 2 under load control "rejoined at BP2" across the snap
          // past LP2, and its message dropped the jump its mirror, branch 1, reported).
          if (f.last_step_jumped())
            b.message += ", reached in a step that jumped (under load control: the curve across that step is no "
                         "equilibrium path, and the branch followed none to " + cp.id + ")";
        } else {
          // Not a rejoining: the point is not marked switched (its branches are still
          // to be traced, when it is a bifurcation point).
          b.termination = BranchEnd::Jumped;
          b.message =
              "reached " + cp.id + " of " + (path == -1 ? path_name : "branch " + std::to_string(path)) +
              " moving along that path (" +
              (cp.kind == CriticalKind::Limit
                   ? "a limit point, where no other path meets it"
                   : "along its own tangent: " + short_g(share) + " of the chord across " + cp.id +
                         " lies along the secondary tangent, where a branch crossing it has about 1") +
              "): this branch left its own path and jumped onto " +
              (path == -1 ? path_name + ", and its points from there on are that path's. "
                          : "branch " + std::to_string(path) + ", and its points from there on are branch " +
                                std::to_string(path) + "'s. ") +
              (options_.path.auto_scale
                   ? std::string("Shorter steps on the branch (branches.switch_step_ratio, "
                                 "continuation.max_step_ratio) may keep it on its path")
                   : std::string("With continuation.auto_scale = false a step is measured in the model's own "
                                 "units, mostly in lambda when lambda's numbers are large against the "
                                 "displacements' (psi = 1), and near a bifurcation point the corrector then "
                                 "converges to whichever path is at that lambda: set continuation.auto_scale = "
                                 "true, or lower continuation.psi until a step moves the displacements about as "
                                 "much as lambda (shorter steps alone may not help; docs/theory.md section "
                                 "5)"));
        }
        // The notes the follower's own end would have added (load-controlled steps that
        // jumped or were cut): this end is the explorer's.
        b.message += f.control_notes(continuation::Termination::Completed);
      }
    }
    // A load-factor bound crossed inside the step: its ends are within the bounds,
    // but a critical point located between them is not. The path went past
    // stop.lambda_max over a limit point and came back below it within one step
    // (von Mises at lambda_max = 0.0344: the step over its maximum, 0.0344265, and
    // the path went on through the snap to the far branch, up to 0.042). It ends
    // there, as it does at a point beyond the bound.
    if (!rejoined && !f.done())
      if (const std::string why = bound_inside_step(finder_.points(), step_found, f); !why.empty()) f.complete(why);
    if (rejoined || stalled) break;
  }
  // A stop request that arrived while the critical points of the path's last step
  // were located (the location polls it, and reports the point it stopped at "not
  // located: interrupted") finds the path done, and the loop above polls no more: the
  // run is interrupted all the same (it ended completed, exit 0, with a point left
  // not located by the signal).
  if (!interrupted_ && !landed && events.stop_requested()) {
    f.interrupt();
    interrupted_ = true;
  }
  if (landed) {
    b.termination = BranchEnd::Jumped;
    b.message = "not traced: its first step from " + first->point->id + " (" + short_g(first->ds) +
                ") landed on " + start_path() + " it starts from at every length taken, " + short_g(landed_longest) +
                " down to " + short_g(landed_shortest) + " (" + short_g(landed_share) +
                " of the last chord along the branch's tangent): lower branches.switch_step_ratio";
  } else if (stalled) {
    b.termination = BranchEnd::Stalled;
  } else if (!rejoined) {
    b.termination = branch_end(f.termination());
    b.message = f.message();
    if (f.termination() == continuation::Termination::Interrupted) interrupted_ = true;
  }
  if (halvings > 0 && !landed)
    b.message += (b.message.empty() ? "" : "; ") +
                 (b.points > 0 ? "its first step was " + short_g(first_taken) + " instead of " + short_g(first->ds)
                               : "no first step was taken after " + std::to_string(halvings) + " retr" +
                                     (halvings == 1 ? "y" : "ies")) +
                 " (branches.switch_step_ratio): steps of " + short_g(landed_longest) +
                 (halvings > 1 ? " down to " + short_g(landed_shortest) : std::string()) + " landed on " +
                 start_path() + " it starts from";
  for (const auto& [stretch, k] : stretch_points) {
    const NeutralStretch& n = b.neutral[stretch];
    if (n.lambda_left) continue;
    CriticalPoint& cp = finder_.points()[static_cast<std::size_t>(k)];
    cp.neutral_branch = b.id;
    cp.message += (cp.message.empty() ? "" : "; ") + std::string("on the neutral stretch of branch ") +
                  std::to_string(b.id) + " from point " + std::to_string(n.first_point) +
                  " (lambda constant, K singular along it to the branch's end): one of its points";
  }
  for (const NeutralStretch& n : b.neutral)
    b.message += "; " + describe(n);
  events.on_branch_end(b, f);
  absorb(f);
}

std::string BranchExplorer::beyond_bounds(const CriticalPoint& cp) const {
  // Beyond the bound the step crossed: its start was within it. A path may start
  // outside a bound and move into the range (the Bratu problem from below
  // lambda_min, through the library): its points before it gets there are switched.
  const continuation::Options& o = options_.path;
  const double lo = std::min(cp.lambda_before, cp.lambda_after), hi = std::max(cp.lambda_before, cp.lambda_after);
  if (cp.lambda > o.lambda_max && lo <= o.lambda_max)
    return "located at lambda = " + core::format_g(cp.lambda, 10) + ", above stop.lambda_max = " +
           core::format_g(o.lambda_max, 10);
  if (cp.lambda < o.lambda_min && hi >= o.lambda_min)
    return "located at lambda = " + core::format_g(cp.lambda, 10) + ", below stop.lambda_min = " +
           core::format_g(o.lambda_min, 10);
  // stop.displacement likewise (the Euler column's BP1 at |uy| = 2.471e-5 against a
  // limit of 2.4e-5: both branches were started, and ended after one point).
  if (o.monitor_dof >= 0 && o.monitor_dof < cp.q.size() && std::abs(cp.q[o.monitor_dof]) > o.max_displacement)
    return "located at " + problem_.dof_name(o.monitor_dof) + " = " + core::format_g(cp.q[o.monitor_dof], 10) +
           ", beyond stop.displacement = " + core::format_g(o.max_displacement, 10);
  return {};
}

void BranchExplorer::switch_at(const Pending p, ExplorerEvents& events, std::vector<Pending>& queue) {
  // p by value: tracing appends to queue, which may move its elements.
  if (finder_.points()[p.point].switched) return;
  // A "bifurcation point" of a neutral path is one of its points: no branch from it.
  if (finder_.points()[p.point].neutral_branch >= 0) return;
  finder_.points()[p.point].switched = true;
  // Copies: tracing appends to the finder's points and may move them.
  const CriticalPoint cp = finder_.points()[p.point];
  if (!cp.abe || !cp.abe->valid) return;
  const BranchTangent& t = cp.abe->tangents[1 - cp.abe->incoming];
  const std::vector<int> dirs = options_.direction == 0 ? std::vector<int>{+1, -1}
                                                        : std::vector<int>{options_.direction > 0 ? 1 : -1};
  for (int dir : dirs) {
    if (interrupted_) return;
    if (static_cast<int>(branches_.size()) >= options_.max_branches) {
      if (message_.find("maximum number of branches reached") == std::string::npos)
        add_message("maximum number of branches reached");
      return;
    }
    continuation::PathFollower f(problem_, options_.path);
    Branch b;
    b.id = static_cast<int>(branches_.size());
    b.parent = p.parent;
    b.depth = p.depth;
    b.start_point = cp.id;
    b.direction = dir;
    const BranchStart start = branch_start(cp, t, metrics_[static_cast<std::size_t>(std::max(p.parent, 0))]);
    b.own_metric = start.own;
    metrics_.push_back(start.metric);
    const FirstStep first{&cp, dir * t.q, dir * t.lambda, start.ds, start.metric->scaling, p.parent};
    if (!f.start_along(cp.q, cp.lambda, first.tq, first.tl, first.ds, first.scaling)) {
      b.termination = branch_end(f.termination());
      b.message = f.message();
      branches_.push_back(b);
      continue;
    }
    const std::size_t index = branches_.size();
    branches_.push_back(b);
    trace_branch(f, branches_.back(), events, queue, &first);
    // No step at any length: said why when the point is no equilibrium of this model.
    // A bifurcation unfolded by the model itself is located as the perfect structure's
    // (SPB's γ ≠ 0 within critical.bifurcation_tolerance), off both of its paths; a
    // first step shorter than the unfolding finds neither (Roorda's frame, EA = 1e5, at
    // branches.switch_step_ratio = 0.1: "no convergence in 15 iterations"; at EA = 1e7,
    // γ a hundred times smaller, the same ratio starts both branches).
    Branch& traced = branches_[index];
    if (traced.points == 0 && traced.termination == BranchEnd::StepTooSmall) {
      Vector g(problem_.size());
      problem_.residual(cp.q, cp.lambda, g);
      const double scale = f.residual_scale(cp.lambda);
      if (g.norm() > options_.path.residual_tolerance * scale)
        traced.message += "; " + cp.id + " is no equilibrium of this model: its residual is " +
                          core::format_g(g.norm() / scale, 3) + " of the force scale (SPB's unfolding gamma = " +
                          core::format_g(cp.gamma, 3) +
                          ": a bifurcation unfolded by the model itself, located as the perfect structure's, "
                          "docs/theory.md section 4), and first steps this short find no path from it: a larger "
                          "branches.switch_step_ratio steps over the unfolding";
    }
  }
}

const BranchExplorer::PathMetric& BranchExplorer::metric(int branch) const {
  if (branch < 0 || branch >= static_cast<int>(metrics_.size()) || !metrics_[static_cast<std::size_t>(branch)])
    throw std::out_of_range("BranchExplorer: no branch " + std::to_string(branch));
  return *metrics_[static_cast<std::size_t>(branch)];
}

BranchExplorer::BranchStart BranchExplorer::branch_start(const CriticalPoint& cp, const BranchTangent& t,
                                                         const std::shared_ptr<const PathMetric>& parent) const {
  // A branch inherits the metric of the path it starts from (eq. 2.10 on the primary
  // path), whose unit of displacement is that path's first tangent's, ‖v‖ per unit
  // load. On a stiff primary path (a straight column shortening by 1e-5 of its
  // length up to its buckling load) that unit is far too fine for the branch, which
  // moves the structure by its own size while λ hardly changes: a step of Δs₀ moves
  // it by 1e-5 and the branch crawls (the Euler column at the default settings
  // walked 26 first steps along the elastica at λ = λ_c ± 1e-8 and reported its
  // round-off as critical points). The branch's own metric measures the
  // displacements, as a root mean square over the n unknowns, against the
  // structure's size L (rotations as θ L, Problem::kind_length c_i), and λ against
  // Λ = max(|λ_c|, Δλ₀):
  //     w_i = c_i / (L √n),   ψ = 1 / Λ,   Δs_b = switch_step_ratio · Δλ₀ / Λ        (5.5)
  // so that its first step moves the structure, in the mean, by the fraction of L
  // that the path's first load increment is of Λ, whatever the mesh. The branch
  // takes its own metric where the inherited one would move the structure, in the
  // first step, by less than kOwnMetricFraction of what its own moves it (both root
  // mean squares along t). The ratio of the two, measured on the catalogue: 1.5e-5
  // on the Euler column (EA = 1e5 EI/L², 1.5e-7 at 1e7), 4e-4 to 1e-3 on the
  // lateral and torsional branches of the 3D frames, 6.6e-4 on a steel column in mm;
  // 0.03 to 1 on the star dome, Eriksson's frame and the three-bar structure, whose
  // paths move them. Not with auto_scale = false (the user's own metric, kept
  // everywhere), nor for a problem with no translations (no length to measure by).
  BranchStart inherited{parent, parent->base_step * options_.switch_step_ratio, false};
  if (!options_.path.auto_scale) return inherited;
  const int n = problem_.size();
  bool translations = false;
  for (int i = 0; i < n && !translations; ++i) translations = problem_.dof_kind(i) == core::DofKind::Translation;
  const Vector& c = scale().lengths();  // c_i
  const double L = scale().size();
  const double dl0 = std::abs(options_.path.initial_load_increment);
  const double Lambda = std::max(std::abs(cp.lambda), dl0);
  auto own = std::make_shared<PathMetric>();
  own->scaling.w = c / (L * std::sqrt(static_cast<double>(n)));
  own->scaling.psi = 1.0 / Lambda;
  own->base_step = dl0 / Lambda;
  const double t_inherited = parent->scaling.norm(t.q, t.lambda), t_own = own->scaling.norm(t.q, t.lambda);
  if (!translations || !(L > 0.0) || !std::isfinite(L) || !(dl0 > 0.0) || !std::isfinite(Lambda) ||
      !(t_inherited > 0.0) || !(t_own > 0.0) || !std::isfinite(t_own))
    return inherited;
  // The root mean square of the displacements (as lengths) of each first step along t.
  const double rms_t = c.cwiseProduct(t.q).norm() / std::sqrt(static_cast<double>(n));
  const double moved_inherited = inherited.ds * rms_t / t_inherited;
  const double ds_own = own->base_step * options_.switch_step_ratio;
  const double moved_own = ds_own * rms_t / t_own;
  if (!(moved_inherited < kOwnMetricFraction * moved_own)) return inherited;
  return {own, ds_own, true};
}

bool BranchExplorer::run(const Vector& q0, double lambda0, ExplorerEvents& events) {
  continuation::PathFollower f(problem_, options_.path);
  if (!f.start(q0, lambda0)) {
    Branch primary;
    message_ = f.message();
    primary.termination = branch_end(f.termination());
    primary.message = f.message();
    branches_.push_back(primary);
    return false;
  }
  run(f, events);
  return true;
}

void BranchExplorer::run(continuation::PathFollower& f, ExplorerEvents& events) {
  metrics_.assign(1, std::make_shared<const PathMetric>(PathMetric{f.scaling(), f.metric_step_length()}));
  branches_.push_back(Branch{});
  std::vector<Pending> queue;
  trace_branch(f, branches_.back(), events, queue);
  switch_queue(queue, events);
  // A point branches.at (--switch) names that no branch started from is said: a
  // typo or a point this run did not reach was passed over in silence.
  if (!options_.switch_branches || interrupted_) return;
  std::string missing;
  for (const std::string& id : options_.switch_at) {
    const auto& pts = finder_.points();
    const auto it = std::find_if(pts.begin(), pts.end(), [&](const CriticalPoint& p) { return p.id == id; });
    std::string why;
    if (it == pts.end())
      why = "not found on this run's paths";
    else if (it->kind != CriticalKind::Bifurcation)
      why = "a limit point, where no branch starts";
    else if (!it->converged)
      why = "not located";
    else if (!it->abe || !it->abe->valid)
      why = "no valid bifurcation equation";
    else if (std::find(beyond_said_.begin(), beyond_said_.end(), id) != beyond_said_.end())
      continue;  // said when it was located ("no branch from BP1: …")
    else if (const std::string beyond = beyond_bounds(*it); !beyond.empty())
      why = beyond;
    else if (!it->switched)
      why = "not switched at (branches.max_depth or max_branches)";
    if (!why.empty()) missing += (missing.empty() ? "" : ", ") + id + " (" + why + ")";
  }
  if (!missing.empty()) {
    add_message("branches.at names points no branch started from: " + missing +
                " (a point of a secondary branch is reached only when that branch is traced: name the point it "
                "starts from too)");
  }
}

void BranchExplorer::switch_queue(std::vector<Pending>& queue, ExplorerEvents& events) {
  std::size_t k = 0;
  for (; k < queue.size() && !interrupted_; ++k) switch_at(queue[k], events, queue);
  // Interrupted in switch_at(queue[k − 1]), or before the first (on the path itself).
  if (interrupted_) say_untraced(queue, k == 0 ? 0 : k - 1);
}

void BranchExplorer::say_untraced(const std::vector<Pending>& queue, std::size_t from) {
  // What switch_at() would have traced: not a point that a branch rejoined (switched)
  // or a neutral path's, nor one without a valid equation; the directions asked for;
  // within max_branches. The entry in progress (`from`) is already marked switched.
  const std::vector<int> dirs_asked = options_.direction == 0 ? std::vector<int>{+1, -1}
                                                                : std::vector<int>{options_.direction > 0 ? 1 : -1};
  long budget = static_cast<long>(options_.max_branches) - static_cast<long>(branches_.size());
  std::string list;
  for (std::size_t k = from; k < queue.size() && budget > 0; ++k) {
    const CriticalPoint& cp = finder_.points()[static_cast<std::size_t>(queue[k].point)];
    if ((k > from && cp.switched) || cp.neutral_branch >= 0 || !cp.abe || !cp.abe->valid) continue;
    std::string dirs;
    for (int dir : dirs_asked) {
      const bool traced = std::any_of(branches_.begin(), branches_.end(), [&](const Branch& b) {
        return b.id > 0 && b.start_point == cp.id && b.direction == dir;
      });
      if (!traced && budget > 0) {
        dirs += (dirs.empty() ? "" : ", ") + std::string(dir > 0 ? "+" : "-");
        --budget;
      }
    }
    if (!dirs.empty()) list += (list.empty() ? "" : ", ") + cp.id + " (" + dirs + ")";
  }
  if (list.empty()) return;
  // Pending, not "would have been traced": a branch traced later may rejoin at one of
  // these points, which then gets none (Eriksson's BP4-BP6).
  add_message("interrupted with branches still pending at " + list);
}

bool BranchExplorer::run_from(const CriticalPoint& bp, const continuation::Scaling& scaling, double ds,
                              ExplorerEvents& events) {
  if (!bp.abe || !bp.abe->valid) {
    message_ = "the saved point " + bp.id + " has no valid bifurcation equation";
    return false;
  }
  // The saved point must be this model's bifurcation point: SPB from it returns to
  // it. A state of another version of the model (a spring or an EI changed: the
  // unknowns keep their names, so the fingerprint agrees) has its bifurcation point
  // elsewhere, or none, and the branches of the old one are no structure's (three-bar
  // with its spring halved, from the BP1 of the shipped file: "BP1 0.333333 located"
  // where this model's is 0.365148). One SPB iteration or two when it is.
  // Near is within 1e-2 relative (the largest radius of same_point): a state located
  // at a looser critical.tolerance (1e-5: λ 4e-8 off) is this model's point, and the
  // branches start from SPB's, located to this run's tolerance.
  LocateOptions lo = options_.finder.locate_options;
  CriticalPoint again = refine(problem_, bp.q, bp.lambda, bp.phi, 0.0, AugmentedSystem::Bifurcation, lo);
  // Near, and the saved point's own SPB residual in this model (the first of the
  // re-location) at most kLooseTolerance: a point of another model 1 % away (three-bar's
  // spring 0.41 for 0.4) has a residual of 1e-3 and was taken for this model's.
  constexpr double kNear = 1e-2, kLooseTolerance = 1e-4;
  const double r0 = again.residual_history.empty() ? INFINITY : again.residual_history.front();
  const bool near = again.converged && r0 <= std::max(kLooseTolerance, lo.tolerance) &&
                    scale().distance(again.q, bp.q) <= kNear * (1.0 + scale().norm(bp.q)) &&
                    std::abs(again.lambda - bp.lambda) <= kNear * (1.0 + std::abs(bp.lambda));
  if (!near || again.kind != CriticalKind::Bifurcation) {
    message_ = "the saved point " + bp.id + " (lambda = " + core::format_g(bp.lambda, 12) +
               ") is not a bifurcation point of this model: SPB from it ";
    if (!again.converged)
      message_ += "did not converge (" + again.message + ")";
    else if (again.kind != CriticalKind::Bifurcation)
      message_ += "converged to a limit point at lambda = " + core::format_g(again.lambda, 12);
    else
      message_ += "converged to another point, at lambda = " + core::format_g(again.lambda, 12) +
                  " (its residual at the saved point is " + core::format_g(r0, 3) + ")";
    message_ += "; the state was written by another model with the same unknowns (another stiffness, geometry or "
                "load?): trace this model's path to locate its own bifurcation points";
    branches_.push_back(Branch{});
    branches_.back().termination = BranchEnd::NotTraced;
    branches_.back().message = message_;
    return false;
  }
  metrics_.assign(1, std::make_shared<const PathMetric>(PathMetric{scaling, ds}));
  // Branch 0 stays the primary path, not traced in this run.
  Branch primary;
  primary.termination = BranchEnd::NotTraced;
  primary.message = "started from the saved point " + bp.id;
  CriticalPoint saved = bp;
  if (!finder_.same_point(again, bp)) {
    // Its state and load factor as this run locates them (the mode, the particular
    // solution and the bifurcation equation stay the state's).
    // The cause cannot be told from the state: a looser critical.tolerance where it was
    // located, or a model changed by little (a pinned column's GA_s from 1e7 to 1e6
    // moved its BP by 9e-5 relative, and passed the check above).
    primary.message += " (re-located in this model: lambda " + core::format_g(bp.lambda, 12) + " -> " +
                       core::format_g(again.lambda, 12) +
                       "; the state was located at a looser critical.tolerance, or written by a slightly different "
                       "model, whose mode and bifurcation equation the branches start from)";
    saved.q = again.q;
    saved.lambda = again.lambda;
  }
  branches_.push_back(primary);
  saved.switched = false;
  saved.branches = {-1};  // found on a branch not traced in this run
  // Its bracket is the point itself (it was λ in [0, 0] at points 0-0 of that branch,
  // which a check of "located inside its bracket" read as a point outside it).
  saved.point_before = saved.point_after = 0;
  saved.lambda_before = saved.lambda_after = saved.lambda;
  const int index = finder_.adopt(saved);
  // Its files (mode, state, drawings) as for a point located in this run: summary.json
  // names modes/<id>.csv for every converged point, and a --from run listed one it
  // had not written (nor drawn, nor put in the VTK modes).
  events.on_critical(branches_.back(), finder_.points()[static_cast<std::size_t>(index)], true);
  std::vector<Pending> queue{{index, -1, 1}};
  switch_queue(queue, events);
  return true;
}

}  // namespace senda::critical
