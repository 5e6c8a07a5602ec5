// One-axis hinges of space beams (docs/notes/beam3d.md S.13): a Beam3D end that keeps
// its node's rotation vector ψ_n and adds the hinge angle α, its section turning with
// R_n exp(α â). Checked: the kinematics against a plain element given the composed
// rotation, the energy / force / tangent triad at large rotations (13 and 14
// entries), the exact ∇(K a)·b, objectivity (the axis is carried by the node), and
// ∂W/∂α as the end moment about the current hinge axis R_n â.
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

Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
}

// The element with hinges at the ends asked for (slots 1 and 2: the α of each).
Beam3D hinged(bool at_a, bool at_b) {
  Beam3DEnd a, b;
  if (at_a) a = Beam3DEnd{1, false, kAxisA};
  if (at_b) b = Beam3DEnd{2, false, kAxisB};
  return Beam3D(1, 0, 1, kXa, kXb, kSection, kRef, a, b);
}

// A local vector of the hinged element: per end u (3), ψ_n (3), α at a hinged end.
Eigen::VectorXd random_state(std::mt19937& rng, bool at_a, bool at_b, double translation, double angle,
                             double alpha) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q(12 + (at_a ? 1 : 0) + (at_b ? 1 : 0));
  int i = 0;
  const Eigen::Vector3d psi_a = angle * random_unit(rng);
  for (int end = 0; end < 2; ++end) {
    for (int c = 0; c < 3; ++c) q[i++] = translation * u(rng);
    // ψ_b: near ψ_a, so that the element's relative rotation stays moderate.
    const Eigen::Vector3d psi = end == 0 ? psi_a : rotation_vector(rotation_matrix(psi_a) * rotation_matrix(0.4 * random_unit(rng)));
    for (int c = 0; c < 3; ++c) q[i++] = psi[c];
    if (end == 0 ? at_a : at_b) q[i++] = alpha * u(rng);
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

TEST_CASE("one-axis hinge: the end's rotation is R_n exp(alpha a), the other components exact at large rotations",
          "[beam3d][axis-hinge]") {
  std::mt19937 rng(31);
  const Beam3D plain(1, 0, 1, kXa, kXb, kSection, kRef);
  for (const auto& ends : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    const Beam3D e = hinged(ends.first, ends.second);
    REQUIRE(e.dofs().size() == 12u + (ends.first ? 1 : 0) + (ends.second ? 1 : 0));
    for (const double angle : {0.0, 0.7, 2.4}) {
      const Eigen::VectorXd u = random_state(rng, ends.first, ends.second, 0.3, angle, 1.2);
      // The composed rotations, by matrices (independently of the kernel's quaternions).
      Eigen::VectorXd v(12);
      int i = 0;
      for (int end = 0; end < 2; ++end) {
        v.segment<3>(6 * end) = u.segment<3>(i);
        Eigen::Matrix3d R = rotation_matrix(u.segment<3>(i + 3));
        i += 6;
        if (end == 0 ? ends.first : ends.second) {
          const Eigen::Vector3d a = (end == 0 ? kAxisA : kAxisB).normalized();
          R = R * rotation_matrix(u[i++] * a);
        }
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

TEST_CASE("one-axis hinge: force and tangent against finite differences, exact dK, objectivity",
          "[beam3d][axis-hinge]") {
  std::mt19937 rng(8);
  for (const auto& ends : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
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
      Eigen::VectorXd exact;
      REQUIRE(e.tangent_derivative(u, a, b, exact));
      const double t = 1e-4;
      const Eigen::VectorXd fd = (element_tangent(e, u + t * b) * a - element_tangent(e, u - t * b) * a) / (2 * t);
      CHECK((exact - fd).norm() <= 1e-7 * (1.0 + exact.norm()));
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
        i += (end == 0 ? ends.first : ends.second) ? 7 : 6;
      }
      INFO("rigid rotation " << w.transpose());
      CHECK(std::abs(e.energy(r) - e.energy(u)) <= 1e-13 * e.energy(u));
      const Eigen::VectorXd fr = element_force(e, r);
      const int ob = ends.first ? 7 : 6;
      CHECK((fr.segment<3>(0) - Q * f.segment<3>(0)).norm() <= 1e-12 * f.norm());
      CHECK((fr.segment<3>(ob) - Q * f.segment<3>(ob)).norm() <= 1e-12 * f.norm());
      // ∂W/∂α does not change either: the hinge moment is a scalar about the carried axis.
      if (ends.first) CHECK(std::abs(fr[6] - f[6]) <= 1e-12 * f.norm());
    }
  }
}

TEST_CASE("one-axis hinge: dW/d alpha is the end moment about the current hinge axis R_n a", "[beam3d][axis-hinge]") {
  // R_m(α + δ) = R_m exp(δ â) = exp(δ R_n â) R_m (R_m â = R_n â): the derivative in α is
  // the spatial end moment of the plain element with end rotation R_m, about R_n â.
  std::mt19937 rng(4);
  const Beam3D plain(1, 0, 1, kXa, kXb, kSection, kRef);
  const Beam3D e = hinged(true, true);
  for (int rep = 0; rep < 3; ++rep) {
    const Eigen::VectorXd u = random_state(rng, true, true, 0.3, 1.5, 1.0);
    const Eigen::VectorXd f = element_force(e, u);
    const Eigen::VectorXd v = e.full_state(u);
    const Eigen::Vector3d axis_a = rotation_matrix(u.segment<3>(3)) * kAxisA.normalized();
    const Eigen::Vector3d axis_b = rotation_matrix(u.segment<3>(10)) * kAxisB.normalized();
    CHECK(std::abs(f[6] - spatial_moment(plain, v, 0).dot(axis_a)) <= 1e-8 * f.norm());
    CHECK(std::abs(f[13] - spatial_moment(plain, v, 1).dot(axis_b)) <= 1e-8 * f.norm());
  }
}
