#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "senda/critical/critical_point.hpp"
#include "senda/core/differences.hpp"
#include "senda/core/number.hpp"

#include "penalized.hpp"

namespace senda::critical {

const char* to_string(DetectTest t) {
  switch (t) {
    case DetectTest::Det: return "det";
    case DetectTest::Inertia: return "inertia";
    case DetectTest::Both: return "both";
  }
  return "?";
}

std::optional<DetectTest> detect_test_from_string(const std::string& s) {
  for (DetectTest t : {DetectTest::Det, DetectTest::Inertia, DetectTest::Both})
    if (s == to_string(t)) return t;
  return std::nullopt;
}

const char* to_string(CriticalKind k) {
  switch (k) {
    case CriticalKind::Limit: return "limit";
    case CriticalKind::Bifurcation: return "bifurcation";
    case CriticalKind::Multiple: return "multiple";
  }
  return "?";
}

const char* to_string(BracketEvidence e) {
  switch (e) {
    case BracketEvidence::None: return "none";
    case BracketEvidence::Limit: return "limit";
    case BracketEvidence::Bifurcation: return "bifurcation";
  }
  return "?";
}

BracketEvidence bracket_evidence(const continuation::PathPoint& before, const continuation::PathPoint& after) {
  // A point built without the follower's signs (0) says nothing.
  if (before.det_sign == 0 || after.det_sign == 0 || before.bordered_sign == 0 || after.bordered_sign == 0)
    return BracketEvidence::None;
  const bool det_changed = before.det_sign != after.det_sign;
  const bool bordered_changed = before.bordered_sign != after.bordered_sign;
  if (bordered_changed) return BracketEvidence::Bifurcation;
  if (det_changed) return BracketEvidence::Limit;  // and so t_λ changed sign (eq. 3.2)
  return BracketEvidence::None;
}

// A located point is classified by φᵀr only once φᵀr exceeds this multiple of its
// scaled residual (refine()).
constexpr double kClassifyMargin = 1e6;

bool detected(const continuation::Crossing& c, DetectTest test) {
  const bool inertia = c.negative_pivots_before != c.negative_pivots_after;
  // The bordered-determinant test is part of every choice: it is the one that sees
  // a bifurcation point crossed where neither det K nor the inertia changes.
  switch (test) {
    case DetectTest::Det: return c.det_sign_changed || c.bordered_sign_changed;
    case DetectTest::Inertia: return inertia || c.bordered_sign_changed;
    case DetectTest::Both: return inertia || c.det_sign_changed || c.bordered_sign_changed;
  }
  return false;
}

namespace {

std::string fmt_g(double x) { return core::format_g(x, 9); }

// D = diag dⱼ of a Jacobi scaling, dⱼ = |Kⱼⱼ|^(−½) of K₀ = K(0, 0), the structure's
// stiffness unloaded (not of a K near the critical point, whose diagonal the critical
// mode itself softens). An entry below 10⁻⁸ of the mean of its kind's takes that mean,
// a kind whose entries all vanish the mean of the others, and every dⱼ is 1 when the
// diagonal is zero: there is nothing to scale by. K(0, 0) not finite, or not defined
// (the Problem interface does not promise a tangent there: it may throw): K at
// (q_here, λ_here) instead. K is the tangent's pattern, overwritten.
Vector jacobi_diagonal(const Problem& p, SparseMatrix& K, const Vector& q_here, double lambda_here) {
  const int n = p.size();
  bool finite = true;
  try {
    p.tangent(Vector::Zero(n), 0.0, K);
    for (int j = 0; j < n && finite; ++j) finite = std::isfinite(K.coeff(j, j));
  } catch (const std::exception&) {
    finite = false;
  }
  if (!finite) p.tangent(q_here, lambda_here, K);
  constexpr std::size_t kKinds = 3;
  std::array<double, kKinds> sum{}, count{};
  std::vector<std::size_t> kind(static_cast<std::size_t>(n));
  Vector s(n), d(n);
  for (int j = 0; j < n; ++j) {
    const std::size_t k = kind[static_cast<std::size_t>(j)] = static_cast<std::size_t>(p.dof_kind(j));
    const double a = std::abs(K.coeff(j, j));
    s[j] = std::isfinite(a) ? a : 0.0;
    sum[k] += s[j];
    ++count[k];
  }
  double all_sum = 0.0, all_count = 0.0;
  for (std::size_t k = 0; k < kKinds; ++k)
    if (sum[k] > 0.0) {
      all_sum += sum[k];
      all_count += count[k];
    }
  const double all_mean = all_count > 0.0 ? all_sum / all_count : 1.0;
  for (int j = 0; j < n; ++j) {
    const std::size_t k = kind[static_cast<std::size_t>(j)];
    const double mean = sum[k] > 0.0 ? sum[k] / count[k] : all_mean;
    d[j] = 1.0 / std::sqrt(s[j] >= 1e-8 * mean ? s[j] : mean);
  }
  return d;
}

// Deterministic start vectors with no special symmetry, so that none is
// orthogonal to a symmetric or antisymmetric buckling mode.
Eigen::MatrixXd start_block(int n, int m) {
  Eigen::MatrixXd X(n, m);
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < n; ++j) X(j, k) = std::sin(1.0 + 2.3 * j + 0.9 * k * k + 1.7 * k * j);
  return X;
}

// The m eigenpairs of K nearest zero, by block inverse iteration with a
// Rayleigh–Ritz step (values ascending in |μ|, vectors orthonormal).
struct Eigenpairs {
  Eigen::VectorXd mu;
  Eigen::MatrixXd x;
};
// start: the first block (n × m), e.g. the vectors at the previous path point;
// null for start_block(). With d (jacobi_diagonal), the eigenpairs of K̂ = D K D
// instead, with f still K's factorization (K̂⁻¹ = D⁻¹ K⁻¹ D⁻¹) and x in D⁻¹'s
// coordinates: those nearest zero in the model's units can all be the softest
// unknowns' (locate(), the start mode).
Eigenpairs nearest_eigenpairs(const linalg::SymmetricFactorization& f, const SparseMatrix& K, int m,
                              int iterations, const Eigen::MatrixXd* start = nullptr, const Vector* d = nullptr) {
  const int n = static_cast<int>(K.rows());
  Eigen::MatrixXd X = start && start->rows() == n && start->cols() == m ? *start : start_block(n, m), Y;
  for (int k = 0; k < iterations; ++k) {
    if (d) X.array().colwise() /= d->array();
    f.solve(X, Y);
    if (d) Y.array().colwise() /= d->array();
    // QR in place in Y, and Q's first m columns formed in X: no n × m temporaries
    // beyond X and Y (at n = 10⁶ each is 32 MB; the location's memory is counted,
    // docs/performance.md).
    Eigen::HouseholderQR<Eigen::Ref<Eigen::MatrixXd>> qr(Y);
    X.setIdentity(n, m);
    X.applyOnTheLeft(qr.householderQ());
  }
  if (d) X.array().colwise() *= d->array();
  const Eigen::MatrixXd T = X.transpose() * (K * X);
  if (d) X.array().colwise() /= d->array();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (T + T.transpose()));
  std::vector<int> order(m);
  for (int k = 0; k < m; ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return std::abs(es.eigenvalues()[a]) < std::abs(es.eigenvalues()[b]); });
  Eigenpairs e;
  e.mu.resize(m);
  e.x.resize(n, m);
  for (int k = 0; k < m; ++k) {
    e.mu[k] = es.eigenvalues()[order[k]];
    e.x.col(k) = X * es.eigenvectors().col(order[k]);
  }
  return e;
}

// The monitor's data at a path point p: the m eigenpairs nearest zero (f the
// factorization of K at p) and dμ/ds = xᵀ [K(p + h t) − K(p)] x / h along the
// path's unit tangent t = (tq, tl) (scaled norm), h = 1e-4 × the step's length.
// With the eigenpairs of a point nearby (warm), their vectors start the inverse
// iteration and two iterations do (the Rayleigh–Ritz step matches them again).
bool eigen_at(const Problem& problem, const continuation::PathPoint& p, const linalg::SymmetricFactorization& f,
              const Vector& tq, double tl, double step, int m, int iterations, PathEigenvalues& out,
              const PathEigenvalues* warm = nullptr) {
  if (f.status() != linalg::FactorStatus::Ok || !(step > 0.0) || tq.size() != p.q.size()) return false;
  SparseMatrix K = problem.tangent_pattern();
  problem.tangent(p.q, p.lambda, K);
  Eigenpairs e = warm ? nearest_eigenpairs(f, K, m, std::min(iterations, 2), &warm->x)
                      : nearest_eigenpairs(f, K, m, iterations);
  const double h = 1e-4 * step;
  // (K(p + h t) − K(p)) x with one matrix: K x first, then K reassembled at p + h t.
  Eigen::MatrixXd dKx = -(K * e.x);
  problem.tangent(p.q + h * tq, p.lambda + h * tl, K);
  dKx.noalias() += K * e.x;
  out.dmu.resize(m);
  for (int k = 0; k < m; ++k) out.dmu[k] = e.x.col(k).dot(dKx.col(k)) / h;
  if (!e.mu.allFinite() || !out.dmu.allFinite()) return false;
  out.q = p.q;
  out.lambda = p.lambda;
  out.mu = std::move(e.mu);
  out.x = std::move(e.x);
  return true;
}

// Where, as a fraction τ ∈ (0, 1) of a piece of path of scaled length L, a matched
// eigenvalue (|cos| of the vectors > 0.5) changes sign although the ends show no
// crossing: the cubic Hermite fit of μ from μ and L dμ/ds at both ends has its
// extremum beyond zero at τ (the deepest such τ), or the matched μ already differ in
// sign (another eigenvalue crossed back: τ where the fit is zero). None: nullopt.
// With dips_only, only the first kind (the ends' own crossings are accounted for).
// An eigenvalue with another within 1 % of it (a double mode of a symmetric
// structure) is not followed: its vector is any one of a plane, xᵀK'x is not its
// derivative and the matching across the step is arbitrary.
bool clustered(const Eigen::VectorXd& mu, int k) {
  for (int j = 0; j < mu.size(); ++j)
    if (j != k && std::abs(mu[j] - mu[k]) <= 1e-2 * std::max(std::abs(mu[j]), std::abs(mu[k]))) return true;
  return false;
}

std::optional<double> predicted_crossing(const PathEigenvalues& a, const PathEigenvalues& b, double L,
                                         bool dips_only = false) {
  std::optional<double> best;
  double depth = 0.0;
  const int m = static_cast<int>(std::min(a.mu.size(), b.mu.size()));
  for (int p = 0; p < m; ++p) {
    int t = -1;
    double overlap = 0.5;
    for (int k = 0; k < m; ++k) {
      const double o = std::abs(a.x.col(p).dot(b.x.col(k)));
      if (o > overlap) {
        overlap = o;
        t = k;
      }
    }
    if (t < 0 || clustered(a.mu, p) || clustered(b.mu, t)) continue;
    const double m0 = a.mu[p], m1 = b.mu[t], d0 = L * a.dmu[p], d1 = L * b.dmu[t];
    const double sign = m0 < 0.0 ? -1.0 : 1.0;
    const double scale = std::max(std::abs(m0), std::abs(m1));
    if (!(scale > 0.0)) continue;
    // sign × the fit at τ, sampled (a cubic has at most one interior minimum)
    double tau_min = 0.0, v_min = sign * m0;
    for (int i = 1; i < 64; ++i) {
      const double x = i / 64.0, x2 = x * x, x3 = x2 * x;
      const double v = (2 * x3 - 3 * x2 + 1) * m0 + (x3 - 2 * x2 + x) * d0 + (-2 * x3 + 3 * x2) * m1 + (x3 - x2) * d1;
      if (sign * v < v_min) {
        v_min = sign * v;
        tau_min = x;
      }
    }
    const bool differ = (m1 < 0.0) != (m0 < 0.0);
    if (differ ? dips_only : !(v_min < 0.0)) continue;
    const double d = differ ? 1.0 : -v_min / scale;  // how far beyond zero, relative
    if (d > depth) {
      depth = d;
      best = differ ? std::clamp(m0 / (m0 - m1), 0.1, 0.9) : std::clamp(tau_min, 0.1, 0.9);
    }
  }
  return best;
}

