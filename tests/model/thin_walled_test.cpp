// Thin-walled space beams (Beam3DSection::EIw > 0, docs/notes/beam3d.md S.16): the
// nodal warping unknowns ω_a, ω_b with W_w = L₀ [½ EI_w ((ω_b − ω_a)/L₀)² +
// ½ GI_w (κ₁ − ½(ω_a + ω_b))²] and the Wagner term Γ₁ → Γ₁ + ½ r² κ₁², r² =
// (EI2 + EI3)/EA. Checked: the energy against the plain element's strains, the
// energy / force / tangent triad at large rotations (14 entries), the exact
// ∇(K a)·b, objectivity, the stress resultants as derivatives of W, and the
// constructor's refusals.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <stdexcept>

#include "model/derivative_checks.hpp"
#include "senda/model/beam3d.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::element_force;
using senda::testing::element_tangent;

namespace {

// A section whose Wagner term is not small: r² = (0.8 + 1.1)/3.0.
const Beam3DSection kSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1, 0.45, 2.3};
const Eigen::Vector3d kXa(0.2, -0.1, 0.3), kXb(0.9, 0.5, -0.2);
const Eigen::Vector3d kRef(0.0, 0.0, 1.0);

Beam3D thin_walled(const Beam3DSection& s = kSection) {
  Beam3DEnd a, b;
  a.warp = 1;
  b.warp = 1;
  return Beam3D(1, 0, 1, kXa, kXb, s, kRef, a, b);
}

Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
}

// (u_a, ψ_a, u_b, ψ_b, ω_a, ω_b), ψ_b near ψ_a.
Eigen::VectorXd random_state(std::mt19937& rng, double translation, double angle, double warp) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q(14);
  const Eigen::Vector3d psi_a = angle * random_unit(rng);
  for (int c = 0; c < 3; ++c) q[c] = translation * u(rng);
  q.segment<3>(3) = psi_a;
  for (int c = 0; c < 3; ++c) q[6 + c] = translation * u(rng);
  q.segment<3>(9) = rotation_vector(rotation_matrix(psi_a) * rotation_matrix(0.4 * random_unit(rng)));
  q[12] = warp * u(rng);
  q[13] = warp * u(rng);
  return q;
}

}  // namespace

TEST_CASE("thin-walled beam: the energy is the rod's with the Wagner strain plus the warping energy",
          "[beam3d][thin-walled]") {
  std::mt19937 rng(17);
  const Beam3D e = thin_walled();
  const Beam3D plain(1, 0, 1, kXa, kXb, Beam3DSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1}, kRef);
  REQUIRE(e.dofs().size() == 14);
  CHECK(e.dofs()[12].node == 0);
  CHECK(e.dofs()[12].slot == 1);
  CHECK(e.dofs()[13].node == 1);
  const double L = e.reference_length(), r2 = (0.8 + 1.1) / 3.0;
  for (const double angle : {0.0, 0.9, 2.5}) {
    const Eigen::VectorXd u = random_state(rng, 0.3, angle, 0.7);
    const Eigen::VectorXd v = u.head<12>();
    const Eigen::Matrix<double, 6, 1> s = plain.strains(v);
    CHECK((e.strains(u) - s).norm() <= 1e-15);
    CHECK((e.full_state(u) - v).norm() == 0.0);
    // W by hand from the plain element's strains (S.16a, S.16b).
    const double axial = s[0] + 0.5 * r2 * s[3] * s[3];
    const double dw = (u[13] - u[12]) / L, shear = s[3] - 0.5 * (u[12] + u[13]);
    const double W = plain.energy(v) + 0.5 * L * 3.0 * (axial * axial - s[0] * s[0]) +
                     0.5 * L * (0.45 * dw * dw + 2.3 * shear * shear);
    INFO("angle " << angle << " W " << W);
    CHECK(std::abs(e.energy(u) - W) <= 1e-14 * (1.0 + W));
  }
}

