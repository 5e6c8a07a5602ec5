// Penalty Fix and Tie (seed 003 §1.6, eqs. 3.47–3.53): energy / force / tangent,
// and the static deflection under a load, load/κ, in a model.
#include <catch2/catch.hpp>
#include <Eigen/SparseLU>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "model/derivative_checks.hpp"
#include "senda/model/model.hpp"
#include "senda/model/penalty.hpp"
#include "senda/model/truss.hpp"

using namespace senda::model;
using senda::testing::element_force;
using senda::testing::element_tangent;
using senda::testing::fd_gradient;
using senda::testing::fd_jacobian;
using senda::testing::taylor_remainder;

namespace {

// The triad of a quadratic element: V is quadratic, so central differences of V and
// f are exact up to round-off (≈ 1e-10 κ with ε = 6e-6 on O(1) displacements), and
// the Taylor remainder ‖f(u+εh) − f(u) − εKh‖ is round-off for every ε: there is no
// ε² term to measure (f is linear). A tangent wrong by 1e-3 κ in one entry leaves
// ε·1e-3 κ ≥ 1e-9 κ at ε = 1e-6, far above the 1e-12 κ bound — checked below so
// that the test is seen to fail on a wrong K.
template <class E>
void check_quadratic_triad(const E& e, const Eigen::VectorXd& u, double kappa) {
  const Eigen::VectorXd f = element_force(e, u);
  const Eigen::MatrixXd K = element_tangent(e, u);
  CHECK((f - fd_gradient([&](const Eigen::VectorXd& v) { return e.energy(v); }, u, 1.0)).norm() <= 1e-8 * kappa);
  CHECK((K - fd_jacobian([&](const Eigen::VectorXd& v) { return element_force(e, v); }, u, 1.0)).norm() <=
        1e-8 * kappa);
  CHECK((K - K.transpose()).norm() == 0.0);
  Eigen::VectorXd h = Eigen::VectorXd::LinSpaced(u.size(), -0.7, 0.9);
  const auto f_of = [&](const Eigen::VectorXd& v) { return element_force(e, v); };
  for (double r : taylor_remainder(f_of, K, u, h).remainder) CHECK(r <= 1e-12 * kappa);
  Eigen::MatrixXd K_wrong = K;
  K_wrong(0, 0) *= 1.001;
  const auto wrong = taylor_remainder(f_of, K_wrong, u, h);
  CHECK(wrong.remainder.back() > 1e-10 * kappa);
}

// The displacements under the reference load, K(0) u = r.
senda::Vector solve_at_rest(const Model& m) {
  senda::SparseMatrix K = m.tangent_pattern();
  m.tangent(senda::Vector::Zero(m.size()), 0.0, K);
  Eigen::SparseLU<senda::SparseMatrix> lu(K);
  REQUIRE(lu.info() == Eigen::Success);
  return lu.solve(m.reference_load());
}

}  // namespace

TEST_CASE("penalty fix: V = ½κ‖u + gap‖², force and tangent are its derivatives", "[model][penalty]") {
  const double kappa = 3.7e4;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const PenaltyFix fix(1, 0, {Component::Ux, Component::Uy, Component::Rz}, kappa, {0.25, -0.5, 0.0});
  REQUIRE(fix.dofs().size() == 3);
  for (int sample = 0; sample < 5; ++sample) {
    Eigen::VectorXd u(3);
    for (int i = 0; i < 3; ++i) u[i] = U(rng);
    INFO("u = " << u.transpose());
    const Eigen::Vector3d phi(u[0] + 0.25, u[1] - 0.5, u[2]);
    CHECK(fix.energy(u) == Approx(0.5 * kappa * phi.squaredNorm()).epsilon(1e-14));
    // The seed's multiplier estimate λ ≈ αΦ is the element force (eq. 3.50).
    CHECK((element_force(fix, u) - kappa * phi).norm() <= 1e-15 * kappa);
    check_quadratic_triad(fix, u, kappa);
  }
}

