#pragma once
// Design studies (docs/theory.md §8): how critical points move when a design
// parameter μ changes (a rise, a stiffness, an imperfection amplitude).
//
// Notation                 code
//   μ                       mu           the design parameter
//   g(q, λ; μ)              ProblemFamily::at(μ)->residual()
//   g_μ = ∂g/∂μ             central differences in μ, δ = cbrt(eps)·max(|μ|, μ_s)   (eq. 8.1)
//   λ_cr(μ)                 CriticalCurve: limit or bifurcation points as μ varies
//   μ_s, λ_s                scales of the (μ, λ) plane in which the curve's arclength is measured
//
// Sensitivity of a located point, differentiating its augmented system in μ:
//   limit point (eq. 8.2):        dλ/dμ = φᵀg_μ / φᵀr                       (no solve)
//   bifurcation point (eq. 8.3):  K̃w = −g_μ (requires φᵀg_μ = 0: μ keeps the bifurcation),
//       [B  C] [λ']     [c₁]       c₁ = φᵀ(∇_q(Kφ)w + K_μφ)
//       [A  B] [α ] = − [c₂],      c₂ = vᵀ(∇_q(Kφ)w + K_μφ) + (K_λφ)ᵀw + φᵀg_λμ
//   with A, B = (B₁ + B₂)/2, C of the bifurcation equation (eq. 5.1), q' = vλ' + w + αφ.
//   One extra solve (w) and a few tangent assemblies.
//
// Critical-point curves (eq. 8.4): pseudo-arclength in the scaled plane
// (x, y) = (μ/μ_s, λ/λ_s). From the last point X_k with unit secant τ, the
// predicted point is P = X_k + h τ and the next point is the critical point of
// the one-parameter problem on the line through P normal to τ,
//   (μ, λ)(t) = (μ_P, λ_P) + t (−τ_y μ_s, τ_x λ_s),
// located by refine() (SPL for a limit-point curve, SPB for a bifurcation curve)
// with t as its load parameter. The line crosses the curve transversally also
// where the curve turns in μ (τ_x = 0), so turning points are passed, detected
// by the sign of τ_x and placed by a parabola through three points. Another
// eigenvalue of K crossing zero along the curve (a limit and a bifurcation point
// coinciding, e.g. the von Mises truss at h = √3 a) changes the inertia of
// K̃ = K + ρeᵢeᵢᵀ between points; it is located by regula falsi on the
// eigenvalue of K̃ nearest zero.
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/core/family.hpp"
#include "senda/core/problem.hpp"

namespace senda::critical {

// The families of core/family.hpp, by their short names here.
using core::FunctionFamily;
using core::ProblemFamily;

// The one-parameter problem along the line (μ, λ)(t) = (μ₀, λ₀) + t (d_μ, d_λ)
// (eq. 8.4); t is its load parameter. Members of the family are built on demand
// and the last few kept (not thread-safe; one per thread).
class LineProblem final : public Problem {
 public:
  LineProblem(const ProblemFamily& family, double mu0, double lambda0, double d_mu, double d_lambda,
              double mu_scale);
  int size() const override { return nominal_->size(); }
  void residual(const Vector& q, double t, Vector& g) const override;
  const SparseMatrix& tangent_pattern() const override { return nominal_->tangent_pattern(); }
  void tangent(const Vector& q, double t, SparseMatrix& K) const override;
  void dg_dlambda(const Vector& q, double t, Vector& out) const override;
  bool tangent_derivative(const Vector& q, double t, const Vector& a, const Vector& b, Vector& out) const override;
  DofKind dof_kind(int i) const override { return nominal_->dof_kind(i); }
  double kind_length(DofKind kind) const override { return nominal_->kind_length(kind); }
  std::string dof_name(int i) const override { return nominal_->dof_name(i); }
  std::string chart_singularity(const Vector& q) const override { return nominal_->chart_singularity(q); }
  std::string degenerate_configuration(const Vector& q) const override {
    return nominal_->degenerate_configuration(q);
  }
  double force_terms(const Vector& q, double t) const override { return nominal_->force_terms(q, lambda(t)); }

  double mu(double t) const { return mu0_ + t * d_mu_; }
  double lambda(double t) const { return lambda0_ + t * d_lambda_; }
  const Problem& member(double mu) const;