TEST_CASE("thin-walled beam: force and tangent against finite differences, exact dK, objectivity",
          "[beam3d][thin-walled]") {
  std::mt19937 rng(23);
  const Beam3D e = thin_walled();
  const double L = e.reference_length();
  // (translation, |ψ|, |ω|): the series branches at small angles and large rotations.
  const double cases[][3] = {{0.0, 0.0, 0.0}, {0.05, 0.02, 0.01}, {0.3, 1.3, 0.8}, {0.5, 2.8, 2.0}};
  for (const auto& c : cases) {
    const Eigen::VectorXd u = random_state(rng, c[0], c[1], c[2]);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    Eigen::VectorXd h(14), a(14), b(14);
    for (int i = 0; i < 14; ++i) {
      h[i] = d(rng);
      a[i] = d(rng);
      b[i] = d(rng);
    }
    INFO("u " << u.transpose());
    senda::testing::check_element_triad(e, u, h, L, 3.0, 1e-14);
    senda::testing::check_tangent_derivative(e, u, a, b);
  }
  // A rigid rotation Q of the whole: the same energy, the translational forces
  // rotated, the warping forces (scalars) unchanged.
  const Eigen::VectorXd u = random_state(rng, 0.3, 1.1, 0.9);
  const Eigen::VectorXd f = element_force(e, u);
  for (const Eigen::Vector3d w : {Eigen::Vector3d(2.9, 0, 0), Eigen::Vector3d(0, -2.7, 0), Eigen::Vector3d(1.2, -0.7, 2.0)}) {
    const Eigen::Matrix3d Q = rotation_matrix(w);
    Eigen::VectorXd r = u;
    const Eigen::Vector3d X[2] = {kXa, kXb};
    for (int end = 0; end < 2; ++end) {
      r.segment<3>(6 * end) = Q * (X[end] + u.segment<3>(6 * end)) - X[end];
      r.segment<3>(6 * end + 3) = rotation_vector(Q * rotation_matrix(u.segment<3>(6 * end + 3)));
    }
    INFO("rigid rotation " << w.transpose());
    CHECK(std::abs(e.energy(r) - e.energy(u)) <= 1e-13 * e.energy(u));
    const Eigen::VectorXd fr = element_force(e, r);
    CHECK((fr.segment<3>(0) - Q * f.segment<3>(0)).norm() <= 1e-12 * f.norm());
    CHECK((fr.segment<3>(6) - Q * f.segment<3>(6)).norm() <= 1e-12 * f.norm());
    CHECK((fr.tail<2>() - f.tail<2>()).norm() <= 1e-12 * f.norm());
  }
}

TEST_CASE("thin-walled beam: N and T are the derivatives of W in the axial strain and the twist",
          "[beam3d][thin-walled]") {
  // A straight member along x twisted by φ at end b (ψ_b = φ e₁) and stretched by
  // δ: κ₁ = φ/L₀, Γ₁ = δ/L₀, so ∂W/∂φ = T and ∂W/∂δ = N exactly.
  const Eigen::Vector3d xa(0, 0, 0), xb(2, 0, 0);
  Beam3DEnd a, b;
  a.warp = 1;
  b.warp = 1;
  const Beam3D e(1, 0, 1, xa, xb, kSection, kRef, a, b);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(14);
  u[6] = -0.03;  // δ: compression
  u[9] = 0.4;    // φ
  u[12] = 0.1;
  u[13] = 0.25;
  const Eigen::Matrix<double, 6, 1> s = e.stress_resultants(u);
  const double h = 1e-6;
  Eigen::VectorXd p = u, m = u;
  p[9] += h;
  m[9] -= h;
  CHECK(std::abs((e.energy(p) - e.energy(m)) / (2 * h) - s[3]) <= 1e-8);
  p = u;
  m = u;
  p[6] += h;
  m[6] -= h;
  CHECK(std::abs((e.energy(p) - e.energy(m)) / (2 * h) - s[0]) <= 1e-8);
  // The Wagner part of T by hand: N r² κ₁ with N < 0 lowers the torsional stiffness.
  const double L = 2.0, r2 = (0.8 + 1.1) / 3.0, k1 = 0.4 / L, N = 3.0 * (-0.03 / L + 0.5 * r2 * k1 * k1);
  CHECK(std::abs(s[0] - N) <= 1e-15);
  CHECK(std::abs(s[3] - (0.6 * k1 + N * r2 * k1 + 2.3 * (k1 - 0.5 * 0.35))) <= 1e-15);
}

TEST_CASE("thin-walled beam: the constructor refuses half a thin-walled section and ends without warping unknowns",
          "[beam3d][thin-walled]") {
  Beam3DSection s = kSection;
  s.GIw = 0.0;
  CHECK_THROWS_AS(thin_walled(s), std::invalid_argument);
  s = kSection;
  s.EIw = -1.0;
  CHECK_THROWS_AS(thin_walled(s), std::invalid_argument);
  // A thin-walled section needs the warping unknowns, a plain one refuses them.
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, kSection, kRef), std::logic_error);
  Beam3DEnd w;
  w.warp = 1;
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, Beam3DSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1}, kRef, w, w),
                  std::logic_error);
}
