#pragma once
// Finite-difference and Taylor-remainder checks shared by the element and model tests.
//
// For a smooth map g: Rⁿ → Rⁿ with Jacobian K,
//   r(ε) = ‖g(q + εh) − g(q) − ε K h‖ = ½ ε² ‖g''[h, h]‖ + O(ε³),
// so log r against log ε has slope 2 until round-off (≈ eps·‖g‖) takes over.
// A wrong K leaves an O(ε) term and the slope drops to 1.
#include <catch2/catch.hpp>
#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace senda::testing {

// An element's internal force f(u) and tangent K(u) (Element::compute(u, f*, K*)).
template <class Element>
Eigen::VectorXd element_force(const Element& e, const Eigen::VectorXd& u) {
  Eigen::VectorXd f(u.size());
  e.compute(u, &f, nullptr);
  return f;
}
template <class Element>
Eigen::MatrixXd element_tangent(const Element& e, const Eigen::VectorXd& u) {
  Eigen::MatrixXd K(u.size(), u.size());
  e.compute(u, nullptr, &K);
  return K;
}

// Central differences of a scalar function: error O(ε²) + O(eps/ε); ε = cbrt(eps)·scale balances them.
inline Eigen::VectorXd fd_gradient(const std::function<double(const Eigen::VectorXd&)>& W, const Eigen::VectorXd& q,
                                   double scale) {
  const double eps = 6.0e-6 * scale;
  Eigen::VectorXd grad(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    Eigen::VectorXd qp = q, qm = q;
    qp[i] += eps;
    qm[i] -= eps;
    grad[i] = (W(qp) - W(qm)) / (2.0 * eps);
  }
  return grad;
}

inline Eigen::MatrixXd fd_jacobian(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& g,
                                   const Eigen::VectorXd& q, double scale) {
  const double eps = 6.0e-6 * scale;
  Eigen::MatrixXd J(q.size(), q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    Eigen::VectorXd qp = q, qm = q;
    qp[i] += eps;
    qm[i] -= eps;
    J.col(i) = (g(qp) - g(qm)) / (2.0 * eps);
  }
  return J;
}

struct TaylorResult {
  std::vector<double> eps, remainder, slope;  // slope[k] between eps[k] and eps[k+1]
  std::vector<bool> above_roundoff;           // remainder[k] and remainder[k+1] both above the round-off floor
  double roundoff = 0.0;
};

// r(ε) for ε = 10⁻¹ … 10⁻⁶ along h.
inline TaylorResult taylor_remainder(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& g,
                                     const Eigen::MatrixXd& K, const Eigen::VectorXd& q, const Eigen::VectorXd& h) {
  TaylorResult t;
  const Eigen::VectorXd g0 = g(q);
  const Eigen::VectorXd Kh = K * h;
  // Round-off in g(q+εh) − g(q) is a few ulps of the largest entries involved; a
  // remainder within 1000 of that is not a measure of the truncation error any more.
  t.roundoff = 1e3 * std::numeric_limits<double>::epsilon() * (g0.norm() + Kh.norm() + 1e-300);
  for (int k = 1; k <= 6; ++k) {
    const double e = std::pow(10.0, -k);
    t.eps.push_back(e);
    t.remainder.push_back((g(q + e * h) - g0 - e * Kh).norm());
  }
  for (std::size_t k = 0; k + 1 < t.eps.size(); ++k) {
    t.slope.push_back(std::log(t.remainder[k] / t.remainder[k + 1]) / std::log(t.eps[k] / t.eps[k + 1]));
    t.above_roundoff.push_back(t.remainder[k] > t.roundoff && t.remainder[k + 1] > t.roundoff);
  }
  return t;
}

// The Taylor test's verdict: every slope between two ε above round-off is 2 to
// within 0.1 (a wrong K gives ≈ 1), and at least three of them are measured, so
// that at least three decades of ε speak.
inline void check_second_order(const TaylorResult& t) {
  int measured = 0;
  for (std::size_t k = 0; k < t.slope.size(); ++k) {
    INFO("eps " << t.eps[k] << " remainder " << t.remainder[k] << " -> " << t.remainder[k + 1] << " slope "
                << t.slope[k]);
    if (!t.above_roundoff[k]) continue;
    ++measured;
    CHECK(t.slope[k] >= 1.9);
    CHECK(t.slope[k] <= 2.1);
  }
  CHECK(measured >= 3);
}

// The energy / force / tangent triad of an element at u (W = e.energy(u); f, K
// from e.compute): f = ∂W/∂u and K = ∂f/∂u against central differences with
// ε = 6e-6 L (L the element's length; errors ≈ 1e-10 relative, so the bound 1e-7
// leaves a margin while a wrong term, O(1) relative, fails by orders of
// magnitude; `stiffness`, the element's largest stiffness, keeps the bound
// meaningful where f is small), K symmetric to symmetry_tol ‖K‖, and the Taylor
// remainder of f along h of second order (check_second_order).
template <class Element>
void check_element_triad(const Element& e, const Eigen::VectorXd& u, const Eigen::VectorXd& h, double L,
                         double stiffness, double symmetry_tol) {
  const auto f_of = [&](const Eigen::VectorXd& v) { return element_force(e, v); };
  const Eigen::VectorXd f = f_of(u);
  const Eigen::MatrixXd K = element_tangent(e, u);
  const Eigen::VectorXd f_fd = fd_gradient([&](const Eigen::VectorXd& v) { return e.energy(v); }, u, L);
  CHECK((f - f_fd).norm() <= 1e-7 * (f.norm() + stiffness));
  const Eigen::MatrixXd K_fd = fd_jacobian(f_of, u, L);
  CHECK((K - K_fd).norm() <= 1e-7 * (K.norm() + stiffness / L));
  CHECK((K - K.transpose()).norm() <= symmetry_tol * K.norm());
  check_second_order(taylor_remainder(f_of, K, u, h));
}

// The exact ∇(K a)·b of Element::tangent_derivative against central differences of
// K a along b (t = 1e-4: error O(t²) ≈ 1e-8 relative; bound 1e-7 (1 + ‖exact‖)).
template <class Element>
void check_tangent_derivative(const Element& e, const Eigen::VectorXd& u, const Eigen::VectorXd& a,
                              const Eigen::VectorXd& b) {
  Eigen::VectorXd exact;
  REQUIRE(e.tangent_derivative(u, a, b, exact));
  const double t = 1e-4;
  const Eigen::VectorXd fd = (element_tangent(e, u + t * b) * a - element_tangent(e, u - t * b) * a) / (2 * t);
  CHECK((exact - fd).norm() <= 1e-7 * (1.0 + exact.norm()));
}

}  // namespace senda::testing
