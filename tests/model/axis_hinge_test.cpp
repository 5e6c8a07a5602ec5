// One- and two-axis hinges of space beams (docs/notes/beam3d.md S.13, S.15): a Beam3D
// end that keeps its node's rotation vector ψ_n and adds the hinge angle α, its
// section turning with R_n exp(α â), or two angles α, β of a universal joint,
// R_n exp(α â) exp(β b̂). Checked: the kinematics against a plain element given the
// composed rotation, the energy / force / tangent triad at large rotations (13 to 16
// entries), the exact ∇(K a)·b, objectivity (the axes are carried by the node and
// the cross), and ∂W/∂α, ∂W/∂β as the end moments about the current axes R_n â and
// R_n exp(α â) b̂.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/model/beam3d.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::element_force;
using senda::testing::element_tangent;

namespace {

const Beam3DSection kSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1};
const Eigen::Vector3d kXa(0.2, -0.1, 0.3), kXb(0.9, 0.5, -0.2);
const Eigen::Vector3d kRef(0.0, 0.0, 1.0);
const Eigen::Vector3d kAxisA(0.3, -1.0, 0.4), kAxisB(1.0, 0.2, 0.5);  // not unit: normalized by the element
// The second axes of two-axis joints: not parallel to the first (and not perpendicular
// either: the element does not need it).
const Eigen::Vector3d kAxisA2(1.0, 0.5, 0.2), kAxisB2(-0.2, 0.9, 0.6);
// The ends' hinge angle counts tested: one-axis at either or both ends, two-axis.
const std::pair<int, int> kEnds[] = {{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2}, {2, 2}, {1, 2}, {2, 1}};

Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
}

// The element with na, nb hinge angles at its ends (0: rigid, 1: one-axis, 2: two-axis;
// slots 1 (and 2) at end a, 3 (and 4) at end b).
Beam3D hinged(int na, int nb) {
  Beam3DEnd a, b;
  if (na > 0) a = Beam3DEnd{1, false, kAxisA, na == 2 ? kAxisA2 : Eigen::Vector3d::Zero()};
  if (nb > 0) b = Beam3DEnd{3, false, kAxisB, nb == 2 ? kAxisB2 : Eigen::Vector3d::Zero()};
  return Beam3D(1, 0, 1, kXa, kXb, kSection, kRef, a, b);
}

// A local vector of the hinged element: per end u (3), ψ_n (3), then its hinge angles.
Eigen::VectorXd random_state(std::mt19937& rng, int na, int nb, double translation, double angle, double alpha) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q(12 + na + nb);
  int i = 0;
  const Eigen::Vector3d psi_a = angle * random_unit(rng);
  for (int end = 0; end < 2; ++end) {
    for (int c = 0; c < 3; ++c) q[i++] = translation * u(rng);
    // ψ_b: near ψ_a, so that the element's relative rotation stays moderate.
    const Eigen::Vector3d psi = end == 0 ? psi_a : rotation_vector(rotation_matrix(psi_a) * rotation_matrix(0.4 * random_unit(rng)));
    for (int c = 0; c < 3; ++c) q[i++] = psi[c];
    for (int j = 0; j < (end == 0 ? na : nb); ++j) q[i++] = alpha * u(rng);
  }
  return q;
}

// Spatial moment at node n of a plain element: m_k = dW/dε for R_n ← exp(ε ê_k) R_n.
Eigen::Vector3d spatial_moment(const Beam3D& e, const Eigen::VectorXd& q, int n) {
  Eigen::Vector3d m;
  const double h = 1e-5;
  for (int k = 0; k < 3; ++k) {
    Eigen::VectorXd qp = q, qm = q;
    const Eigen::Matrix3d R = rotation_matrix(q.segment<3>(6 * n + 3));
    qp.segment<3>(6 * n + 3) = rotation_vector(rotation_matrix(h * Eigen::Vector3d::Unit(k)) * R);
    qm.segment<3>(6 * n + 3) = rotation_vector(rotation_matrix(-h * Eigen::Vector3d::Unit(k)) * R);
    m[k] = (e.energy(qp) - e.energy(qm)) / (2 * h);
  }
  return m;
}

}  // namespace

