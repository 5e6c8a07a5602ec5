// Ball joints of space beams (docs/notes/beam3d.md S.10–S.11): the Beam3D end with
// its spin held (components along e₂, e₃ of the member's own rotation vector) and
// the isotropic spring across a ball joint, through the energy / force / tangent
// triad, the exact ∇(Ka)·b, objectivity; and a one-element member ball-jointed at
// both ends against a truss bar: which strain measure it is.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::element_force;
using senda::testing::element_tangent;

namespace {

const Beam3DSection kSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1};
const Eigen::Vector3d kXa(0.2, -0.1, 0.3), kXb(0.9, 0.5, -0.2);
const Eigen::Vector3d kRef(0.0, 0.0, 1.0);

// Entries uniform in [−scale, scale], from rng: the same directions whichever tests
// ran before (Eigen's Random depends on the global rand() state).
Eigen::VectorXd random_vector(std::mt19937& rng, int n, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

Eigen::Vector3d random_unit(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
}

// Central differences of ∇(K a)·b = d/dt (K(u + t b) a) (error O(t²)).
Eigen::VectorXd fd_dK(const Element& e, const Eigen::VectorXd& u, const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                      double t) {
  return (element_tangent(e, u + t * b) * a - element_tangent(e, u - t * b) * a) / (2 * t);
}

}  // namespace

TEST_CASE("ball joint: a Beam3D end with its spin held, force and tangent at large rotations", "[beam3d][ball-joint]") {
  // End a: (ua, a₂, a₃) — its rotation vector a₂ e₂ + a₃ e₃; end b: the member's
  // own rotation vector in global components (slot 4), as a member ball-jointed at
  // both ends is built. 11 unknowns.
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef, Beam3DEnd{1, true}, Beam3DEnd{4, false});
  REQUIRE(e.dofs().size() == 11);
  CHECK(e.dofs()[3].component == Component::Ry);
  CHECK(e.dofs()[3].slot == 1);
  CHECK(e.dofs()[4].slot == 2);
  CHECK(e.dofs()[10].slot == 6);
  // full_state maps (a₂, a₃) to R₀ (0, a₂, a₃).
  Eigen::VectorXd u = Eigen::VectorXd::Zero(11);
  u[3] = 0.4;
  u[4] = -0.7;
  const Eigen::Matrix3d& R0 = e.reference_frame();
  CHECK((e.full_state(u).segment<3>(3) - (0.4 * R0.col(1) - 0.7 * R0.col(2))).norm() <= 1e-15);
  CHECK(std::abs(e.full_state(u).segment<3>(3).dot(R0.col(0))) <= 1e-15);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  // (translation, rotation angle of each end): both sides of the series branches
  // (|ψ|² < 1e-2) and large rotations up to 2.5 rad.
  const double cases[][2] = {{0.0, 0.0}, {0.05, 0.05}, {0.3, 0.0999}, {0.3, 0.1001}, {0.4, 1.2}, {0.5, 2.5}};
  for (const auto& c : cases) {
    for (int rep = 0; rep < 2; ++rep) {
      Eigen::VectorXd v(11);
      for (int i : {0, 1, 2, 5, 6, 7}) v[i] = c[0] * d(rng);
      const double phi = c[1] * d(rng);
      v[3] = c[1] * std::cos(3 * phi);
      v[4] = c[1] * std::sin(3 * phi);
      v.segment<3>(8) = c[1] * random_unit(rng);
      const Eigen::VectorXd h = random_vector(rng, 11);
      INFO("state " << v.transpose());
      senda::testing::check_element_triad(e, v, h, e.reference_length(), 3.0, 1e-14);
      // The exact directional derivative of K (AutoDiff, S.6) against central
      // differences of K with t = 1e-4 (error O(t²) ≈ 1e-8 relative).
      const Eigen::VectorXd a = random_vector(rng, 11), b = random_vector(rng, 11);
      Eigen::VectorXd exact;
      REQUIRE(e.tangent_derivative(v, a, b, exact));
      const Eigen::VectorXd fd = fd_dK(e, v, a, b, 1e-4);
      CHECK((exact - fd).norm() <= 1e-6 * (fd.norm() + 1.0));
    }
  }
}

