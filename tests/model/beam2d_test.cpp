// Beam2D (geometrically exact plane beam): energy / force / tangent triad at large
// displacements and rotations beyond π, rigid-motion patch tests, and the pure
// bending of a cantilever into a full circle traced with the path follower.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <Eigen/Geometry>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::taylor_remainder;
using senda::testing::element_force;
using senda::testing::element_tangent;
using senda::testing::check_element_triad;

namespace {


// Skew reference axis and three stiffnesses of different size, so that no
// symmetry or cancellation hides a wrong term.
const Eigen::Vector3d kXa(0.3, -0.2, 0.0), kXb(1.1, 0.5, 0.0);
Beam2D make_beam() { return Beam2D(1, 0, 1, kXa, kXb, 3.0, 1.7, 0.4); }

}  // namespace

TEST_CASE("beam2d: force and tangent are the derivatives of the energy", "[model][beam]") {
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const Beam2D beam = make_beam();
  const double L0 = beam.reference_length();
  for (int sample = 0; sample < 40; ++sample) {
    // Nodal displacements up to 0.5 L₀ per component, nodal rotations up to ±4 rad
    // (beyond π): strains of order one, far outside any linear range.
    Eigen::VectorXd u(6);
    for (int a = 0; a < 2; ++a) {
      u[3 * a] = 0.5 * L0 * U(rng);
      u[3 * a + 1] = 0.5 * L0 * U(rng);
      u[3 * a + 2] = 4.0 * U(rng);
    }
    if (sample == 0) u << 0.1, -0.2, 4.0, 0.3, 0.1, 3.9;  // both rotations beyond π
    INFO("sample " << sample << " u = " << u.transpose() << " e = " << beam.strains(u).transpose());
    // Taylor remainder along a random direction: translations 0.1 L₀, rotations 0.1 rad.
    Eigen::VectorXd h = Eigen::VectorXd::NullaryExpr(6, [&] { return std::normal_distribution<>()(rng); });
    h *= 0.1 * L0 / h.norm();
    // Central differences with ε = 6e-6 L₀ (the rotations are of the same order as
    // u/L₀ with L₀ ≈ 1); K symmetric up to the rounding of the products BᵀDB (a few ulps).
    check_element_triad(beam, u, h, L0, 3.0, 1e-14);
  }
}

TEST_CASE("beam2d: a tangent without its geometric part fails the Taylor test", "[model][beam]") {
  // Guard on the test: a tangent missing a geometric term leaves an O(ε) remainder,
  // slope ≈ 1, at a stressed state.
  const Beam2D beam = make_beam();
  Eigen::VectorXd u(6);
  u << 0.1, -0.2, 2.0, 0.3, 0.1, 3.5;
  const Eigen::Vector3d s = beam.stress_resultants(u);
  REQUIRE(std::abs(s[0]) + std::abs(s[1]) > 0.1);
  // Remove the θθ block's geometric part, −L₀(N(1+ε) + Qγ)/4 (beam2d.hpp).
  Eigen::MatrixXd K = element_tangent(beam, u);
  const Eigen::Vector3d e = beam.strains(u);
  const double gtt = -0.25 * beam.reference_length() * (s[0] * (1 + e[0]) + s[1] * e[1]);
  for (int i : {2, 5})
    for (int j : {2, 5}) K(i, j) -= gtt;
  Eigen::VectorXd h(6);
  h << 0.01, 0.02, 0.05, -0.03, 0.01, -0.04;
  const auto t = taylor_remainder([&](const Eigen::VectorXd& v) { return element_force(beam, v); }, K, u, h);
  CHECK(t.slope.back() < 1.1);
}