TEST_CASE("penalty tie: V = ½κ‖u_b − u_a + gap‖², equal and opposite forces", "[model][penalty]") {
  const double kappa = 2.5e3;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const PenaltyTie tie(1, 0, 1, {Component::Ux, Component::Uy, Component::Uz}, kappa, {0.0, 0.1, -0.2});
  REQUIRE(tie.dofs().size() == 6);
  for (int sample = 0; sample < 5; ++sample) {
    Eigen::VectorXd u(6);
    for (int i = 0; i < 6; ++i) u[i] = U(rng);
    INFO("u = " << u.transpose());
    const Eigen::Vector3d phi = u.tail(3) - u.head(3) + Eigen::Vector3d(0.0, 0.1, -0.2);
    CHECK(tie.energy(u) == Approx(0.5 * kappa * phi.squaredNorm()).epsilon(1e-14));
    const Eigen::VectorXd f = element_force(tie, u);
    CHECK((f.head(3) + f.tail(3)).norm() <= 1e-15 * kappa);  // no net force: a joint, not a support
    check_quadratic_triad(tie, u, kappa);
  }
  // Positions that coincide leave the tie unloaded, wherever they are.
  Eigen::VectorXd same(6);
  same.head(3) = Eigen::Vector3d(0.3, -0.2, 0.4);
  same.tail(3) = same.head(3) - Eigen::Vector3d(0.0, 0.1, -0.2);  // the gap closed
  CHECK(element_force(tie, same).norm() <= 1e-15 * kappa);
}

// Static deflection of a model held by penalty elements: the tangent at rest, solved
// for the reference load, against the closed forms of springs in series. K is
// constant for the penalty elements and the bar is linear at rest, so the solve is
// exact up to round-off, about cond(K)·eps relative with cond(K) ≈ κL/EA ≤ 7.5e3
// here: 1.7e-12, bounded by 1e-11. A difference of two such numbers (uc − ub, of
// size P/κ) carries their absolute error: 7.5e3·eps·ub/(P/κ) ≈ 1.2e-8, bounded by 2e-8.
TEST_CASE("penalty fix and tie: static deflection is load/kappa", "[model][penalty]") {
  const double EA = 2.0, L = 1.5, P = 0.3;
  for (double kappa : {1e2, 1e4}) {
    INFO("kappa = " << kappa);
    DYNAMIC_SECTION("fix: a bar along x, its free end held in uy by a penalty fix, kappa = " << kappa) {
      Model m(2);
      const int a = m.add_node(1, {0.0, 0.0, 0.0});
      const int b = m.add_node(2, {L, 0.0, 0.0});
      m.add_element(std::make_unique<TrussBar>(1, 2, a, b, m.node_position(a), m.node_position(b), EA,
                                               StrainMeasure::GreenLagrange));
      m.add_element(std::make_unique<PenaltyFix>(2, b, std::vector{Component::Ux, Component::Uy}, kappa));
      m.fix(a, Component::Ux);
      m.fix(a, Component::Uy);
      m.add_load(b, Component::Ux, P);
      m.add_load(b, Component::Uy, -P);
      m.finalize();
      const senda::Vector u = solve_at_rest(m);
      // uy: the bar has no transverse stiffness at rest, the fix alone holds it.
      CHECK(m.displacement(u, b, Component::Uy) == Approx(-P / kappa).epsilon(1e-11));
      // ux: the bar (EA/L) and the fix (κ) in parallel.
      CHECK(m.displacement(u, b, Component::Ux) == Approx(P / (EA / L + kappa)).epsilon(1e-11));
    }
    DYNAMIC_SECTION("tie: two bars in series joined at coincident nodes, kappa = " << kappa) {
      Model m(2);
      const int a = m.add_node(1, {0.0, 0.0, 0.0});
      const int b = m.add_node(2, {L, 0.0, 0.0});
      const int c = m.add_node(3, {L, 0.0, 0.0});
      const int d = m.add_node(4, {2.0 * L, 0.0, 0.0});
      m.add_element(std::make_unique<TrussBar>(1, 2, a, b, m.node_position(a), m.node_position(b), EA,
                                               StrainMeasure::GreenLagrange));
      m.add_element(std::make_unique<TrussBar>(2, 2, c, d, m.node_position(c), m.node_position(d), EA,
                                               StrainMeasure::GreenLagrange));
      m.add_element(std::make_unique<PenaltyTie>(3, b, c, std::vector{Component::Ux, Component::Uy}, kappa));
      for (int n : {a, b, c, d}) m.fix(n, Component::Uy);
      m.fix(a, Component::Ux);
      m.add_load(d, Component::Ux, P);
      m.finalize();
      const senda::Vector u = solve_at_rest(m);
      const double ub = m.displacement(u, b, Component::Ux), uc = m.displacement(u, c, Component::Ux);
      CHECK(ub == Approx(P * L / EA).epsilon(1e-11));
      CHECK(uc - ub == Approx(P / kappa).epsilon(2e-8));
      CHECK(m.displacement(u, d, Component::Ux) == Approx(2.0 * P * L / EA + P / kappa).epsilon(1e-11));
    }
  }
}