// The factorization object the locator factorizes its own matrices with: the
// caller's scratch (same pattern; not the object it must keep, `keep`) when given,
// else one of its own. A borrowed object's counters are put back on destruction:
// factorizations() is the work done through this one. Borrowings of one scratch
// object follow each other, never overlap (each lives in one scope of locate() or
// refine(), or in one crossed_eigenvalues()).
class LocatorFactorization {
 public:
  LocatorFactorization(const SparseMatrix& pattern, linalg::Solver solver, linalg::SymmetricFactorization* scratch,
                       const linalg::SymmetricFactorization* keep = nullptr) {
    if (scratch && scratch != keep && scratch->size() == pattern.rows()) {
      f_ = scratch;
      saved_ = scratch->stats();
    } else {
      own_ = std::make_unique<linalg::SymmetricFactorization>(pattern, solver);
      f_ = own_.get();
    }
  }
  ~LocatorFactorization() {
    if (!own_) f_->restore_stats(saved_);
  }
  LocatorFactorization(const LocatorFactorization&) = delete;
  LocatorFactorization& operator=(const LocatorFactorization&) = delete;
  linalg::SymmetricFactorization& get() { return *f_; }
  long factorizations() const { return f_->stats().factorizations - saved_.factorizations; }

 private:
  linalg::SymmetricFactorization* f_ = nullptr;
  std::unique_ptr<linalg::SymmetricFactorization> own_;
  linalg::FactorStats saved_{};
};

}  // namespace

namespace {
// |φᵀr| / (‖φ‖ r_s) of a located limit point below which SPB is tried from it: a
// limit point has O(1) there (0.056 and above on the catalogue's 31), a bifurcation point
// 0 (ε_b = bifurcation_tolerance classifies); between, SPL may have stopped at a
// bifurcation point.
constexpr double kAmbiguousPhiDotR = 1e-3;
// The overlap |x_beforeᵀ x_after| of two unit eigenvectors below which they are not
// taken for one mode across a bracket (predicted_crossing() uses the same 0.5).
constexpr double kModeMatch = 0.5;

// The curvature λ'' of the path through a limit point (q, λ) with mode φ, in the
// arc length along φ: differentiating g(q(s), λ(s)) = 0 twice at q' = φ, λ' = 0,
// φᵀ(∇K[φ])φ + φᵀg_λ λ'' = 0, so λ'' = φᵀ(∇K[φ])φ / φᵀr with r = −g_λ (even in φ).
// Negative: λ has a maximum there along its path; positive: a minimum. Empty where
// the differences do not resolve the cubic term (C below 10 times its change with
// the difference step, as for the bifurcation equation's C, eq. 5.2a) or φᵀr is 0.
std::optional<double> limit_curvature(const Problem& problem, const Vector& q, double lambda, const Vector& phi) {
  const double pn = phi.norm();
  if (!(pn > 0.0)) return std::nullopt;
  SparseMatrix Kp = problem.tangent_pattern(), Km = problem.tangent_pattern();
  const auto cubic = [&](double e) {
    problem.tangent(q + e * phi, lambda, Kp);
    problem.tangent(q - e * phi, lambda, Km);
    return phi.dot(Kp * phi - Km * phi) / (2.0 * e);
  };
  const double e = std::cbrt(std::numeric_limits<double>::epsilon()) * (core::difference_length(problem) + q.norm()) / pn;
  const double c = cubic(e), c_half = cubic(0.5 * e), c_double = cubic(2.0 * e);
  const double spread = std::max({std::abs(c - c_half), std::abs(c - c_double), std::abs(c_half - c_double)});
  Vector gl;
  problem.dg_dlambda(q, lambda, gl);
  const double phi_r = -phi.dot(gl);
  if (!(std::abs(c) > 10.0 * spread) || !(std::abs(phi_r) > 0.0) || !std::isfinite(c)) return std::nullopt;
  return c / phi_r;
}
}  // namespace

CriticalPoint locate(const Problem& problem, const continuation::PathPoint& before,
                     const continuation::PathPoint& after, const linalg::SymmetricFactorization& factor_after,
                     const LocateOptions& options, linalg::SymmetricFactorization* scratch) {
  const int n = problem.size();
  CriticalPoint cp;
  cp.point_before = before.index;
  cp.point_after = after.index;
  cp.lambda_before = before.lambda;
  cp.lambda_after = after.lambda;
  cp.negative_pivots_change = after.negative_pivots - before.negative_pivots;
  cp.multiplicity = std::max(1, std::abs(cp.negative_pivots_change));
  cp.q = after.q;
  cp.lambda = after.lambda;
  if (cp.multiplicity > 1) {
    cp.kind = CriticalKind::Multiple;
    cp.message = std::to_string(cp.multiplicity) +
                 " eigenvalues crossed zero in one step: a multiple point (or several close ones); "
                 "not located";
    return cp;
  }

  // Start mode: the eigenvalue that changed sign across the bracket, found by
  // matching the eigenvectors nearest zero at both ends; start from the end
  // where it is smaller (the nearer one).
  // The bracket's matrices, factorization and eigenpairs live in this scope only:
  // the refinement below factorizes over the same scratch object (or allocates its
  // own), and the location's peak memory is counted against the path's
  // (docs/performance.md). Kept: the two start modes.
  Vector mode_before, mode_after;
  bool nearer_before = false;
  cp.evidence = bracket_evidence(before, after);  // also for the returns below
  long start_factorizations = 0;
  // The eigenpairs nearest zero at both ends, matched: the pair whose eigenvalue
  // changed sign with the largest overlap of vectors (best). Scaled: those of
  // K̂ = D K D instead (one D for both ends, so that their vectors compare).
  const auto start_modes = [&](bool scaled, double& best) -> bool {
    SparseMatrix K = problem.tangent_pattern();
    LocatorFactorization lf(K, options.linear_solver, scratch, &factor_after);
    linalg::SymmetricFactorization& fac = lf.get();
    const int m = std::min(n, options.subspace_size);
    Vector d;
    if (scaled) d = jacobi_diagonal(problem, K, before.q, before.lambda);
    const Vector* dp = scaled ? &d : nullptr;
    std::optional<Eigenpairs> ea, eb;
    if (factor_after.status() == linalg::FactorStatus::Ok) {
      problem.tangent(after.q, after.lambda, K);
      eb = nearest_eigenpairs(factor_after, K, m, options.inverse_iterations, nullptr, dp);
    }
    problem.tangent(before.q, before.lambda, K);
    if (fac.factorize(K) == linalg::FactorStatus::Ok)
      ea = nearest_eigenpairs(fac, K, m, options.inverse_iterations, nullptr, dp);
    start_factorizations += lf.factorizations();
    if (!ea || !eb || !ea->mu.allFinite() || !eb->mu.allFinite()) return false;
    int ka = 0, kb = 0;
    best = -1.0;
    for (int p = 0; p < m; ++p)
      for (int s2 = 0; s2 < m; ++s2) {
        if ((ea->mu[p] < 0) == (eb->mu[s2] < 0)) continue;
        const double overlap = std::abs(ea->x.col(p).dot(eb->x.col(s2)));
        if (overlap > best) {
          best = overlap;
          ka = p;
          kb = s2;
        }
      }
    nearer_before = std::abs(ea->mu[ka]) < std::abs(eb->mu[kb]);
    mode_before = ea->x.col(ka);
    mode_after = eb->x.col(kb);
    if (scaled) {  // x = D x̂
      mode_before.array() *= d.array();
      mode_after.array() *= d.array();
    }
    return true;
  };
  double best = -1.0;
  if (!start_modes(false, best)) {
    cp.factorizations = start_factorizations;
    cp.message = "a bracket point has a singular or non-finite tangent: no start mode";
    return cp;
  }

  const double lambda_span = std::max({std::abs(after.lambda - before.lambda), 1e-300});
  const BracketEvidence evidence = cp.evidence;
  const double span = (after.q - before.q).norm();
  // Newton on SPL/SPB from one end, with that end's mode; a point it converges to
  // more than twice the bracket's length from both ends is another critical point.
  const auto attempt = [&](bool from_before, bool& far) {
    const continuation::PathPoint& start = from_before ? before : after;
    const Vector& phi0 = from_before ? mode_before : mode_after;
    CriticalPoint located;
    if (evidence == BracketEvidence::Limit) {
      // det K changed and the bordered determinant did not: λ turned back between the
      // two points, which a simple bifurcation crossed along the path never does. SPL
      // alone, and a limit point whatever φᵀr: near the bifurcation of the perfect
      // structure φᵀr of an imperfect one is small, and SPB would find the perturbed
      // bifurcation (γ ≈ the imperfection) instead.
      located = refine(problem, start.q, start.lambda, phi0, lambda_span, AugmentedSystem::Limit, options, scratch);
      if (located.converged) {
        located.kind = CriticalKind::Limit;
        located.message += " (a limit point by the bracket's signs: det K changed, the bordered determinant not)";
      } else {
        // SPL failed: the classification by φᵀr, as for a bracket without signs.
        const long spent = located.factorizations;
        const std::string why = located.message;
        located = refine(problem, start.q, start.lambda, phi0, lambda_span, AugmentedSystem::Auto, options, scratch);
        located.factorizations += spent;
        // One level of explanation, not a message nested in another (issue 19, item 9).
        located.message = located.converged ? located.message + " (after SPL alone failed: " + why + ")"
                                            : "SPL alone: " + why + "; SPL then SPB: " + located.message;
      }
    } else {
      located = refine(problem, start.q, start.lambda, phi0, lambda_span, AugmentedSystem::Auto, options, scratch);
    }
    if (evidence != BracketEvidence::Limit && !located.converged && located.system == "SPB" &&
        located.message.find("unfolded") != std::string::npos) {
      // A limit point with a small φᵀr (an imperfect structure near its bifurcation)
      // sent SPL over to SPB, which found the unfolded point γ ≠ 0: retry as SPL only.
      const long spent = located.factorizations;
      CriticalPoint retry =
          refine(problem, start.q, start.lambda, phi0, lambda_span, AugmentedSystem::Limit, options, scratch);
      retry.factorizations += spent;
      if (retry.converged && retry.kind == CriticalKind::Limit) {
        retry.message += " (after SPB found an unfolded point)";
        located = std::move(retry);
      } else {
        located.factorizations += retry.factorizations - spent;
      }
    }
    if (evidence != BracketEvidence::Limit && located.converged && located.kind == CriticalKind::Limit &&
        located.system == "SPL" && located.phi_dot_r < kAmbiguousPhiDotR) {
      // SPL holds at a bifurcation point too (K φ = 0 there), where its Jacobian is
      // singular: Newton may still stop there, imprecisely. A branch whose λ is
      // extremal at a pitchfork it passes (Eriksson's frame at max_step_ratio = 5, a
      // branch from BP2 reaching BP5) gave a "limit point" 1.3e-10 from BP5 in λ,
      // 2.2e-6 relative in q, with φᵀr = 1.7e-5: BP5 again, beyond the same-point
      // bound. SPB from SPL's point decides: a bifurcation it locates replaces it.
      const long spent = located.factorizations;
      CriticalPoint spb = refine(problem, located.q, located.lambda, located.phi, lambda_span,
                                 AugmentedSystem::Bifurcation, options, scratch);
      spb.factorizations += spent;
      if (spb.converged && spb.kind == CriticalKind::Bifurcation) {
        spb.message += " (SPL converged first, with phi^T r = " + fmt_g(located.phi_dot_r) +
                       ", at the singular point of SPL that a bifurcation point is)";
        located = std::move(spb);
      } else {
        located.factorizations = spb.factorizations;
      }
    }
    located.point_before = cp.point_before;
    located.point_after = cp.point_after;
    located.lambda_before = cp.lambda_before;
    located.lambda_after = cp.lambda_after;
    located.negative_pivots_change = cp.negative_pivots_change;
    located.multiplicity = cp.multiplicity;
    located.start_point = start.index;
    located.evidence = evidence;
    far = false;
    if (!located.converged) return located;
    const double to_before = (located.q - before.q).norm(), to_after = (located.q - after.q).norm();
    // Round-off slack, in the state's own units (L + ‖q‖, L the structure's size).
    const double slack = 1e-12 * (core::structure_size(problem) + located.q.norm());
    far = to_before > 2.0 * span + slack || to_after > 2.0 * span + slack;
    if (far) {
      // Said in the state's distances: λ alone can lie inside the bracket's λ range
      // (a flat branch brackets a point with both ends at one λ) while the state is far.
      located.converged = false;
      located.message = "converged to a critical point outside the bracket (lambda = " + fmt_g(located.lambda) +
                        "; its state is " + fmt_g(to_before) + " and " + fmt_g(to_after) +
                        " from the bracket's ends: more than twice the bracket's length " + fmt_g(span) + " from one of them)";
      return located;
    }
    if (evidence == BracketEvidence::Bifurcation && located.kind == CriticalKind::Limit) {
      // A limit point from a bracket whose signs do not say a fold was crossed along
      // the path (t_λ kept its sign; or det K kept its and t_λ turned). It can still
      // be a maximum the path reached from `before` before its step went over to
      // another path (the complementary path of a nearly perfect structure,
      // docs/theory.md §4). But the first turn of λ along the path from `before` is a
      // maximum where the path left `before` going up in λ (t_λ > 0 there: bordered
      // sign × det sign, eq. 3.2), a minimum where it went down. A minimum reached
      // from a point going up (or a maximum from one going down) is not on that path:
      // it is the extremum of the path the step landed on (three-bar with a lateral
      // dead load of 1e-5: the step from λ 0.328 to 0.368 went from the natural path,
      // which has no maximum near λ_c = 1/3, a stable-symmetric bifurcation, to the
      // complementary one, and its minimum, 0.3339, was reported as the path's LP1).
      const int up = before.det_sign * before.bordered_sign;  // sign of t_λ at `before`
      const std::optional<double> curvature =
          up != 0 ? limit_curvature(problem, located.q, located.lambda, located.phi) : std::nullopt;
      if (curvature && (up > 0 ? *curvature > 0.0 : *curvature < 0.0)) {
        const char* extremum = up > 0 ? "minimum" : "maximum";
        located.converged = false;
        located.message =
            "a limit point at lambda = " + fmt_g(located.lambda) + ", a " + extremum +
            " of lambda along its path, where the path left the step's first point (lambda = " +
            fmt_g(before.lambda) + ") going " + (up > 0 ? "up" : "down") + " in lambda, so that its first turn is a " +
            (up > 0 ? "maximum" : "minimum") +
            ": not a point of the path traced up to this step, which went over to another path (near a bifurcation "
            "point of the perfect structure, the complementary path of a nearly perfect one, whose " +
            extremum +
            " this is); the points after it are that path's. Not located. Shorter steps "
            "(continuation.initial_step, continuation.max_step_ratio) keep the path on its own branch";
      }
    }
    return located;
  };
  // From the nearer end, then, when Newton went to a point outside the bracket, from
  // the other.
  const auto from_modes = [&] {
    bool far = false;
    CriticalPoint located = attempt(nearer_before, far);
    if (far) {
      // The nearer end is not always the better start (a long step past a fold, under
      // displacement control): the other end, before giving up.
      bool far_other = false;
      CriticalPoint other = attempt(!nearer_before, far_other);
      other.factorizations += located.factorizations;
      if (other.converged) {
        other.message += " (from the other end of the bracket: from the nearer one Newton " + located.message + ")";
        return other;
      }
      located.factorizations = other.factorizations;
    }
    return located;
  };
  CriticalPoint located = from_modes();
  if (!located.converged && best < kModeMatch) {
    // No eigenvalue among K's nearest changed sign with a matching vector, and its
    // best pair did not locate the point: the units may be what hides the mode that
    // crossed. The torsional column in millimetres (EI_w × 10¹²) has bending
    // eigenvalues far nearer zero than the twist mode's, the four nearest were all
    // bending, and Newton went from one to the Euler load. Once more with the modes of
    // the Jacobi-scaled K̂, where every unknown's own stiffness is 1. Only then: their
    // overlaps are measured in other units than K's, and preferring the larger one
    // lost the star dome's BP2 at initial_step = 0.2 (K's pair, at 0.41, was the right
    // one), and made three-bar's BP2 slower.
    const long spent = located.factorizations;
    double best_scaled = -1.0;
    if (start_modes(true, best_scaled)) {
      CriticalPoint retry = from_modes();
      retry.factorizations += spent;
      if (retry.converged) {
        retry.message += " (from a mode of the Jacobi-scaled tangent; from K's own nearest, whose best pair " +
                         std::string(best < 0.0 ? "had no eigenvalue changing sign" : "matched at " + fmt_g(best)) +
                         ", Newton ended with: " + located.message + ")";
        located = std::move(retry);
      } else {
        located.factorizations = retry.factorizations;
      }
    }
  }
  located.factorizations += start_factorizations;
  return located;
}

