// Rigid-bar models (a)–(d) and the steep von Mises truss against their closed
// forms (tests/problems/rigid_bar_models.hpp states and derives them; sources in
// docs/validation.md).
//
// Tolerances: the closed forms are exact for these models, so path points are
// checked to the corrector's convergence (residual 1e-10 relative), i.e. 1e-9
// relative in λ; finite-difference tangents to 1e-6 relative (central
// differences with h = 1e-6, truncation O(h²) ≈ 1e-12 times third derivatives
// of order 1, round-off ≈ 1e-16/1e-6 = 1e-10).
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <vector>

#include "problems/rigid_bar_models.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/linalg/factorization.hpp"

using namespace senda;
using namespace senda::continuation;
using senda::problems::HorizontalSpringBar;
using senda::problems::InclinedSpringBar;
using senda::problems::LinkChain;
using senda::problems::RigidBarModel;
using senda::problems::RotationalSpringBar;
using senda::problems::VonMisesTruss;

namespace {

Eigen::MatrixXd dense_tangent(const Problem& p, const Vector& q, double lambda) {
  SparseMatrix K = p.tangent_pattern();
  p.tangent(q, lambda, K);
  return Eigen::MatrixXd(K);
}

// Central differences of the residual, column by column.
Eigen::MatrixXd fd_tangent(const Problem& p, const Vector& q, double lambda, double h = 1e-6) {
  const int n = p.size();
  Eigen::MatrixXd K(n, n);
  Vector gp(n), gm(n);
  for (int j = 0; j < n; ++j) {
    Vector qp = q, qm = q;
    qp[j] += h;
    qm[j] -= h;
    p.residual(qp, lambda, gp);
    p.residual(qm, lambda, gm);
    K.col(j) = (gp - gm) / (2 * h);
  }
  return K;
}

// Tangent, ∂g/∂λ and the exact ∇_q(K a)·b against finite differences at q.
void check_derivatives(const Problem& p, const Vector& q, double lambda) {
  const int n = p.size();
  const Eigen::MatrixXd K = dense_tangent(p, q, lambda);
  const Eigen::MatrixXd Kfd = fd_tangent(p, q, lambda);
  INFO("K =\n" << K << "\nK_fd =\n" << Kfd);
  CHECK((K - Kfd).norm() <= 1e-6 * std::max(1.0, K.norm()));
  CHECK((K - K.transpose()).norm() <= 1e-14 * std::max(1.0, K.norm()));

  const double h = 1e-6;
  Vector gp(n), gm(n), dl(n);
  p.residual(q, lambda + h, gp);
  p.residual(q, lambda - h, gm);
  p.dg_dlambda(q, lambda, dl);
  CHECK(((gp - gm) / (2 * h) - dl).norm() <= 1e-6 * std::max(1.0, dl.norm()));

  // Taylor remainder ‖g(q + εd) − g(q) − εKd‖ = O(ε²): measured order over ε, ε/2.
  {
    const Vector d = Vector::LinSpaced(n, 0.9, -0.5);
    Vector g0(n), g1(n);
    p.residual(q, lambda, g0);
    auto remainder = [&](double eps) {
      p.residual(q + eps * d, lambda, g1);
      return (g1 - g0 - eps * (K * d)).norm();
    };
    const double e1 = remainder(1e-2), e2 = remainder(5e-3);
    INFO("Taylor remainders " << e1 << " " << e2);
    if (e1 > 1e-11) CHECK(std::log2(e1 / e2) >= 1.9);
  }

  Vector a = Vector::LinSpaced(n, 0.3, 1.1), b = Vector::LinSpaced(n, -0.7, 0.4);
  Vector exact(n);
  if (!p.tangent_derivative(q, lambda, a, b, exact)) return;  // optional (Model: finite differences)
  const Eigen::MatrixXd Kp = dense_tangent(p, q + h * b, lambda);
  const Eigen::MatrixXd Km = dense_tangent(p, q - h * b, lambda);
  const Vector fd = (Kp - Km) * a / (2 * h);
  INFO("exact " << exact.transpose() << " fd " << fd.transpose());
  CHECK((exact - fd).norm() <= 1e-6 * std::max(1.0, exact.norm()));
}

struct TraceResult {
  std::vector<PathPoint> points;
  std::vector<Crossing> crossings;
  Termination termination = Termination::Running;
};

TraceResult trace(const Problem& p, const Vector& q0, double lambda0, Options o,
                  const std::function<void(const PathPoint&)>& each = {}) {
  TraceResult r;
  PathFollower f(p, o);
  REQUIRE(f.start(q0, lambda0));
  r.points.push_back(f.current());
  while (f.advance()) {
    r.points.push_back(f.current());
    if (each) each(f.current());
    if (f.last_crossing()) r.crossings.push_back(*f.last_crossing());
  }
  r.termination = f.termination();
  return r;
}

// The perfect rigid-bar model stays on θ = 0 and reports one crossing that
// brackets P_cr, with one more negative pivot after it.
void check_fundamental_path(const Problem& p, double P_cr) {
  Options o;
  o.initial_load_increment = 0.07 * P_cr;
  o.lambda_max = 1.6 * P_cr;
  o.max_steps = 500;
  const auto r = trace(p, Vector::Zero(p.size()), 0.0, o, [&](const PathPoint& pt) {
    INFO("lambda = " << pt.lambda);
    CHECK(pt.q.norm() == 0.0);  // θ = 0 solves g exactly for every P
    CHECK(pt.negative_pivots == (pt.lambda < P_cr ? 0 : 1));
  });
  CHECK(r.termination == Termination::Completed);
  REQUIRE(r.crossings.size() == 1);
  const Crossing& c = r.crossings[0];
  CHECK(c.lambda_before < P_cr);
  CHECK(c.lambda_after > P_cr);
  CHECK(c.negative_pivots_before == 0);
  CHECK(c.negative_pivots_after == 1);
  CHECK(c.det_sign_changed);
}

// Trace the secondary branch from a point on it and check every converged
// point against the closed form P(θ).
void check_branch(const RigidBarModel& m, double theta0, const std::function<double(double)>& P_of_theta,
                  double theta_limit) {
  Vector q0(1);
  q0[0] = theta0;
  const double P0 = P_of_theta(theta0);
  Vector g(1);
  m.residual(q0, P0, g);
  REQUIRE(std::abs(g[0]) <= 1e-12 * m.critical_load() * m.length());
  // Small unscaled steps, directed away from the bifurcation (the sign of
  // dP/dθ·θ₀), so that the corrector cannot fall back onto θ = 0.
  const double dP = (P_of_theta(theta0 * 1.001) - P_of_theta(theta0 * 0.999)) / (0.002 * theta0);
  Options o;
  o.auto_scale = false;
  o.initial_load_increment = 0.005 * m.critical_load();
  o.max_step_ratio = 3.0;
  o.direction = dP * theta0 > 0 ? +1 : -1;
  o.monitor_dof = 0;
  o.max_displacement = theta_limit;
  o.max_steps = 400;
  int checked = 0;
  trace(m, q0, P0, o, [&](const PathPoint& pt) {
    const double th = pt.q[0];
    if (std::abs(th) < 1e-3) return;  // P(θ) is 0/0 at θ = 0; the branch crosses it
    INFO("theta = " << th << " lambda = " << pt.lambda);
    CHECK(pt.lambda == Approx(P_of_theta(th)).epsilon(1e-9));
    ++checked;
  });
  CHECK(checked > 10);
}

}  // namespace