TEST_CASE("ball joint: the spring across it is ½ K θ², objective, with an exact tangent", "[beam3d][ball-joint]") {
  const double K = 2.5;
  const BallJointSpring s(0, 1, K, "hinge spring");
  REQUIRE(s.dofs().size() == 6);
  CHECK(s.dofs()[0].slot == 0);
  CHECK(s.dofs()[3].slot == 1);
  CHECK(s.dofs()[5].slot == 3);
  CHECK(s.dofs()[5].component == Component::Rz);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> d(0.0, 1.0);
  for (const double angle : {0.0, 0.05, 0.3, 1.5, 2.8}) {
    for (const double relative : {0.0, 0.02, 0.04, 0.5, 2.0}) {
      const Eigen::Vector3d psi_n = angle * random_unit(rng);
      const Eigen::Vector3d axis = random_unit(rng);
      // ψ_m: ψ_n followed by a relative rotation `relative` about `axis`.
      Eigen::VectorXd u(6);
      u.head<3>() = psi_n;
      u.tail<3>() = rotation_vector(rotation_matrix(psi_n) * rotation_matrix(relative * axis));
      INFO("angle " << angle << " relative " << relative);
      // W = ½ K θ² to round-off (θ from the composition, not from ψ_m − ψ_n).
      CHECK(std::abs(s.energy(u) - 0.5 * K * relative * relative) <= 1e-13 * K);
      // Half-size directions: at ε = 0.1 the relative rotation changes by ≤ 0.09 rad.
      const Eigen::VectorXd h = random_vector(rng, 6, 0.5);
      if (std::max(angle, relative) >= 0.3) {
        senda::testing::check_element_triad(s, u, h, 1.0, K, 1e-14);
      } else {
        // Near u = 0 the force's second derivative is of the size of the state (at
        // u = 0 exactly zero: W is even in u), so the Taylor remainder over ε ≤ 0.1 is
        // dominated by its cubic term and its slope is not 2 by the element's nature;
        // the force and tangent against central differences (as in the triad).
        const auto f_of = [&](const Eigen::VectorXd& v) { return element_force(s, v); };
        const Eigen::VectorXd f = f_of(u);
        const Eigen::MatrixXd Kt = element_tangent(s, u);
        const Eigen::VectorXd f_fd =
            senda::testing::fd_gradient([&](const Eigen::VectorXd& v) { return s.energy(v); }, u, 1.0);
        CHECK((f - f_fd).norm() <= 1e-7 * (f.norm() + K));
        CHECK((Kt - senda::testing::fd_jacobian(f_of, u, 1.0)).norm() <= 1e-7 * (Kt.norm() + K));
        CHECK((Kt - Kt.transpose()).norm() <= 1e-14 * Kt.norm());
      }
      const Eigen::VectorXd a = random_vector(rng, 6), b = random_vector(rng, 6);
      Eigen::VectorXd exact;
      REQUIRE(s.tangent_derivative(u, a, b, exact));
      CHECK((exact - fd_dK(s, u, a, b, 1e-4)).norm() <= 1e-6 * (K + exact.norm()));
      // Objectivity: a rigid rotation Q of both frames leaves W unchanged.
      const Eigen::Matrix3d Q = rotation_matrix(2.0 * d(rng) * random_unit(rng));
      Eigen::VectorXd r(6);
      r.head<3>() = rotation_vector(Q * rotation_matrix(u.head<3>()));
      r.tail<3>() = rotation_vector(Q * rotation_matrix(u.tail<3>()));
      CHECK(std::abs(s.energy(r) - s.energy(u)) <= 1e-13 * K);
      // ψ_m − ψ_n is not the relative rotation: at large ψ_n, ½ K |ψ_m − ψ_n|² would
      // differ from W by far more than round-off (the reason for S.11).
      if (angle > 1.0 && relative > 0.3)
        CHECK(std::abs(0.5 * K * (u.tail<3>() - u.head<3>()).squaredNorm() - s.energy(u)) > 1e-3 * s.energy(u));
    }
  }
}