CriticalPoint refine(const Problem& problem, const Vector& q_start, double lambda_start, const Vector& phi_start,
                     double lambda_span_hint, AugmentedSystem system, const LocateOptions& options,
                     linalg::SymmetricFactorization* scratch) {
  const int n = problem.size();
  CriticalPoint cp;
  cp.q = q_start;
  cp.lambda = lambda_start;
  if (phi_start.size() != n || !(phi_start.norm() > 0) || !phi_start.allFinite()) {
    cp.message = "no start mode";
    return cp;
  }
  SparseMatrix K = problem.tangent_pattern(), Kwork = problem.tangent_pattern();
  const double l0 = core::difference_length(problem);  // the difference step's ℓ₀
  LocatorFactorization lf(K, options.linear_solver, scratch);
  linalg::SymmetricFactorization* fac = &lf.get();
  // K̃ = K + ρ eᵢeᵢᵀ, factorized. K̃ is regular at a simple critical point with
  // φᵢ ≠ 0, but an LDLᵀ without pivoting (CHOLMOD's simplicial one) can meet an exact
  // zero pivot on the way, whatever ρ: a zero-diagonal 2 × 2 block of K, in any order.
  // Then, with linalg.solver = auto, the location goes on with a MUMPS object of its
  // own, which pivots (2 × 2 where it must), when MUMPS is built. (Eriksson's frame at
  // ψ = 0.001 met one at BP2, one iteration from the point, when SPL/SPB were tried in
  // Jacobi-scaled unknowns; ρ × e did not help; MUMPS located it.) A backend chosen by
  // the user is kept, and the failure said.
  std::unique_ptr<linalg::SymmetricFactorization> pivoting;
  const auto factorize_penalized = [&](int slot_i, double rho_i) {
    linalg::FactorStatus st = penalized::factorize(K, slot_i, rho_i, Kwork, *fac);
    if (st == linalg::FactorStatus::Singular && fac->backend() == linalg::Solver::Cholmod && !pivoting &&
        options.linear_solver == linalg::Solver::Auto && linalg::mumps_available()) {
      pivoting = std::make_unique<linalg::SymmetricFactorization>(K, linalg::Solver::Mumps);
      fac = pivoting.get();
      st = penalized::factorize(K, slot_i, rho_i, Kwork, *fac);
    }
    return st;
  };
  const auto factorizations = [&] {
    return lf.factorizations() + (pivoting ? pivoting->stats().factorizations : 0L);
  };
  Vector q = q_start;
  double lambda = lambda_start;
  Vector phi = phi_start;
  int i = 0;
  phi.cwiseAbs().maxCoeff(&i);
  phi /= phi[i];
  cp.pivot = i;
  problem.tangent(q, lambda, K);
  const int slot = penalized::diagonal_slot(K, i);
  if (slot < 0) throw std::logic_error("tangent pattern lacks a diagonal entry");
  const double rho = penalized::rho(K, slot, options.penalty, options.penalty_floor);
  cp.penalty = rho;

  bool spb = system == AugmentedSystem::Bifurcation;
  double gamma = 0.0, last_force_scale = 1.0, last_dl = INFINITY, last_dphi = INFINITY;
  double previous_dl = INFINITY, previous_dphi = INFINITY;  // the update before the last
  bool phi_at_floor = false;  // accepted with φ's updates at their floor (λ's may be at the tolerance)
  // An iterate that met the tests with λ at its floor, kept while one more iteration
  // is tried (below): the point as recorded at that iterate, and what the end of the
  // loop needs of it.
  struct FloorCandidate {
    CriticalPoint point;
    double force_scale, spread;
    bool phi_floor;
    // An iterate whose λ met the tests: the next update is its check, which measures
    // λ's round-off floor; the candidate stands whatever the check gives, unless the
    // check shows Newton still converging (below).
    bool check = false;
    // ≥ 0: the check moved λ by more than the tolerance with the residual not fallen
    // (relative, at check_lambda); one more update tells a floor from a λ still
    // converging (below).
    double check_move = -1.0, check_lambda = 0.0, check_residual = 0.0;
  };
  std::optional<FloorCandidate> floor_candidate;
  std::vector<double> lambda_history;                         // λ of every iterate
  double floor_spread = -1.0;  // ≥ 0: accepted at a round-off floor, λ's spread over its last iterates
  Vector G1(n), G2(n), r(n), gl(n), gl2, Klphi;  // gl2, Klphi: non-proportional problems only
  Eigen::MatrixXd rhs(n, 3), H, J;
  double lambda_move = -1.0;  // ≥ 0: how far the check update moved λ from the candidate, relative
  // ≥ 0: how far the check and the second check moved λ (each from the iterate before;
  // lambda_move is then λ's spread over the candidate and both).
  double lambda_move1 = -1.0, lambda_move2 = -1.0;
  // The candidate stands: its point (state, mode, residual, φᵀr, system), the history
  // up to it (as marked since: a switch to SPB at its iteration raises its last entry),
  // and K and r at it for v = K̃⁻¹r below. A check candidate keeps how far the update
  // after it moved λ (the iterate in hand, when that update was made).
  // How far the iterate in hand has moved λ from the candidate's, relative to λ's span.
  const auto span_of = [&](double l) { return std::max({std::abs(l), lambda_span_hint, 1e-300}); };
  const auto move_from_candidate = [&] {
    return std::abs(lambda - floor_candidate->point.lambda) / span_of(floor_candidate->point.lambda);
  };
  const auto stand_candidate = [&] {
    const std::size_t made = floor_candidate->point.residual_history.size();  // iterates up to the candidate
    if (floor_candidate->check && cp.residual_history.size() > made) {
      if (floor_candidate->check_move < 0.0) {
        lambda_move = std::isfinite(lambda) ? move_from_candidate() : 0.0;
      } else {
        // The check's move; with the second update made, λ's spread over the three
        // iterates (the second can come back past the candidate). Not where the second
        // update could not be made (K̃ singular at the check's iterate, …): one move.
        lambda_move = floor_candidate->check_move;
        if (cp.residual_history.size() > made + 1 && std::isfinite(lambda)) {
          lambda_move1 = floor_candidate->check_move;
          lambda_move2 = std::abs(lambda - floor_candidate->check_lambda) / span_of(lambda);
          lambda_move = std::max({lambda_move1, lambda_move2, move_from_candidate()});
        }
      }
    }
    std::vector<double> history = std::move(cp.residual_history);
    cp = std::move(floor_candidate->point);
    history.resize(cp.residual_history.size());
    cp.residual_history = std::move(history);
    problem.tangent(cp.q, cp.lambda, K);
    problem.dg_dlambda(cp.q, cp.lambda, gl);
    r = -gl;
    last_force_scale = floor_candidate->force_scale;
    if (!floor_candidate->check) floor_spread = floor_candidate->spread;
    phi_at_floor = floor_candidate->phi_floor;
    cp.converged = true;
  };
  for (int it = 0;; ++it) {
    problem.tangent(q, lambda, K);
    problem.residual(q, lambda, G1);
    if (spb) G1[i] += gamma;
    problem.dg_dlambda(q, lambda, gl);
    r = -gl;
    G2 = K * phi;
    const double G3 = phi[i] - 1.0;
    const double G4 = phi.dot(r);
    const double rn = std::max(r.norm(), std::numeric_limits<double>::min());
    const double pn = std::max(phi.norm(), std::numeric_limits<double>::min());
    // Scaled residual (eq. 4.8). The load scale is ‖r‖, floored by the path's force
    // scale so that it stays meaningful where r vanishes (a trivial path).
    // ‖ |K| |q| ‖ bounds the round-off of G1 (eq. 2.9), but says nothing of the size
    // of r: the load scale of G4 and of the classification uses ‖r‖ and the floor only.
    const double force_scale = std::max(
        {rn * std::max(1.0, std::abs(lambda)), options.force_scale, continuation::abs_product_norm(K, q)});
    const double load_scale = std::max(rn, options.force_scale / std::max(1.0, std::abs(lambda)));
    double res = std::max({G1.norm() / force_scale, G2.norm() / (rho * pn), std::abs(G3)});
    if (spb) res = std::max(res, std::abs(G4) / (load_scale * pn));
    cp.residual_history.push_back(res);
    lambda_history.push_back(lambda);
    cp.phi_dot_r = std::abs(G4) / (load_scale * pn);
    last_force_scale = force_scale;
    cp.q = q;
    cp.lambda = lambda;
    cp.phi = phi;
    cp.gamma = gamma;
    cp.residual = res;
    cp.newton_iterations = it;
    cp.system = spb ? "SPB" : "SPL";
    // The check's iterate, with λ moved by more than the tolerance and the residual
    // fallen tenfold or more: Newton was still converging, not at a floor (the circle
    // cantilever at critical.tolerance = 1e-6: residuals 3.6e-7, 8.5e-12, accepted
    // there, then 8.9e-14 and 5.9e-17 with λ moving 4.9e-6 and then by round-off; the
    // tests had passed λ 4.9e-6 off). The candidate is dropped and this iterate is
    // tested as any other (and checked in turn when it meets the tests). At a floor
    // the residual does not fall.
    //
    // The check moved λ by more than the tolerance, the residual not fallen: a floor
    // of λ, or Newton still converging in a λ the residual hardly sees (near a fold
    // the residual is quadratic in λ's error: the deep arch at critical.tolerance =
    // 1e-6 and continuation.initial_step = 0.35, residuals 3.9e-8, 4.0e-13 and λ moved
    // 1.9e-6 by the check, which was the candidate's error). One more update tells
    // them apart, where the budget allows: λ's move contracting tenfold and the
    // residual falling tenfold below both (3.9e-13, 1.9e-13, then 1.4e-16 with λ moved
    // by round-off) is Newton, and the iterate in hand is tested as any other (and
    // checked in turn); else the candidate stands, λ at its floor. Both, and not the
    // check's rule (the residual fallen tenfold below the candidate's, λ moved): at a
    // floor the residual dips at random (a Beam3D column: 1.5e-12, 1.4e-12, 1.5e-12,
    // 5.9e-16, 1.3e-12 …), and so may λ's move, but rarely both.
    bool second_check = false;
    if (floor_candidate && floor_candidate->check && std::isfinite(res) && std::isfinite(lambda)) {
      const double move = move_from_candidate();
      if (floor_candidate->check_move < 0.0) {  // the check's iterate
        if (res < 0.1 * floor_candidate->point.residual && move > options.tolerance) {
          floor_candidate.reset();
        } else if (move > options.tolerance && it < options.max_iterations) {
          floor_candidate->check_move = move;
          floor_candidate->check_lambda = lambda;
          floor_candidate->check_residual = res;
          second_check = true;
        }
      } else if (std::abs(lambda - floor_candidate->check_lambda) / span_of(lambda) < 0.1 * floor_candidate->check_move &&
                 res < 0.1 * std::min(floor_candidate->point.residual, floor_candidate->check_residual)) {
        floor_candidate.reset();  // the second check's: Newton, by λ and by the residual
      }
    }
    if (!std::isfinite(res)) {
      if (floor_candidate) {  // the update after a candidate: it stands
        stand_candidate();
        break;
      }
      cp.message = "augmented residual not finite";
      return cp;
    }
    // Converged: the scaled residual, and the last Newton update small: below 100
    // tol relative, so that λ is reproducible to about tol (issue 19, item 8: with
    // √tol, Lee's frame came out 1.2e-8 apart from two brackets, its residual 1e-13
    // with a force scale dominated by the stiff axial terms). The residual alone is
    // not enough where K mixes very different stiffnesses: with ρ ~ EA/L₀ of a
    // stiff member, ‖Kφ‖ ≤ tol ρ‖φ‖ admits a bending eigenvalue of ~1e-4 of its own
    // size (Euler column, EA = 1e5 EI/L²). At the round-off floor (the updates no
    // longer decrease: the lateral-torsional buckling beam, whose residual stays at
    // 1.7e-11) the updates are noise: below √tol relative they are accepted, as the
    // path's corrector accepts its floor (eq. 2.9a). A floor is a residual that stays
    // near the tolerance: the iterate before must have been near it too. Where the augmented
    // system is nearly singular (SPL at a bifurcation point crossed along its secondary
    // branch, whose eigenvalue stays ~1e-10 ρ over a range of the branch) the residual
    // alternates 1e-12, 1e-6, 1e-13, … while the updates, ~1e-7 of λ, do not shrink:
    // accepted on one small residual, a point 6.7e-3 from the bifurcation point was
    // "located" as a limit point (the portal of tests/critical/branch_metric_test.cpp).
    const double lambda_span = std::max({std::abs(lambda), lambda_span_hint, 1e-300});
    const double tol = options.tolerance, root_tol = std::sqrt(options.tolerance);
    // The error of λ left after the last update, estimated as θ·|δλ| with θ = the last
    // contraction |δλ_k/δλ_{k−1}| ≤ 1 (in Newton's quadratic phase the next update is
    // ≈ θ δλ_k; θ = 1 with no update before it, on this system), at most tol: an
    // update below 100 tol that has not contracted leaves an error of its own size.
    // (The deep arch at critical.tolerance = 1e-8: the updates of λ 9.0e-7, 3.4e-7,
    // 1.1e-7 relative, the residuals 8.9e-12, 1.4e-8, 9.8e-15 — the scaled residual
    // barely sees λ here — and LP1 came out 1.1e-7 off.) Not for φ: its updates reach
    // a floor of their own, ~1e-8 relative where K mixes a shear stiffness of 1e10 with
    // bending (the toggle of tests/cli/path_following.sh); they bound the mode's
    // accuracy, not the load's.
    const double dl_abs = std::abs(last_dl), dl_previous = std::abs(previous_dl);
    const double theta = dl_previous > 0.0 && std::isfinite(dl_previous) ? std::min(1.0, dl_abs / dl_previous) : 1.0;
    const auto& h = cp.residual_history;
    // λ's spread over the last k iterates: what a λ accepted at a round-off floor holds to.
    const auto lambda_spread = [&](std::size_t k) {
      k = std::min(k, lambda_history.size());
      const auto [lo, hi] = std::minmax_element(lambda_history.end() - static_cast<std::ptrdiff_t>(k),
                                                lambda_history.end());
      return (*hi - *lo) / lambda_span;
    };
    // A floor: the iterate before was near the tolerance too (within 10 tol: a floor
    // that straddles it, 8.2e-11, 1.3e-10, 1.3e-10, … for a lateral-torsional
    // buckling beam, is one), and the update no longer halves. λ and φ are judged
    // each on its own: φ at its floor does not excuse a λ still converging linearly.
    // Nor a residual that has just fallen tenfold or more to far below the tolerance
    // (under tol/100): Newton still converging (Lee's frame at critical.tolerance =
    // 1e-6: LP2's residuals 4.7e-9, 1.3e-7, 2.1e-11 with λ's update not halved,
    // accepted at the third "at the residual's round-off floor", λ 2.6e-6 off, where
    // the next iterate has 7.7e-15 and λ to round-off). A floor's noise that dips below
    // tol (1.3e-10, 9e-12, 1.2e-10 at tol = 1e-10) is still a floor; a dip far below it
    // costs one more iterate, which is back at the floor. An established floor (below)
    // asks more: no tenfold fall at all since the iterate before, so that a residual
    // still falling tenfold to just above tol/100 (the star dome at tol = 3e-4:
    // 1.0e-3, 1.4e-3, 3.4e-6) gets one more iterate instead of an acceptance "at its
    // floor" with a spread of 2e-2.
    const auto flat = [&](int k, bool strict) {  // iterate k at a floor: near tol, the residual after it not fallen
      const auto j = static_cast<std::size_t>(k);
      const bool fell = h[j + 1] < 0.1 * h[j] && (strict || h[j + 1] < 0.01 * tol);
      return h[j] <= 10.0 * tol && !fell;
    };
    const bool at_floor = it > 0 && flat(it - 1, false);
    const bool lambda_ok = dl_abs <= 100.0 * tol * lambda_span && theta * dl_abs <= tol * lambda_span;
    const bool lambda_floor = at_floor && dl_abs >= 0.5 * dl_previous && dl_abs <= root_tol * lambda_span;
    const bool phi_ok = last_dphi <= 100.0 * tol * pn;
    const bool phi_floor = at_floor && last_dphi >= 0.5 * previous_dphi && last_dphi <= root_tol * pn;
    const bool small_update = it > 0 && (lambda_ok || lambda_floor) && (phi_ok || phi_floor);
    // Not yet a limit point while φᵀr is within kClassifyMargin of the residual: a
    // location at a loose tolerance cannot tell that φᵀr from a bifurcation point's 0
    // (three-bar at critical.tolerance = 1e-3: SPL stopped after one iteration 5.5e-3
    // from BP2, residual 6e-4 and φᵀr 0.028, and BP2 was reported as "LP2"; with a
    // margin of 1e3 it stopped one iteration later at a residual of 8.8e-6, φᵀr 0.025,
    // still "LP2"). Newton goes on until φᵀr stands clear of the residual, or falls
    // below bifurcation_tolerance and SPB takes over; at the last iteration the point
    // stands as it is. At the default tolerance the catalogue's points were unchanged.
    // Only where φᵀr classifies (AugmentedSystem::Auto): a point fixed as a limit point
    // by its bracket's signs, or run on a fixed system, is not classified by it.
    const bool unclassified = system == AugmentedSystem::Auto && !spb &&
                              cp.phi_dot_r >= options.bifurcation_tolerance &&
                              cp.phi_dot_r < kClassifyMargin * res && it < options.max_iterations;
    if (second_check) {
      // the update after the check is taken (below)
    } else if (res <= options.tolerance && small_update && !unclassified) {
      // λ at its floor (its update did not halve): one more iteration first, where the
      // budget allows. A floor of the scaled residual is not always one of λ: near a
      // fold the residual hardly sees the position along the path, whose square λ's
      // error is, and Newton's λ can contract by less than half once before its
      // quadratic phase (the deep arch at auto_scale = false: λ's updates 1.1e-4 and
      // 7.0e-5 with residuals 1.2e-12 and 2.4e-12, accepted on the second "at the
      // floor", spread 1.2e-5, where the next update is 6e-10; Eriksson's LP1 at
      // critical.tolerance = 1e-8, updates 1.1e-3 and 5.5e-4 with the residual
      // falling from 3.2e-9 to 7.3e-16). The next iterate is taken when it meets the
      // tests; else this one stands, at its floor. Not where the residual has been at
      // its floor for three iterates already (a lateral-torsional cantilever: 5.9e-11,
      // 2.7e-11, 4.5e-11, …): that floor is established, and one more iteration is
      // another draw of the same noise.
      //
      // λ converged by the tests: the contraction estimate θ|δλ| assumes Newton's
      // quadratic phase, and holds until λ reaches the round-off floor of the augmented
      // system, which the scaled residual does not show. A slender space beam (the
      // lateral-torsional cantilever, GA L²/EI ~ 1e6; its Kφ sums entries of GA/h to
      // a bending eigenvalue): λ's updates 1.0e-3, 3.0e-8, 4.2e-9, 9.0e-9 absolute at
      // λ = 5.09 with the residual at its floor from the third on; accepted at the
      // third (θ = 3e-5, an estimate of 1e-12), λ in fact good to ~1e-9: a spread over
      // initial steps of 1.4e-9 against critical.tolerance = 1e-10, and nothing said.
      // Nor does a last update below the tolerance prove anything there: it can be a
      // small draw of the same noise. So one more update is taken as a check, and the
      // candidate stands whatever it gives (its values and iterations; the
      // factorization count includes the check): where the check moves λ by more than
      // the tolerance, that is λ's floor and the point says so; by more than √tol, the
      // point is not located.
      const bool established = it >= 2 && flat(it - 1, true) && flat(it - 2, false);
      // An iterate that meets the tests after a floor candidate (λ contracted after
      // all) is checked in turn; it stands if its check does not meet them.
      if ((lambda_ok || !established) && !floor_candidate && it < options.max_iterations) {
        floor_candidate = FloorCandidate{cp, force_scale, lambda_spread(3), !phi_ok, lambda_ok};
      } else if (floor_candidate && !floor_candidate->check && lambda_ok && it < options.max_iterations) {
        floor_candidate = FloorCandidate{cp, force_scale, 0.0, !phi_ok, true};
      } else if (floor_candidate && floor_candidate->check) {
        stand_candidate();
        break;
      } else {
        cp.converged = true;
        // Accepted at a round-off floor: λ's spread (it can exceed the tolerance, up
        // to √tol). λ's floor only: with λ converged to the tolerance, φ at its floor
        // bounds the mode's accuracy, not the load's.
        if (!lambda_ok) floor_spread = lambda_spread(3);
        if (!phi_ok) phi_at_floor = true;
        break;
      }
    } else if (floor_candidate) {
      stand_candidate();
      break;
    }
    if (it == options.max_iterations) {
      cp.message = "no convergence in " + std::to_string(it) + " iterations (" + cp.system + ")";
      // A residual that stayed within a factor of 10 over the last iterations, above the
      // tolerance, is a floor (the round-off of g for a very stiff member: the Euler
      // column at EA = 1e9 EI/L² stays at 1e-9): say so, and which key helps.
      constexpr std::size_t kTail = 5;
      if (h.size() >= kTail) {
        const auto [lo, hi] = std::minmax_element(h.end() - kTail, h.end());
        // Only near the tolerance (a Newton stuck at 1e-3 is not a floor to accept), and
        // only where λ has settled to √tol.
        const double spread = lambda_spread(kTail);
        if (*lo > tol && *hi <= 10.0 * *lo && *hi <= 1e3 * tol && spread <= root_tol)
          cp.message += "; the residual stayed in [" + fmt_g(*lo) + ", " + fmt_g(*hi) + "] over the last " +
                        std::to_string(kTail) + " iterations, above critical.tolerance = " + fmt_g(tol) +
                        ": a round-off floor of this model? a critical.tolerance above " + fmt_g(*hi) +
                        " may accept it, with lambda no better than its spread over those iterations, " +
                        fmt_g(spread) + " relative";
      }
      return cp;
    }
    if (options.stop_requested && options.stop_requested()) {
      cp.message = "interrupted";
      return cp;
    }
    // Start as a limit point; switch to SPB when φᵀr vanishes or SPL converges only linearly.
    // Not between a candidate and its check: the check is an update of the system
    // the candidate met the tests on.
    if (!spb && system == AugmentedSystem::Auto && !(floor_candidate && floor_candidate->check)) {
      // Linear convergence: two successive ratios above 0.2 in the asymptotic range,
      // with φᵀr already small (at a limit point it stays O(1)).
      const bool linear = it >= 3 && h[it] > 0.2 * h[it - 1] && h[it - 1] > 0.2 * h[it - 2] && h[it - 1] < 1e-2 &&
                          cp.phi_dot_r < 0.1;
      // Erratic: an update from an iterate already near the tolerance raised the
      // residual a thousandfold. Newton does not do that on a regular system; SPL
      // is singular at a bifurcation point (its secondary branch, where K's eigenvalue
      // stays tiny and φᵀr is small but not ε_b-small, is where it happens).
      // Not from the start (it = 0): a bracket's end is an equilibrium whose G2 =
      // |μ|/ρ is small by construction, and the first update of a regular limit point
      // may well raise it.
      const bool erratic = it >= 2 && h[it - 1] <= 1e-6 && h[it] > 1e3 * h[it - 1] && cp.phi_dot_r < 0.1;
      // Linear in zig-zag: the residual alternates up and down, its envelope over two
      // iterations (the larger of each pair) falling by less than 0.05 per pair twice in
      // a row (0.22 an iteration). Quadratic convergence never does; SPL near a
      // bifurcation point reached along a branch does (Eriksson's frame, a branch from
      // BP6 arriving at BP1: 1.4e-10, 6.2e-8, 5.2e-11, 6.4e-9, 2.3e-10, 1.9e-9, …, and
      // after 17 iterations a "limit point" 6e-11 from BP1 with φᵀr = 1.2e-5).
      const auto envelope = [&](int k) { return std::max(h[k], h[k - 1]); };
      const bool zigzag = it >= 5 && envelope(it) > 0.05 * envelope(it - 2) &&
                          envelope(it - 2) > 0.05 * envelope(it - 4) && envelope(it - 2) < 1e-2 &&
                          cp.phi_dot_r < 0.1;
      if (cp.phi_dot_r < options.bifurcation_tolerance || linear || erratic || zigzag) {
        spb = true;
        cp.residual_history.back() = std::max(res, cp.phi_dot_r);
        // SPL's updates say nothing of SPB's contraction.
        last_dl = previous_dl = last_dphi = previous_dphi = INFINITY;
      }
    }

    // K̃ = K + ρ eᵢeᵢᵀ, one factorization.
    const linalg::FactorStatus st = factorize_penalized(slot, rho);
    cp.factorizations = factorizations();
    if (st != linalg::FactorStatus::Ok && floor_candidate) {  // at the candidate: it stands
      stand_candidate();
      break;
    }
    if (st != linalg::FactorStatus::Ok) {
      cp.message = std::string("penalized matrix K + rho e_i e_i^T is ") + linalg::to_string(st);
      if (st == linalg::FactorStatus::Singular && fac->backend() == linalg::Solver::Cholmod &&
          linalg::mumps_available())
        cp.message += " (CHOLMOD's LDL^T does not pivot: linalg.solver = mumps or auto may factorize it)";
      return cp;
    }
    rhs.col(0) = -G1;
    rhs.col(1) = r;
    rhs.col(2) = Vector::Unit(n, i);
    fac->solve(rhs, H);  // eq. (4.3)

    // B h_k = ∇_q(Kφ) h_k for k = 0, 1, 2 from one extra assembly K(q + εφ) (eq. 6.1),
    // formed in the right-hand sides' storage (BH is rhs; no n × 3 arrays beyond
    // rhs, H and J: the location's memory, docs/performance.md).
    Eigen::MatrixXd& BH = rhs;
    bool exact = false;
    if (options.use_exact_derivative) {
      exact = true;
      Vector out;
      for (int k = 0; k < 3 && exact; ++k) {
        exact = problem.tangent_derivative(q, lambda, phi, H.col(k), out);
        if (exact) BH.col(k) = out;
      }
    }
    if (!exact) {
      // ε = cbrt(eps)(ℓ₀ + ‖q‖)/‖φ‖, ℓ₀ = min(1, L) (core::difference_length): with an
      // absolute 1, the step moved a dome 1e-6 across by 1 % of its size, and its limit
      // points were not located.
      const double eps = std::cbrt(std::numeric_limits<double>::epsilon()) * (l0 + q.norm()) / pn;
      problem.tangent(q + eps * phi, lambda, Kwork);
      BH.noalias() = Kwork * H;
      problem.tangent(q - eps * phi, lambda, Kwork);
      BH.noalias() -= Kwork * H;  // no n × 3 temporary
      BH /= 2.0 * eps;
    }
    // λ-derivatives for non-proportional problems (method.md §4, general λ-dependence).
    if (Klphi.size() != n) Klphi.setZero(n);
    double phi_gll = 0.0;
    if (!problem.is_proportional()) {
      if (gl2.size() != n) gl2.resize(n);
      const double el = core::kLambdaStep * std::max(1.0, std::abs(lambda));
      problem.tangent(q, lambda + el, Kwork);
      Klphi = (Kwork * phi - G2) / el;
      problem.dg_dlambda(q, lambda + el, gl2);
      phi_gll = phi.dot(gl2 - gl) / el;
    }
    rhs = -BH;  // BH is rhs: column by column, in place
    rhs.col(0) -= G2;
    rhs(i, 0) -= rho * G3;
    rhs.col(1) -= Klphi;
    fac->solve(rhs, J);  // eq. (4.4)

    double dl = 0.0, s = 0.0, dgamma = 0.0;
    if (!spb) {
      // eq. (4.6): unknowns (δλ, μ), s = ρμ.
      Eigen::Matrix2d A;
      A << -H(i, 1), 1.0 - rho * H(i, 2), J(i, 1), rho * J(i, 2);
      const Eigen::Vector2d b(H(i, 0), -G3 - J(i, 0));
      const Eigen::Vector2d x = penalized::solve_equilibrated(A, b);
      dl = x[0];
      s = rho * x[1];
    } else {
      // eq. (4.7): unknowns (δλ, s).
      Eigen::Matrix2d A;
      A << J(i, 1), J(i, 2), r.dot(J.col(1)) - Klphi.dot(H.col(1)) - phi_gll, r.dot(J.col(2)) - Klphi.dot(H.col(2));
      const Eigen::Vector2d b(-G3 - J(i, 0), -G4 - r.dot(J.col(0)) + Klphi.dot(H.col(0)));
      const Eigen::Vector2d x = penalized::solve_equilibrated(A, b);
      dl = x[0];
      s = x[1];
      const double mu = H(i, 0) + dl * H(i, 1) + s * H(i, 2);
      dgamma = rho * mu - s;
    }
    if ((!std::isfinite(dl) || !std::isfinite(s)) && floor_candidate) {
      stand_candidate();
      break;
    }
    if (!std::isfinite(dl) || !std::isfinite(s)) {
      cp.message = "singular bordered system (" + cp.system + ")";
      return cp;
    }
    q += H.col(0) + dl * H.col(1) + s * H.col(2);
    const Vector dphi = J.col(0) + dl * J.col(1) + s * J.col(2);
    phi += dphi;
    lambda += dl;
    gamma += dgamma;
    previous_dl = last_dl;
    previous_dphi = last_dphi;
    last_dl = dl;
    last_dphi = dphi.norm();
  }

  // v = K̃⁻¹ r at the solution: a particular solution of K v = r with vᵢ = 0 (§5).
  if (factorize_penalized(slot, rho) == linalg::FactorStatus::Ok) cp.v = fac->solve(r);
  cp.factorizations = factorizations();

  cp.kind = cp.phi_dot_r < options.bifurcation_tolerance ? CriticalKind::Bifurcation : CriticalKind::Limit;
  if (cp.system == "SPB" && cp.kind == CriticalKind::Bifurcation &&
      std::abs(cp.gamma) > 1e3 * options.tolerance * last_force_scale) {
    cp.converged = false;
    // γ in the force scale's units, against the bound (it was printed raw and called
    // relative, so that Roorda's frame read as 2.5e-4 "relative" next to a bound of
    // 1e-7).
    cp.message = "SPB converged to an unfolded point, not a bifurcation: gamma = " + fmt_g(cp.gamma) + ", " +
                 fmt_g(std::abs(cp.gamma) / last_force_scale) + " of the force scale, above 1e3 critical.tolerance = " +
                 fmt_g(1e3 * options.tolerance) +
                 " (a bifurcation unfolded by the model itself, by more than this tolerance accepts, or a limit "
                 "point near one: docs/theory.md section 4)";
  } else if (const std::string chart = problem.chart_singularity(cp.q); !chart.empty()) {
    // K is singular there whatever the structure (a bar twisted by a full turn about
    // its axis, reached by a branch of the circle cantilever at λ ≈ 1e-17).
    cp.converged = false;
    cp.message = "converged to a point of the unknowns' chart, not of the structure: " + chart;
  } else if (lambda_move > std::sqrt(options.tolerance)) {
    cp.converged = false;
    cp.message = cp.system + " met the tolerance in " + std::to_string(cp.newton_iterations) + " iterations, but " +
                 (lambda_move2 >= 0.0 ? "the two updates after it moved lambda by " + fmt_g(lambda_move1) + " and " +
                                            fmt_g(lambda_move2) + ", a spread of " + fmt_g(lambda_move)
                                      : "one more update moved lambda by " + fmt_g(lambda_move)) +
                 " relative, more than sqrt(critical.tolerance) = " + fmt_g(std::sqrt(options.tolerance)) +
                 ": not located";
  } else if (lambda_move > options.tolerance) {
    // The check update moved λ by more than the tolerance, and the second check did
    // not show it converging: λ's round-off floor.
    cp.floor_lambda_spread = lambda_move;
    cp.message = "located with " + cp.system + " in " + std::to_string(cp.newton_iterations) +
                 " iterations, lambda to its round-off floor: " +
                 (lambda_move2 >= 0.0 ? "the two updates after it moved it by " + fmt_g(lambda_move1) + " and " +
                                            fmt_g(lambda_move2) + ", a spread of " + fmt_g(lambda_move)
                                      : "one more update moved it by " + fmt_g(lambda_move)) +
                 " relative, above critical.tolerance = " + fmt_g(options.tolerance);
  } else {
    cp.message = "located with " + cp.system + " in " + std::to_string(cp.newton_iterations) + " iterations";
    if (floor_spread >= 0.0) {
      cp.floor_lambda_spread = floor_spread;
      cp.message += ", at the residual's round-off floor (lambda's spread over its last iterates " +
                    fmt_g(floor_spread) + " relative)";
    } else if (phi_at_floor) {
      cp.message += ", lambda to the tolerance, the mode's updates at their round-off floor";
    }
  }
  return cp;
}

}  // namespace senda::critical

