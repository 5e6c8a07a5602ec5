#pragma once
// Finite-difference and Taylor-remainder checks shared by the element and model tests.
//
// For a smooth map g: Rⁿ → Rⁿ with Jacobian K,
//   r(ε) = ‖g(q + εh) − g(q) − ε K h‖ = ½ ε² ‖g''[h, h]‖ + O(ε³),
// so log r against log ε has slope 2 until round-off (≈ eps·‖g‖) takes over.
// A wrong K leaves an O(ε) term and the slope drops to 1.
#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace senda::testing {

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

}  // namespace senda::testing
