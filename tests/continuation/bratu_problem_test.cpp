// The Bratu problem of benchmarks/bratu.hpp as a senda::Problem: tangent and
// ∂g/∂λ against finite differences, sign convention, and a trace over its fold.
#include <catch2/catch.hpp>
#include <cmath>

#include "../../benchmarks/bratu.hpp"
#include "model/derivative_checks.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/linalg/factorization.hpp"

using senda::Vector;
using senda::benchmarks::Bratu;

TEST_CASE("Bratu problem: derivatives and sign convention", "[bratu]") {
  for (double mu : {0.0, 0.3}) {
    const Bratu p(12, mu);
    const int n = p.size();
    Vector u(n);
    for (int i = 0; i < n; ++i) u[i] = mu + 1.5 * std::sin(M_PI * (i + 1) / (n + 1));  // an upper-branch-like state
    const double lambda = 2.0;
    auto g = [&](const Eigen::VectorXd& v) {
      Vector out;
      p.residual(v, lambda, out);
      return out;
    };
    senda::SparseMatrix K = p.tangent_pattern();
    p.tangent(u, lambda, K);
    const Eigen::MatrixXd Kd(K);
    CHECK((Kd - Kd.transpose()).norm() == 0.0);
    // Central differences, ≈ 1e-10 relative; see tests/model/truss_test.cpp.
    CHECK((Kd - senda::testing::fd_jacobian(g, u, 1.0)).norm() <= 1e-7 * Kd.norm());
    Vector dl, dl_fd;
    p.dg_dlambda(u, lambda, dl);
    p.Problem::dg_dlambda(u, lambda, dl_fd);  // the interface's central-difference default
    CHECK((dl - dl_fd).norm() <= 1e-8 * dl.norm());
    // Structural sign: g = −(u_{i−1} − 2u_i + u_{i+1} + h²λe^{u_i}); r = −∂g/∂λ = h²e^u > 0.
    CHECK(dl.maxCoeff() < 0.0);
    // At λ = 0 the solution is u ≡ μ and K = tridiag(−1, 2, −1) is positive definite.
    Vector g0;
    p.residual(Vector::Constant(n, mu), 0.0, g0);
    CHECK(g0.norm() <= 1e-15);
    p.tangent(Vector::Constant(n, mu), 0.0, K);
    senda::linalg::SymmetricFactorization f(K);
    REQUIRE(f.factorize(K) == senda::linalg::FactorStatus::Ok);
    CHECK(f.negative_pivots() == 0);
    CHECK_FALSE(p.is_proportional());
  }
}

TEST_CASE("Bratu problem: the trace passes the fold with one negative pivot after it", "[bratu]") {
  // N = 10: fold at λ_c = 3.4986839366 (docs of bratu.hpp). Every point is an
  // equilibrium, λ never exceeds λ_c, and K gains exactly one negative eigenvalue.
  const Bratu p(10);
  senda::continuation::Options o;
  o.constraint = senda::continuation::ConstraintKind::PseudoArclength;
  o.initial_load_increment = 0.05;
  o.max_step_ratio = 4.0;
  o.max_steps = 400;
  senda::continuation::PathFollower f(p, o);
  REQUIRE(f.start(Vector::Zero(10), 0.0));
  double top = 0.0;
  int crossings = 0;
  while (f.advance()) {
    top = std::max(top, f.current().lambda);
    if (f.last_crossing()) ++crossings;
    CHECK(f.current().lambda <= 3.4986839366 + 1e-9);
    if (top > 1.0 && f.current().lambda < 1.0) break;
  }
  CHECK(top > 3.45);  // sampled close to the fold
  CHECK(f.current().lambda < 1.0);
  CHECK(f.current().negative_pivots == 1);
  CHECK(crossings == 1);
}