namespace senda::critical {

int CriticalPointFinder::adopt(const CriticalPoint& cp) {
  const int number = cp.id.size() > 2 ? std::atoi(cp.id.c_str() + 2) : 0;
  int& counter = cp.kind == CriticalKind::Limit ? limits_ : cp.kind == CriticalKind::Bifurcation ? bifurcations_ : multiples_;
  counter = std::max(counter, number);
  points_.push_back(cp);
  return static_cast<int>(points_.size()) - 1;
}

namespace {

// How far outside its bracket [a, b] a located point may lie (issue 19, item 2): its
// projection on the chord, in the path's scaled norm, within this margin of [0, 1], and
// its distance from the chord at most kMaxOffChord of the chord's length. A point
// crossed between a and b lies on the path between them, whose tangent stays within
// 90° of the chord (steps are accepted within 60° of their tangent, eq. 2.11): its
// projection is inside [0, 1] and its distance from the chord a fraction of it. The
// margin only covers the location's own error; a critical point just past an end
// (the next one along the path, a few hundredths of the step away) is outside.
constexpr double kBracketMargin = 1e-3;
constexpr double kMaxOffChord = 1.0;

// Where (q, λ) lies against the chord of [a, b], in the path's scaled norm: its
// projection as a fraction of the chord (0 at a, 1 at b) and its distance from the
// chord's line relative to the chord's length.
struct ChordPosition {
  double along = 0.0, off = 0.0;
};
ChordPosition chord_position(const continuation::Scaling& scaling, const continuation::PathPoint& a,
                             const continuation::PathPoint& b, const Vector& q, double lambda) {
  const Vector chord_q = b.q - a.q;
  const double chord_l = b.lambda - a.lambda;
  const double length = scaling.norm(chord_q, chord_l);
  const Vector dq = q - a.q;
  const double dl = lambda - a.lambda;
  ChordPosition p;
  p.along = scaling.dot(dq, dl, chord_q, chord_l) / (length * length);
  p.off = scaling.norm(dq - p.along * chord_q, dl - p.along * chord_l) / length;
  return p;
}

// Whether a located critical point lies in its bracket; false with the reason.
// Where the bracket's signs say a bifurcation point was crossed along the path
// (det K and the bordered determinant changed, so t_λ did not), λ is monotone on
// the bracket and the located λ must also lie between the ends (within the margin).
// Under displacement control (control_dof ≥ 0) the controlled unknown is monotone
// along the path (eq. 2.5) and is the bracket's coordinate: it must lie between its
// values at the ends; the chord's line is no guide there (a long step past a fold
// leaves the fold 1–2 chord lengths off it), and the distance to the ends is
// bounded by locate() (twice the bracket's length).
bool in_bracket(const CriticalPoint& cp, const continuation::PathPoint& a, const continuation::PathPoint& b,
                const continuation::Scaling& scaling, int control_dof, std::string& why) {
  if (!(scaling.norm(b.q - a.q, b.lambda - a.lambda) > 0.0)) return true;
  auto [along, off] = chord_position(scaling, a, b, cp.q, cp.lambda);
  bool inside = along >= -kBracketMargin && along <= 1.0 + kBracketMargin && off <= kMaxOffChord;
  if (control_dof >= 0 && control_dof < cp.q.size() && b.q[control_dof] != a.q[control_dof]) {
    along = (cp.q[control_dof] - a.q[control_dof]) / (b.q[control_dof] - a.q[control_dof]);
    inside = along >= -kBracketMargin && along <= 1.0 + kBracketMargin;
  }
  if (inside && cp.evidence == BracketEvidence::Bifurcation && a.det_sign != b.det_sign) {
    const double margin = kBracketMargin * std::abs(b.lambda - a.lambda) + 1e-10 * (1.0 + std::abs(cp.lambda));
    inside = cp.lambda >= std::min(a.lambda, b.lambda) - margin && cp.lambda <= std::max(a.lambda, b.lambda) + margin;
  }
  if (!inside)
    why = "Newton converged outside the bracket (lambda = " + fmt_g(cp.lambda) + ", at " + fmt_g(along) +
          (control_dof >= 0 ? std::string(" of the bracket in the controlled displacement")
                            : " of the bracket's chord and " + fmt_g(off) + " of its length away from it") +
          "): another critical point";
  return inside;
}

// Resolution of one step that crossed critical points (docs/theory.md §4, "Close
// critical points"). A piece [a, b] of the step is located when its signs describe
// exactly one simple crossing (|Δneg| = 1). It is split when they describe several
// (|Δneg| ≥ 2; or Δneg = 0 with the bordered determinant changed, so t_λ changed and
// det K did not: a fold and a bifurcation point, issue 19 item 1), and when the point
// located from it lies outside it (item 2). The split point is the path point on the
// hyperplane through the middle of the chord, orthogonal to it: a fresh follower
// started at a along the chord with Δs = half the chord, one step (start_along
// corrects that step on exactly this hyperplane). The main path is only read.
// Splitting stops at refine_fraction × the step (then a multiple point, or for Δneg
// = 0 one located point: an eigenvalue touching zero where λ is extremal), or when
// the budget of bisection points is spent; a point located outside a piece that
// cannot be split is reported not located, with its bracket.
// Factorization objects: at most one besides the path's two, whatever the depth
// (at 10⁶ unknowns one holds 1.4 GiB: docs/performance.md). K at the step's end b is
// the path's (read only); the path's idle object (`scratch`) and one of the
// bisection's own (`spare`) take everything else in turn: the bisection points'
// steps (a follower that borrows both), the locations' and eigenvalue checks' own
// factorizations, and K at a bisection point. A bisection point keeps its state
// only; K at it stays in the object its step left it in until something else is
// factorized there, and is factorized again into one of the two when needed (counted
// with the bisection's factorizations).
struct Bisection {
  const Problem& problem;
  const continuation::Scaling& scaling;
  continuation::Options path;  // the main path's options without its stop criteria
  LocateOptions locate;
  DetectTest detect;
  bool splitting = true;       // refine_fraction in (0, 1)
  double min_length = 0.0;     // refine_fraction × the step's chord
  double step_length = 0.0;    // the step's chord (scaled)
  int max_midpoints = 0;
  int midpoints = 0;
  long factorizations = 0;
  const linalg::SymmetricFactorization* step_end = nullptr;  // K at the step's b (the path's)
  linalg::SymmetricFactorization* scratch = nullptr;         // the path's idle factorization
  std::unique_ptr<linalg::SymmetricFactorization> spare{}, spare2{};  // spare2: only without scratch
  // What the two lent objects hold: the id of the bisection point whose K, or 0.
  struct Slot {
    linalg::SymmetricFactorization* f = nullptr;
    int holds = 0;
  };
  std::array<Slot, 2> slots{};
  struct Piece {
    CriticalPoint cp;
    Vector secant_q;
    double secant_lambda;
  };
  std::vector<Piece> out{};

