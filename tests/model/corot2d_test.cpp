// Corotational2D (co-rotational Euler–Bernoulli plane beam, corot2d.hpp): energy /
// force / tangent triad at large displacements and rotations beyond π, rigid-motion
// patch tests, the linear cantilever (nodally exact), and the pure bending of a
// cantilever into a full circle traced with the path follower.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "model/buckling_checks.hpp"
#include "model/derivative_checks.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/corot2d.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::element_force;
using senda::testing::check_element_triad;

namespace {
// Skew axis, EA and EI of different size (as in beam2d_test.cpp).
const Eigen::Vector3d kXa(0.3, -0.2, 0.0), kXb(1.1, 0.5, 0.0);
Corotational2D make_beam() { return Corotational2D(1, 0, 1, kXa, kXb, 3.0, 0.4); }
}  // namespace

TEST_CASE("corot2d: force and tangent are the derivatives of the energy", "[model][beam][corotational]") {
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Corotational2D beam = make_beam();
  const double L0 = beam.reference_length();
  for (int sample = 0; sample < 40; ++sample) {
    // A rigid rotation α up to ±4 rad (beyond π) of the whole element, plus nodal
    // displacements up to 0.3 L₀ and rotations up to ±1 rad on top: the chord turns
    // by any angle, the local rotations θ̄ stay below π (the element's range).
    const double alpha = 4.0 * U(rng);
    const Eigen::Matrix2d R = Eigen::Rotation2Dd(alpha).toRotationMatrix();
    Eigen::VectorXd u(6);
    const Eigen::Vector2d ua = R * kXa.head<2>() - kXa.head<2>(), ub = R * kXb.head<2>() - kXb.head<2>();
    u << ua.x(), ua.y(), alpha, ub.x(), ub.y(), alpha;
    for (int i = 0; i < 6; ++i) u[i] += (i % 3 == 2 ? 1.0 : 0.3 * L0) * U(rng);
    if (sample == 0) u << 0.1, -0.2, 4.0, 0.3, 0.1, 3.9;  // both rotations beyond π
    INFO("sample " << sample << " u = " << u.transpose() << " local = " << beam.local_deformations(u).transpose());
    Eigen::VectorXd h = Eigen::VectorXd::NullaryExpr(6, [&] { return std::normal_distribution<>()(rng); });
    h *= 0.1 * L0 / h.norm();
    // Central differences with ε = 6e-6 L₀: errors ≈ 1e-10 relative; bound 1e-7.
    check_element_triad(beam, u, h, L0, 3.0, 1e-14);
  }
}

TEST_CASE("corot2d: rigid motions are stress-free", "[model][beam][corotational]") {
  const Corotational2D beam = make_beam();
  Eigen::VectorXd u(6);
  u << 0.7, -1.3, 0.0, 0.7, -1.3, 0.0;
  CHECK(beam.local_deformations(u).norm() <= 1e-15);
  CHECK(element_force(beam, u).norm() <= 1e-13 * 3.0);
  for (double alpha : {2.5, -2.5, 2.5 + 2 * std::numbers::pi, 4.0}) {
    INFO("rotation by " << alpha);
    const Eigen::Vector2d p(-0.4, 0.9);
    const Eigen::Matrix2d R = Eigen::Rotation2Dd(alpha).toRotationMatrix();
    const Eigen::Vector2d ua = R * (kXa.head<2>() - p) + p - kXa.head<2>();
    const Eigen::Vector2d ub = R * (kXb.head<2>() - p) + p - kXb.head<2>();
    u << ua.x(), ua.y(), alpha, ub.x(), ub.y(), alpha;
    // Local deformations at rounding level of cos, sin, atan2 and the chord length.
    CHECK(beam.local_deformations(u).norm() <= 1e-14);
    CHECK(element_force(beam, u).norm() <= 1e-13 * 3.0);
  }
}

