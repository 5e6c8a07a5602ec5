#include "senda/continuation/path_follower.hpp"
#include "senda/core/number.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace senda::continuation {

const char* to_string(Termination t) {
  switch (t) {
    case Termination::Running: return "running";
    case Termination::Completed: return "completed";
    case Termination::MaxSteps: return "max-steps";
    case Termination::StepTooSmall: return "step-too-small";
    case Termination::Diverged: return "diverged";
    case Termination::Interrupted: return "interrupted";
    case Termination::Stalled: return "stalled";
  }
  return "?";
}

namespace {
// Displacement control: the smallest |w_j t_q,j| (share of the controlled dof in the
// unit tangent) at the start; round-off of a dof that does not move is ~1e-16.
constexpr double kMinControlShare = 1e-8;
// A failed displacement-controlled path whose control dof's share of the tangent
// fell below this fraction of its share at the start ended at a turning point of
// the controlled displacement, not at a numerical failure.
constexpr double kTurningShareFraction = 1e-2;
// Acceptance of a step (eq. 2.11): the secant of an arc-length step makes an angle
// below 60° with the tangent it was predicted along.
constexpr double kMinTangentCosine = 0.5;
// Acceptance of a step, path jumping: the corrector may move the displacements away
// from the predictor by at most what the predictor moved them (and at least by this
// fraction of the step length, for a predictor that hardly moves them). On a smooth
// branch the correction is about κΔs²/2 against Δs, and halving the step meets the
// bound; a corrector that converged on another part of the path does not.
constexpr double kMaxCorrectionFloor = 0.05;
// Load control: a step whose corrector moved the displacements more than this many
// times what the predictor did (or the floor above) jumped across a limit point.
// Measured under load control (2026-12-06): the jumps of the catalogue and of
// tests/continuation/cfg move them 2.1 (three-bar's branch over its loop, onto the
// path beyond the support line) to 1 600 times; steps that stay on their path at
// most 0.81 (the Euler column's branches), 0.74 across the sharp turn of the sway
// truss with a 1e-3 imperfection. (It was 10, and the three-bar branch's jump went
// unsaid.)
constexpr double kLoadControlJump = 1.5;
// Under load control, the largest predictor length, in the path's metric, as a multiple
// of its longest arc-length step (max_step_ratio × metric_step_length()). Measured on the
// catalogue under load control (default, max_step_ratio = 1, unit weights with psi 1e-4
// and 100, auto_scale with psi 1e-3 and 30): at most 6.2 on a primary path (Eriksson's,
// just before its limit point; von Mises 3.1); where a branch's step landed on another
// state, 14 (three-bar, over its loop's top), 38 (the star dome at psi = 1e-3: uz1 −19
// where the branch has −10), 234 (Eriksson's frame) and 993 (the leaning column).
constexpr double kLoadControlReach = 10.0;
// Check (c') of a step (λ where ψ leaves it out of the norm): a correction of λ below
// this fraction of |λ| (and of the path's largest load increment) is never a jump.
constexpr double kLambdaJumpFloor = 1e-3;
// Displacement control, where the controlled dof is less than kControlShareSmall of
// the unit tangent at the step's start (a prescribed step is then more than 10 times
// as long along the path): a step that moves λ by more than kControlLambdaJump of |λ|
// and of the path's largest |Δλ| so far, and more than kControlStepGrowth times that
// largest |Δλ|, converged on another path at the prescribed displacement (the star
// dome's branch from BP1 under control of the apex, its share 8e-4: λ from 18.42 to
// −4.37 in one step, 1.24 of |λ| and 4 800 times the largest |Δλ|). Judged on
// secondary branches only (stays_on_branch(), check (c'')).
constexpr double kControlShareSmall = 0.1;
constexpr double kControlLambdaJump = 0.5;
constexpr double kControlStepGrowth = 10.0;
// The scaling (eq. 2.10): a kind of unknown whose block of the first tangent,
// measured as a length, is below this fraction of the largest is one the load does
// not move (round-off, or a response too small to set a unit by).
constexpr double kKindNoise = 1e-6;
// Round-off of a position or a step: 64 eps of its size (as the corrector's floor).
constexpr double kRoundOff = 64.0 * std::numeric_limits<double>::epsilon();
// max_steps reached with the end point this fraction of the arc length walked, or
// less, from the start: the path went back and forth (Stalled), not along.
constexpr double kStalledFraction = 0.1;
std::string format_number(double x) { return core::format_g(x, 3); }
// The angle, in degrees, whose cosine is given (clamped to [−1, 1]), as format_number.
std::string format_degrees(double cosine) { return format_number(std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / M_PI); }
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
bool finite(const Vector& v) { return v.allFinite(); }
bool is_arc_length(ConstraintKind k) {
  return k == ConstraintKind::Spherical || k == ConstraintKind::Cylindrical || k == ConstraintKind::PseudoArclength;
}
}  // namespace

Crossing crossing_between(const PathPoint& before, const PathPoint& after) {
  return Crossing{.point_before = before.index, .point_after = after.index,
                  .lambda_before = before.lambda, .lambda_after = after.lambda,
                  .negative_pivots_before = before.negative_pivots, .negative_pivots_after = after.negative_pivots,
                  .det_sign_changed = after.det_sign != before.det_sign,
                  .bordered_sign_changed = after.bordered_sign != before.bordered_sign};
}

double abs_product_norm(const SparseMatrix& K, const Vector& q) {
  // ‖ |K| |q| ‖: the size of the terms whose sum is K q. Round-off keeps ‖g‖ above
  // eps times this, however small ‖r‖ is (Bratu at large N: r = h² e^u → 0).
  // K is symmetric with both triangles stored, so row i of |K| is column i.
  double sum2 = 0.0;
  for (int j = 0; j < K.outerSize(); ++j) {
    double s = 0.0;
    for (SparseMatrix::InnerIterator it(K, j); it; ++it) s += std::abs(it.value()) * std::abs(q[it.row()]);
    sum2 += s * s;
  }
  return std::sqrt(sum2);
}

PathFollower::PathFollower(const Problem& problem, const Options& options, Unfactored)
    : problem_(problem), options_(options), constraint_(make_constraint(options.constraint)) {
  if (options_.constraint == ConstraintKind::DisplacementControl &&
      (options_.control_dof < 0 || options_.control_dof >= problem.size()))
    throw std::logic_error("PathFollower: displacement control needs control_dof in [0, n)");
  K_ = problem_.tangent_pattern();
}

PathFollower::PathFollower(const Problem& problem, const Options& options)
    : PathFollower(problem, options, Unfactored{}) {
  own_work_ = std::make_unique<linalg::SymmetricFactorization>(K_, options_.linear_solver);
  own_point_ = own_work_->clone_analysis();  // one symbolic analysis for both
  work_ = own_work_.get();
  point_ = own_point_.get();
}

PathFollower::PathFollower(const Problem& problem, const Options& options,
                           const linalg::SymmetricFactorization& analysed)
    : PathFollower(problem, options, Unfactored{}) {
  if (analysed.size() != problem.size()) throw std::logic_error("PathFollower: analysis of another size");
  own_work_ = analysed.clone_analysis();
  own_point_ = analysed.clone_analysis();
  work_ = own_work_.get();
  point_ = own_point_.get();
}

PathFollower::PathFollower(const Problem& problem, const Options& options, linalg::SymmetricFactorization& work,
                           linalg::SymmetricFactorization& point)
    : PathFollower(problem, options, Unfactored{}) {
  if (work.size() != problem.size() || point.size() != problem.size())
    throw std::logic_error("PathFollower: analysis of another size");
  if (&work == &point) throw std::logic_error("PathFollower: one object lent for both factorizations");
  work_ = &work;
  point_ = &point;
  lent_ = {&work, &point};
  lent_stats_ = {work.stats(), point.stats()};
}

PathFollower::~PathFollower() {
  for (int k = 0; k < 2; ++k)
    if (lent_[k]) lent_[k]->restore_stats(lent_stats_[k]);
}