  // The controlled unknown under displacement control (−1 otherwise).
  int control_dof() const {
    return path.constraint == continuation::ConstraintKind::DisplacementControl ? path.control_dof : -1;
  }

  static bool is_step(const continuation::PathPoint& a, const continuation::PathPoint& b) {
    return a.index >= 0 && b.index >= 0;  // bisection points have index −1
  }

  // The two objects, the spare made on first use (a copy of the step's analysis).
  void make_slots() {
    if (slots[1].f) return;
    spare = step_end->clone_analysis();
    slots[1].f = spare.get();
    if (!scratch || scratch == step_end || scratch->size() != step_end->size()) {
      spare2 = step_end->clone_analysis();
      scratch = spare2.get();
    }
    slots[0].f = scratch;
  }

  // K at the end p of a piece: the step's own (id 0), or bisection point id's, in
  // the object that holds it or factorized again into one of the two.
  const linalg::SymmetricFactorization& factor_at(const continuation::PathPoint& p, int id) {
    if (id == 0) return *step_end;
    for (const Slot& s : slots)
      if (s.holds == id) return *s.f;
    Slot& s = slots[1].holds == 0 || slots[0].holds != 0 ? slots[1] : slots[0];
    SparseMatrix K = problem.tangent_pattern();
    problem.tangent(p.q, p.lambda, K);
    const linalg::FactorStats saved = s.f->stats();
    s.f->factorize(K);
    s.f->restore_stats(saved);
    ++factorizations;
    s.holds = id;
    return *s.f;
  }