TEST_CASE("beam2d: rigid motions are stress-free", "[model][beam]") {
  // Rigid translation, and rigid rotation by α about a point p (x = R(α)(X − p) + p,
  // θ₁ = θ₂ = α): e = 0 up to the rounding of cos, sin and t·d (a few ulps), so
  // |f| ≤ 1e-13 · max stiffness · (1 + |d|).
  const Beam2D beam = make_beam();
  const double scale = 3.0;
  SECTION("translation") {
    Eigen::VectorXd u(6);
    u << 0.7, -1.3, 0.0, 0.7, -1.3, 0.0;
    CHECK(beam.strains(u).norm() <= 1e-15);
    CHECK(element_force(beam, u).norm() <= 1e-13 * scale);
  }
  for (double alpha : {2.5, -2.5, 2.5 + 2 * std::numbers::pi, 4.0}) {
    SECTION("rotation by " + std::to_string(alpha)) {
      const Eigen::Vector2d p(-0.4, 0.9);
      const Eigen::Matrix2d R = Eigen::Rotation2Dd(alpha).toRotationMatrix();
      Eigen::VectorXd u(6);
      const Eigen::Vector2d ua = R * (kXa.head<2>() - p) + p - kXa.head<2>();
      const Eigen::Vector2d ub = R * (kXb.head<2>() - p) + p - kXb.head<2>();
      u << ua.x(), ua.y(), alpha, ub.x(), ub.y(), alpha;
      INFO("e = " << beam.strains(u).transpose());
      CHECK(beam.strains(u).norm() <= 1e-14);
      CHECK(element_force(beam, u).norm() <= 1e-13 * scale);
      CHECK(beam.energy(u) <= 1e-26 * scale);
      // The tangent at the rotated state is the reference one rotated: Tᵀ K(0) T.
      Eigen::MatrixXd T = Eigen::MatrixXd::Identity(6, 6);
      T.block<2, 2>(0, 0) = R;
      T.block<2, 2>(3, 3) = R;
      const Eigen::MatrixXd K0 = element_tangent(beam, Eigen::VectorXd::Zero(6));
      CHECK((element_tangent(beam, u) - T * K0 * T.transpose()).norm() <= 1e-13 * K0.norm());
    }
  }
}