std::string PathFollower::control_notes(Termination t) const {
  std::string notes;
  // Load-controlled steps that jumped (advance()), whatever ended the path.
  if (load_jumps_ > 0)
    notes += "; under load control " + std::to_string(load_jumps_) + " step" + (load_jumps_ == 1 ? "" : "s") +
          " jumped (the first from point " + std::to_string(first_jump_index_) + " at lambda = " +
          format_number(first_jump_lambda_) + ", the corrector moving the displacements " +
          format_number(first_jump_ratio_) +
          " times what the predictor did): load control cannot pass a limit point, and the curve across "
          "such a step is no equilibrium path (in time, a snap-through: simulate); continuation.constraint "
          "= spherical follows the path through its limit points";
  // Load-controlled steps cut for their predictor's reach (advance()), unless the
  // path ended on such a cut, whose message says it: the path crept along a stretch
  // where K is nearly singular (the leaning column's flat branch at psi = 0.01 moved
  // 0.007 in 40 steps, "maximum number of steps reached").
  if (reach_cuts_ > 0 && t != Termination::StepTooSmall)
    notes += "; under load control " + std::to_string(reach_cuts_) + " step" + (reach_cuts_ == 1 ? " was" : "s were") +
          " cut because the predictor would have moved the structure more than " +
          format_number(kLoadControlReach) +
          " times the path's longest arc-length step (K nearly singular along the path: a flat branch, or a "
          "limit point ahead): load control follows such a stretch only in short steps; continuation.constraint "
          "= spherical follows it";
  return notes;
}

void PathFollower::finish(Termination t, std::string why) {
  if (termination_ == Termination::Running) {
    termination_ = t;
    message_ = std::move(why);
    // A path that cannot go on next to a degenerate state of the model (a bar through
    // zero length): said, with the state's name for it.
    if (t == Termination::StepTooSmall && current_.q.size() == problem_.size())
      if (const std::string d = problem_.degenerate_configuration(current_.q); !d.empty())
        message_ += "; at the last point " + d;
    message_ += control_notes(t);
    // A path from a loaded state (start(), not a branch) that reached its end in a few
    // steps says what such steps cannot see: the shallow von Mises truss (h/L = 0.2,
    // EA = 1) at the default initial_step went from rest to its inverted state in one
    // step, 17 times its critical load, and reported "completed" with no crossing.
    if (t == Termination::Completed && started_by_load_ && current_.index >= 1 && current_.index < kFewSteps)
      message_ += "; in only " + std::to_string(current_.index) + " step" + (current_.index == 1 ? "" : "s") +
                  ": a snap-through whose two limit points both fall inside one step changes neither det K nor "
                  "the inertia and is not seen, so shorter steps (continuation.initial_step, max_step_ratio) are "
                  "the check that none was stepped over";
  }
}

bool PathFollower::stop_polled() {
  if (!options_.stop_requested || !options_.stop_requested()) return false;
  interrupt();
  return true;
}

double PathFollower::resolvable_step() const {
  const double unit = unit_load_length_ > 0.0 ? unit_load_length_ : scaling_.psi;
  // The point's size in the step's own measure: cylindrical steps measure the
  // displacements alone, and with ψλ in it a stiff column at unit weights (EI = 1e10,
  // ‖Wv‖ = 5e-12 per unit load) found its second step of 4.8e-6 below a floor of 1.4e-5.
  const bool cylindrical = options_.constraint == ConstraintKind::Cylindrical && !first_step_constraint_;
  const double y = current_.q.size() == problem_.size()
                       ? scaling_.norm(current_.q, cylindrical ? 0.0 : current_.lambda)
                       : 0.0;
  return std::max({kRoundOff * y, resolvable_load_ * unit, kRoundOff * unit, std::numeric_limits<double>::min()});
}

void PathFollower::eval_residual(const Vector& q, double lambda, Vector& g) {
  const auto t0 = Clock::now();
  problem_.residual(q, lambda, g);
  ++stats_.residual_evaluations;
  stats_.assembly_seconds += seconds_since(t0);
}

double PathFollower::residual_scale(double lambda) const {
  return std::max({load_norm_ * std::max(1.0, std::abs(lambda)), initial_unbalance_, stiffness_floor_, 1e-300});
}

namespace {
// K = K(q, λ), counted and timed in the follower's statistics.
void assemble_tangent(const Problem& problem, Stats& stats, const Vector& q, double lambda, SparseMatrix& K) {
  const auto t0 = Clock::now();
  problem.tangent(q, lambda, K);
  ++stats.tangent_assemblies;
  stats.assembly_seconds += seconds_since(t0);
}
}  // namespace

bool PathFollower::assemble_and_factor(linalg::SymmetricFactorization& f, const Vector& q, double lambda) {
  assemble_tangent(problem_, stats_, q, lambda, K_);
  return f.factorize(K_) == linalg::FactorStatus::Ok;
}

bool PathFollower::point_factorization(const Vector& q, double lambda) {
  // Eq. (2.12). work_ holds the factorization of K₀ = K_ = K(q_f, λ_f), the last
  // Newton iterate, one update (≤ the increment tolerance) away from the point.
  // K₀ + t ΔK, ΔK = K(q, λ) − K₀, is nonsingular for every t ∈ [0, 1], and so has
  // K₀'s inertia (eigenvalues are continuous in t), when ρ(K₀⁻¹ ΔK) < 1: then
  // K₀ + tΔK = K₀ (I + t K₀⁻¹ΔK). ρ is estimated by two steps of the power method on
  // K₀⁻¹ΔK from two fixed vectors (two solves with the factor in hand, two sparse
  // products, one assembly: a fraction of a factorization), and the factor is kept
  // when the estimate is ≤ kReuseRadius, a margin of 100 for an estimate that is a
  // lower bound. Away from a crossing ρ is ~ the relative change of K over the last
  // update (1e-6 … 1e-12); it reaches the bound only when an eigenvalue of K is
  // within ~100 updates of zero, and then K is factorized at the point.
  const int n = problem_.size();
  point_reused_ = false;
  const bool reusable = options_.reuse_factorization && work_->status() == linalg::FactorStatus::Ok &&
                        work_->size() == n && K_.nonZeros() > 0;
  if (!reusable) return assemble_and_factor(*work_, q, lambda);
  K0_.assign(K_.valuePtr(), K_.valuePtr() + K_.nonZeros());
  assemble_tangent(problem_, stats_, q, lambda, K_);
  const double rho = reuse_radius();
  if (rho <= kReuseRadius) {
    ++stats_.reused_factorizations;
    point_reused_ = true;
    return true;
  }
  ++stats_.refused_reuses;
  return work_->factorize(K_) == linalg::FactorStatus::Ok;
}

double PathFollower::reuse_radius() {
  const int n = problem_.size();
  const double* v = K_.valuePtr();
  bool changed = false;
  for (std::size_t k = 0; k < K0_.size(); ++k)
    if (v[k] != K0_[k]) {
      changed = true;
      break;
    }
  if (!changed) return 0.0;  // the same matrix: the factor is exact
  if (z1_.size() != n) {
    z1_.resize(n);
    z2_.resize(n);
  }
  // Two fixed start vectors with entries in [−½, ½) from a multiplicative hash of i
  // (cheap at n = 10⁶, and not aligned with any smooth mode).
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::uint32_t>(i);
    z1_[i] = static_cast<double>((u * 2654435761u) >> 8) / 16777216.0 - 0.5;
    z2_[i] = static_cast<double>((u * 2246822519u + 374761393u) >> 8) / 16777216.0 - 0.5;
  }
  // y = ΔK z, both columns in one pass over K (both triangles are stored).
  const auto product = [&] {
    y1_.setZero(n);
    y2_.setZero(n);
    const int* p = K_.outerIndexPtr();
    const int* r = K_.innerIndexPtr();
    for (int j = 0; j < n; ++j)
      for (int k = p[j]; k < p[j + 1]; ++k) {
        const double d = v[k] - K0_[static_cast<std::size_t>(k)];
        y1_[r[k]] += d * z1_[j];
        y2_[r[k]] += d * z2_[j];
      }
  };
  double rho = 0.0;
  for (int it = 0; it < 2; ++it) {
    const double n1 = z1_.norm(), n2 = z2_.norm();
    if (!(n1 > 0.0) || !(n2 > 0.0)) break;  // ΔK z = 0: nothing to amplify
    product();
    work_->solve(y1_, y2_, z1_, z2_);  // z = K₀⁻¹ ΔK z
    const double r1 = z1_.norm() / n1, r2 = z2_.norm() / n2;
    if (!std::isfinite(r1) || !std::isfinite(r2)) return INFINITY;
    rho = std::max({rho, r1, r2});
  }
  return rho;
}

void PathFollower::load_vector(const Vector& q, double lambda, Vector& r) {
  if (problem_.is_proportional() && r_.size() == problem_.size()) {
    r = r_;
    return;
  }
  const auto t0 = Clock::now();
  problem_.dg_dlambda(q, lambda, r);
  r = -r;
  stats_.assembly_seconds += seconds_since(t0);
}

std::string PathFollower::singular_message(const linalg::SymmetricFactorization& f) const {
  std::string m = std::string("tangent stiffness ") + linalg::to_string(f.status());
  if (f.first_zero_pivot() >= 0) m += " (first zero pivot at " + problem_.dof_name(f.first_zero_pivot()) + ")";
  return m;
}