TEST_CASE("rigid bar (a): base rotational spring, P_cr = c/L, stable symmetric", "[problems][rigid-bar]") {
  const double L = 1.5, c = 2.0;
  RotationalSpringBar m(L, c);
  CHECK(m.critical_load() == Approx(c / L).epsilon(1e-15));
  SECTION("derivatives") {
    for (double th : {0.0, 0.3, -1.1, 2.0})
      for (double P : {0.0, 1.0, 2.5}) check_derivatives(m, Vector::Constant(1, th), P);
  }
  SECTION("fundamental path and crossing") { check_fundamental_path(m, c / L); }
  SECTION("secondary branch P = c θ /(L sin θ)") {
    const auto P = [&](double t) { return c * t / (L * std::sin(t)); };
    check_branch(m, 0.2, P, 2.0);
    // Stable symmetric: P rises on both sides, P/P_cr ≈ 1 + θ²/6.
    CHECK((P(0.01) / (c / L) - 1) / (0.01 * 0.01) == Approx(1.0 / 6).epsilon(1e-3));
  }
}

TEST_CASE("rigid bar (b): top spring kept horizontal, P_cr = kL, unstable symmetric", "[problems][rigid-bar]") {
  const double L = 2.0, k = 0.75;
  HorizontalSpringBar m(L, k);
  CHECK(m.critical_load() == Approx(k * L).epsilon(1e-15));
  SECTION("derivatives") {
    for (double th : {0.0, 0.4, -0.9})
      for (double P : {0.0, 1.2}) check_derivatives(m, Vector::Constant(1, th), P);
  }
  SECTION("fundamental path and crossing") { check_fundamental_path(m, k * L); }
  SECTION("secondary branch P = kL cos θ") {
    const auto P = [&](double t) { return k * L * std::cos(t); };
    check_branch(m, 0.15, P, 1.2);
    CHECK((P(0.01) / (k * L) - 1) / (0.01 * 0.01) == Approx(-0.5).epsilon(1e-3));
  }
}