 private:
  const ProblemFamily& family_;
  std::shared_ptr<const Problem> nominal_;
  double mu0_, lambda0_, d_mu_, d_lambda_, delta_;
  mutable std::vector<std::pair<double, std::shared_ptr<const Problem>>> cache_;
};

struct SensitivityOptions {
  double mu_scale = 0.0;             // μ_s of the difference step; 0: max(|μ|, 1)
  double bifurcation_tolerance = 1e-6;  // |φᵀg_μ| / (‖φ‖‖g_μ‖) above it: μ breaks the bifurcation
  double symmetric_tolerance = 1e-5;    // for the bifurcation equation
  bool estimate_error = true;           // false: no Sensitivity::error (two evaluations fewer)
};

struct Sensitivity {
  bool valid = false;
  double dlambda_dmu = 0.0;
  double phi_dot_gmu = 0.0;  // |φᵀg_μ| / (‖φ‖ ‖g_μ‖), 0 when g_μ = 0
  // Estimated |error| of dlambda_dmu: the larger of 4/3 of its change with every
  // difference step halved and a third of it with every step doubled (central
  // differences, O(h²)); infinity when those steps give no finite value, NaN when
  // not asked for (SensitivityOptions::estimate_error).
  double error = 0.0;
  std::string message;       // why not valid
};

// dλ_cr/dμ of a converged point cp of family.at(mu) (eqs. 8.2, 8.3).
Sensitivity sensitivity(const ProblemFamily& family, double mu, const CriticalPoint& cp,
                        const SensitivityOptions& options = {});

struct CurveOptions {
  double step = 0.05;        // first arclength step h in the scaled (μ, λ) plane
  double min_step = 1e-6;    // a step cut below it ends the curve
  double max_step = 0.2;
  int target_iterations = 4; // h_{k+1} = h_k √(N_target / N_k), growth ≤ 2 (eq. 2.8)
  int max_points = 100;      // points of the curve, the start included (design.max_points)
  double max_turn = 0.5;     // radians between successive secants; more: the step is cut
  int direction = +1;        // sign of the first dμ
  double mu_min = -std::numeric_limits<double>::infinity(), mu_max = std::numeric_limits<double>::infinity();
  double lambda_min = -std::numeric_limits<double>::infinity(),
         lambda_max = std::numeric_limits<double>::infinity();
  double mu_scale = 0.0;      // μ_s; 0: max(|μ₀|, 1)
  double lambda_scale = 0.0;  // λ_s; 0: max(|λ_cr(μ₀)|, 1e-12)
  LocateOptions locate;
  SensitivityOptions sensitivity;
  // Polled before each new point and, unless locate.stop_requested is set, by
  // the locator in every iteration of a point; true ends the curve with
  // termination Interrupted, the points found so far kept (Ctrl-C in trace).
  std::function<bool()> stop_requested;
};

struct CurvePoint {
  double mu = 0.0, lambda = 0.0;
  double arclength = 0.0;  // scaled
  Vector q, phi;
  CriticalKind kind = CriticalKind::Limit;
  int iterations = 0;
  double residual = 0.0;
  double phi_dot_r = 0.0;
  int penalized_negative_pivots = 0;  // inertia of K̃ = K + ρeᵢeᵢᵀ: the other eigenvalues
  bool spectrum_ok = false;           // K̃ could be factorized there
};

enum class CurveEventKind { TurnInMu, Coincidence };
const char* to_string(CurveEventKind k);

struct CurveEvent {
  CurveEventKind kind = CurveEventKind::TurnInMu;
  double mu = 0.0, lambda = 0.0;
  int after_point = 0;   // between points after_point and after_point + 1
  bool located = false;  // Coincidence: eigenvalue converged to zero; TurnInMu: parabola
  std::string message;
};

// Why a curve of critical points ended. InvalidModel is set by callers whose
// family refused to build a member next to the start (io's ConfigFamily).
enum class CurveTermination {
  Running,       // not followed (yet)
  MaxPoints,     // CurveOptions::max_points reached
  MuRange,       // the last point left [mu_min, mu_max]
  LambdaRange,   // the last point left [lambda_min, lambda_max]
  StepTooSmall,  // the step was cut below min_step: the critical point may cease to exist
  BadStart,      // the start is not a located simple point, or has no sensitivity
  InvalidModel,  // the family could not build a member near the start
  Interrupted,   // stop_requested()
  MetBifurcation,  // a limit point's curve reached a bifurcation point (φᵀr vanished)
};
const char* to_string(CurveTermination t);  // kebab-case: "max-points", "mu-range", ...

struct CriticalCurve {
  std::vector<CurvePoint> points;
  std::vector<CurveEvent> events;
  CurveTermination termination = CurveTermination::Running;
  std::string message;
};

// Follows λ_cr(μ) from the converged point `start` of family.at(mu0): a limit
// point curve when start is a limit point, a bifurcation curve otherwise.
CriticalCurve follow_critical_curve(const ProblemFamily& family, double mu0, const CriticalPoint& start,
                                    const CurveOptions& options);

// The first critical point on the path of `problem` from (q0, λ0): the maximum
// load of an imperfect structure (a limit point), or the bifurcation load of a
// perfect one. nullopt when the path ends first (message in `why`).
std::optional<CriticalPoint> first_critical_point(const Problem& problem, const Vector& q0, double lambda0,
                                                  const continuation::Options& path, const FinderOptions& finder,
                                                  std::string* why = nullptr);

// y = c·x^β by least squares on (ln x, ln y); every x, y must be positive.
struct PowerLaw {
  bool valid = false;
  double exponent = 0.0, coefficient = 0.0;
  double max_log_residual = 0.0;  // max |ln y − ln(c x^β)| over the points
  int points = 0;
  std::string message;
};
PowerLaw fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

struct ImperfectionPoint {
  double amplitude = 0.0;
  bool found = false;
  double lambda_max = 0.0;
  std::string message;
};
struct ImperfectionStudy {
  std::vector<ImperfectionPoint> points;
  double lambda_perfect = 0.0;  // the critical load at amplitude 0 (given)
  PowerLaw fit;                 // 1 − λ_max/λ_perfect = c ε^β over the points found
  bool interrupted = false;     // stopped before every amplitude was traced
};

// Maximum load against imperfection amplitude ε: family.at(ε) traced from q = 0,
// λ = 0 to its first critical point for every amplitude, and the exponent of
// 1 − λ_max/λ_cr fitted (Koiter: 1/2 asymmetric, 2/3 symmetric unstable).
// `stop`, when given, is polled before each amplitude: true ends the study with
// the amplitudes done so far (ImperfectionStudy::interrupted).
ImperfectionStudy imperfection_sensitivity(const ProblemFamily& family, const std::vector<double>& amplitudes,
                                           double lambda_perfect, const continuation::Options& path,
                                           const FinderOptions& finder,
                                           const std::function<bool()>& stop = nullptr);

}  // namespace senda::critical