void PathFollower::set_scaling(const Vector& v) {
  const int n = problem_.size();
  scaling_.w = Vector::Ones(n);
  scaling_.psi = options_.psi;
  if (!options_.auto_scale) return;
  // Characteristic size of each kind of unknown: the norm of its block of v,
  // so that ‖v‖_W = 1 and load and displacement weigh alike when ψ = 1 (eq. 2.10).
  constexpr int kinds = 3;  // DofKind::Translation, Rotation, Generic
  std::vector<int> kind(static_cast<std::size_t>(n));
  double size2[kinds] = {0.0, 0.0, 0.0};
  bool present[kinds] = {false, false, false};
  for (int i = 0; i < n; ++i) {
    const int k = static_cast<int>(problem_.dof_kind(i));
    kind[static_cast<std::size_t>(i)] = k;
    size2[k] += v[i] * v[i];
    present[k] = true;
  }
  // The kinds compared as lengths (a rotation θ moves the structure by θ L): a kind
  // whose block is below kKindNoise of the largest, so measured, is one the load does
  // not move. Its block is round-off or a response of that order (a straight column
  // whose axis is computed with cos(π/2) = 6e-17 turns by 1e-16 per unit load while
  // it shortens by 1e-5): a weight of 1/‖block‖ would make that noise, and its
  // growth along the path, the whole of the norm (the column crawled at 10⁻⁷ of its
  // first step, 15 iterations a step, at λ = 0.27 P_cr). It is measured as a length
  // instead, in the units of the largest kind.
  double length[kinds], largest = 0.0;
  int m = 0;
  for (int k = 0; k < kinds; ++k) {
    length[k] = problem_.kind_length(static_cast<core::DofKind>(k));
    if (!present[k]) continue;
    largest = std::max(largest, std::sqrt(size2[k]) * length[k]);
    ++m;
  }
  if (!(largest > 0.0) || !std::isfinite(largest)) return;
  double weight[kinds];
  for (int k = 0; k < kinds; ++k) {
    const double s = std::sqrt(size2[k]);
    weight[k] = s * length[k] > kKindNoise * largest ? 1.0 / (s * std::sqrt(static_cast<double>(m)))
                                                     : length[k] / (largest * std::sqrt(static_cast<double>(m)));
  }
  for (int i = 0; i < n; ++i) scaling_.w[i] = weight[kind[static_cast<std::size_t>(i)]];
}

bool PathFollower::tangent_at(const Vector& q, double lambda, const Vector* orient_q, double orient_l,
                              double* cos_previous, bool commit, bool solved) {
  Vector& r = r_work_;
  Vector& v = v_;
  if (!solved) {
    load_vector(q, lambda, r);
    point_->solve(r, v);
  }
  const double nrm = scaling_.norm(v, 1.0);
  if (!std::isfinite(nrm) || nrm == 0.0) return false;
  double sign = 1.0;
  if (orient_q && scaling_.dot(v, 1.0, *orient_q, orient_l) < 0.0) sign = -1.0;
  if (cos_previous) *cos_previous = sign * scaling_.dot(v, 1.0, tq_, tl_) / nrm;
  if (!commit) return true;
  tq_ = (sign / nrm) * v;
  tl_ = sign / nrm;
  return true;
}

bool PathFollower::start(const Vector& q0, double lambda0) {
  const int n = problem_.size();
  if (q0.size() != n) throw std::logic_error("PathFollower::start: wrong size of q0");
  Vector q = q0, g(n);
  Vector r;
  load_vector(q, lambda0, r);
  if (problem_.is_proportional()) r_ = r;
  load_norm_ = r.norm();
  eval_residual(q, lambda0, g);
  initial_unbalance_ = finite(g) ? g.norm() : 0.0;
  // No load vector at q₀ (a load entering through the geometry): the stiffness
  // floor of eq. (2.9) scales the residual from the first Newton iteration on, so
  // that a tiny unbalance (an imperfection of 1e-7) is not asked for round-off below
  // its own size.
  if (!(load_norm_ > 0.0) && finite(g) && assemble_and_factor(*point_, q, lambda0)) {
    double d = 0.0;
    for (int j = 0; j < n; ++j) d += std::abs(K_.coeff(j, j));
    stiffness_floor_ = d / n;
  }
  // Newton at fixed λ₀. Besides ‖g‖ ≤ tol_r F, the start point is accepted at the
  // round-off floor of g (eq. 2.9a): ‖g‖ ≤ 64 eps T, T = max(Problem::force_terms,
  // ‖ |K| |q| ‖) the size of the terms whose sum is g, once Newton no longer reduces
  // it (‖g‖ ≥ ½ of the last one, after at least one iteration, so that an unbalance
  // below the floor has been removed by a full Newton step). At q₀ = 0 the element
  // forces are themselves round-off, ≈ eps EA per element (N = EA ε, ε rounded), and
  // ‖r‖ = 1 makes tol_r F an absolute 1e-10, below that noise on fine meshes of stiff
  // members (docs/notes/eriksson-frame.md §6: measured ‖g‖ ≈ 0.4 eps T, stagnant).
  // A real unbalance is not accepted: Newton reduces it (quadratically), so it is
  // not stagnant, or it is above 64 eps T.
  double round_off = 0.0, previous = INFINITY;
  int it = 0;
  for (;; ++it) {
    if (stop_polled()) return false;
    eval_residual(q, lambda0, g);
    if (!finite(g)) {
      finish(Termination::Diverged, "residual not finite at the start point");
      return false;
    }
    const double residual = g.norm();
    if (residual <= options_.residual_tolerance * residual_scale(lambda0)) break;
    if (it > 0 && residual <= kRoundOff * round_off && residual >= 0.5 * previous) break;
    if (it == options_.max_iterations) {
      finish(Termination::Diverged, "no equilibrium found at the start load factor");
      return false;
    }
    if (!assemble_and_factor(*point_, q, lambda0)) {
      finish(Termination::Diverged, singular_message(*point_) + " at the start point");
      return false;
    }
    round_off = std::max(problem_.force_terms(q, lambda0), abs_product_norm(K_, q));
    q += point_->solve(-g);
    previous = residual;
    ++stats_.newton_iterations;
  }
  if (!assemble_and_factor(*point_, q, lambda0)) {
    finish(Termination::Diverged, singular_message(*point_) + " at the start point");
    return false;
  }
  if (!(load_norm_ > 0.0)) {
    double d = 0.0;
    for (int j = 0; j < n; ++j) d += std::abs(K_.coeff(j, j));
    stiffness_floor_ = d / n;
  }
  load_vector(q, lambda0, r);
  const Vector v = point_->solve(r);
  if (!finite(v)) {
    finish(Termination::Diverged, "tangent not finite at the start point");
    return false;
  }
  set_scaling(v);
  const Vector zero = Vector::Zero(n);
  if (!tangent_at(q, lambda0, &zero, options_.direction >= 0 ? 1.0 : -1.0)) {
    // Say which: a scaled norm that overflows (ψ = 1e300 squared) is not a load
    // that does not move the structure (issue 20).
    if (!std::isfinite(scaling_.norm(v, 1.0)))
      finish(Termination::Diverged, "the scaled norm of the first tangent overflows: psi = " +
                                        format_number(scaling_.psi) + ", the largest weight of the unknowns " +
                                        format_number(scaling_.w.cwiseAbs().maxCoeff()) +
                                        " (psi out of range, or auto_scale = false with unknowns too large)");
    else
      finish(Termination::Diverged, "the load does not move the structure (zero tangent)");
    return false;
  }
  if (options_.constraint == ConstraintKind::DisplacementControl) {
    // Displacement control prescribes w_j Δq_j = σ Δs (eq. 2.5). A dof the load does
    // not move (zero by symmetry: the apex rotation of a symmetric frame) leaves
    // K b = r with b_j = 0 and the corrector's δλ = −(c + w_j a_j)/(w_j b_j) a
    // quotient of round-off: refused, by name, before the first step.
    const int j = options_.control_dof;
    const double share = control_share();
    if (!(share > kMinControlShare)) {
      finish(Termination::Diverged,
             "displacement control: " + problem_.dof_name(j) +
                 " does not move along the initial tangent (its share of the unit tangent is " +
                 format_number(share) + "); control a dof the load moves, or use an arc-length constraint");
      return false;
    }
    control_sign_ = tq_[j] > 0.0 ? 1 : -1;
    control_share0_ = share;
    control_share_max_ = share;
  }
  // The step length of a unit load increment along the tangent (v, 1): ‖(v, 1)‖ in
  // the scaled norm; under load control, whose step is ψΔλ = Δs, ψ. It makes the
  // first step Δs₀ = Δλ₀ L₁ (below) and the smallest step the model resolves,
  // resolvable_load_ L₁ (resolvable_step()): with ‖(v, 1)‖ there under load control,
  // an initial_step the start accepted could fall below that floor, 1.41e-10 against
  // an accepted 1.2e-10 for von Mises, and the run ended with no step.
  // Under cylindrical steps, which measure the displacements alone, ‖v‖: with
  // ‖(v, 1)‖ the first increment was Δλ₀ ‖(v, 1)‖/‖v‖, √2 Δλ₀ with auto_scale, and at
  // unit weights on a stiff structure as large as its inverse displacements (the
  // fork-supported beam, ‖v‖ = 1.3e-6: from λ = 0 to 1.9e5 in one step, past every
  // buckling load up to it).
  switch (options_.constraint) {
    case ConstraintKind::LoadControl: unit_load_length_ = scaling_.psi; break;
    case ConstraintKind::Cylindrical: unit_load_length_ = scaling_.norm(v, 0.0); break;
    default: unit_load_length_ = scaling_.norm(v, 1.0);
  }
  if (!(unit_load_length_ > 0.0) || !std::isfinite(unit_load_length_)) {
    finish(Termination::Diverged,
           "the " + std::string(to_string(options_.constraint)) + " constraint's first step (" +
               format_number(std::abs(options_.initial_load_increment)) +
               " of load) has no length: the first tangent's displacements measure " +
               format_number(scaling_.norm(v, 0.0)) + " in the scaled norm");
    return false;
  }
  // The first step must be one the residual test resolves (resolvable_step()): a
  // load increment whose force ‖r‖Δλ is below tol_r F gives points the corrector
  // cannot tell from the start point (issue 20: at Δλ = 1e-200 the von Mises truss
  // reported 355 limit points with λ at ±1e-200). Refused, not raised: the caller
  // asked for that step.
  const double r_norm = r.norm();
  resolvable_load_ = r_norm > 0.0 ? std::max(options_.residual_tolerance, kRoundOff) * residual_scale(lambda0) / r_norm
                                  : 0.0;
  if (!(std::abs(options_.initial_load_increment) >= resolvable_load_)) {
    finish(Termination::StepTooSmall,
           "the first step (a load increment of " + format_number(std::abs(options_.initial_load_increment)) +
               ") is below what the model resolves: its force is under the residual tolerance; the smallest "
               "increment it resolves is " + format_number(resolvable_load_));
    return false;
  }
  started_by_load_ = true;
  // The first step's length in the scaled norm, Δs₀ = Δλ₀ L₁: the first predictor's
  // Δλ is then Δλ₀. Under load control L₁ = ψ: with ‖(v, 1)‖ the first increment
  // was Δλ₀ ‖(v, 1)‖/ψ, √2 Δλ₀ with auto_scale (a user's initial_step = 0.1 went
  // 0.1414, 0.3414, …); under cylindrical steps L₁ = ‖v‖ (above).
  ds0_ = std::abs(options_.initial_load_increment) * unit_load_length_;
  ds_metric_ = std::abs(options_.initial_load_increment) * scaling_.norm(v, 1.0);
  ds_ = ds0_;
  ds_min_ = options_.min_step_ratio * ds0_;
  ds_max_ = options_.max_step_ratio * ds0_;
  has_secant_ = false;
  lambda_step_scale_ = 0.0;
  load_jumps_ = 0;
  reach_cuts_ = 0;
  q_start_ = q;
  lambda_start_ = lambda0;
  arc_length_ = 0.0;
  current_ = PathPoint{};
  current_.q = q;
  current_.lambda = lambda0;
  current_.iterations = it;
  current_.residual = g.norm();
  current_.det_sign = point_->det_sign();
  current_.negative_pivots = point_->negative_pivots();
  current_.bordered_sign = current_.det_sign * (tl_ >= 0.0 ? 1 : -1);
  previous_ = current_;
  return true;
}