// The penalty pendulum of issue 16 at rest: a bob of weight mg hanging from a
// Hencky bar of length L and axial stiffness EA = κ mg (the rigid link replaced by
// a stiff bar). Equilibrium N = EA ln(s)/s = mg, s = l/L, i.e. ln s = s/κ: the
// stretch s − 1 = 1/κ + 3/(2κ²) + O(κ⁻³), the rigid link recovered as O(1/κ).
TEST_CASE("penalty pendulum at rest: the stiff Hencky bar stretches by L/kappa", "[model][penalty]") {
  const double L = 2.0, mg = 3.0;
  std::vector<double> scaled;
  for (double kappa : {1e2, 1e3, 1e4}) {
    INFO("kappa = " << kappa);
    Model m(2);
    const int top = m.add_node(1, {0.0, 0.0, 0.0});
    const int bob = m.add_node(2, {0.0, -L, 0.0});
    m.add_element(std::make_unique<TrussBar>(1, 2, top, bob, m.node_position(top), m.node_position(bob), kappa * mg,
                                             StrainMeasure::Logarithmic));
    m.fix(top, Component::Ux);
    m.fix(top, Component::Uy);
    m.fix(bob, Component::Ux);
    m.add_dead_load(bob, Component::Uy, -mg);
    m.finalize();
    // Newton on g(q) = f(q) − d (one unknown, the bob's uy).
    senda::Vector q = senda::Vector::Zero(1), g(1);
    senda::SparseMatrix K = m.tangent_pattern();
    for (int it = 0; it < 20; ++it) {
      m.residual(q, 0.0, g);
      m.tangent(q, 0.0, K);
      q[0] -= g[0] / K.coeff(0, 0);
    }
    m.residual(q, 0.0, g);
    CHECK(std::abs(g[0]) <= 1e-12 * mg);
    // s from ln s = s/κ by Newton from s = 1 (the root near 1 of the two).
    double s = 1.0;
    for (int it = 0; it < 50; ++it) s -= (std::log(s) - s / kappa) / (1.0 / s - 1.0 / kappa);
    // The bob's drop L(s − 1) to the Newton tolerance: a few ulps of L.
    CHECK(-q[0] == Approx(L * (s - 1.0)).epsilon(1e-12));
    scaled.push_back(kappa * (-q[0]) / L);  // κ (s − 1) → 1
  }
  // κ(s − 1) − 1 ≈ 3/(2κ): 1.5e-2, 1.5e-3, 1.5e-4 (the O(1/κ²) term of the stretch).
  CHECK(scaled[0] - 1.0 == Approx(1.5e-2).epsilon(0.05));
  CHECK(scaled[1] - 1.0 == Approx(1.5e-3).epsilon(0.01));
  CHECK(scaled[2] - 1.0 == Approx(1.5e-4).epsilon(0.01));
}