  // An object to factorize over while `keep` is in use (for locate(),
  // crossed_eigenvalues()); what it held is lost.
  linalg::SymmetricFactorization* scratch_besides(const linalg::SymmetricFactorization& keep) {
    Slot* pick = nullptr;
    for (Slot& s : slots)
      if (s.f && s.f != &keep && (!pick || pick->holds != 0)) pick = &s;
    if (!pick) return scratch;  // no bisection point yet: the path's idle object
    pick->holds = 0;
    return pick->f;
  }

  void multiple(const continuation::PathPoint& a, const continuation::PathPoint& b, const std::string& why) {
    Piece p{CriticalPoint{}, b.q - a.q, b.lambda - a.lambda};
    CriticalPoint& cp = p.cp;
    cp.kind = CriticalKind::Multiple;
    cp.negative_pivots_change = b.negative_pivots - a.negative_pivots;
    cp.multiplicity = std::max(2, std::abs(cp.negative_pivots_change));
    cp.q = b.q;
    cp.lambda = b.lambda;
    const double length = scaling.norm(b.q - a.q, b.lambda - a.lambda);
    cp.message = (cp.negative_pivots_change == 0
                      ? std::string("a fold and a bifurcation point (t_lambda changed, det K did not)")
                      : std::to_string(cp.multiplicity) + " eigenvalues crossed zero") +
                 " in one step: a multiple point (or several close ones); not located: " + why + "; refined to a bracket of " +
                 fmt_g(length / step_length) + " of the step, lambda in [" + fmt_g(std::min(a.lambda, b.lambda)) +
                 ", " + fmt_g(std::max(a.lambda, b.lambda)) + "]";
    out.push_back(std::move(p));
  }

