#include "senda/critical/design.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>

#include "senda/core/number.hpp"
#include "senda/critical/branch.hpp"
#include "senda/linalg/factorization.hpp"

#include "penalized.hpp"

namespace senda::critical {

namespace {

const double kCbrtEps = std::cbrt(std::numeric_limits<double>::epsilon());

// Difference step in μ (eq. 8.1).
double mu_step(double mu, double mu_scale) { return kCbrtEps * std::max(std::abs(mu), mu_scale); }

double default_mu_scale(double mu, double given) { return given > 0.0 ? given : std::max(std::abs(mu), 1.0); }

}  // namespace

// ---------------------------------------------------------------------------
// LineProblem

LineProblem::LineProblem(const ProblemFamily& family, double mu0, double lambda0, double d_mu, double d_lambda,
                         double mu_scale)
    : family_(family), nominal_(family.at(mu0)), mu0_(mu0), lambda0_(lambda0), d_mu_(d_mu), d_lambda_(d_lambda),
      delta_(mu_step(mu0, default_mu_scale(mu0, mu_scale))) {
  cache_.emplace_back(mu0, nominal_);
}

const Problem& LineProblem::member(double mu) const {
  for (const auto& [m, p] : cache_)
    if (m == mu) return *p;
  std::shared_ptr<const Problem> p = family_.at(mu);
  if (!p || p->size() != nominal_->size() ||
      p->tangent_pattern().nonZeros() != nominal_->tangent_pattern().nonZeros())
    throw std::logic_error("ProblemFamily: a member has another size or tangent pattern than the nominal one");
  if (cache_.size() >= 6) cache_.erase(cache_.begin() + 1);  // keep the nominal member
  cache_.emplace_back(mu, std::move(p));
  return *cache_.back().second;
}

void LineProblem::residual(const Vector& q, double t, Vector& g) const { member(mu(t)).residual(q, lambda(t), g); }

void LineProblem::tangent(const Vector& q, double t, SparseMatrix& K) const { member(mu(t)).tangent(q, lambda(t), K); }

void LineProblem::dg_dlambda(const Vector& q, double t, Vector& out) const {
  // d g/dt = d_λ g_λ + d_μ g_μ, g_μ by central differences (eq. 8.1).
  const double m = mu(t), l = lambda(t);
  Vector gl, gp, gm;
  member(m).dg_dlambda(q, l, gl);
  out = d_lambda_ * gl;
  if (d_mu_ != 0.0) {
    member(m + delta_).residual(q, l, gp);
    member(m - delta_).residual(q, l, gm);
    out += d_mu_ * (gp - gm) / (2.0 * delta_);
  }
}

bool LineProblem::tangent_derivative(const Vector& q, double t, const Vector& a, const Vector& b,
                                     Vector& out) const {
  return member(mu(t)).tangent_derivative(q, lambda(t), a, b, out);
}

// ---------------------------------------------------------------------------
// Sensitivity (eqs. 8.2, 8.3)

Sensitivity sensitivity(const ProblemFamily& family, double mu, const CriticalPoint& cp,
                        const SensitivityOptions& options) {
  Sensitivity s;
  if (!cp.converged) {
    s.message = "the point was not located";
    return s;
  }
  const std::shared_ptr<const Problem> p0 = family.at(mu);
  const double delta = mu_step(mu, default_mu_scale(mu, options.mu_scale));
  const Problem& problem = *p0;
  const int n = problem.size();
  const Vector& q = cp.q;
  const Vector& phi = cp.phi;
  const double lambda = cp.lambda;
  Vector gl;
  problem.dg_dlambda(q, lambda, gl);
  const double phi_r = -phi.dot(gl);
  // g_μ by central differences with the step h = factor δ; the members at μ ± h
  // are kept for the tangents below.
  struct Members {
    std::shared_ptr<const Problem> plus, minus;
    Vector gmu;
    double h = 0.0;
    bool round_off = false;  // g(μ + h) − g(μ − h) at the round-off of its terms
  };
  const auto members = [&](double factor) {
    Members m;
    m.h = factor * delta;
    m.plus = family.at(mu + m.h);
    m.minus = family.at(mu - m.h);
    Vector gp, gm;
    m.plus->residual(q, lambda, gp);
    m.minus->residual(q, lambda, gm);
    m.gmu = (gp - gm) / (2.0 * m.h);
    const double terms = std::max({problem.force_terms(q, lambda), std::abs(lambda) * gl.norm(), gp.norm(), gm.norm()});
    m.round_off = (gp - gm).norm() <= 64.0 * std::numeric_limits<double>::epsilon() * terms;
    return m;
  };
  const Members m1 = members(1.0);
  const double gmu_norm = m1.gmu.norm();
  s.phi_dot_gmu = gmu_norm > 0 ? std::abs(phi.dot(m1.gmu)) / (phi.norm() * gmu_norm) : 0.0;
  // A g_μ at the round-off of the two residuals it is the difference of is no load:
  // the parameter does not act on the structure in this state (the EI of a straight
  // column, a lateral spring on it, GJ of an unbent beam: their forces are those of
  // displacements that are zero). Its direction is then noise, and the cosine above
  // was O(1) (0.24 for the Euler column's EI), which called a stiffness parameter an
  // imperfection and refused its sensitivity and curve.
  if (m1.round_off) s.phi_dot_gmu = 0.0;

  // The error of the difference quotients. Where the terms of eq. (8.3) cancel to a
  // small remainder (dλ/dEA of the Euler column, (P/EA)² from terms of P/EA) the
  // result can be off by 40 % with ten digits printed. The result is computed again
  // with every difference step halved and doubled; central differences err by O(h²),
  // so the error is about 4/3 of the first change and a third of the second, and the
  // larger is kept. Neither alone is safe: halved, the steps fall below cbrt(eps) and
  // the change is partly round-off (dλ/dGA of the Euler column, 3 % off, is given
  // 92 %); doubled, dλ/dEA, 39 % off, was given 3.4 %. An overstated error is the one
  // to keep.
  const auto with_error = [&](const std::function<std::optional<double>(const Members&, double)>& value) {
    const std::optional<double> x1 = value(m1, 1.0);
    if (!x1 || !std::isfinite(*x1)) {
      s.message = "not finite";
      return;
    }
    s.dlambda_dmu = *x1;
    s.valid = true;
    if (!options.estimate_error) {
      s.error = NAN;
      return;
    }
    const std::optional<double> xh = value(members(0.5), 0.5), xd = value(members(2.0), 2.0);
    s.error = xh && xd && std::isfinite(*xh) && std::isfinite(*xd)
                  ? std::max(4.0 / 3.0 * std::abs(*x1 - *xh), std::abs(*x1 - *xd) / 3.0)
                  : INFINITY;
  };

  if (cp.kind == CriticalKind::Limit) {
    if (!(std::abs(phi_r) > 0)) {
      s.message = "phi^T r = 0 at a limit point";
      return s;
    }
    with_error([&](const Members& m, double) -> std::optional<double> { return phi.dot(m.gmu) / phi_r; });  // eq. (8.2)
    return s;
  }
  if (cp.kind != CriticalKind::Bifurcation) {
    s.message = "a multiple point";
    return s;
  }
  if (s.phi_dot_gmu > options.bifurcation_tolerance) {
    s.message = "the parameter breaks the bifurcation (phi^T dg/dmu != 0): it is an imperfection, and the "
                "critical load of the perturbed structure is a limit point";
    return s;
  }
  if (cp.v.size() != n || cp.pivot < 0) {
    s.message = "the point has no particular solution v";
    return s;
  }
  continuation::Scaling unit;
  unit.w = Vector::Ones(n);
  const BifurcationEquation abe = bifurcation_equation(problem, cp, unit, cp.v, 1.0, options.symmetric_tolerance);
  const double A = abe.A, B = 0.5 * (abe.B1 + abe.B2), C = abe.C;
  const double det = B * B - A * C;
  if (!(std::abs(det) > 1e-14 * std::max({B * B, std::abs(A * C), 1e-300}))) {
    s.message = "B^2 - AC = 0: not a simple bifurcation";
    return s;
  }

  // K̃ w = −g_μ, K̃ = K + ρ eᵢeᵢᵀ: with φᵀg_μ = 0 this gives K w = −g_μ, wᵢ = 0.
  SparseMatrix K = problem.tangent_pattern(), Kp = problem.tangent_pattern(), Km = problem.tangent_pattern();
  problem.tangent(q, lambda, K);
  const int slot = penalized::diagonal_slot(K, cp.pivot);
  if (slot < 0) {
    s.message = "no diagonal entry at the pivot";
    return s;
  }
  SparseMatrix Kt;
  const double l0 = core::difference_length(problem);  // as in bifurcation_equation
  linalg::SymmetricFactorization fac(K);
  if (penalized::factorize(K, slot, cp.penalty, Kt, fac) != linalg::FactorStatus::Ok) {
    s.message = "penalized tangent not factorizable";
    return s;
  }
  with_error([&](const Members& m, double factor) -> std::optional<double> {
    const Vector w = fac.solve(Vector(-m.gmu));
    // b = ∇_q(Kφ)w + K_μφ, central differences.
    Vector b = Vector::Zero(n);
    if (w.norm() > 0) {
      const double e = factor * kCbrtEps * (l0 + q.norm()) / w.norm();
      problem.tangent(q + e * w, lambda, Kp);
      problem.tangent(q - e * w, lambda, Km);
      b += (Kp * phi - Km * phi) / (2.0 * e);
    }
    m.plus->tangent(q, lambda, Kp);
    m.minus->tangent(q, lambda, Km);
    b += (Kp * phi - Km * phi) / (2.0 * m.h);
    const double c1 = phi.dot(b);
    double c2 = cp.v.dot(b);
    {
      // φᵀg_λμ: r may depend on μ (a parameter in a load value) even when g is
      // proportional in λ.
      Vector glp, glm;
      m.plus->dg_dlambda(q, lambda, glp);
      m.minus->dg_dlambda(q, lambda, glm);
      c2 += phi.dot(glp - glm) / (2.0 * m.h);
    }
    if (!problem.is_proportional()) {
      const double el = factor * kCbrtEps * std::max(1.0, std::abs(lambda));
      problem.tangent(q, lambda + el, Kp);
      problem.tangent(q, lambda - el, Km);
      const Vector Klphi = (Kp * phi - Km * phi) / (2.0 * el);
      c2 += Klphi.dot(w);
    }
    Eigen::Matrix2d M;
    M << B, C, A, B;
    return penalized::solve_equilibrated(M, Eigen::Vector2d(-c1, -c2))[0];  // eq. (8.3)
  });
  return s;
}

// ---------------------------------------------------------------------------
// Critical-point curves (eq. 8.4)

const char* to_string(CurveTermination t) {
  switch (t) {
    case CurveTermination::Running: return "running";
    case CurveTermination::MaxPoints: return "max-points";
    case CurveTermination::MuRange: return "mu-range";
    case CurveTermination::LambdaRange: return "lambda-range";
    case CurveTermination::StepTooSmall: return "step-too-small";
    case CurveTermination::BadStart: return "bad-start";
    case CurveTermination::InvalidModel: return "invalid-model";
    case CurveTermination::Interrupted: return "interrupted";
    case CurveTermination::MetBifurcation: return "met-bifurcation";
  }
  return "?";
}

const char* to_string(CurveEventKind k) {
  switch (k) {
    case CurveEventKind::TurnInMu: return "turn_in_mu";
    case CurveEventKind::Coincidence: return "coincidence";
  }
  return "?";
}

namespace {

struct Plane {
  double mu_s, lambda_s;
  Eigen::Vector2d scaled(double mu, double lambda) const { return {mu / mu_s, lambda / lambda_s}; }
};

// One point of the curve on the line through P = (mu_p, lambda_p) normal to the
// unit scaled direction tau, from the guesses (q, φ).
struct LineSolve {
  CriticalPoint cp;
  double mu = 0.0, lambda = 0.0;
  bool model_refused = false;  // the family threw (the builder refused a value of μ on the line)
};

LineSolve solve_on_line(const ProblemFamily& family, const Plane& plane, double mu_p, double lambda_p,
                        const Eigen::Vector2d& tau, const Vector& q, const Vector& phi, double h,
                        AugmentedSystem system, const CurveOptions& options, double penalty_floor) {
  const double d_mu = -tau[1] * plane.mu_s, d_lambda = tau[0] * plane.lambda_s;
  LineSolve s;
  // A member that cannot be built (a value of μ the model refuses) or evaluated is
  // a failed solve: the step is cut, the points found so far stay.
  try {
    LineProblem line(family, mu_p, lambda_p, d_mu, d_lambda, plane.mu_s);
    // ρ no smaller than at the previous point: the start is a critical point, where
    // mean |diag K| + |K_ii| vanishes for a one-unknown problem.
    LocateOptions lo = options.locate;
    lo.penalty_floor = std::max(lo.penalty_floor, penalty_floor);
    if (!lo.stop_requested) lo.stop_requested = options.stop_requested;  // a point of a large model takes seconds
    s.cp = refine(line, q, 0.0, phi, std::max(h, 1e-12), system, lo);
    s.mu = line.mu(s.cp.lambda);
    s.lambda = line.lambda(s.cp.lambda);
  } catch (const std::exception& e) {
    s.cp = CriticalPoint{};
    s.cp.converged = false;
    s.model_refused = true;
    // μ_p is the step's predictor; the value refused is on the line through it, where
    // Newton went (von Mises' h: predicted 5e-6, refused about −1e-6).
    s.cp.message = std::string("the model was refused at a value of mu on the step's line through mu = ") +
                   std::to_string(mu_p) + ": " + e.what();
  }
  return s;
}

// Inertia of K̃ and its eigenvalue nearest zero (inverse iteration from x).
struct PenalizedSpectrum {
  bool ok = false;
  int negative = 0;
  double eigenvalue = 0.0;
  Vector x;
};

PenalizedSpectrum penalized_spectrum(const Problem& p, const CriticalPoint& cp, double lambda, const Vector& start) {
  PenalizedSpectrum out;
  if (cp.pivot < 0 || cp.q.size() != p.size()) return out;
  SparseMatrix K = p.tangent_pattern(), Kt;
  p.tangent(cp.q, lambda, K);
  const int slot = penalized::diagonal_slot(K, cp.pivot);
  if (slot < 0) return out;
  linalg::SymmetricFactorization fac(K);
  if (penalized::factorize(K, slot, cp.penalty, Kt, fac) != linalg::FactorStatus::Ok) return out;
  out.negative = fac.negative_pivots();
  Vector x = start.size() == cp.q.size() && start.norm() > 0 ? start : Vector::Ones(cp.q.size());
  x.normalize();
  for (int k = 0; k < 12; ++k) {
    Vector y = fac.solve(x);
    const double nrm = y.norm();
    if (!(nrm > 0) || !std::isfinite(nrm)) return out;
    x = y / nrm;
  }
  out.eigenvalue = x.dot(Kt * x);
  out.x = x;
  out.ok = true;
  return out;
}

}  // namespace

CriticalCurve follow_critical_curve(const ProblemFamily& family, double mu0, const CriticalPoint& start,
                                    const CurveOptions& options) {
  CriticalCurve curve;
  if (!start.converged || start.kind == CriticalKind::Multiple) {
    curve.termination = CurveTermination::BadStart;
    curve.message = "the start point is not a located simple critical point";
    return curve;
  }
  const AugmentedSystem system =
      start.kind == CriticalKind::Limit ? AugmentedSystem::Limit : AugmentedSystem::Bifurcation;
  const Plane plane{default_mu_scale(mu0, options.mu_scale),
                    options.lambda_scale > 0 ? options.lambda_scale : std::max(std::abs(start.lambda), 1e-12)};
  SensitivityOptions so = options.sensitivity;
  so.mu_scale = plane.mu_s;
  // The curve's first direction needs the value only: its error estimate would rebuild
  // the model four times more before the first step, where a stop is not polled.
  so.estimate_error = false;
  const Sensitivity sens = sensitivity(family, mu0, start, so);
  if (!sens.valid) {
    curve.termination = CurveTermination::BadStart;
    curve.message = "no sensitivity at the start point: " + sens.message;
    return curve;
  }

  auto make_point = [&](const CriticalPoint& cp, double mu, double lambda, double s) {
    return CurvePoint{.mu = mu, .lambda = lambda, .arclength = s, .q = cp.q, .phi = cp.phi, .kind = cp.kind,
                      .iterations = cp.newton_iterations, .residual = cp.residual, .phi_dot_r = cp.phi_dot_r};
  };
  std::vector<CriticalPoint> located{start};  // for the spectrum (pivot, penalty)
  curve.points.push_back(make_point(start, mu0, start.lambda, 0.0));
  Vector eig_start = start.phi;  // any start vector; refreshed at each point
  {
    const PenalizedSpectrum ps = penalized_spectrum(*family.at(mu0), start, start.lambda, Vector());
    curve.points.back().penalized_negative_pivots = ps.negative;
    curve.points.back().spectrum_ok = ps.ok;
    if (ps.ok) eig_start = ps.x;
  }

  // First direction from the sensitivity, in the scaled plane.
  Eigen::Vector2d tau(1.0, sens.dlambda_dmu * plane.mu_s / plane.lambda_s);
  tau *= (options.direction >= 0 ? 1.0 : -1.0) / tau.norm();
  Vector dq = Vector::Zero(start.q.size());  // dq/ds of the last secant
  double h = options.step;
  bool refused = false;  // the last line solve failed because the model was refused
  bool met_bifurcation = false;  // the last line solve found a bifurcation point (a limit point's curve)

  auto outside = [&](double mu, double lambda) -> std::optional<CurveTermination> {
    if (mu < options.mu_min || mu > options.mu_max) return CurveTermination::MuRange;
    if (lambda < options.lambda_min || lambda > options.lambda_max) return CurveTermination::LambdaRange;
    return std::nullopt;
  };

  while (true) {
    if (static_cast<int>(curve.points.size()) >= options.max_points) {
      curve.termination = CurveTermination::MaxPoints;
      break;
    }
    if (options.stop_requested && options.stop_requested()) {
      curve.termination = CurveTermination::Interrupted;
      curve.message = "interrupted after " + std::to_string(curve.points.size()) + " points";
      break;
    }
    const CurvePoint& last = curve.points.back();
    const Eigen::Vector2d X = plane.scaled(last.mu, last.lambda);
    const Eigen::Vector2d P = X + h * tau;
    const Vector q_pred = last.q + h * dq;
    LineSolve ls = solve_on_line(family, plane, P[0] * plane.mu_s, P[1] * plane.lambda_s, tau, q_pred, last.phi, h,
                                 system, options, located.back().penalty);
    bool ok = ls.cp.converged && ls.cp.kind == start.kind;
    refused = ls.model_refused;
    // SPL converged, to a point whose φᵀr vanishes: the limit point's curve has met a
    // bifurcation point within this step (the cut steps close in on the meeting).
    met_bifurcation = system == AugmentedSystem::Limit && ls.cp.converged && ls.cp.kind == CriticalKind::Bifurcation;
    // A limit point's curve that reaches a bifurcation point: φᵀr vanishes there (a
    // limit point has φᵀr ≠ 0, a bifurcation point φᵀr = 0), and SPL, which holds at
    // both, went on along the bifurcation point's curve with the label "limit"
    // (three-bar's LP1 in the spring stiffness: 20 points at k = 1.0005 with uy at
    // ±1e-6, on the primary path: BP1). Such a point is refused like one of another
    // kind: the cut steps close in on the meeting, where the curve ends.
    std::string why = ls.cp.converged ? "the point found is of another kind" : ls.cp.message;
    if (ok && system == AugmentedSystem::Limit) {
      const double r0 = std::abs(curve.points.front().phi_dot_r), rp = std::abs(ls.cp.phi_dot_r);
      if (r0 > 0.0 && rp < std::max(options.locate.bifurcation_tolerance, 1e-4 * r0)) {
        ok = false;
        met_bifurcation = true;
        why = "phi^T r fell from " + core::format_g(r0, 3) + " to " + core::format_g(rp, 3) +
              " (relative): a bifurcation point";
      }
    }
    Eigen::Vector2d secant;
    if (ok) {
      secant = plane.scaled(ls.mu, ls.lambda) - X;
      const double len = secant.norm();
      if (!(len > 0)) {
        ok = false;
        why = "no progress";
      } else {
        secant /= len;
        const double turn = std::acos(std::clamp(secant.dot(tau), -1.0, 1.0));
        if (turn > options.max_turn) {
          ok = false;
          why = "the curve turned by " + std::to_string(turn) + " rad in one step";
        }
      }
    }
    if (!ok) {
      // A solve ended by the stop flag is not a failed step: no cut, no
      // step-too-small; the loop's first check ends the curve as interrupted.
      if (options.stop_requested && options.stop_requested()) continue;
      h *= 0.5;
      // Or the cut steps ended with φᵀr of the last point a hundredth of the start's
      // or less: SPL beyond it finds no limit point (it does not converge), and the
      // limit point ceases there because it becomes the bifurcation point.
      const double r_start = std::abs(curve.points.front().phi_dot_r);
      const bool vanishing = system == AugmentedSystem::Limit && r_start > 0.0 &&
                             std::abs(curve.points.back().phi_dot_r) < 1e-2 * r_start;
      if (h < options.min_step && (met_bifurcation || vanishing)) {
        // The limit point meets a bifurcation point within the minimum step of the
        // last point: the curve ends there (it said "may cease to exist").
        const CurvePoint& b = curve.points.back();
        CurveEvent ev;
        ev.kind = CurveEventKind::Coincidence;
        ev.after_point = static_cast<int>(curve.points.size()) - 1;
        ev.mu = b.mu;
        ev.lambda = b.lambda;
        ev.located = true;
        ev.message = "the limit point meets a bifurcation point within the minimum step (design.step's cuts) of the "
                     "curve's last point: beyond it SPL converges to the bifurcation point";
        curve.events.push_back(ev);
        curve.termination = CurveTermination::MetBifurcation;
        curve.message = ev.message;
        break;
      }
      if (h < options.min_step) {
        // The last attempt's failure names the end: the builder refusing μ (a rise
        // h → 0 of the von Mises truss) is invalid-model, not a point that ceases.
        curve.termination = refused ? CurveTermination::InvalidModel : CurveTermination::StepTooSmall;
        curve.message = refused ? "the model cannot be built beyond mu = " + std::to_string(last.mu) + " (" + why + ")"
                                : "no critical point near mu = " + std::to_string(last.mu) + " (" + why +
                                      "): the critical point may cease to exist there";
        break;
      }
      continue;
    }
    const double len = (plane.scaled(ls.mu, ls.lambda) - X).norm();
    CurvePoint p = make_point(ls.cp, ls.mu, ls.lambda, last.arclength + len);
    PenalizedSpectrum ps;
    try {
      ps = penalized_spectrum(*family.at(ls.mu), ls.cp, ls.lambda, eig_start);
    } catch (const std::exception&) {
      ps.ok = false;
    }
    p.penalized_negative_pivots = ps.negative;
    p.spectrum_ok = ps.ok;
    dq = (p.q - last.q) / len;
    const int k = static_cast<int>(curve.points.size()) - 1;  // index of `last`

    // Another eigenvalue crossed zero between last and p: a coincidence (eq. 8.4).
    if (ps.ok && last.spectrum_ok && p.penalized_negative_pivots != last.penalized_negative_pivots) {
      CurveEvent ev;
      ev.kind = CurveEventKind::Coincidence;
      ev.after_point = k;
      // Along the secant from `last` (s = 0) to p (s = len), each trial point on its
      // normal line: bisection on the inertia of K̃ until the eigenvalue nearest zero
      // changes sign across the bracket (it is then the crossing one), then regula
      // falsi (Illinois) on that eigenvalue.
      struct Trial {
        bool ok = false;
        int negative = 0;
        double eigenvalue = 0.0, mu = 0.0, lambda = 0.0;
      };
      Vector xv = ps.x;
      auto trial = [&](double sc) {
        Trial t;
        const Eigen::Vector2d Pc = X + sc * secant;
        const double frac = sc / len;
        LineSolve lc = solve_on_line(family, plane, Pc[0] * plane.mu_s, Pc[1] * plane.lambda_s, secant,
                                     last.q + frac * (p.q - last.q), last.phi + frac * (p.phi - last.phi), len,
                                     system, options, located.back().penalty);
        if (!lc.cp.converged) return t;
        PenalizedSpectrum pc;
        try {
          pc = penalized_spectrum(*family.at(lc.mu), lc.cp, lc.lambda, xv);
        } catch (const std::exception&) {
          return t;
        }
        if (!pc.ok) return t;
        xv = pc.x;
        t.ok = true;
        t.negative = pc.negative;
        t.eigenvalue = pc.eigenvalue;
        t.mu = lc.mu;
        t.lambda = lc.lambda;
        return t;
      };
      PenalizedSpectrum pa;
      try {
        pa = penalized_spectrum(*family.at(last.mu), located.back(), last.lambda, ps.x);
      } catch (const std::exception&) {
        pa.ok = false;
      }
      double sa = 0.0, fa = pa.ok ? pa.eigenvalue : NAN, sb = len, fb = ps.eigenvalue;
      int na = last.penalized_negative_pivots;
      ev.mu = p.mu;
      ev.lambda = p.lambda;
      int side = 0;
      // The eigenvalue is small against the bracket's first end values (the ends
      // shrink with it: a test against them may never hold before the solve at the
      // coincidence itself fails, the two eigenvalues vanishing together).
      const double f_scale = std::max(std::isfinite(fa) ? std::abs(fa) : 0.0, std::abs(fb));
      for (int it = 0; it < 60; ++it) {
        const bool falsi = std::isfinite(fa) && std::isfinite(fb) && fa * fb < 0;
        const double sc = falsi ? (sa * fb - sb * fa) / (fb - fa) : 0.5 * (sa + sb);
        const Trial t = trial(sc);
        if (!t.ok) break;
        ev.mu = t.mu;
        ev.lambda = t.lambda;
        if (falsi && std::abs(t.eigenvalue) <= 1e-10 * f_scale) {
          ev.located = true;
          break;
        }
        if (std::abs(sb - sa) <= 1e-12 * len) {
          ev.located = falsi;  // collapsed bracket; with bisection only the eigenvalue never changed sign
          break;
        }
        if (t.negative == na) {  // the crossing lies in (sc, sb)
          if (falsi && side == -1) fb *= 0.5;
          sa = sc;
          fa = t.eigenvalue;
          side = -1;
        } else {
          if (falsi && side == 1) fa *= 0.5;
          sb = sc;
          fb = t.eigenvalue;
          side = 1;
        }
        if (!falsi) side = 0;
      }
      ev.message = std::string("another eigenvalue of K crosses zero: a ") +
                   (start.kind == CriticalKind::Limit ? "bifurcation" : "limit") +
                   " point coincides with this one (inertia of K + rho e_i e_i^T " +
                   std::to_string(last.penalized_negative_pivots) + " -> " +
                   std::to_string(p.penalized_negative_pivots) + ")" +
                   (ev.located ? ""
                    : options.stop_requested && options.stop_requested() ? "; not located (interrupted)"
                                                                         : "; not located");
      curve.events.push_back(ev);
    }
    if (ps.ok) eig_start = ps.x;

    // Turn in μ: the μ-component of the secant changes sign; vertex of the
    // parabola μ(s) through the last three points.
    if (secant[0] * tau[0] < 0 && curve.points.size() >= 2) {
      const CurvePoint& a = curve.points[curve.points.size() - 2];
      const double s0 = a.arclength, s1 = last.arclength, s2 = p.arclength;
      auto parabola = [&](double y0, double y1, double y2) {
        // Lagrange form coefficients of y(s) = c0 + c1 s + c2 s²
        const double d01 = (y1 - y0) / (s1 - s0), d12 = (y2 - y1) / (s2 - s1);
        const double c2 = (d12 - d01) / (s2 - s0);
        const double c1 = d01 - c2 * (s0 + s1);
        const double c0 = y0 - c1 * s0 - c2 * s0 * s0;
        return Eigen::Vector3d(c0, c1, c2);
      };
      const Eigen::Vector3d m = parabola(a.mu, last.mu, p.mu), l = parabola(a.lambda, last.lambda, p.lambda);
      CurveEvent ev;
      ev.kind = CurveEventKind::TurnInMu;
      ev.after_point = k;
      const double sv = m[2] != 0 ? -m[1] / (2.0 * m[2]) : s1;
      ev.mu = m[0] + m[1] * sv + m[2] * sv * sv;
      ev.lambda = l[0] + l[1] * sv + l[2] * sv * sv;
      ev.located = true;
      ev.message = "the curve turns in mu (vertex of a parabola through three points)";
      curve.events.push_back(ev);
    }

    tau = secant;
    located.push_back(ls.cp);
    curve.points.push_back(std::move(p));
    if (const std::optional<CurveTermination> why_out = outside(curve.points.back().mu, curve.points.back().lambda)) {
      curve.termination = *why_out;
      break;
    }
    const int iters = std::max(1, ls.cp.newton_iterations);
    h = std::min({options.max_step, 2.0 * h, h * std::sqrt(double(options.target_iterations) / iters)});
  }
  return curve;
}

// ---------------------------------------------------------------------------
// Imperfection sensitivity

namespace {
// first_critical_point(), also giving the path point before the bracket.
std::optional<CriticalPoint> first_point_and_before(const Problem& problem, const Vector& q0, double lambda0,
                                                    const continuation::Options& path, const FinderOptions& finder,
                                                    std::string* why, continuation::PathPoint* before) {
  continuation::PathFollower follower(problem, path);
  CriticalPointFinder f(finder);
  if (!follower.start(q0, lambda0)) {
    if (why) *why = follower.message();
    return std::nullopt;
  }
  while (!follower.done()) {
    if (!follower.advance()) continue;
    const std::vector<CriticalPointFinder::Found> found = f.check(follower);
    if (found.empty()) continue;
    // The first along the path, returned also when not located (converged = false).
    if (before) *before = follower.previous();
    return f.points()[found.front().index];
  }
  if (why) *why = "the path ended (" + std::string(continuation::to_string(follower.termination())) + ": " +
                  follower.message() + ") before a critical point";
  return std::nullopt;
}
}  // namespace

std::optional<CriticalPoint> first_critical_point(const Problem& problem, const Vector& q0, double lambda0,
                                                  const continuation::Options& path, const FinderOptions& finder,
                                                  std::string* why) {
  std::optional<CriticalPoint> cp = first_point_and_before(problem, q0, lambda0, path, finder, why, nullptr);
  if (cp && !cp->converged) {
    if (why) *why = cp->id + " not located: " + cp->message;
    return std::nullopt;
  }
  return cp;
}

PowerLaw fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  PowerLaw fit;
  if (x.size() != y.size() || x.size() < 2) {
    fit.message = "need two or more (x, y) pairs";
    return fit;
  }
  const int n = static_cast<int>(x.size());
  Eigen::MatrixXd A(n, 2);
  Eigen::VectorXd b(n);
  for (int k = 0; k < n; ++k) {
    if (!(x[k] > 0) || !(y[k] > 0)) {
      fit.message = "every x and y must be positive for a power-law fit";
      return fit;
    }
    A(k, 0) = 1.0;
    A(k, 1) = std::log(x[k]);
    b[k] = std::log(y[k]);
  }
  // Two distinct x at least: with one (three amplitudes of 1e-6) the least-squares
  // solution is a minimum-norm one, c = 1 and an exponent ln y / ln x, reported as a
  // valid law with a residual of 1e-15.
  if (!(A.col(1).maxCoeff() - A.col(1).minCoeff() > 1e-9 * std::max(1.0, A.col(1).cwiseAbs().maxCoeff()))) {
    fit.message = "every x is the same: a power law needs two distinct values";
    return fit;
  }
  const Eigen::Vector2d c = A.colPivHouseholderQr().solve(b);
  fit.coefficient = std::exp(c[0]);
  fit.exponent = c[1];
  fit.max_log_residual = (A * c - b).cwiseAbs().maxCoeff();
  fit.points = n;
  fit.valid = std::isfinite(fit.exponent) && std::isfinite(fit.coefficient);
  return fit;
}