bool PathFollower::start_at_limit(const Vector& q0, double lambda0, const Vector& phi, const Scaling& scaling) {
  const int n = problem_.size();
  if (q0.size() != n || phi.size() != n || scaling.w.size() != n)
    throw std::logic_error("PathFollower::start_at_limit: wrong size of q0, phi or the scaling");
  Vector g(n), r;
  load_vector(q0, lambda0, r);
  eval_residual(q0, lambda0, g);
  assemble_tangent(problem_, stats_, q0, lambda0, K_);
  const double residual = g.norm();
  const double scale = std::max({r.norm() * std::max(1.0, std::abs(lambda0)), abs_product_norm(K_, q0), 1e-300});
  if (!std::isfinite(residual) || !(residual <= options_.residual_tolerance * scale)) {
    finish(Termination::Diverged,
           "the limit point is not an equilibrium of this model: residual " + format_number(residual) +
               " above the tolerance " + format_number(options_.residual_tolerance * scale) +
               " (a state of another version of the model?)");
    return false;
  }
  Scaling s = scaling;
  s.psi = options_.psi;
  const double ds = std::abs(options_.initial_load_increment) * std::sqrt(1.0 + s.psi * s.psi);
  const double sign = options_.direction >= 0 ? 1.0 : -1.0;
  return start_along(q0, lambda0, sign * phi, 0.0, ds, s);
}

bool PathFollower::start_along(const Vector& q0, double lambda0, const Vector& tq, double tl, double ds,
                               const std::optional<Scaling>& scaling) {
  const int n = problem_.size();
  // A follower may start again from the point (a branch's first step that landed on
  // the path it starts from, BranchExplorer::trace_branch): nothing of the attempt
  // before is kept but the work counted in stats().
  termination_ = Termination::Running;
  message_.clear();
  crossing_.reset();
  load_share_max_ = 0.0;
  Vector g(n), r;
  load_vector(q0, lambda0, r);
  if (problem_.is_proportional()) r_ = r;
  load_norm_ = r.norm();
  initial_unbalance_ = 0.0;
  // A bifurcation point itself is singular: the step only needs the given direction.
  assemble_and_factor(*point_, q0, lambda0);
  if (!(load_norm_ > 0.0)) {
    double d = 0.0;
    for (int j = 0; j < n; ++j) d += std::abs(K_.coeff(j, j));
    stiffness_floor_ = d / n;
  }
  if (scaling) {
    scaling_ = *scaling;
  } else {
    scaling_.w = Vector::Ones(n);
    scaling_.psi = options_.psi;
  }
  const double nrm = scaling_.norm(tq, tl);
  if (!(nrm > 0.0)) {
    finish(Termination::Diverged, "zero start direction");
    return false;
  }
  tq_ = tq / nrm;
  tl_ = tl / nrm;
  unit_load_length_ = 0.0;  // resolvable_step(): ψ
  resolvable_load_ = 0.0;
  q_start_ = q0;
  lambda_start_ = lambda0;
  arc_length_ = 0.0;
  ds0_ = ds;
  ds_metric_ = ds;
  ds_ = ds;
  ds_min_ = options_.min_step_ratio * ds0_;
  ds_max_ = options_.max_step_ratio * ds0_;
  first_step_constraint_ = make_constraint(ConstraintKind::PseudoArclength);
  started_by_load_ = false;
  skip_crossing_ = true;
  has_secant_ = false;
  lambda_step_scale_ = 0.0;
  load_jumps_ = 0;
  reach_cuts_ = 0;
  // Displacement control on a branch: σ is the sign of the controlled dof's change in
  // the first (pseudo-arclength) step, fixed after it (advance()). The branch tangent
  // itself may hold no information on it: along the secondary branch of a pitchfork
  // the controlled dof moves only to second order.
  control_sign_ = 0;
  control_share0_ = 0.0;
  control_share_max_ = 0.0;
  eval_residual(q0, lambda0, g);
  current_ = PathPoint{};
  current_.q = q0;
  current_.lambda = lambda0;
  current_.residual = g.norm();
  // The start of a branch is a singular point (a bifurcation point): the inertia of
  // its K is that of round-off, neither the branch's nor the parent's. Undetermined
  // (path.csv leaves it empty); the first step's crossing is not checked.
  current_.det_sign = 0;
  current_.negative_pivots = -1;
  previous_ = current_;
  return true;
}

