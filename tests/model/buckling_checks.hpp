#pragma once
// Small dense helpers for buckling checks of frames built through the C++ API:
// the tangent as a dense matrix, Newton on the fundamental path, and the first λ
// where the smallest eigenvalue of K vanishes (stepping, then bisection).
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <functional>

#include "senda/model/model.hpp"

namespace senda::testing {

using senda::model::Model;

inline Eigen::MatrixXd dense_tangent(const Model& m, const Vector& q, double lambda) {
  SparseMatrix K = m.tangent_pattern();
  m.tangent(q, lambda, K);
  return Eigen::MatrixXd(K);
}

// g(·, λ) of the model as a function of the state, for taylor_remainder and fd_jacobian.
inline std::function<Eigen::VectorXd(const Eigen::VectorXd&)> residual_at(const Model& m, double lambda) {
  return [&m, lambda](const Eigen::VectorXd& q) {
    Vector g(m.size());
    m.residual(q, lambda, g);
    return Eigen::VectorXd(g);
  };
}

inline double smallest_eigenvalue(const Model& m, const Vector& q, double lambda) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(dense_tangent(m, q, lambda), Eigen::EigenvaluesOnly)
      .eigenvalues()[0];
}

// Equilibrium at λ by Newton from q (dense: the frames are small).
inline void equilibrium(const Model& m, Vector& q, double lambda) {
  Vector g(m.size());
  for (int it = 0; it < 30; ++it) {
    m.residual(q, lambda, g);
    // Round-off in f: ≈ 1e-16 EA = 1e-11.
    if (g.norm() <= 1e-9 * (1 + lambda)) return;
    q -= dense_tangent(m, q, lambda).ldlt().solve(g);
  }
  FAIL("Newton did not converge at lambda " << lambda);
}

// First λ where the smallest eigenvalue of K on the fundamental path vanishes:
// steps of dl, then bisection to 1e-11 relative.
inline double critical_load(const Model& m, double dl) {
  Vector q = Vector::Zero(m.size());
  double lo = 0.0;
  Vector q_lo = q;
  REQUIRE(smallest_eigenvalue(m, q, 0.0) > 0);
  double hi = dl;
  for (;; hi += dl) {
    equilibrium(m, q, hi);
    if (smallest_eigenvalue(m, q, hi) < 0) break;
    lo = hi;
    q_lo = q;
    REQUIRE(hi < 100 * dl);
  }
  while (hi - lo > 1e-11 * hi) {
    const double mid = 0.5 * (lo + hi);
    Vector qm = q_lo;
    equilibrium(m, qm, mid);
    if (smallest_eigenvalue(m, qm, mid) > 0) {
      lo = mid;
      q_lo = qm;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

}  // namespace senda::testing
