#pragma once
// Arc-length path following: one stepper, pluggable constraint (docs/theory.md §2).
//
// Notation             code
//   y = (q, λ)          PathPoint::q, PathPoint::lambda
//   v = K⁻¹ r           tangent_q_ before normalisation, r = −∂g/∂λ
//   t = (v, 1)/‖(v,1)‖  tangent (scaled norm), oriented along the last secant   (eq. 2.6)
//   a = −K⁻¹g, b = K⁻¹r the two bordered solves of each Newton iteration       (eq. 2.7)
//   Δs_{k+1} = Δs_k (N_target/N_k)^{1/2}, clamped                              (eq. 2.8)
//   cos∠(Δy, t) ≥ ½, cos∠(Δy, Δy_last) ≥ 0: the step stayed on its branch      (eq. 2.11)
//   σ = control_sign_, fixed at the start: displacement control is monotone     (eq. 2.5)
//
// The follower is driven one step at a time (start(), then advance() until done())
// so that callers can act between steps: write results, locate a critical point
// that was bracketed, or stop on request. It never prints and never throws for a
// numerical outcome: those end as a Termination with a message.
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/continuation/constraint.hpp"
#include "senda/linalg/factorization.hpp"
#include "senda/core/problem.hpp"

namespace senda::continuation {

// Stalled: max_steps reached while the path went nowhere (its end point is within a
// tenth of the arc length it walked from its start: it went back and forth).
enum class Termination { Running, Completed, MaxSteps, StepTooSmall, Diverged, Interrupted, Stalled };
const char* to_string(Termination t);

struct Options {
  ConstraintKind constraint = ConstraintKind::Spherical;
  int control_dof = -1;                  // displacement control: the controlled unknown
  double initial_load_increment = 0.05;  // Δλ of the first predictor; fixes Δs₀
  double min_step_ratio = 1e-6;          // Δs_min = ratio · Δs₀
  double max_step_ratio = 10.0;          // Δs_max = ratio · Δs₀
  double max_step_growth = 2.0;          // Δs_{k+1} ≤ growth · Δs_k
  double max_turn_degrees = 20.0;        // arc-length steps: the tangents at the two ends of a
                                         // step differ by at most this angle (path jumping)
  int target_iterations = 4;             // N_target of eq. (2.8)
  int max_iterations = 15;               // Newton iterations before a step is cut
  double residual_tolerance = 1e-10;     // ‖g‖ ≤ tol · max(‖r‖ max(1,|λ|), ‖g(0,0)‖)
  double increment_tolerance = 1e-9;     // ‖δy‖ (scaled) ≤ max(tol · Δs, 64 eps ‖y‖): the
                                         // floor lets steps near round-off size converge
  int max_steps = 200;
  // The path stops when λ crosses lambda_min downwards or lambda_max upwards. A
  // start outside [lambda_min, lambda_max] is allowed here (a fold traced up from 0
  // and stopped on its way back below lambda_min, tests/critical/bratu_test.cpp);
  // analysis::AnalysisOptions::validate() refuses it for a whole analysis, where
  // the bound would be run past.
  double lambda_min = -std::numeric_limits<double>::infinity();
  double lambda_max = std::numeric_limits<double>::infinity();
  int monitor_dof = -1;  // unknown whose |value| is bounded by max_displacement
  double max_displacement = std::numeric_limits<double>::infinity();
  bool stop_at_zero_load = false;  // stop when λ returns to (crosses) zero
  int direction = +1;              // sign of the initial Δλ
  bool auto_scale = true;          // scale unknowns per kind from the first tangent
  double psi = 1.0;                // weight of λ in the scaled norm
  linalg::Solver linear_solver = linalg::Solver::Auto;  // backend of the factorizations of K
  // The factorization of an accepted point is the last Newton iteration's (K at the
  // iterate before the final update) when that provably changes no sign of the
  // spectrum (eq. 2.12: the estimated spectral radius of K₀⁻¹(K − K₀) below
  // kReuseRadius); otherwise, and with false, K is factorized at the point.
  bool reuse_factorization = true;
  // The corrector's last update reuses the factorization in hand, when the quadratic
  // convergence of the Newton updates before it predicts that it meets the tests
  // (eq. 2.7b); it may then be made at max_iterations. false: Newton throughout.
  bool final_chord = true;
  // Polled before every trial step (each cut included) and every Newton iteration:
  // true ends the path as Interrupted at once (a step being tried is dropped).
  std::function<bool()> stop_requested;
};

struct PathPoint {
  int index = 0;        // 0 for the start point
  Vector q;
  double lambda = 0.0;
  int iterations = 0;   // Newton iterations of the step that produced it
  double residual = 0.0;  // ‖g‖ at the point
  double step_length = 0.0;  // Δs used
  int det_sign = 0;          // sign(det K) at the point; 0: undetermined
  int negative_pivots = 0;   // inertia of K at the point; −1: undetermined (the first point
                             // of a branch, a singular point: start_along)
  // sign of det [[K, −r], [tᵀ]] (the Jacobian of the corrector bordered by the
  // tangent row) = det_sign · sign(t_λ) (eq. 3.2): changes at a simple bifurcation
  // point crossed along any branch, also where λ is extremal there and det K does
  // not change (the secondary branch of a pitchfork), and not at a limit point.
  int bordered_sign = 0;
};

// Something singular happened between two consecutive points.
struct Crossing {
  int point_before = 0, point_after = 0;
  double lambda_before = 0.0, lambda_after = 0.0;
  int negative_pivots_before = 0, negative_pivots_after = 0;
  bool det_sign_changed = false;
  bool bordered_sign_changed = false;
};

// The crossing record between two points of a path (whether or not anything
// changed between them): what advance() reports for its step.
Crossing crossing_between(const PathPoint& before, const PathPoint& after);

struct Stats {
  long steps = 0, failed_steps = 0, newton_iterations = 0;
  long residual_evaluations = 0, tangent_assemblies = 0;
  // Accepted points (and cut steps' trials that got that far) whose factorization
  // was the last Newton iteration's, and those refactorized because the estimate of
  // eq. (2.12) did not allow it (a crossing within ~100 Newton updates of the point).
  long reused_factorizations = 0, refused_reuses = 0;
  // Corrector updates made with the factorization in hand instead of a new one
  // (eq. 2.7b: the finishing chord update), included in newton_iterations.
  long chord_iterations = 0;
  double assembly_seconds = 0.0;
};
inline Stats& operator+=(Stats& a, const Stats& b) {
  a.steps += b.steps;
  a.failed_steps += b.failed_steps;
  a.newton_iterations += b.newton_iterations;
  a.residual_evaluations += b.residual_evaluations;
  a.tangent_assemblies += b.tangent_assemblies;
  a.reused_factorizations += b.reused_factorizations;
  a.refused_reuses += b.refused_reuses;
  a.chord_iterations += b.chord_iterations;
  a.assembly_seconds += b.assembly_seconds;
  return a;
}

// Reuse of the last Newton factorization at an accepted point (eq. 2.12): allowed
// when the power-iteration estimate of ρ(K₀⁻¹ ΔK) is at most this.
inline constexpr double kReuseRadius = 1e-2;
// The finishing chord update (eq. 2.7b) is tried only in Newton's quadratic phase:
// the last update at most this fraction of the one before.
inline constexpr double kChordContraction = 0.1;

// ‖ |K| |q| ‖ (entrywise absolute values): a force scale of the terms of K q (eq. 2.9).
double abs_product_norm(const SparseMatrix& K, const Vector& q);

// A path from a loaded state (start()) that completes in fewer steps than this says,
// in its message, that a snap-through inside one step would not have been seen.
constexpr int kFewSteps = 5;

class PathFollower {
 public:
  PathFollower(const Problem& problem, const Options& options);
  // The same, copying the symbolic analysis of `analysed` (a factorization of the
  // problem's tangent pattern) instead of redoing it: the bisection of a step makes
  // one follower per split point.
  PathFollower(const Problem& problem, const Options& options, const linalg::SymmetricFactorization& analysed);
  // The same over two distinct analysed objects of the caller's (the problem's
  // tangent pattern), which it factorizes into and does not own: a bisection point
  // of the critical-point finder needs no objects of its own (docs/performance.md).
  // Their counters are put back on destruction (restore_stats), so factorizations()
  // and factor_stats() count this follower's work only; which of the two holds K at
  // current() is &factorization().
  PathFollower(const Problem& problem, const Options& options, linalg::SymmetricFactorization& work,
               linalg::SymmetricFactorization& point);
  ~PathFollower();