TEST_CASE("beam2d: section from material data, bad input rejected", "[model][beam]") {
  const BeamSection s = beam_section(210.0, 0.3, 2.0, 0.5, 5.0 / 6.0);
  CHECK(s.EA == Approx(420.0).epsilon(1e-15));
  CHECK(s.GAs == Approx(5.0 / 6.0 * 210.0 / 2.6 * 2.0).epsilon(1e-15));
  CHECK(s.EI == Approx(105.0).epsilon(1e-15));
  CHECK_THROWS_AS(beam_section(210.0, 0.6, 2.0, 0.5, 5.0 / 6.0), std::invalid_argument);
  CHECK_THROWS_AS(Beam2D(1, 0, 1, kXa, kXa, 1, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(Beam2D(1, 0, 1, kXa, kXb, 1, 0, 1), std::invalid_argument);
  Model m3(3);
  m3.add_node(1, {0, 0, 0});
  m3.add_node(2, {1, 0, 0});
  CHECK_THROWS_AS(mesh_member(m3, 0, 1, 4, s, 10, 1), std::logic_error);
}

TEST_CASE("beam2d: mesh_member creates equal elements and the intermediate nodes", "[model][beam]") {
  Model m(2);
  const int a = m.add_node(1, {1, 2, 0});
  const int b = m.add_node(2, {4, 6, 0});
  const auto nodes = mesh_member(m, a, b, 5, {1, 1, 1}, 100, 10);
  REQUIRE(nodes.size() == 6);
  CHECK(nodes.front() == a);
  CHECK(nodes.back() == b);
  CHECK(m.node_count() == 6);
  CHECK(m.element_count() == 5);
  CHECK(m.node_id(nodes[1]) == 100);
  CHECK(m.node_id(nodes[4]) == 103);
  CHECK((m.node_position(nodes[2]) - Eigen::Vector3d(1 + 3 * 0.4, 2 + 4 * 0.4, 0)).norm() <= 1e-15);
  for (int e = 0; e < 5; ++e)
    CHECK(dynamic_cast<const Beam2D&>(m.element(e)).reference_length() == Approx(1.0).epsilon(1e-14));
}

TEST_CASE("beam2d: an end moment 2πEI/L rolls a cantilever into a full circle", "[model][beam]") {
  // Clamped at x = 0, moment M = λ·2πEI/L at the tip (rz). The continuum solution is
  // κ = M/EI everywhere, a circle of length L. The discrete one is exact too, in the
  // following sense: with θ_k = κ s_k at the nodes, every element has N = Q = 0 (its
  // chord of length L₀ points along the mean nodal angle) and M = EIκ, which is in
  // equilibrium with the nodal moment; the chords form a regular polygon with
  // exterior angle κL₀ = 2πλ/n. At λ = 1 it closes: the tip is back at the clamp and
  // θ_tip = 2π, up to the Newton tolerance only. The discretisation shows in the
  // size of the polygon instead: its diameter is L₀/sin(π/n), against L/π for the
  // circle, relative error (π/n)/sin(π/n) − 1 ≈ π²/(6n²) = 0.41 % for n = 20.
  const int n = 20;
  const double L = 2.0, EI = 3.0, EA = 1e4, GAs = 5e3;
  Model m(2);
  const int clamp = m.add_node(1, {0, 0, 0});
  const int tip = m.add_node(2, {L, 0, 0});
  const auto nodes = mesh_member(m, clamp, tip, n, {EA, GAs, EI}, 100, 1);
  for (Component c : {Component::Ux, Component::Uy, Component::Rz}) m.fix(clamp, c);
  const double M = 2 * std::numbers::pi * EI / L;
  m.add_load(tip, Component::Rz, M);
  m.finalize();
  const int jx = m.equation(tip, Component::Ux), jy = m.equation(tip, Component::Uy), jr = m.equation(tip, Component::Rz);

  continuation::Options o;
  o.initial_load_increment = 0.05;
  o.max_step_ratio = 2.0;
  o.lambda_max = 1.0;
  o.max_steps = 200;
  continuation::PathFollower f(m, o);
  REQUIRE(f.start(Vector::Zero(m.size()), 0.0));
  int points = 0;
  while (f.advance()) {
    ++points;
    const auto& p = f.current();
    INFO("point " << p.index << " lambda " << p.lambda);
    // M is constant along the member: θ_tip = 2πλ on every converged point (the
    // corrector's tolerance, 1e-10 relative, bounds the error).
    CHECK(std::abs(p.q[jr] - 2 * std::numbers::pi * p.lambda) <= 1e-8);
  }
  REQUIRE(f.termination() == continuation::Termination::Completed);
  CHECK(points >= 10);
  // The follower stops just past λ = 1: Newton at λ = 1 from there.
  continuation::PathFollower at_one(m, o);
  REQUIRE(at_one.start(f.current().q, 1.0));
  const Vector& q = at_one.current().q;
  INFO("tip u = (" << q[jx] << ", " << q[jy] << "), rz = " << q[jr]);
  CHECK(std::abs(q[jx] + L) <= 1e-9 * L);  // tip position = clamp position
  CHECK(std::abs(q[jy]) <= 1e-9 * L);
  CHECK(std::abs(q[jr] - 2 * std::numbers::pi) <= 1e-9);
  // Every element is in pure bending.
  Eigen::VectorXd u_e;
  for (int e = 0; e < m.element_count(); ++e) {
    m.gather(e, q, u_e);
    const Eigen::Vector3d s = dynamic_cast<const Beam2D&>(m.element(e)).stress_resultants(u_e);
    CHECK(std::abs(s[0]) <= 1e-8 * M / L);
    CHECK(std::abs(s[1]) <= 1e-8 * M / L);
    CHECK(std::abs(s[2] - M) <= 1e-9 * M);
  }
  // Diameter of the polygon: the node at mid-length is opposite the clamp.
  const int mid = nodes[n / 2];
  const Eigen::Vector2d x_mid(m.node_position(mid).x() + m.displacement(q, mid, Component::Ux),
                              m.node_position(mid).y() + m.displacement(q, mid, Component::Uy));
  const double L0 = L / n;
  const double diameter_polygon = L0 / std::sin(std::numbers::pi / n), diameter_circle = L / std::numbers::pi;
  INFO("diameter " << x_mid.norm() << " polygon " << diameter_polygon << " circle " << diameter_circle);
  CHECK(std::abs(x_mid.norm() - diameter_polygon) <= 1e-9 * L);
  const double rel = x_mid.norm() / diameter_circle - 1.0;
  // x/sin x − 1 = x²/6 + 7x⁴/360 + O(x⁶), x = π/n: the O(x⁶) term is 3e-8 at n = 20.
  const double x = std::numbers::pi / n;
  CHECK(std::abs(rel - (x * x / 6.0 + 7.0 * std::pow(x, 4) / 360.0)) <= 1e-7);
}