bool PathFollower::correct(const Constraint& constraint, Vector& q, double& lambda, const StepFrame& frame, const Vector& q_start,
                           double lambda_start, int& iterations, double& residual, std::string& why) {
  const int n = problem_.size();
  // Work vectors are members, allocated once per follower: n may be 10⁶, and a
  // fresh block of that size costs page faults on every use. The loop makes as
  // few passes over n-vectors as it can (docs/performance.md): Δq is kept up to
  // date with q instead of being recomputed, and the update, Δq, q and the
  // increment's norm are done in one pass.
  Vector& g = g_;
  Vector& r = r_work_;
  Vector& a = a_;
  Vector& b = b_;
  Vector& dq = dq_;
  for (Vector* v : {&g, &r, &a, &b}) v->resize(n);
  dq = q - q_start;
  const Vector& w = scaling_.w;
  const double psi2 = scaling_.psi * scaling_.psi;
  double increment = INFINITY, previous_increment = INFINITY, term_scale = 0.0, force_terms = -1.0;
  // The scales of the tests (eq. 2.9 and the increment floor 64 eps ‖y‖) are those of
  // the iterate, but never more than twice those of the step's first iterate (the
  // predictor, Δs from the last converged point): an iterate that runs away (λ =
  // 1e167) has a force scale ‖r‖|λ| and a floor that grow with it, and passed both
  // tests (issue 19, displacement control on a dof the load does not move). A
  // converged step stays well inside the bound, so its tests are unchanged.
  double load_scale0 = 0.0, size0 = 0.0;
  // The step's size the increment tests are relative to (StepFrame::step_scale): under
  // displacement control of a dof that is a small share of the tangent (Lee's frame,
  // node 3 ux: 1/100 of it) ds is that share of the step, and increments of 1e-6 ds
  // took 4-5 iterations a step, the step control cut ds on, and the path crawled.
  const double step = frame.step_scale > 0.0 ? frame.step_scale : frame.ds;
  // Updates made with a factorization of K at the iterate they start from, in a row
  // (0 after a finishing chord update, below): the quadratic model of eq. (2.7b).
  int newton_updates = 0;
  for (int it = 0;; ++it) {
    if (stop_polled()) {
      why = "interrupted";
      return false;
    }
    eval_residual(q, lambda, g);
    residual = g.norm();  // not finite when g is not (or, for a finite g, overflows)
    if (!std::isfinite(residual)) {
      why = "residual not finite at lambda = " + format_number(lambda);
      return false;
    }
    load_vector(q, lambda, r);
    const double r_norm = r.norm();
    if (!std::isfinite(r_norm)) {
      // r = −∂g/∂λ, by differences where the problem does not give it (a Python
      // Problem whose residual is NaN beyond λ = 0.5: the difference reached it while
      // g at the iterate was finite, and the step failed as "constraint has no real
      // solution (complex roots)").
      why = "load vector dg/dlambda not finite at lambda = " + format_number(lambda);
      return false;
    }
    const double load_scale = std::max(residual_scale(lambda), r_norm * std::max(1.0, std::abs(lambda)));
    const double size = scaling_.norm(q, lambda);
    if (it == 0) {
      load_scale0 = load_scale;
      size0 = size;
    }
    const double scale = std::max(std::min(load_scale, 2.0 * load_scale0), term_scale);
    const double size_floor = 64.0 * std::numeric_limits<double>::epsilon() * std::min(size, 2.0 * size0);
    // The increment test, or, once the residual test holds and the increment is
    // below 1e-6 Δs but no longer decreasing, the round-off floor of Newton (steps of
    // 1e-5 on a stiff structure: the increments stagnate at eps-level noise).
    const auto small_increment = [&] {
      return increment <= std::max(options_.increment_tolerance * step, size_floor) ||
             (increment <= 1e-6 * step && increment >= 0.5 * previous_increment);
    };
    if (it > 0 && residual <= options_.residual_tolerance * scale && small_increment()) {
      iterations = it;
      return true;
    }
    // The round-off floor of g (eq. 2.9a), as at the start point: near q = 0 (the
    // first step from rest) tol_r F can be below the noise of the element forces.
    // Asked only once the increments have stagnated (force_terms is one more pass
    // over the elements, as costly as an assembly), and at most once per step.
    // Also when g is small but the increment stagnates above both increment tests:
    // near a critical point K⁻¹ amplifies the round-off of g into δy, whatever Δs
    // (eq. 2.9b; the apex-imperfect von Mises truss at ε = 1e-8 near its maximum:
    // ‖g‖ ≈ 1e-17, sway stiffness 1e-6, δy stuck at 6.5e-12 while 1e-6 Δs was 1e-12,
    // and cutting Δs only lowered the bound: the step failed at every size).
    const bool amplified_noise = increment >= 0.5 * previous_increment && increment <= 1e-3 * step;
    if (it > 0 && ((residual > options_.residual_tolerance * scale && small_increment()) || amplified_noise)) {
      if (force_terms < 0.0) force_terms = problem_.force_terms(q, lambda);
      if (residual <= 64.0 * std::numeric_limits<double>::epsilon() * std::max(force_terms, term_scale)) {
        iterations = it;
        return true;
      }
    }
    // Eq. (2.7b), the finishing chord update. In Newton's quadratic phase, with
    // Θ = ‖δ_k‖/‖δ_{k−1}‖, the error of the iterate and so the next update are
    // ≈ Θ² ‖δ_k‖. A chord update with the factorization in hand (K at the iterate
    // before the last) leaves a fraction ≈ C ‖δ_k‖ = Θ² of that error (Newton Θ⁴): the
    // next update ≈ Θ² ‖δ_k‖ still, the residual after it ≈ Θ² ‖g‖. When both
    // predictions meet the tests, the next update is that chord update: it
    // converges in the same number of iterations as Newton, without a factorization,
    // and it is made even at the iteration limit (a converging step is not cut one
    // update short of its tests). A chord update that misses is followed by Newton.
    bool chord = false;
    if (options_.final_chord && newton_updates >= 2 && previous_increment > 0.0) {
      const double theta = increment / previous_increment;
      const double theta2 = theta * theta;
      const double residual_bound =
          std::max(options_.residual_tolerance * scale, 64.0 * std::numeric_limits<double>::epsilon() * term_scale);
      chord = theta <= kChordContraction && theta2 * residual <= residual_bound &&
              theta2 * increment <= std::max(options_.increment_tolerance * step, size_floor);
    }
    if (it >= options_.max_iterations && !chord) {
      why = "no convergence in " + std::to_string(it) + " iterations";
      return false;
    }
    if (chord) {
      newton_updates = 0;
      ++stats_.chord_iterations;
    } else {
      if (!assemble_and_factor(*work_, q, lambda)) {
        why = singular_message(*work_);
        return false;
      }
      ++newton_updates;
    }
    if (it == 0) term_scale = abs_product_norm(K_, q);  // varies slowly: once per step
    g = -g;
    if (chord && problem_.is_proportional())
      work_->solve(g, a);  // b = K⁻¹r from the last update: the same factor, the same r
    else
      work_->solve(g, r, a, b);  // K a = −g, K b = r (eq. 2.7)
    const double dl = lambda - lambda_start;
    const std::optional<double> dlam = constraint.correction(frame, dq, dl, a, b);
    if (!dlam || !std::isfinite(*dlam)) {
      why = "constraint has no real solution (complex roots)";
      return false;
    }
    // δq = a + δλ b; q += δq; Δq += δq; ‖(δq, δλ)‖_W.
    const double d_lambda = *dlam;
    double inc2 = 0.0;
    for (int i = 0; i < n; ++i) {
      const double d = a[i] + d_lambda * b[i];
      q[i] += d;
      dq[i] += d;
      inc2 += w[i] * w[i] * d * d;
    }
    lambda += d_lambda;
    previous_increment = increment;
    increment = std::sqrt(inc2 + psi2 * d_lambda * d_lambda);
    ++stats_.newton_iterations;
  }
}

void PathFollower::correction_sizes(double alpha, double& predicted, double& corrected) const {
  // In the scaled norm: what the predictor moved the displacements (α t_q) and how far
  // the converged point's (the secant in new_secant_q_) are from the predicted ones.
  const Vector& w = scaling_.w;
  double predicted2 = 0.0, corrected2 = 0.0;
  for (Eigen::Index i = 0; i < tq_.size(); ++i) {
    const double p = w[i] * alpha * tq_[i];
    const double c = w[i] * new_secant_q_[i] - p;
    predicted2 += p * p;
    corrected2 += c * c;
  }
  predicted = std::sqrt(predicted2);
  corrected = std::sqrt(corrected2);
}