TEST_CASE("one- and two-axis hinges: the end's rotation is R_n exp(alpha a) [exp(beta b)], the other components "
          "exact at large rotations",
          "[beam3d][axis-hinge][universal-joint]") {
  std::mt19937 rng(31);
  const Beam3D plain(1, 0, 1, kXa, kXb, kSection, kRef);
  for (const auto& ends : kEnds) {
    const Beam3D e = hinged(ends.first, ends.second);
    REQUIRE(e.dofs().size() == static_cast<std::size_t>(12 + ends.first + ends.second));
    for (const double angle : {0.0, 0.7, 2.4}) {
      const Eigen::VectorXd u = random_state(rng, ends.first, ends.second, 0.3, angle, 1.2);
      // The composed rotations, by matrices (independently of the kernel's quaternions).
      Eigen::VectorXd v(12);
      int i = 0;
      for (int end = 0; end < 2; ++end) {
        v.segment<3>(6 * end) = u.segment<3>(i);
        Eigen::Matrix3d R = rotation_matrix(u.segment<3>(i + 3));
        i += 6;
        const int angles = end == 0 ? ends.first : ends.second;
        if (angles > 0) R = R * rotation_matrix(u[i++] * (end == 0 ? kAxisA : kAxisB).normalized());
        if (angles > 1) R = R * rotation_matrix(u[i++] * (end == 0 ? kAxisA2 : kAxisB2).normalized());
        v.segment<3>(6 * end + 3) = rotation_vector(R);
      }
      INFO("ends " << ends.first << ends.second << " angle " << angle);
      CHECK((e.full_state(u) - v).norm() <= 1e-13);
      CHECK(std::abs(e.energy(u) - plain.energy(v)) <= 1e-13 * (1.0 + plain.energy(v)));
      CHECK((e.strains(u) - plain.strains(v)).norm() <= 1e-13);
      CHECK((e.section_frame(u) - plain.section_frame(v)).norm() <= 1e-13);
    }
  }
}

TEST_CASE("one- and two-axis hinges: force and tangent against finite differences, exact dK, objectivity",
          "[beam3d][axis-hinge][universal-joint]") {
  std::mt19937 rng(8);
  for (const auto& ends : kEnds) {
    const Beam3D e = hinged(ends.first, ends.second);
    const int n = static_cast<int>(e.dofs().size());
    const double L = e.reference_length();
    // (translation, |ψ|, |α|): the series branches (small angles) and large rotations.
    const double cases[][3] = {{0.0, 0.0, 0.0}, {0.05, 0.02, 0.01}, {0.3, 1.3, 0.8}, {0.5, 2.8, 2.0}};
    for (const auto& c : cases) {
      const Eigen::VectorXd u = random_state(rng, ends.first, ends.second, c[0], c[1], c[2]);
      std::uniform_real_distribution<double> d(-1.0, 1.0);
      Eigen::VectorXd h(n), a(n), b(n);
      for (int i = 0; i < n; ++i) {
        h[i] = d(rng);
        a[i] = d(rng);
        b[i] = d(rng);
      }
      INFO("ends " << ends.first << ends.second << " u " << u.transpose());
      senda::testing::check_element_triad(e, u, h, L, 3.0, 1e-14);
      senda::testing::check_tangent_derivative(e, u, a, b);
    }
    // A rigid rotation Q of the whole (ψ_n ← log(Q R_n), α unchanged: the axis turns
    // with the node): the same energy, the translational forces rotated.
    const Eigen::VectorXd u = random_state(rng, ends.first, ends.second, 0.3, 1.1, 0.9);
    const Eigen::VectorXd f = element_force(e, u);
    for (const Eigen::Vector3d w : {Eigen::Vector3d(2.9, 0, 0), Eigen::Vector3d(0, -2.7, 0), Eigen::Vector3d(1.2, -0.7, 2.0)}) {
      const Eigen::Matrix3d Q = rotation_matrix(w);
      Eigen::VectorXd r = u;
      const Eigen::Vector3d X[2] = {kXa, kXb};
      int i = 0;
      for (int end = 0; end < 2; ++end) {
        r.segment<3>(i) = Q * (X[end] + u.segment<3>(i)) - X[end];
        r.segment<3>(i + 3) = rotation_vector(Q * rotation_matrix(u.segment<3>(i + 3)));
        i += 6 + (end == 0 ? ends.first : ends.second);
      }
      INFO("rigid rotation " << w.transpose());
      CHECK(std::abs(e.energy(r) - e.energy(u)) <= 1e-13 * e.energy(u));
      const Eigen::VectorXd fr = element_force(e, r);
      const int ob = 6 + ends.first;
      CHECK((fr.segment<3>(0) - Q * f.segment<3>(0)).norm() <= 1e-12 * f.norm());
      CHECK((fr.segment<3>(ob) - Q * f.segment<3>(ob)).norm() <= 1e-12 * f.norm());
      // ∂W/∂α (and ∂W/∂β) do not change either: hinge moments are scalars about the
      // carried axes.
      for (int j = 0; j < ends.first; ++j) CHECK(std::abs(fr[6 + j] - f[6 + j]) <= 1e-12 * f.norm());
      for (int j = 0; j < ends.second; ++j) CHECK(std::abs(fr[ob + 6 + j] - f[ob + 6 + j]) <= 1e-12 * f.norm());
    }
  }
}