  void push(CriticalPoint cp, const continuation::PathPoint& a, const continuation::PathPoint& b) {
    out.push_back(Piece{std::move(cp), b.q - a.q, b.lambda - a.lambda});
  }

  // A piece of the step: nothing, one simple crossing (located), or several (split again).
  // b_id: the piece's end b, the step's (0) or a bisection point's (factor_at()).
  void piece(const continuation::PathPoint& a, const continuation::PathPoint& b, int b_id) {
    const int change = b.negative_pivots - a.negative_pivots;
    // A piece known to hold several crossings is split whatever the detection test
    // (det K does not change sign across an even number of them).
    if (std::abs(change) < 2 && !detected(continuation::crossing_between(a, b), detect)) return;
    std::string why;
    if (std::abs(change) >= 2) {
      if (!splitting) {
        const linalg::SymmetricFactorization& fb = factor_at(b, b_id);
        push(critical::locate(problem, a, b, fb, locate, scratch_besides(fb)), a, b);  // multiple, not located
      } else if (!split(a, b, b_id, why)) {
        multiple(a, b, why);
      }
      return;
    }
    if (change == 0 && splitting) {
      // Only the bordered determinant changed: t_λ turned and det K did not. Either
      // two eigenvalues crossed zero, a fold and a bifurcation point (split until
      // they separate), or one eigenvalue touched zero where λ is extremal: a
      // bifurcation point reached along a branch on which λ turns there (the
      // three-bar structure's BP2 on the branch from BP1; the sway branch of the
      // steep von Mises truss at BP2), which no split separates. The eigenvalues
      // nearest zero at both ends, matched by their vectors, tell them apart.
      // Two points that no split separates are a multiple point, not located (one
      // of them located and the other dropped would be the wrong answer of item 1).
      const int crossed = crossed_eigenvalues(a, b, factor_at(b, b_id));
      if (crossed != 0) {
        if (!split(a, b, b_id, why)) multiple(a, b, why);
        return;
      }
    }
    CriticalPoint cp = locate_point(a, b, factor_at(b, b_id));
    if (cp.converged && !in_bracket(cp, a, b, scaling, control_dof(), why)) {
      std::string split_why;
      if (split(a, b, b_id, split_why)) return;
      cp.converged = false;
      cp.message = why + "; not located: " + split_why;
    } else if (!cp.converged && !is_step(a, b)) {
      // Newton failed from a piece made by a split: its split end may be a poor start
      // (where the monitor split, the crossing eigenvalue is extremal along the path
      // and SPB is near singular there). Its halves are tried before giving up.
      std::string split_why;
      if (split(a, b, b_id, split_why)) return;
      cp.message += "; the piece's halves did not locate it either (" + split_why + ")";
    }
    push(std::move(cp), a, b);
  }

  CriticalPoint locate_point(const continuation::PathPoint& a, const continuation::PathPoint& b,
                             const linalg::SymmetricFactorization& fb) {
    CriticalPoint cp = critical::locate(problem, a, b, fb, locate, scratch_besides(fb));
    if (!is_step(a, b))
      cp.message += "; step refined, a simple crossing in lambda [" + fmt_g(std::min(a.lambda, b.lambda)) + ", " +
                    fmt_g(std::max(a.lambda, b.lambda)) + "]";
    return cp;
  }

  // The number of eigenvalues of K nearest zero that changed sign between a and b,
  // matched by their vectors (|cos| > 0.5); −1 when a factorization fails.
  int crossed_eigenvalues(const continuation::PathPoint& a, const continuation::PathPoint& b,
                          const linalg::SymmetricFactorization& fb) {
    const int m = std::min(problem.size(), locate.subspace_size);
    SparseMatrix K = problem.tangent_pattern();
    if (fb.status() != linalg::FactorStatus::Ok) return -1;
    problem.tangent(b.q, b.lambda, K);
    const Eigenpairs eb = nearest_eigenpairs(fb, K, m, locate.inverse_iterations);
    problem.tangent(a.q, a.lambda, K);
    LocatorFactorization lf(K, locate.linear_solver, scratch_besides(fb), &fb);
    linalg::SymmetricFactorization& fa = lf.get();
    const linalg::FactorStatus st = fa.factorize(K);
    factorizations += lf.factorizations();
    if (st != linalg::FactorStatus::Ok) return -1;
    const Eigenpairs ea = nearest_eigenpairs(fa, K, m, locate.inverse_iterations);
    if (!ea.mu.allFinite() || !eb.mu.allFinite()) return -1;
    int crossed = 0;
    for (int p = 0; p < m; ++p) {
      int best = -1;
      double overlap = 0.5;
      for (int t = 0; t < m; ++t) {
        const double o = std::abs(ea.x.col(p).dot(eb.x.col(t)));
        if (o > overlap) {
          overlap = o;
          best = t;
        }
      }
      if (best >= 0 && (ea.mu[p] < 0) != (eb.mu[best] < 0)) ++crossed;
    }
    return crossed;
  }

  // The path point m on the hyperplane orthogonal to the chord of [a, b] at the
  // fraction `at` of it (a follower from a over the two lent objects, one step;
  // K at m is left in one of them, m_id's: factor_at()), and, when asked for, the
  // path's unit tangent at m. False, with the reason, when [a, b] is too short, the
  // budget is spent, the step fails, or the point leaves the bracket.
  bool bisection_point(const continuation::PathPoint& a, const continuation::PathPoint& b, double at,
                       continuation::PathPoint& m, int& m_id, std::string& why, Vector* tq = nullptr,
                       double* tl = nullptr) {
    if (!splitting) {
      why = "step refinement is off (critical.refine_fraction)";
      return false;
    }
    const Vector chord_q = b.q - a.q;
    const double chord_l = b.lambda - a.lambda;
    const double length = scaling.norm(chord_q, chord_l);
    if (!(length > min_length)) {
      why = "not separated at the minimum bracket (critical.refine_fraction)";
      return false;
    }
    if (midpoints >= max_midpoints) {
      why = "not separated in " + std::to_string(midpoints) + " bisections";
      return false;
    }
    m_id = ++midpoints;
    make_slots();
    for (Slot& s : slots) s.holds = 0;
    {
      continuation::PathFollower f(problem, path, *slots[0].f, *slots[1].f);
      const bool ok = f.start_along(a.q, a.lambda, chord_q, chord_l, at * length, scaling) && f.advance();
      factorizations += f.factorizations();
      if (!ok) {
        why = "the bisection point was not found (" + f.message() + ")";
        return false;
      }
      m = f.current();
      if (tq) *tq = f.tangent_q();
      if (tl) *tl = f.tangent_lambda();
      for (Slot& s : slots)
        if (s.f == &f.factorization()) s.holds = m_id;
    }
    m.index = -1;  // not a point of the path
    // The split point must lie between a and b, near their chord (not on another
    // branch through a bifurcation point in the bracket).
    const auto [along, off] = chord_position(scaling, a, b, m.q, m.lambda);
    bool inside = along > 0.0 && along < 1.0 && off <= kMaxOffChord;
    const int c = control_dof();
    if (inside && c >= 0 && b.q[c] != a.q[c]) {
      // and, under displacement control, between the ends in the controlled unknown
      const double s_c = (m.q[c] - a.q[c]) / (b.q[c] - a.q[c]);
      inside = s_c > 0.0 && s_c < 1.0;
    }
    if (!inside) {
      why = "the bisection point left the bracket";
      return false;
    }
    return true;
  }

  // Splits [a, b] at its bisection point and resolves both halves. False, with the
  // reason, when the piece cannot be split, or when its halves hold no crossing (the
  // crossings cancel inside one half): the caller reports the piece.
  bool split(const continuation::PathPoint& a, const continuation::PathPoint& b, int b_id, std::string& why) {
    continuation::PathPoint m;
    int m_id = 0;
    if (!bisection_point(a, b, 0.5, m, m_id, why)) return false;
    const std::size_t before = out.size();
    piece(a, m, m_id);
    piece(m, b, b_id);
    if (out.size() == before) {
      why = "the bisection found no simple crossing";
      return false;
    }
    return true;
  }