TEST_CASE("corot2d: linear cantilever is nodally exact; a full circle under 2πEI/L", "[model][beam][corotational]") {
  const double L = 2.0, EI = 3.0, EA = 1e4;
  SECTION("end loads: PL³/(3EI), PL²/(2EI), PL/EA (EB: no shear), exact for any n") {
    for (int n : {1, 3}) {
      Model m(2);
      const int clamp = m.add_node(1, {0, 0, 0}), tip = m.add_node(2, {L, 0, 0});
      mesh_member(m, clamp, tip, n, {EA, 1.0, EI}, 100, 1, 0, 0, BeamFormulation::Corotational);
      for (Component c : {Component::Ux, Component::Uy, Component::Rz}) m.fix(clamp, c);
      m.add_load(tip, Component::Uy, -1.0);
      m.add_load(tip, Component::Ux, 0.5);
      m.finalize();
      SparseMatrix K = m.tangent_pattern();
      m.tangent(Vector::Zero(m.size()), 0.0, K);
      const Vector v = Eigen::MatrixXd(K).ldlt().solve(Vector(m.reference_load()));
      INFO("n = " << n);
      // Cubic (Hermite) bending and linear axial fields are exact for end loads.
      CHECK(v[m.equation(tip, Component::Uy)] == Approx(-L * L * L / (3 * EI)).epsilon(1e-10));
      CHECK(v[m.equation(tip, Component::Rz)] == Approx(-L * L / (2 * EI)).epsilon(1e-10));
      CHECK(v[m.equation(tip, Component::Ux)] == Approx(0.5 * L / EA).epsilon(1e-10));
    }
  }
  SECTION("pure bending") {
    // Under the end moment every element has N = 0 and θ̄₁ = −θ̄₂ = −κL₀/2, so
    // M = EIκ: the chords of length L₀ form the regular polygon with exterior angle
    // κL₀, which closes at M = 2πEI/L (beam2d_test.cpp has the same argument).
    const int n = 20;
    Model m(2);
    const int clamp = m.add_node(1, {0, 0, 0}), tip = m.add_node(2, {L, 0, 0});
    mesh_member(m, clamp, tip, n, {EA, 1.0, EI}, 100, 1, 0, 0, BeamFormulation::Corotational);
    for (Component c : {Component::Ux, Component::Uy, Component::Rz}) m.fix(clamp, c);
    const double M = 2 * std::numbers::pi * EI / L;
    m.add_load(tip, Component::Rz, M);
    m.finalize();
    const int jx = m.equation(tip, Component::Ux), jy = m.equation(tip, Component::Uy),
              jr = m.equation(tip, Component::Rz);
    continuation::Options o;
    o.initial_load_increment = 0.05;
    o.max_step_ratio = 2.0;
    o.lambda_max = 1.0;
    o.max_steps = 200;
    continuation::PathFollower f(m, o);
    REQUIRE(f.start(Vector::Zero(m.size()), 0.0));
    while (f.advance()) CHECK(std::abs(f.current().q[jr] - 2 * std::numbers::pi * f.current().lambda) <= 1e-8);
    REQUIRE(f.termination() == continuation::Termination::Completed);
    continuation::PathFollower at_one(m, o);
    REQUIRE(at_one.start(f.current().q, 1.0));
    const Vector& q = at_one.current().q;
    CHECK(std::abs(q[jx] + L) <= 1e-9 * L);
    CHECK(std::abs(q[jy]) <= 1e-9 * L);
    CHECK(std::abs(q[jr] - 2 * std::numbers::pi) <= 1e-9);
  }
}

TEST_CASE("corot2d: Euler column, P_cr converges as h² to π²EI/(4L²)", "[model][beam][corotational][frame]") {
  // Clamped–free column, EI = L = 1, EA = 1e5 (shortening shifts P_cr by ≈ P/EA ≈
  // 2.5e-5, below the errors checked). The element's geometric stiffness is the
  // chord's N zzᵀ/l alone (no consistent cubic term), so the error is O(h²), too
  // stiff. Measured err = 1.294e-2 (n = 4), 3.242e-3 (n = 8): err·n² = 0.207,
  // close to (π/2)²/12 = 0.2056, half the Simo–Reissner constant (π/2)²/6
  // (frames_test.cpp). Bounds: 1.1 (π/2)²/(12 n²), ratio per halving in [3.6, 4.4]
  // (measured 3.99).
  const double L = 1.0, P_cr = std::numbers::pi * std::numbers::pi / 4;
  const int meshes[] = {4, 8};
  double err[2];
  for (int im = 0; im < 2; ++im) {
    Model m(2);
    const int base = m.add_node(1, {0, 0, 0}), tip = m.add_node(2, {0, L, 0});
    mesh_member(m, base, tip, meshes[im], {1e5, 1.0, 1.0}, 100, 1, 0, 0, BeamFormulation::Corotational);
    for (Component c : {Component::Ux, Component::Uy, Component::Rz}) m.fix(base, c);
    m.add_load(tip, Component::Uy, -1.0);
    m.finalize();
    err[im] = senda::testing::critical_load(m, 0.1) / P_cr - 1.0;
    UNSCOPED_INFO("n " << meshes[im] << " rel err " << err[im]);
  }
  const double c = P_cr / 12;  // (π/2)²/12
  for (int im = 0; im < 2; ++im) {
    CHECK(err[im] > 0);
    CHECK(err[im] <= 1.1 * c / (meshes[im] * meshes[im]));
  }
  CHECK(err[0] / err[1] >= 3.6);
  CHECK(err[0] / err[1] <= 4.4);
}