  // Equilibrium at fixed λ₀ from the guess q₀ (Newton), then scaling and the
  // first tangent. Returns false (and done() with Diverged) when it fails.
  bool start(const Vector& q0, double lambda0);
  // Start from a known equilibrium point along a given direction (tq, tl),
  // e.g. a branch tangent at a bifurcation point; ds = initial step. The first
  // step is corrected on the hyperplane orthogonal to (tq, tl) at distance ds
  // (pseudo-arclength, whatever options.constraint is), and no crossing is
  // reported for it: the start point itself may be singular.
  bool start_along(const Vector& q0, double lambda0, const Vector& tq, double tl, double ds,
                   const std::optional<Scaling>& scaling = std::nullopt);
  // Start at a located limit point (q₀, λ₀) with null vector φ of K: K t = r has no
  // solution there (K is singular; nearly singular, t would be ±φ with a sign set
  // by round-off), so the path leaves along (σφ, 0), σ = options.direction, with
  // the scales w of the run that located it (ψ = options.psi) and a first step
  // Δs = |Δλ₀| √(1 + ψ²), the first step of a run from rest with auto_scale.
  // (q₀, λ₀) must be an equilibrium to this run's residual test, ‖g‖ ≤ tol_r
  // max(‖r‖ max(1, |λ₀|), ‖ |K| |q₀| ‖); otherwise false with done() Diverged and
  // a message naming both.
  bool start_at_limit(const Vector& q0, double lambda0, const Vector& phi, const Scaling& scaling);