bool PathFollower::stays_on_branch(const Constraint& constraint, double alpha, double secant_l, double ds,
                                   std::string& why) const {
  // Eq. (2.11), for the arc-length constraints (displacement and load control fix
  // the sign of Δq_j or Δλ themselves). The corrector converged; did it stay on the
  // branch the predictor left, going the same way?
  const ConstraintKind k = constraint.kind();
  const bool arc_length = is_arc_length(k);
  if (arc_length) {
    // (a) The secant stays within 60° of the tangent it was predicted along (on a
    // smooth branch the angle is about κΔs/2, and a shorter step reduces it); a
    // corrector that converged far from its predictor has left the branch. Not under
    // displacement control: near the sharp turn of an almost perfect structure (the
    // apex-imperfect von Mises truss at ε = 1e-8) no step the step control reaches
    // meets it.
    const double c = scaling_.dot(new_secant_q_, secant_l, tq_, tl_);
    const double nn = scaling_.norm(new_secant_q_, secant_l) * scaling_.norm(tq_, tl_);
    if (nn > 0.0 && c < kMinTangentCosine * nn) {
      why = "the step left the branch (its secant makes " +
            format_degrees(c / nn) + " degrees with the tangent)";
      return false;
    }
  }
  // (b) The secant must not turn back, an angle of more than 90° with the previous
  // secant: a step that returns to the point two steps back has −1 there (issue 19,
  // the 215° arch under cylindrical steps).
  if (has_secant_ && arc_length) {
    const double c = scaling_.dot(new_secant_q_, secant_l, secant_q_, secant_l_);
    const double nn = scaling_.norm(new_secant_q_, secant_l) * scaling_.norm(secant_q_, secant_l_);
    if (nn > 0.0 && c < 0.0) {
      why = "the step turned back (its secant makes " + format_degrees(c / nn) +
            " degrees with the previous one)";
      return false;
    }
  }
  // (b') Under load control the displacements must not turn back: λ moves the same
  // way at every step, and on one path the displacement increment of a step cannot
  // make more than 90° with the tangent it started along (dq/dλ, oriented by Δλ)
  // without a fold, which load control cannot pass. The Euler column's branch under
  // load control went from ux = −0.05 to +0.51 in one step of Δλ = 0.25, across the
  // primary path onto its mirror, and was then said to rejoin the path at BP1;
  // halved steps stay on it.
  if (k == ConstraintKind::LoadControl && !first_step_constraint_) {
    const double sign = (secant_l >= 0.0) == (tl_ >= 0.0) ? 1.0 : -1.0;
    const double c = sign * scaling_.dot(new_secant_q_, 0.0, tq_, 0.0);
    const double nn = scaling_.norm(new_secant_q_, 0.0) * scaling_.norm(tq_, 0.0);
    if (nn > 0.0 && c < 0.0) {
      why = "the step turned back (its displacements make " +
            format_degrees(c / nn) +
            " degrees with the tangent's: under load control, a step onto another path)";
      return false;
    }
  }
  // (b'') Under displacement control the step must not go back along the path: more
  // than 90° with the tangent it was predicted along (oriented by σ, eq. 2.5). Where
  // the controlled dof's value is met on both sides of a point of zero slope, the
  // corrector may take the other: Lee's frame with node 3 ux controlled (ux
  // grows as λ² from rest) went to λ = −0.031 on its first step, and on down the
  // path's negative-load side. Refused and halved, the steps stay on the side the
  // path started on. (At a turning point of the controlled dof, the star dome's apex,
  // the steps are cut to the minimum and the run ends saying so.)
  if (k == ConstraintKind::DisplacementControl && !first_step_constraint_) {
    const double c = scaling_.dot(new_secant_q_, secant_l, tq_, tl_);
    const double nn = scaling_.norm(new_secant_q_, secant_l) * scaling_.norm(tq_, tl_);
    if (nn > 0.0 && c < 0.0) {
      why = "the step went back along the path (its secant makes " +
            format_degrees(c / nn) +
            " degrees with the tangent: the controlled dof takes its value on both sides of a point where it "
            "turns or its slope vanishes)";
      return false;
    }
  }
  // (c) Path jumping (issue 19, item 7): the displacements of the converged point are
  // within what the predictor moved them of the predicted ones, in the scaled norm. A
  // step dominated by λ (auto_scale = false with a large ψ) passes (a) and (b) with a
  // corrector that converged across a snap-through: the toggle went from λ 31.9 to
  // 36.0 in one step, its apex from −0.16 to −0.50, the predictor having moved it by
  // a few hundredths. The first step of a branch (start_along) is corrected on a
  // hyperplane through a chord or a branch tangent and is not checked. Nor are
  // displacement- and load-controlled steps: near a sharp turn of an almost perfect
  // structure (the apex-imperfect von Mises truss at ε = 1e-8, the sway growing as
  // the square root of the controlled drop) the corrector at fixed Δq_j or Δλ moves
  // the other unknowns by more than the predictor at any step the step control
  // reaches, and the path could not pass the turn.
  if (!first_step_constraint_ && arc_length) {
    double predicted = 0.0, corrected = 0.0;
    correction_sizes(alpha, predicted, corrected);
    if (corrected > std::max(predicted, kMaxCorrectionFloor * ds)) {
      why = "the step jumped (the corrector moved the displacements by " + format_number(corrected) +
            " from the predictor, which moved them by " + format_number(predicted) + ", in the scaled norm)";
      return false;
    }
  }
  // (c'') Displacement control, past a path's first step: the prescribed dof fixes
  // the step and λ is free, so a corrector at that displacement can converge on any
  // path that has it. On a branch whose tangent hardly moves the controlled dof (an
  // asymmetric branch of the star dome controlled at its apex: its share of the
  // tangent 8e-4) the prescribed step is a long way along the branch: the star dome's
  // branch from BP1 went from λ = 18.42 to −4.37 in one step (the predictor alone
  // moved it by −13.3, the path's steps before by 0.005), across a fold and a
  // bifurcation, and crawled on another path with nothing said. Where the controlled
  // dof is a small share of the tangent, a step that moves λ by more than
  // kControlLambdaJump of |λ| (and of the largest |Δλ| so far) and by more than
  // kControlStepGrowth times that largest |Δλ| is cut.
  // Only on a path started along a tangent (a secondary branch, start_along): from
  // rest, a stiffening path (λ ~ w³ near λ = 0) grows |Δλ| twentyfold in a step while
  // its share of the tangent falls, and stays on its path.
  if (k == ConstraintKind::DisplacementControl && !started_by_load_ && !first_step_constraint_ &&
      lambda_step_scale_ > 0.0 && options_.control_dof >= 0 &&
      control_share() < kControlShareSmall) {
    const double moved = std::abs(secant_l);
    if (moved > kControlLambdaJump * (std::abs(current_.lambda) + lambda_step_scale_) &&
        moved > kControlStepGrowth * lambda_step_scale_) {
      why = "the step jumped in lambda (by " + format_number(secant_l) + " from lambda = " +
            format_number(current_.lambda) + ", where the path's steps had moved it by " +
            format_number(lambda_step_scale_) + " at most: at the prescribed displacement the corrector found "
            "another path; where the controlled dof hardly moves along the path, an arc-length constraint follows it)";
      return false;
    }
  }
  // (c') The same for λ where the metric hardly sees it: ψ times the largest |Δλ| of
  // the path's steps below the slack of (c), kMaxCorrectionFloor Δs (ψ = 0, or a ψ
  // small for the units). The tests above then see the displacements only, and a
  // corrector that converged across a singular point of the model passed them.
  // Three-bar's branch from BP2 (−) at ψ = 0 (and at 1e-3) stepped through the zero
  // length of a bar, λ from 0.028 to 0.80 in one step of 0.02 along which the
  // predictor moved it by −0.04, and ended "completed". Bound: what the predictor
  // moved λ, or kMaxCorrectionFloor of the largest |Δλ| of the path's steps so far (at
  // a limit point the predictor hardly moves λ, and the correction, ~κΔs², falls below
  // it as the step is cut), or kLambdaJumpFloor of |λ| and that largest |Δλ| (on a
  // pitchfork branch both the predicted Δλ and the steps' are ~0, and the corrector
  // moves λ by its round-off, 2e-11 on the Euler column: a first version without this
  // floor ended both its branches step-too-small).
  const double lambda_weight = scaling_.psi * lambda_step_scale_;
  if (!first_step_constraint_ && arc_length && lambda_weight < kMaxCorrectionFloor * ds) {
    const double predicted = std::abs(alpha * tl_), corrected = std::abs(secant_l - alpha * tl_);
    // and √tol_r (1 + |λ|), the corrector's own resolution of λ where λ and the path's
    // increments are ~0 (a flat branch at λ = 0).
    const double floor = std::max({kMaxCorrectionFloor * lambda_step_scale_,
                                   kLambdaJumpFloor * (std::abs(current_.lambda) + lambda_step_scale_),
                                   std::sqrt(options_.residual_tolerance) * (1.0 + std::abs(current_.lambda))});
    if (corrected > std::max(predicted, floor)) {
      why = "the step jumped in lambda (the corrector moved it by " + format_number(corrected) +
            " from the predictor, which moved it by " + format_number(predicted) + "; with continuation.psi = " +
            format_number(scaling_.psi) + " lambda hardly counts in the step's norm)";
      return false;
    }
  }
  return true;
}