TEST_CASE("rigid bar (c): spring to the ground point (L, 0), P_cr = kL/2, asymmetric", "[problems][rigid-bar]") {
  const double L = 1.0, k = 3.0;
  InclinedSpringBar m(L, k);
  CHECK(m.critical_load() == Approx(k * L / 2).epsilon(1e-15));
  SECTION("energy: spring geometry and g = dV/dθ") {
    for (double th : {-0.8, -0.2, 0.0, 0.3, 0.9}) {
      // Spring from the top (L sin θ, L cos θ) to the anchor (L, 0).
      const double dx = L - L * std::sin(th), dy = L * std::cos(th);
      CHECK(m.spring_length(th) == Approx(std::hypot(dx, dy)).epsilon(1e-14));
      const double P = 1.1, h = 1e-6;
      Vector g(1);
      m.residual(Vector::Constant(1, th), P, g);
      const double dV = (m.energy(th + h, P) - m.energy(th - h, P)) / (2 * h);
      CHECK(g[0] == Approx(dV).epsilon(1e-7).margin(1e-9));
    }
    CHECK(m.spring_length(0.0) == Approx(L * std::sqrt(2.0)).epsilon(1e-15));
  }
  SECTION("derivatives") {
    for (double th : {0.0, 0.3, -0.7, 0.9})
      for (double P : {0.0, 1.4}) check_derivatives(m, Vector::Constant(1, th), P);
  }
  SECTION("fundamental path and crossing") { check_fundamental_path(m, k * L / 2); }
  SECTION("secondary branch P = kL cos θ (1/√(1 − sin θ) − 1)/sin θ, slope 3/4") {
    const auto P = [&](double t) {
      return k * L * std::cos(t) * (1 / std::sqrt(1 - std::sin(t)) - 1) / std::sin(t);
    };
    const double P_cr = k * L / 2;
    // Asymmetric: P/P_cr = 1 + ¾θ + O(θ²) (rising for θ > 0, falling for θ < 0).
    for (double t : {1e-4, -1e-4}) CHECK((P(t) / P_cr - 1) / t == Approx(0.75).epsilon(1e-3));
    check_branch(m, 0.1, P, 0.8);
    check_branch(m, -0.1, P, 0.8);
  }
}