  // One step. Returns true when a new point was accepted.
  bool advance();
  bool done() const { return termination_ != Termination::Running; }
  void interrupt() { finish(Termination::Interrupted, "interrupted"); }
  // Ends the path as completed, for what only the caller sees: a load-factor bound
  // crossed inside the last step, across a critical point located in it.
  void complete(std::string why) { finish(Termination::Completed, std::move(why)); }
  // What a load-controlled path's message adds to the reason it ended with t: the steps
  // that jumped, those cut for their predictor's reach ("" when none, and under the
  // other constraints). For a caller that ends a path by its own reason (a branch that
  // rejoined another path).
  std::string control_notes(Termination t) const;
  // The last accepted step was a load-controlled one that jumped (its corrector moved
  // the displacements more than 1.5 times its predictor did).
  bool last_step_jumped() const { return last_step_jumped_; }
  // Replaces Options::stop_requested (the caller knows who asks only when it runs).
  void set_stop_requested(std::function<bool()> stop) { options_.stop_requested = std::move(stop); }
  // The smallest step the model resolves at the current point (scaled norm): a
  // failing step is cut down to max(Δs_min, this) and no further (step-too-small).
  //   max(64 eps ‖y‖, tol_r Δλ_F L₁, 64 eps L₁)
  // L₁ the scaled length of a unit load increment along the first tangent (ψ when
  // unknown: start_along()); Δλ_F = F/‖r‖ the load increment whose force ‖r‖Δλ is
  // the force scale F of eq. (2.9): a step whose force is below tol_r F leaves the
  // residual test unable to tell its point from the last (start() refuses such a
  // first step).
  double resolvable_step() const;
  // tol_r Δλ_F of resolvable_step(): the smallest first load increment start()
  // accepts (0 before start() or after start_along()).
  double smallest_load_increment() const { return resolvable_load_; }