bool PathFollower::control_at_turning_point() const {
  const int j = options_.control_dof;
  if (j < 0 || control_share0_ <= 0.0) return false;
  return control_share() < kTurningShareFraction * control_share_max_;
}

std::string PathFollower::control_turning_message() const {
  const int j = options_.control_dof;
  return "displacement control: " + problem_.dof_name(j) + " reaches a turning point near lambda = " +
         format_number(current_.lambda) + " (its share of the path's tangent fell from " +
         format_number(control_share_max_) +
         " to " + format_number(control_share()) +
         "); displacement control cannot pass it, use an arc-length constraint";
}

bool PathFollower::advance() {
  if (done()) return false;
  crossing_.reset();
  for (;;) {
    // Polled before each trial, every cut included (issue 20: a step halved forever
    // could not be stopped).
    if (stop_polled()) return false;
    // A step below what the model resolves is not tried: its corrector would accept
    // the start point again (a subnormal Δs on a branch, start_along()).
    if (const double floor = resolvable_step(); !(ds_ >= floor)) {
      finish(Termination::StepTooSmall, "step length " + format_number(ds_) +
                                            " below the smallest the model resolves here, " + format_number(floor));
      return false;
    }
    // The frame keeps its tangent storage from step to step (no allocation).
    StepFrame& frame = frame_;
    frame.scaling = &scaling_;
    frame.ds = ds_;
    frame.tq = tq_;
    frame.tl = tl_;
    frame.control_dof = options_.control_dof;
    frame.control_sign = control_sign_;
    frame.secant_q = has_secant_ ? &secant_q_ : nullptr;
    frame.secant_l = secant_l_;
    const Constraint& constraint = first_step_constraint_ ? *first_step_constraint_ : *constraint_;
    const std::optional<double> alpha = constraint.predictor_length(frame);
    if (!alpha || !std::isfinite(*alpha)) {
      if (constraint.kind() == ConstraintKind::DisplacementControl)
        finish(Termination::Diverged, control_turning_message());
      else
        finish(Termination::Diverged, std::string("the ") + to_string(options_.constraint) +
                                          " constraint cannot be satisfied along the tangent (a limit point?)");
      return false;
    }
    // Cylindrical steps too: ds measures the displacements alone, the increments λ as
    // well, and with unit weights on a stiff frame (Roorda's, ‖v‖ ~ 1e-5 per unit load)
    // λ's share of each increment against 1e-8 ds took 4-6 iterations a step, and the
    // steps shrank until the path crawled (λ 11.6 after 60 steps, below BP1 at 14).
    frame.step_scale = constraint.kind() == ConstraintKind::LoadControl ||
                               constraint.kind() == ConstraintKind::DisplacementControl ||
                               constraint.kind() == ConstraintKind::Cylindrical
                           ? std::max(ds_, *alpha)
                           : 0.0;
    // The trial point reuses the storage of the point two steps back (see below).
    Vector& q = q_trial_;
    q = current_.q + *alpha * tq_;
    double lambda = current_.lambda + *alpha * tl_;
    int iterations = 0;
    double residual = 0.0;
    std::string why;
    // Load control fixes Δλ, and the predictor's length α in (q, λ) follows from the
    // tangent: where K is nearly singular along the path (a flat secondary branch, a
    // limit point ahead) it moves the structure far more than an arc-length step
    // would, and the corrector lands wherever Newton goes. The leaning column's
    // branch, one step from its bifurcation point (ψ = 0.01), predicted 7.9 against a
    // longest arc-length step of 0.02 and converged onto a collapsed frame (ux 3.5e-4
    // → 0.98, eleven eigenvalues across the step, six "critical points" located on
    // it). Such a step is cut like a failed one.
    const double reach = kLoadControlReach * options_.max_step_ratio * ds_metric_;
    bool ok = true;
    if (constraint.kind() == ConstraintKind::LoadControl && ds_metric_ > 0.0 && *alpha > reach) {
      ok = false;
      ++reach_cuts_;
      why = "under load control the predictor moves the structure by " + format_number(*alpha) +
            " in the path's metric, more than " + format_number(kLoadControlReach) +
            " times its longest arc-length step (" + format_number(reach / kLoadControlReach) +
            "): K is nearly singular along the path (a flat branch, or a limit point ahead), and load control "
            "cannot follow it there; continuation.constraint = spherical does";
    } else {
      ok = correct(constraint, q, lambda, frame, current_.q, current_.lambda, iterations, residual, why);
    }
    const double secant_l = lambda - current_.lambda;
    if (ok) {
      new_secant_q_ = q - current_.q;
      ok = stays_on_branch(constraint, *alpha, secant_l, frame.ds, why);
    }
    if (ok && !point_factorization(q, lambda)) {
      ok = false;
      why = singular_message(*work_) + " at the new point";
    }
    if (ok) {
      std::swap(work_, point_);
      // A kept factorization is the one the corrector's last update solved with, and
      // a proportional load has the same r: its b = K⁻¹r is the tangent's solution.
      const bool solved = point_reused_ && problem_.is_proportional() && b_.size() == q.size();
      if (solved) v_ = b_;
      double turn = 1.0;  // cosine between the tangents at both ends of the step
      if (!tangent_at(q, lambda, &new_secant_q_, secant_l, &turn, false, solved)) {  // leaves t unchanged
        std::swap(work_, point_);
        ok = false;
        why = "tangent not finite at the new point";
      } else if (has_secant_ && !first_step_constraint_ &&
                 (is_arc_length(constraint.kind()) || constraint.kind() == ConstraintKind::DisplacementControl) &&
                 turn < std::cos(options_.max_turn_degrees * M_PI / 180.0)) {
        // (d) Path jumping (issue 19, item 7): the tangent turns by at most
        // max_turn_degrees (20°) in one step; the catalogue's steps turned by < 9°
        // before this bound, except at the star dome's folds (up to 58°). With λ dominating the scaled norm (auto_scale = false) a
        // snap-through is a fold that the tangent approaches turning faster and
        // faster: the toggle's turned 1°, 2°, 22° in three steps of Δs ≈ 4.7, and the
        // next step went across the snap-through onto the far stable branch (λ 34.3
        // → 35.9, apex uy −0.23 → −0.50: no crossing, both limit points missed).
        std::swap(work_, point_);
        ok = false;
        why = "the tangent turned by " + format_degrees(turn) +
              " degrees in one step (at most " + format_number(options_.max_turn_degrees) +
              ", continuation.max_turn)";
      } else if (!tangent_at(q, lambda, &new_secant_q_, secant_l, nullptr, true, true)) {  // v_ from above
        std::swap(work_, point_);
        ok = false;
        why = "tangent not finite at the new point";
      } else if (control_sign_ != 0 && control_sign_ * tq_[options_.control_dof] < 0.0) {
        // Displacement control: the path goes on in the direction it started in
        // (σ of eq. 2.5), whatever the secant says; the secant includes Δλ, which
        // turns at a fold in λ, and oriented by it the controlled dof went back and
        // forth (issue 19: three displacements in a cycle for 400 steps).
        tq_ = -tq_;
        tl_ = -tl_;
      }
    }
    if (!ok) {
      if (done()) return false;  // interrupted inside the corrector
      ++stats_.failed_steps;
      ds_ *= 0.5;
      // Cut down to Δs_min, or to what the model resolves, whichever is larger: a
      // subnormal Δs₀ made Δs_min zero and the halving endless (issue 20).
      const double floor = std::max(ds_min_, resolvable_step());
      if (ds_ < floor) {
        if (ds_min_ < floor)
          why += "; the step was cut to " + format_number(2.0 * ds_) + ", the smallest the model resolves here is " +
                 format_number(floor);
        if (constraint.kind() == ConstraintKind::DisplacementControl && control_at_turning_point())
          finish(Termination::StepTooSmall, control_turning_message() + "; the last attempt: " + why);
        else if (constraint.kind() == ConstraintKind::LoadControl && load_share_max_ > 0.0 &&
                 scaling_.psi * std::abs(tl_) < kTurningShareFraction * load_share_max_)
          // The load's share of the unit tangent, ψ|t_λ|, vanishes at a limit point.
          finish(Termination::StepTooSmall,
                 "load control: the path reaches a limit point near lambda = " + core::format_g(current_.lambda, 9) +
                     " (the load's share of the path's tangent fell from " + format_number(load_share_max_) + " to " +
                     format_number(scaling_.psi * std::abs(tl_)) +
                     "); load control cannot pass it, use an arc-length constraint; the last attempt: " + why);
        else
          finish(Termination::StepTooSmall, "step length below its minimum after: " + why);
        return false;
      }
      continue;
    }
    last_step_jumped_ = false;
    if (constraint.kind() == ConstraintKind::LoadControl && !first_step_constraint_) {
      // Load control cannot pass a limit point: at fixed λ the corrector lands on
      // another part of the path (von Mises: uy −0.20 → −1.08 in one step), and the
      // curve across that step is no equilibrium path. Kept (the points are
      // equilibria) and said at the end.
      double predicted = 0.0, corrected = 0.0;
      correction_sizes(*alpha, predicted, corrected);
      last_step_jumped_ = corrected > kLoadControlJump * std::max(predicted, kMaxCorrectionFloor * ds_);
      if (last_step_jumped_) {
        if (load_jumps_++ == 0) {
          first_jump_index_ = current_.index;
          first_jump_lambda_ = current_.lambda;
          first_jump_ratio_ = corrected / std::max(predicted, 1e-300);
        }
      }
    }
    secant_q_.swap(new_secant_q_);
    secant_l_ = secant_l;
    lambda_step_scale_ = std::max(lambda_step_scale_, std::abs(secant_l));
    if (options_.constraint == ConstraintKind::DisplacementControl && control_sign_ == 0 &&
        secant_q_[options_.control_dof] != 0.0) {
      const int j = options_.control_dof;
      control_sign_ = secant_q_[j] > 0.0 ? 1 : -1;
      if (control_sign_ * tq_[j] < 0.0) {
        tq_ = -tq_;
        tl_ = -tl_;
      }
      control_share0_ = control_share();
    }
    // The largest share along the path: a branch may start where the controlled dof
    // hardly moves (the star dome's asymmetric branches at their apex: 8e-4) and turn
    // it later; its turning point is judged against the most it moved.
    if (options_.constraint == ConstraintKind::DisplacementControl && options_.control_dof >= 0)
      control_share_max_ = std::max(control_share_max_, control_share());
    // The secant of the first step of a branch (start_along: a pseudo-arclength step
    // from a singular point along a branch tangent) is not used: the next step's
    // root is chosen against its own predictor, as before.
    has_secant_ = !first_step_constraint_;
    // previous_ ← current_, current_ ← the new point; the q storage of the old
    // previous_ becomes the next trial point's (n may be 10⁶: no allocation per step).
    PathPoint next;
    next.index = current_.index + 1;
    next.q.swap(q_trial_);
    q_trial_.swap(previous_.q);
    previous_ = std::move(current_);
    current_ = std::move(next);
    current_.lambda = lambda;
    current_.iterations = iterations;
    current_.residual = residual;
    current_.step_length = ds_;
    current_.det_sign = point_->det_sign();
    current_.negative_pivots = point_->negative_pivots();
    current_.bordered_sign = current_.det_sign * (tl_ >= 0.0 ? 1 : -1);
    ++stats_.steps;
    load_share_max_ = std::max(load_share_max_, scaling_.psi * std::abs(tl_));
    arc_length_ += frame.ds;
    first_step_constraint_.reset();
    if (skip_crossing_) {
      skip_crossing_ = false;
    } else {
      const Crossing c = crossing_between(previous_, current_);
      if (c.det_sign_changed || c.negative_pivots_before != c.negative_pivots_after || c.bordered_sign_changed)
        crossing_ = c;
    }
    // Step control, eq. (2.8).
    const double ratio = std::sqrt(static_cast<double>(options_.target_iterations) / std::max(1, iterations));
    ds_ = std::clamp(ds_ * ratio, ds_ / options_.max_step_growth, ds_ * options_.max_step_growth);
    ds_ = std::clamp(ds_, ds_min_, ds_max_);
    // Stop criteria.
    // The load-factor bounds stop a path that crosses them (a path may start below
    // lambda_min, as the Bratu problem does, and end when it comes back down).
    const bool above = previous_.lambda <= options_.lambda_max && current_.lambda > options_.lambda_max;
    const bool below = previous_.lambda >= options_.lambda_min && current_.lambda < options_.lambda_min;
    if (above || below) {
      // A last step that went past the bound by more than ten times the path's span up
      // to it is said, with its ends: what lies between is the structure's, but far
      // outside what was asked (a cylindrical step, which measures the displacements
      // alone, at unit weights: the Euler column's first step went from 0 to 10 342,
      // stop.lambda_max = 10).
      const double bound = above ? options_.lambda_max : options_.lambda_min;
      // (At least the largest load step asked for: a path that starts at its bound is
      // not far past it after one ordinary step.)
      const double span = std::max({std::abs(bound - lambda_start_), std::abs(previous_.lambda - lambda_start_),
                                    std::abs(options_.initial_load_increment) * options_.max_step_ratio});
      std::string why = "load factor crossed lambda_min or lambda_max";
      if (std::abs(current_.lambda - bound) > 10.0 * span) {
        why += "; the last step went from lambda = " + format_number(previous_.lambda) + " to " +
               format_number(current_.lambda) + ", far past stop." + (above ? "lambda_max" : "lambda_min") + " = " +
               format_number(bound);
        if (options_.constraint == ConstraintKind::Cylindrical)
          why += std::string(" (cylindrical steps measure the displacements alone") +
                 (options_.auto_scale ? ")" : ", here at unit weights: continuation.auto_scale = true scales them)");
        else if (options_.constraint == ConstraintKind::DisplacementControl && options_.control_dof >= 0)
          // The step prescribes w_j Δq_j = Δs: at unit weights on a stiff structure Δs₀ =
          // Δλ₀ ‖(v, 1)‖ ≈ Δλ₀ moves the dof by Δλ₀ itself (the Euler column's top: a
          // shortening of 0.25 and λ from 0 to 2.5e4 in one step).
          why += " (displacement control prescribes " + problem_.dof_name(options_.control_dof) + "'s increment, " +
                 format_number(std::abs(current_.q[options_.control_dof] - previous_.q[options_.control_dof])) +
                 " in this step" +
                 (options_.auto_scale ? ")" : ", here at unit weights: continuation.auto_scale = true scales it)");
        why += ": shorter steps (continuation.initial_step, max_step_ratio) keep the path within the bounds";
      }
      finish(Termination::Completed, why);
    } else if (options_.monitor_dof >= 0 && std::abs(current_.q[options_.monitor_dof]) > options_.max_displacement)
      finish(Termination::Completed, "displacement limit reached");
    else if (options_.stop_at_zero_load && previous_.index > 0 &&
             ((previous_.lambda > 0 && current_.lambda <= 0) || (previous_.lambda < 0 && current_.lambda >= 0)))
      finish(Termination::Completed, "load factor returned to zero");
    else if (current_.index >= options_.max_steps) {
      // The end point's distance from the start, against the arc length walked: a
      // path that went back and forth in place is no result (issue 20).
      const double moved = scaling_.norm(current_.q - q_start_, current_.lambda - lambda_start_);
      if (!(moved > kStalledFraction * arc_length_))
        finish(Termination::Stalled, "maximum number of steps reached, and the path did not move: after an arc "
                                     "length of " + format_number(arc_length_) + " its end is " +
                                     format_number(moved) + " from its start");
      else if (ds_max_ > 0.0 && current_.step_length >= ds_max_ * (1.0 - 1e-12))
        // The last step was as long as allowed: the path's length was set by the step
        // bound, not by the structure (a model in N whose critical load is 1e4
        // load-pattern units, at the default initial_step). A branch's first step is
        // set by branches.switch_step_ratio.
        finish(Termination::MaxSteps, "maximum number of steps reached, the last step at the largest allowed "
                                      "(continuation.max_step_ratio x the first step): a longer path needs a larger "
                                      "first step (continuation.initial_step; on a branch, "
                                      "branches.switch_step_ratio) or max_step_ratio, or more stop.max_steps");
      else
        finish(Termination::MaxSteps, "maximum number of steps reached");
    }
    return true;
  }
}

}  // namespace senda::continuation

namespace senda::continuation {
linalg::FactorStats PathFollower::factor_stats() const {
  linalg::FactorStats s = work_->stats();
  s += point_->stats();
  for (int k = 0; k < 2; ++k)
    if (lent_[k]) s -= lent_stats_[k];  // what the lender's objects had counted before
  return s;
}
}  // namespace senda::continuation