TEST_CASE("ball joint: a one-element member pinned at both ends is a bar of engineering strain",
          "[beam3d][ball-joint][truss]") {
  // With its rotations free (spin held at end a, S.10), the beam's energy minimised
  // over its 5 rotation unknowns at given end translations is ½ EA L₀ (Γ₁)², Γ₁ =
  // |x'| − 1 (Γ₂ = Γ₃ = 0, κ = 0: S.4 with R_m e₁ along the chord): the energy of a
  // TrussBar with the engineering measure, which is what the rotations are
  // condensed to. Checked at stretches of ±20 % (where the three measures differ by
  // ~10 % in energy), by Newton on the rotations: the minimum equals the
  // engineering bar's energy and its condensed tangent (Schur complement on the
  // translations) the bar's tangent, to round-off; Green–Lagrange and logarithmic
  // bars are far off.
  const double EA = kSection.EA;
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef, Beam3DEnd{1, true}, Beam3DEnd{3, false});
  const TrussBar eng(1, 3, 0, 1, kXa, kXb, EA, StrainMeasure::Engineering);
  const TrussBar gl(1, 3, 0, 1, kXa, kXb, EA, StrainMeasure::GreenLagrange);
  const TrussBar lg(1, 3, 0, 1, kXa, kXb, EA, StrainMeasure::Logarithmic);
  const int t_idx[6] = {0, 1, 2, 5, 6, 7}, r_idx[5] = {3, 4, 8, 9, 10};
  std::mt19937 rng(3);
  for (const double stretch : {0.8, 0.95, 1.0, 1.2}) {
    // End b moved so that the chord has length stretch·L₀ and turns by 0.7 rad.
    const Eigen::Vector3d axis = random_unit(rng);
    const Eigen::Vector3d chord = stretch * (rotation_matrix(0.7 * axis) * (kXb - kXa));
    const Eigen::Vector3d ua(0.1, -0.2, 0.05);
    Eigen::VectorXd ut(6);
    ut << ua, (kXa + ua + chord - kXb);
    Eigen::VectorXd u = Eigen::VectorXd::Zero(11);
    for (int i = 0; i < 6; ++i) u[t_idx[i]] = ut[i];
    // Start from the rotation that takes e₁ to the chord (its axis normal to e₁, so
    // the spin-held end a has it exactly), then Newton on the rotations alone.
    const Eigen::Vector3d e1 = e.reference_frame().col(0), t = chord.normalized();
    const Eigen::Vector3d psi0 = std::acos(e1.dot(t)) * e1.cross(t).normalized();
    u[3] = psi0.dot(e.reference_frame().col(1));
    u[4] = psi0.dot(e.reference_frame().col(2));
    u.segment<3>(8) = psi0 + Eigen::Vector3d(0.01, -0.02, 0.03);  // off the minimum at end b
    u[3] += 0.02;
    Eigen::VectorXd f(11);
    Eigen::MatrixXd K(11, 11);
    for (int it = 0; it < 30; ++it) {
      e.compute(u, &f, &K);
      Eigen::VectorXd fr(5);
      Eigen::MatrixXd Krr(5, 5);
      for (int i = 0; i < 5; ++i) {
        fr[i] = f[r_idx[i]];
        for (int j = 0; j < 5; ++j) Krr(i, j) = K(r_idx[i], r_idx[j]);
      }
      const Eigen::VectorXd step = Krr.ldlt().solve(fr);
      for (int i = 0; i < 5; ++i) u[r_idx[i]] -= step[i];
      if (step.norm() < 1e-15) break;
    }
    e.compute(u, &f, &K);
    Eigen::VectorXd fr(5), ft(6), f_bar(6);
    Eigen::MatrixXd Krr(5, 5), Krt(5, 6), Ktt(6, 6), K_bar(6, 6);
    for (int i = 0; i < 5; ++i) {
      fr[i] = f[r_idx[i]];
      for (int j = 0; j < 5; ++j) Krr(i, j) = K(r_idx[i], r_idx[j]);
      for (int j = 0; j < 6; ++j) Krt(i, j) = K(r_idx[i], t_idx[j]);
    }
    for (int i = 0; i < 6; ++i) {
      ft[i] = f[t_idx[i]];
      for (int j = 0; j < 6; ++j) Ktt(i, j) = K(t_idx[i], t_idx[j]);
    }
    eng.compute(ut, &f_bar, &K_bar);
    const double W_bar = eng.energy(ut);
    INFO("stretch " << stretch << " W beam " << e.energy(u) << " W bar " << W_bar << " |f_r| " << fr.norm());
    CHECK(fr.norm() <= 1e-14 * EA);
    // The condensed rotation block is positive definite (the spin is held).
    CHECK(Krr.ldlt().vectorD().minCoeff() > 0.0);
    CHECK(std::abs(e.energy(u) - W_bar) <= 1e-14 * EA);
    CHECK((ft - f_bar).norm() <= 1e-13 * EA);
    const Eigen::MatrixXd schur = Ktt - Krt.transpose() * Krr.ldlt().solve(Krt);
    CHECK((schur - K_bar).norm() <= 1e-10 * EA);
    if (std::abs(stretch - 1.0) > 0.1) {
      CHECK(std::abs(gl.energy(ut) - W_bar) > 0.05 * W_bar);
      CHECK(std::abs(lg.energy(ut) - W_bar) > 0.05 * W_bar);
    }
  }
}

TEST_CASE("ball joint: the spin of a member ball-jointed at both ends", "[beam3d][ball-joint][model]") {
  // A member from a support to a free point, released at both ends, with its other
  // rotation dofs its own: without the rule, the spin about its axis is an exact
  // zero mode of K; with the spin held at end a (S.10) the rotation block is
  // positive definite, and the held component is the one along e₁.
  const Beam3D free_spin(1, 0, 1, kXa, kXb, kSection, kRef, Beam3DEnd{1, false}, Beam3DEnd{4, false});
  const Eigen::MatrixXd K = element_tangent(free_spin, Eigen::VectorXd::Zero(12));
  Eigen::VectorXd spin = Eigen::VectorXd::Zero(12);
  const Eigen::Vector3d e1 = (kXb - kXa).normalized();
  spin.segment<3>(3) = e1;
  spin.segment<3>(9) = e1;
  CHECK((K * spin).norm() <= 1e-14 * K.norm());
  const Beam3D held(1, 0, 1, kXa, kXb, kSection, kRef, Beam3DEnd{1, true}, Beam3DEnd{3, false});
  const Eigen::MatrixXd Kh = element_tangent(held, Eigen::VectorXd::Zero(11));
  // Rotation block (a₂, a₃, ψ_b): its eigenvalues all positive, the smallest of the
  // order of the stiffnesses (not round-off).
  const int r_idx[5] = {3, 4, 8, 9, 10};
  Eigen::MatrixXd Krr(5, 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) Krr(i, j) = Kh(r_idx[i], r_idx[j]);
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Krr).eigenvalues();
  INFO("rotation block eigenvalues " << ev.transpose());
  CHECK(ev.minCoeff() > 1e-3);
}