  Termination termination() const { return termination_; }
  const std::string& message() const { return message_; }
  const PathPoint& current() const { return current_; }
  const PathPoint& previous() const { return previous_; }
  // The crossing between previous() and current(), if the last step had one.
  const std::optional<Crossing>& last_crossing() const { return crossing_; }
  // Unit tangent at current() (scaled norm).
  const Vector& tangent_q() const { return tq_; }
  double tangent_lambda() const { return tl_; }
  const Scaling& scaling() const { return scaling_; }
  double step_length() const { return ds_; }
  // Δs₀ fixed at start().
  double initial_step_length() const { return ds0_; }
  // The first step's length in the full scaled norm of (q, λ), the arc-length
  // measure: Δs₀ for arc-length steps and from start_along(); Δλ₀ ‖(v, 1)‖ from
  // start() under load control and cylindrical steps, whose Δs₀ measures λ or the
  // displacements alone. A secondary branch's first step scales from it.
  double metric_step_length() const { return ds_metric_; }
  // Factorization of K at current(), or, with Options::reuse_factorization, of K at
  // the last Newton iterate of its step (a Newton update away; the same inertia and
  // sign of det K, eq. 2.12). Its solves are K⁻¹ at the point to that accuracy.
  const linalg::SymmetricFactorization& factorization() const { return *point_; }
  // The Newton iterations' factorization object, idle between steps: the next step
  // factorizes it again before any use, so between advance() calls another user may
  // factorize matrices of the problem's tangent pattern over it (the critical-point
  // locator does, critical_point.hpp, so that a location holds no factor besides the
  // path's two: docs/performance.md). Such a user puts its counters back
  // (restore_stats), and must not hold it across advance().
  linalg::SymmetricFactorization& idle_factorization() const { return *work_; }
  // Factorizations spent in Newton iterations (work) and at accepted points.
  long factorizations() const { return factor_stats().factorizations; }
  linalg::FactorStats factor_stats() const;
  const Stats& stats() const { return stats_; }
  const Options& options() const { return options_; }
  const Problem& problem() const { return problem_; }
  // Force scale that makes residuals relative (eq. 2.9):
  //   max(‖r₀‖ max(1, |λ|), ‖g(q₀, λ₀)‖, F₀), F₀ = mean |diag K(q₀)| (a unit displacement's force)
  // used only when r₀ = 0 (a load that enters through the geometry, as in the
  // rigid-bar models, where the trivial path has no load vector at all). The
  // corrector also takes ‖r(q, λ)‖ max(1, |λ|) and ‖ |K| |q| ‖ at the iterate.
  double residual_scale(double lambda) const;

 private:
  // The constructors' common part: the options checked, the tangent pattern; no
  // factorization objects yet.
  struct Unfactored {};
  PathFollower(const Problem& problem, const Options& options, Unfactored);
  bool correct(const Constraint& constraint, Vector& q, double& lambda, const StepFrame& frame, const Vector& q_start, double lambda_start,
               int& iterations, double& residual, std::string& why);
  bool assemble_and_factor(linalg::SymmetricFactorization& f, const Vector& q, double lambda);
  // The factorization of K at a converged point (q, λ) in work_: the last Newton
  // iteration's when eq. (2.12) allows it, else a new one. False when K is singular.
  bool point_factorization(const Vector& q, double lambda);
  // Power-iteration estimate of ρ(K₀⁻¹ (K_ − K₀)), K₀ the matrix of work_ (values in K0_).
  double reuse_radius();
  // The unit tangent at (q, λ), oriented along orient when given; with commit false
  // only *cos_previous (its cosine with the current tangent, scaled norm) is set;
  // with solved true v_ already holds K⁻¹r at (q, λ) (an earlier call at the point).
  bool tangent_at(const Vector& q, double lambda, const Vector* orient_q, double orient_l,
                  double* cos_previous = nullptr, bool commit = true, bool solved = false);
  void load_vector(const Vector& q, double lambda, Vector& r);
  void set_scaling(const Vector& v);
  std::string singular_message(const linalg::SymmetricFactorization& f) const;
  void finish(Termination t, std::string why);
  void eval_residual(const Vector& q, double lambda, Vector& g);
  // Eq. (2.11): the converged step (secant in new_secant_q_, secant_l) did not jump
  // off the branch nor turn back; otherwise false with the reason.
  bool stays_on_branch(const Constraint& constraint, double alpha, double secant_l, double ds,
                       std::string& why) const;
  // What the predictor moved the displacements (α t_q) and the corrector's distance
  // from it, in the scaled norm (the secant in new_secant_q_).
  void correction_sizes(double alpha, double& predicted, double& corrected) const;
  // |w_j t_q,j| ≤ 1: the controlled dof's share of the unit tangent (displacement
  // control; control_dof ≥ 0).
  double control_share() const {
    return std::abs(scaling_.w[options_.control_dof] * tq_[options_.control_dof]);
  }
  bool control_at_turning_point() const;
  bool stop_polled();  // Options::stop_requested: true (and Interrupted) when asked
  std::string control_turning_message() const;