TEST_CASE("N-link chain (d): P_cr = (c/ℓ) 4 sin²(π/(2(2N+1))) from K(0, λ), N = 1…20", "[problems][rigid-bar]") {
  const double ell = 0.8, c = 1.7;
  for (int N = 1; N <= 20; ++N) {
    INFO("N = " << N);
    LinkChain m(N, ell, c);
    const Vector zero = Vector::Zero(N);
    // K(0, λ) = c T − λ ℓ I: singular where λ = (c/ℓ) μ, μ an eigenvalue of T.
    const Eigen::MatrixXd T = dense_tangent(m, zero, 0.0) / c;
    const Eigen::MatrixXd Kl = (dense_tangent(m, zero, 1.0) - dense_tangent(m, zero, 0.0)) / ell;
    CHECK((Kl + Eigen::MatrixXd::Identity(N, N)).norm() <= 1e-14);  // ∂K/∂λ = −ℓ I at θ = 0
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(T);
    for (int j = 1; j <= N; ++j)
      CHECK(es.eigenvalues()[j - 1] == Approx(LinkChain::spring_eigenvalue(N, j)).epsilon(1e-12));
    const double P_cr = c / ell * es.eigenvalues()[0];
    CHECK(P_cr == Approx(LinkChain::critical_load(N, ell, c)).epsilon(1e-12));
    // The LDLᵀ inertia agrees: no negative pivot just below P_cr, one just above.
    SparseMatrix K = m.tangent_pattern();
    linalg::SymmetricFactorization f(K);
    m.tangent(zero, P_cr * (1 - 1e-8), K);
    REQUIRE(f.factorize(K) == linalg::FactorStatus::Ok);
    CHECK(f.negative_pivots() == 0);
    m.tangent(zero, P_cr * (1 + 1e-8), K);
    REQUIRE(f.factorize(K) == linalg::FactorStatus::Ok);
    CHECK(f.negative_pivots() == 1);
  }
  CHECK(LinkChain::critical_load(1, ell, c) == Approx(c / ell).epsilon(1e-15));  // one link = model (a)
  SECTION("derivatives, N = 4") {
    LinkChain m(4, ell, c);
    Vector q(4);
    q << 0.1, -0.3, 0.5, 0.2;
    check_derivatives(m, q, 0.0);
    check_derivatives(m, q, 0.9);
  }
  SECTION("fundamental path and crossing, N = 3 and 8") {
    for (int N : {3, 8}) {
      INFO("N = " << N);
      LinkChain m(N, ell, c);
      check_fundamental_path(m, m.critical_load());
    }
  }
}

TEST_CASE("steep von Mises truss (a = 1, h = 2): bifurcation 0.252982 before the limit point 0.275412",
          "[problems][von-mises]") {
  const VonMisesTruss vm;  // a = 1, h = 2, EA = 1, Green–Lagrange
  CHECK(vm.bifurcation_load() == Approx(0.252982).epsilon(2e-6));
  CHECK(vm.bifurcation_drop() == Approx(0.585786).epsilon(1e-6));
  CHECK(vm.limit_load() == Approx(0.275412).epsilon(2e-6));
  CHECK(vm.limit_drop() == Approx(0.845299).epsilon(1e-6));
  // Consistency of the closed forms: P(w_b) = P_b, P(w_lim) = P_max.
  CHECK(vm.symmetric_load(vm.bifurcation_drop()) == Approx(vm.bifurcation_load()).epsilon(1e-14));
  CHECK(vm.symmetric_load(vm.limit_drop()) == Approx(vm.limit_load()).epsilon(1e-14));

  const auto model = vm.build();
  REQUIRE(model->size() == 2);
  SECTION("derivatives") {
    for (double w : {0.0, 0.4, 0.9}) {
      Vector q(2);
      q << 0.05, -w;
      check_derivatives(*model, q, 0.1);
    }
  }
  SECTION("fundamental path, bifurcation and limit point bracketed") {
    Options o;
    o.initial_load_increment = 0.01;
    o.monitor_dof = 1;
    o.max_displacement = 1.2;  // past the limit point (w = 0.845)
    o.max_steps = 500;
    const auto r = trace(*model, Vector::Zero(2), 0.0, o, [&](const PathPoint& pt) {
      const double w = -pt.q[1];
      INFO("w = " << w << " lambda = " << pt.lambda);
      CHECK(pt.q[0] == 0.0);  // exact mirror symmetry keeps the apex on the axis
      CHECK(pt.lambda == Approx(vm.symmetric_load(w)).epsilon(1e-9));
    });
    CHECK(r.termination == Termination::Completed);
    REQUIRE(r.crossings.size() >= 2);
    const Crossing& b = r.crossings[0];
    CHECK(b.negative_pivots_before == 0);
    CHECK(b.negative_pivots_after == 1);
    CHECK(b.lambda_before < vm.bifurcation_load());
    CHECK(b.lambda_after > vm.bifurcation_load());
    const double wb0 = -r.points[b.point_before].q[1], wb1 = -r.points[b.point_after].q[1];
    CHECK(wb0 < vm.bifurcation_drop());
    CHECK(wb1 > vm.bifurcation_drop());
    const Crossing& l = r.crossings[1];
    CHECK(l.negative_pivots_before == 1);
    CHECK(l.negative_pivots_after == 2);
    const double wl0 = -r.points[l.point_before].q[1], wl1 = -r.points[l.point_after].q[1];
    CHECK(wl0 < vm.limit_drop());
    CHECK(wl1 > vm.limit_drop());
    CHECK(std::max(l.lambda_before, l.lambda_after) < vm.limit_load());
  }
}