TEST_CASE("one-axis hinge: dW/d alpha is the end moment about the current hinge axis R_n a", "[beam3d][axis-hinge]") {
  // R_m(α + δ) = R_m exp(δ â) = exp(δ R_n â) R_m (R_m â = R_n â): the derivative in α is
  // the spatial end moment of the plain element with end rotation R_m, about R_n â.
  std::mt19937 rng(4);
  const Beam3D plain(1, 0, 1, kXa, kXb, kSection, kRef);
  const Beam3D e = hinged(1, 1);
  for (int rep = 0; rep < 3; ++rep) {
    const Eigen::VectorXd u = random_state(rng, 1, 1, 0.3, 1.5, 1.0);
    const Eigen::VectorXd f = element_force(e, u);
    const Eigen::VectorXd v = e.full_state(u);
    const Eigen::Vector3d axis_a = rotation_matrix(u.segment<3>(3)) * kAxisA.normalized();
    const Eigen::Vector3d axis_b = rotation_matrix(u.segment<3>(10)) * kAxisB.normalized();
    CHECK(std::abs(f[6] - spatial_moment(plain, v, 0).dot(axis_a)) <= 1e-8 * f.norm());
    CHECK(std::abs(f[13] - spatial_moment(plain, v, 1).dot(axis_b)) <= 1e-8 * f.norm());
  }
}

TEST_CASE("two-axis joint: dW/d alpha and dW/d beta are the end moments about R_n a and R_n exp(alpha a) b",
          "[beam3d][universal-joint]") {
  // R_e = R_n exp(α â) exp(β b̂) R₀: a change of β turns the end about the cross's
  // axis R_n exp(α â) b̂, a change of α about the node's R_n â. Each derivative is the spatial end moment of the plain element
  // with the composed end rotation, about that axis; the third direction, normal to
  // both, carries a moment that no angle releases.
  std::mt19937 rng(5);
  const Beam3D plain(1, 0, 1, kXa, kXb, kSection, kRef);
  const Beam3D e = hinged(2, 2);
  for (int rep = 0; rep < 3; ++rep) {
    const Eigen::VectorXd u = random_state(rng, 2, 2, 0.3, 1.5, 1.0);
    const Eigen::VectorXd f = element_force(e, u);
    const Eigen::VectorXd v = e.full_state(u);
    const int ob = 8;  // end b's first entry
    for (int end = 0; end < 2; ++end) {
      const int o = end == 0 ? 0 : ob;
      const Eigen::Matrix3d Rn = rotation_matrix(u.segment<3>(o + 3));
      const Eigen::Vector3d a = (end == 0 ? kAxisA : kAxisB).normalized();
      const Eigen::Vector3d b = (end == 0 ? kAxisA2 : kAxisB2).normalized();
      const Eigen::Vector3d m = spatial_moment(plain, v, end);
      INFO("end " << end << " m " << m.transpose());
      CHECK(std::abs(f[o + 6] - m.dot(Rn * a)) <= 1e-8 * f.norm());
      CHECK(std::abs(f[o + 7] - m.dot(Rn * rotation_matrix(u[o + 6] * a) * b)) <= 1e-8 * f.norm());
    }
  }
  // Parallel axes are refused.
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, kSection, kRef, Beam3DEnd{1, false, kAxisA, -2.0 * kAxisA}),
                  std::invalid_argument);
}