namespace {
constexpr double kKoiterLow = 0.3, kKoiterHigh = 1.5;
constexpr double kRetraceFactor = 8.0;
constexpr int kMaxRetraces = 6;
}  // namespace

ImperfectionStudy imperfection_sensitivity(const ProblemFamily& family, const std::vector<double>& amplitudes,
                                           double lambda_perfect, const continuation::Options& path,
                                           const FinderOptions& finder, const std::function<bool()>& stop) {
  ImperfectionStudy study;
  study.lambda_perfect = lambda_perfect;
  std::vector<double> xs, ys;
  for (double eps : amplitudes) {
    if (stop && stop()) {
      study.interrupted = true;
      break;
    }
    ImperfectionPoint ip;
    ip.amplitude = eps;
    std::string why;
    std::optional<CriticalPoint> cp;
    int retraces = 0;
    try {
      const std::shared_ptr<const Problem> p = family.at(eps);
      continuation::PathPoint before;
      cp = first_point_and_before(*p, Vector::Zero(p->size()), 0.0, path, finder, &why, &before);
      // An imperfect structure has no bifurcation: a bifurcation bracket on its path
      // is a step over the maximum onto the complementary path, whose signs look like
      // a bifurcation crossed (docs/theory.md §4), or a bracket whose point is not
      // located (a maximum outside it; or the complementary path's extremum, where
      // the step went over to it from a path with no maximum there, the stable side
      // of a symmetric bifurcation). Re-trace from the point before the bracket
      // with steps 8 times shorter, until the maximum is bracketed and located.
      continuation::Options fine = path;
      while (eps != 0.0 && cp && (cp->kind == CriticalKind::Bifurcation || !cp->converged) &&
             cp->kind != CriticalKind::Multiple && retraces < kMaxRetraces) {
        ++retraces;
        fine.initial_load_increment /= kRetraceFactor;
        continuation::PathPoint b = before;
        std::string w;
        std::optional<CriticalPoint> again = first_point_and_before(*p, b.q, b.lambda, fine, finder, &w, &before);
        if (!again) {
          why = cp->id + ": the first critical point is not a located limit point; re-traced with steps / " +
                std::to_string(static_cast<long>(std::pow(kRetraceFactor, retraces))) + ": " + w;
          cp.reset();
          break;
        }
        cp = again;
      }
      if (cp && !cp->converged) {
        why = cp->id + " not located: " + cp->message;
        if (retraces > 0)
          why += " (re-traced with steps / " + std::to_string(static_cast<long>(std::pow(kRetraceFactor, retraces))) +
                 ")";
        cp.reset();
      }
    } catch (const std::exception& e) {
      why = std::string("the model failed at this amplitude: ") + e.what();
    }
    // The path polls `stop` too (analysis::imperfection_study): an amplitude cut
    // short by it is dropped, not reported as one without a maximum.
    if (stop && stop()) {
      study.interrupted = true;
      break;
    }
    if (cp && cp->kind == CriticalKind::Limit) {
      ip.found = true;
      ip.lambda_max = cp->lambda;
      if (retraces > 0)
        ip.message = "the first bracket held no located limit point of this path (a step over the maximum, or onto "
                     "the complementary path); located after re-tracing with steps / " +
                     std::to_string(static_cast<long>(std::pow(kRetraceFactor, retraces)));
      const double drop = 1.0 - ip.lambda_max / lambda_perfect;
      if (eps > 0 && drop > 0) {
        xs.push_back(eps);
        ys.push_back(drop);
      } else {
        // Said, not silently dropped (Roorda's frame at eps = 1 gave a maximum above
        // lambda_cr, left out of a fit that still read valid).
        ip.message += std::string(ip.message.empty() ? "" : "; ") + "left out of the fit: " +
                      (eps > 0 ? "lambda_max is not below the perfect structure's lambda_cr (the imperfection "
                                 "raises the maximum: the stable side of an asymmetric bifurcation, or a "
                                 "reference lambda_cr that is not the limit of the imperfect maxima)"
                               : "the fit is over positive amplitudes");
      }
    } else {
      ip.message = cp ? cp->id + ": the first critical point is not a limit point" : why;
    }
    study.points.push_back(ip);
  }
  study.fit = fit_power_law(xs, ys);
  // Koiter: 1/2 below an asymmetric bifurcation, 2/3 below a symmetric unstable one, 1
  // below a limit point. An exponent far outside them is a drop that does not vanish
  // with the imperfection: Roorda's extensible frame, whose perfect model is itself
  // unfolded (its maxima tend to its own limit point, 0.63 % below the bifurcation
  // taken as lambda_cr), fitted eps^0.0026 and read as a valid law.
  if (study.fit.valid && !(study.fit.exponent >= kKoiterLow && study.fit.exponent <= kKoiterHigh))
    study.fit.message = "the exponent " + std::to_string(study.fit.exponent) +
                        " is far from Koiter's 1/2 (asymmetric bifurcation), 2/3 (symmetric) and 1 (limit point): "
                        "the drop does not vanish with the amplitude, so lambda_cr of the perfect model is not the "
                        "limit of the imperfect maxima (a bifurcation the model itself unfolds, or amplitudes "
                        "beyond the asymptotic range)";
  return study;
}

}  // namespace senda::critical