  const Problem& problem_;
  Options options_;
  std::unique_ptr<Constraint> constraint_;
  std::unique_ptr<Constraint> first_step_constraint_;  // start_along(): used for one step
  bool skip_crossing_ = false;
  std::unique_ptr<linalg::SymmetricFactorization> own_work_, own_point_;  // null when borrowed
  linalg::SymmetricFactorization* work_ = nullptr;   // Newton iterations
  linalg::SymmetricFactorization* point_ = nullptr;  // K at current()
  std::array<linalg::SymmetricFactorization*, 2> lent_{};  // borrowed objects, and their counters when lent
  std::array<linalg::FactorStats, 2> lent_stats_{};
  SparseMatrix K_;
  std::vector<double> K0_;                  // values of K at the last Newton iterate (eq. 2.12)
  Vector z1_, z2_, y1_, y2_;                // power iteration of eq. (2.12)
  Scaling scaling_;
  Termination termination_ = Termination::Running;
  std::string message_;
  PathPoint current_, previous_;
  std::optional<Crossing> crossing_;
  Vector tq_, r_;
  Vector g_, r_work_, a_, b_, dq_;  // corrector work space
  Vector v_, q_trial_, secant_q_;           // tangent solve, trial point, secant of the last step
  Vector new_secant_q_;                     // secant of the step being tried
  double secant_l_ = 0.0;
  double lambda_step_scale_ = 0.0;          // the largest |Δλ| of this path's steps (checks (c'), (c''))
  bool has_secant_ = false;                 // secant_q_ holds the last step of this path
  bool started_by_load_ = false;            // start(): a path from a loaded state, not a branch
  int load_jumps_ = 0;                      // load-controlled steps that jumped (advance())
  int reach_cuts_ = 0;                      // load-controlled steps cut for their predictor's reach
  bool last_step_jumped_ = false;           // last_step_jumped()
  int first_jump_index_ = 0;
  double first_jump_lambda_ = 0.0, first_jump_ratio_ = 0.0;
  int control_sign_ = 0;                    // displacement control: σ of eq. (2.5), fixed at the start
  double control_share0_ = 0.0;             // |w_j t_q,j| at the start
  double control_share_max_ = 0.0;          // the largest |w_j t_q,j| along the path, ≥ control_share0_ once set
  double load_share_max_ = 0.0;             // the largest ψ|t_λ| at an accepted point
  StepFrame frame_;
  double tl_ = 0.0;
  bool point_reused_ = false;  // point_factorization() kept the corrector's last factorization
  double ds_ = 0.0, ds0_ = 0.0, ds_min_ = 0.0, ds_max_ = 0.0, ds_metric_ = 0.0;
  double load_norm_ = 0.0, initial_unbalance_ = 0.0, stiffness_floor_ = 0.0;
  double unit_load_length_ = 0.0;  // L₁ of resolvable_step()
  double resolvable_load_ = 0.0;   // tol_r Δλ_F of resolvable_step() (0: not known)
  Vector q_start_;                 // the path's start point, for Stalled
  double lambda_start_ = 0.0, arc_length_ = 0.0;
  Stats stats_;
};

}  // namespace senda::continuation