  // A piece whose signs show nothing, along which the eigenvalue monitor predicts
  // crossings that cancel (predicted_crossing: the fraction `at`): split there and
  // resolve both halves; when neither shows a crossing, the fits of the halves, with
  // the eigenvalues at the split point, decide whether to split again. What no
  // split shows is not reported (the fit overshot: an eigenvalue that came near
  // zero and turned back, or touched it within the minimum bracket). `unresolved` is
  // set when the step itself could not be split: its prediction was never examined.
  void monitored(const continuation::PathPoint& a, const PathEigenvalues& ea, const continuation::PathPoint& b,
                 const PathEigenvalues& eb, int b_id, double at, int depth = 0) {
    continuation::PathPoint m;
    int m_id = 0;
    std::string why;
    Vector tq;
    double tl = 0.0;
    if (!bisection_point(a, b, at, m, m_id, why, &tq, &tl)) {
      if (depth == 0) unresolved = why;
      return;
    }
    const std::size_t before = out.size();
    piece(a, m, m_id);
    piece(m, b, b_id);
    if (out.size() != before) return;
    PathEigenvalues em;
    const int k = std::min(problem.size(), locate.subspace_size);
    const double la = scaling.norm(m.q - a.q, m.lambda - a.lambda), lb = scaling.norm(b.q - m.q, b.lambda - m.lambda);
    const bool ok = eigen_at(problem, m, factor_at(m, m_id), tq, tl, std::min(la, lb), k, locate.inverse_iterations,
                             em, &ea);
    tq = Vector();  // the tangent is not needed below (n numbers a level)
    if (!ok) return;
    if (const auto t = predicted_crossing(ea, em, la)) monitored(a, ea, m, em, m_id, *t, depth + 1);
    if (const auto t = predicted_crossing(em, eb, lb)) monitored(m, em, b, eb, b_id, *t, depth + 1);
  }
  std::string unresolved{};  // why a split the monitor asked for was not made
};

}  // namespace

void CriticalPointFinder::resolve_step(const continuation::PathFollower& follower, const LocateOptions& lo,
                                       std::vector<Candidate>& out, const PathEigenvalues* before,
                                       const PathEigenvalues* after, double predicted) {
  const continuation::PathPoint& a = follower.previous();
  const continuation::PathPoint& b = follower.current();
  continuation::Options path = follower.options();
  path.lambda_min = -std::numeric_limits<double>::infinity();
  path.lambda_max = std::numeric_limits<double>::infinity();
  path.monitor_dof = -1;
  path.stop_at_zero_load = false;
  path.max_steps = std::numeric_limits<int>::max();
  path.min_step_ratio = 1.0 / 16.0;  // a bisection point may be cut four times, then it is given up
  Bisection bis{follower.problem(), follower.scaling(), path, lo, options_.detect};
  bis.step_end = &follower.factorization();
  bis.scratch = &follower.idle_factorization();
  bis.splitting = options_.refine_fraction > 0.0 && options_.refine_fraction < 1.0;
  bis.step_length = follower.scaling().norm(b.q - a.q, b.lambda - a.lambda);
  bis.min_length = options_.refine_fraction * bis.step_length;
  // Each level halves the piece with several crossings: log₂(1/fraction) levels for
  // each pair that needs separating (or each retry of a point located outside its
  // piece), a few at most.
  const int levels = bis.splitting ? static_cast<int>(std::ceil(std::log2(1.0 / options_.refine_fraction))) : 0;
  bis.max_midpoints = std::max(2, std::abs(b.negative_pivots - a.negative_pivots)) * (levels + 2);
  const bool monitored = predicted > 0.0 && before && after;
  const std::optional<continuation::Crossing>& crossing = follower.last_crossing();
  const bool seen = crossing && detected(*crossing, options_.detect);
  if (monitored) {
    bis.monitored(a, *before, b, *after, 0, predicted);
    if (bis.out.empty() && seen) {
      bis.piece(a, b, 0);  // the step's own crossing, as without the monitor
    } else if (bis.out.empty() && !bis.unresolved.empty()) {
      // The monitor saw two crossings that cancel and no split could show them: say
      // so with the bracket rather than drop them.
      bis.multiple(a, b, "the eigenvalue monitor predicted two crossings that cancel in the step (" + bis.unresolved +
                             ")");
      bis.out.back().cp.negative_pivots_change = 0;
    }
  } else {
    bis.piece(a, b, 0);
  }
  if (bis.out.empty() && (!monitored || seen)) {
    // The step was detected but its pieces hold nothing: crossings that cancel (an
    // eigenvalue back across zero); reported as a multiple point, as before.
    bis.multiple(a, b, "the bisection found no simple crossing");
  }
  // Bracket fields on the path: the step's own points; the refinement's work
  // is counted with the first point it reports, or, when it reports none (the
  // monitor's split showed nothing), in the finder's total directly.
  if (bis.out.empty()) factorizations_ += bis.factorizations;
  for (std::size_t k = 0; k < bis.out.size(); ++k) {
    CriticalPoint& cp = bis.out[k].cp;
    cp.point_before = a.index;
    cp.point_after = b.index;
    cp.lambda_before = a.lambda;
    cp.lambda_after = b.lambda;
    if (k == 0) {
      cp.factorizations += bis.factorizations;  // the bisection's and the eigenvalue checks'
      if (bis.midpoints > 0)
        cp.message += " (" + std::to_string(bis.midpoints) + " bisection point(s), " +
                      std::to_string(bis.factorizations) + " factorizations, counted here" +
                      (monitored ? "; found by the eigenvalue monitor, the step's signs showed nothing" : "") + ")";
    }
    out.push_back(Candidate{std::move(cp), std::move(bis.out[k].secant_q), bis.out[k].secant_lambda});
  }
}

CriticalPointFinder::StepScan CriticalPointFinder::scan(const continuation::PathFollower& follower, int branch) {
  StepScan s;
  const std::optional<continuation::Crossing>& c = follower.last_crossing();
  s.seen = c && detected(*c, options_.detect);
  // The eigenvalue monitor: the data at the new point, and at the step's first point
  // when this finder computed them there (not at the start of a branch).
  if (options_.monitor_eigenvalues && options_.locate) {
    for (auto& e : monitors_)
      if (e.first == branch) s.slot = &e;
    const continuation::PathPoint& a = follower.previous();
    if (s.slot && s.slot->second.lambda == a.lambda && s.slot->second.q.size() == a.q.size() && s.slot->second.q == a.q)
      s.before = &s.slot->second;
    const continuation::PathPoint& b = follower.current();
    const double length = follower.scaling().norm(b.q - a.q, b.lambda - a.lambda);
    PathEigenvalues e;
    const int m = std::min(follower.problem().size(), options_.locate_options.subspace_size);
    if (eigen_at(follower.problem(), b, follower.factorization(), follower.tangent_q(), follower.tangent_lambda(),
                 length, m, options_.locate_options.inverse_iterations, e, s.before))
      s.after = std::move(e);
    // A step whose signs show a crossing may hide a pair more (a fold and two
    // bifurcation points in one long step: net one crossing): the dips of the other
    // eigenvalues.
    // Matched eigenvalues of opposite signs at the ends are news only when the
    // inertia did not change (two crossing in opposite directions): otherwise they
    // are the crossings the inertia counts, whatever critical.detect reads.
    if (s.before && s.after)
      if (const auto t = predicted_crossing(*s.before, *s.after, length, s.seen || a.negative_pivots != b.negative_pivots))
        s.predicted = *t;
  }
  return s;
}

// Keeps the new point's data for the next step (after the step is resolved). The
// branches are traced one after another: the data of the two most recent ones are
// kept (n (m + 1) numbers each), not one per branch ever traced.
void CriticalPointFinder::keep(StepScan& s, int branch) {
  if (!s.after) return;
  if (s.slot) {
    s.slot->second = std::move(*s.after);
    return;
  }
  if (monitors_.size() >= 2) monitors_.erase(monitors_.begin());
  monitors_.emplace_back(branch, std::move(*s.after));
}

bool CriticalPointFinder::crossed(const continuation::PathFollower& follower, int branch) {
  StepScan s = scan(follower, branch);
  keep(s, branch);
  // The signs only: a dip the monitor predicts is news only once a split confirms it
  // (resolve_step), which this does not do.
  return s.seen;
}

std::vector<CriticalPointFinder::Found> CriticalPointFinder::check(const continuation::PathFollower& follower,
                                                                   int branch) {
  if (!scale_) measure_by(follower.problem());
  StepScan s = scan(follower, branch);
  const std::optional<continuation::Crossing>& c = follower.last_crossing();
  const double predicted = s.predicted;
  if (!s.seen && predicted < 0.0) {
    keep(s, branch);
    return {};
  }
  std::vector<Candidate> candidates;
  const int change = c ? c->negative_pivots_after - c->negative_pivots_before : 0;
  if (options_.locate) {
    LocateOptions lo = options_.locate_options;
    lo.force_scale = std::max(lo.force_scale, follower.residual_scale(0.0));
    resolve_step(follower, lo, candidates, s.before, s.after ? &*s.after : nullptr, predicted);
  } else {
    CriticalPoint cp;
    cp.point_before = c->point_before;
    cp.point_after = c->point_after;
    cp.lambda_before = c->lambda_before;
    cp.lambda_after = c->lambda_after;
    cp.negative_pivots_change = change;
    cp.multiplicity = std::max(1, std::abs(cp.negative_pivots_change));
    // The kind from the signs at the bracket's ends alone (bracket_evidence): a simple
    // crossing that changed the bordered determinant was reported "LP1 limit" (the
    // Euler column's bifurcation point, both signs changed).
    cp.evidence = bracket_evidence(follower.previous(), follower.current());
    cp.kind = CriticalKind::Limit;
    if (cp.multiplicity > 1)
      cp.kind = CriticalKind::Multiple;
    else if (cp.evidence == BracketEvidence::Bifurcation)
      cp.kind = CriticalKind::Bifurcation;
    cp.q = follower.current().q;
    cp.lambda = follower.current().lambda;
    cp.message = "not located (critical.locate = false); ";
    if (cp.multiplicity > 1)
      cp.message += std::to_string(cp.multiplicity) + " eigenvalues crossed zero in the step; kind not classified";
    else if (cp.evidence == BracketEvidence::Limit)
      cp.message += "a limit point by the signs at the bracket's ends (det K changed sign, the bordered determinant "
                    "did not)";
    else if (cp.evidence == BracketEvidence::Bifurcation)
      cp.message += "by the signs at the bracket's ends a bifurcation point (the bordered determinant changed sign), "
                    "or a limit point where lambda is extremal: only the location (critical.locate = true) decides, "
                    "by phi^T r";
    else
      cp.message += "kind not classified (the signs at the bracket's ends do not decide it)";
    candidates.push_back({std::move(cp), Vector(), 0.0});
  }
  std::vector<Found> found;
  for (Candidate& cand : candidates) {
    factorizations_ += cand.cp.factorizations;
    Found f = record(std::move(cand.cp), branch);
    if (cand.secant_q.size() > 0) {
      f.secant_q = std::move(cand.secant_q);
      f.secant_lambda = cand.secant_lambda;
    } else {
      f.secant_q = follower.current().q - follower.previous().q;
      f.secant_lambda = follower.current().lambda - follower.previous().lambda;
    }
    found.push_back(std::move(f));
  }
  keep(s, branch);
  return found;
}

void CriticalPointFinder::measure_by(const Problem& problem) { scale_.emplace(problem); }

bool CriticalPointFinder::same_point(const CriticalPoint& a, const CriticalPoint& b) const {
  // Within what the two locations can resolve (a located point is accurate to
  // about the location tolerance; 1e-6 / 1e-8 at the default), and never more than
  // kMaxSameRadius: at a loose critical.tolerance (1e-2) 100 tol is the whole
  // structure, and von Mises' LP2 was "Newton converged to LP1, located before"; at
  // 1e-3 (radius 0.1) Eriksson's BP3 was LP1's (λ 1 % apart, q 9 %). Not below 1e-2:
  // at critical.tolerance = 1e-4 the points are located to ~1e-3, and with a radius
  // of 1e-3 the branches from BP1 no longer knew BP6 again when they rejoined at it.
  // In units of the structure's size (1 + ‖q‖ with a raw ‖q‖ is no measure: the radius
  // 1e-6 (1 + ‖q‖) of a dome 1e-6 across is its whole size).
  const bool scaled = scale_ && scale_->lengths().size() == a.q.size() && a.q.size() == b.q.size();
  const double dq = scaled ? scale_->distance(a.q, b.q) : (a.q - b.q).norm();
  const double qn = scaled ? scale_->norm(b.q) : b.q.norm();
  const double dl = std::abs(a.lambda - b.lambda);
  const double tol = options_.locate_options.tolerance;
  return dq <= std::min(std::max(1e-6, 100.0 * tol), kMaxSameRadius) * (1.0 + qn) &&
         dl <= std::min(std::max(1e-8, 100.0 * tol), kMaxSameRadius) * (1.0 + std::abs(b.lambda));
}

CriticalPointFinder::Found CriticalPointFinder::record(CriticalPoint cp, int branch) {
  cp.branches = {branch};
  // The point located before that Newton's point is, if any: for a located point, and
  // for one not located although Newton converged (outside the bracket, to an unfolded
  // point, …).
  const bool newton_converged = cp.converged || (cp.q.size() > 0 && cp.residual <= options_.locate_options.tolerance);
  for (std::size_t k = 0; k < points_.size() && newton_converged; ++k) {
    CriticalPoint& other = points_[k];
    if (!other.converged || other.q.size() != cp.q.size() || !same_point(other, cp)) continue;
    if (!cp.converged) {
      // Say which (a branch that passes a pitchfork of its parent path near its tip
      // brackets a dip there, and Newton goes to the pitchfork itself, 1.2 bracket
      // lengths off the bracket's chord).
      cp.message += "; Newton's point is " + other.id + ", located before on branch " +
                    std::to_string(other.branches.empty() ? 0 : other.branches.front());
    } else if (std::find(other.branches.begin(), other.branches.end(), branch) == other.branches.end()) {
      other.branches.push_back(branch);
      Found f;
      f.index = static_cast<int>(k);
      f.is_new = false;
      return f;
    } else {
      cp.converged = false;
      cp.message = "Newton converged to " + other.id +
                   ", located before on this branch; the point crossed in this bracket was not located";
    }
    break;
  }
  // A point not located holds to nothing (locate() may reject what refine() accepted).
  if (!cp.converged) cp.floor_lambda_spread = -1.0;
  // Not located: the kind the bracket's signs give, where they give one, whatever
  // Newton went to (a crossing of a straight column's primary path is a bifurcation
  // point whether or not SPB converges; it was listed as LP1).
  if (!cp.converged && cp.kind != CriticalKind::Multiple) {
    if (cp.evidence == BracketEvidence::Bifurcation) cp.kind = CriticalKind::Bifurcation;
    if (cp.evidence == BracketEvidence::Limit) cp.kind = CriticalKind::Limit;
  }
  switch (cp.kind) {
    case CriticalKind::Limit: cp.id = "LP" + std::to_string(++limits_); break;
    case CriticalKind::Bifurcation: cp.id = "BP" + std::to_string(++bifurcations_); break;
    case CriticalKind::Multiple: cp.id = "MP" + std::to_string(++multiples_); break;
  }
  points_.push_back(std::move(cp));
  Found f;
  f.index = static_cast<int>(points_.size()) - 1;
  f.is_new = true;
  return f;
}

}  // namespace senda::critical
