// Beam3D (geometrically exact space beam, docs/notes/beam3d.md): the energy /
// force / tangent triad at large-rotation states, objectivity under large rigid
// rotations, and the plane case against Beam2D (same formulation).
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::element_force;
using senda::testing::element_tangent;

namespace {

// Unequal stiffnesses of the order of one, so that a wrong term of any of them shows.
const Beam3DSection kSection{3.0, 1.7, 1.3, 0.6, 0.8, 1.1};
const Eigen::Vector3d kXa(0.2, -0.1, 0.3), kXb(0.9, 0.5, -0.2);  // L₀ = 1.049
const Eigen::Vector3d kRef(0.0, 0.0, 1.0);

Eigen::VectorXd random_state(std::mt19937& rng, double translation, double angle, double relative) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q(12);
  const Eigen::Vector3d psi_a = angle * Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
  const Eigen::Vector3d dpsi = relative * Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
  for (int i = 0; i < 3; ++i) q[i] = translation * u(rng);
  for (int i = 0; i < 3; ++i) q[6 + i] = translation * u(rng);
  q.segment<3>(3) = psi_a;
  // ψ_b: ψ_a followed by a relative rotation of angle `relative`.
  q.segment<3>(9) = rotation_vector(rotation_matrix(psi_a) * rotation_matrix(dpsi));
  return q;
}

// ψ of R(Q) exp(ψ̂) and the displacement of x ↦ Q x for node position X: a rigid
// rotation Q about the origin applied to a state.
Eigen::VectorXd rotate_state(const Eigen::VectorXd& q, const Eigen::Matrix3d& Q) {
  Eigen::VectorXd r(12);
  const Eigen::Vector3d X[2] = {kXa, kXb};
  for (int n = 0; n < 2; ++n) {
    r.segment<3>(6 * n) = Q * (X[n] + q.segment<3>(6 * n)) - X[n];
    r.segment<3>(6 * n + 3) = rotation_vector(Q * rotation_matrix(q.segment<3>(6 * n + 3)));
  }
  return r;
}

// Spatial moment at node n: m_k = dW/dε for R_n ← exp(ε ê_k) R_n (central
// differences, error O(ε²) ≈ 1e-10 relative).
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

TEST_CASE("Beam3D: rotation vector and matrix are inverse, exp is orthogonal", "[beam3d]") {
  for (const Eigen::Vector3d psi : {Eigen::Vector3d(0.0, 0.0, 0.0), Eigen::Vector3d(1e-9, -2e-9, 0.5e-9),
                                    Eigen::Vector3d(0.05, -0.03, 0.07), Eigen::Vector3d(1.0, 2.0, -0.5),
                                    Eigen::Vector3d(0.0, 0.0, 3.1), Eigen::Vector3d(-3.0, 0.2, 0.1)}) {
    INFO("psi " << psi.transpose());
    const Eigen::Matrix3d R = rotation_matrix(psi);
    CHECK((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() <= 1e-15 * 10);
    CHECK(std::abs(R.determinant() - 1.0) <= 1e-14);
    CHECK((rotation_vector(R) - psi).norm() <= 1e-13);
    // Against Eigen's angle-axis.
    if (psi.norm() > 0) {
      const Eigen::Matrix3d A = Eigen::AngleAxisd(psi.norm(), psi.normalized()).toRotationMatrix();
      CHECK((A - R).norm() <= 1e-14);
    }
  }
}

TEST_CASE("Beam3D: reference frame from the reference vector, refused inputs", "[beam3d]") {
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef);
  const Eigen::Matrix3d& R0 = e.reference_frame();
  CHECK((R0.transpose() * R0 - Eigen::Matrix3d::Identity()).norm() <= 1e-15 * 10);
  CHECK((R0.col(0) - (kXb - kXa).normalized()).norm() <= 1e-15);
  CHECK(std::abs(R0.col(2).dot(kRef)) <= 1e-15);  // e₂ in the plane of e₁ and ref
  CHECK(R0.col(1).dot(kRef) > 0);
  CHECK(e.dofs().size() == 12);
  CHECK(e.energy(Eigen::VectorXd::Zero(12)) <= 1e-30);  // round-off of R₀ᵀR₀ E₁ − E₁
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, kSection, 2.5 * (kXb - kXa)), std::invalid_argument);
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, kSection, Eigen::Vector3d::Zero()), std::invalid_argument);
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXa, kSection, kRef), std::invalid_argument);
  Beam3DSection bad = kSection;
  bad.GJ = 0.0;
  CHECK_THROWS_AS(Beam3D(1, 0, 1, kXa, kXb, bad, kRef), std::invalid_argument);
}

TEST_CASE("Beam3D: force and tangent against finite differences at large-rotation states", "[beam3d]") {
  std::mt19937 rng(15);
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef);
  const double L = e.reference_length();
  // (translation, |ψ_a|, relative angle): the series branches (|ψ| < 0.1, relative
  // angle < 0.063), either side of them, and large rotations up to |ψ| = 3.0.
  const double cases[][3] = {{0.0, 0.0, 0.0},  {0.05, 0.02, 0.01}, {0.3, 0.099, 0.0632}, {0.3, 0.101, 0.0633},
                             {0.4, 1.3, 0.4},  {0.5, 2.5, 0.9},    {0.6, 3.0, 1.5},      {0.2, 5.0, 0.3}};
  int k = 0;
  for (const auto& c : cases) {
    for (int rep = 0; rep < 2; ++rep) {
      Eigen::VectorXd u = random_state(rng, c[0], c[1], c[2]);
      if (k == 0) u.setZero();
      Eigen::VectorXd h = Eigen::VectorXd::Random(12);
      INFO("case " << k << " u " << u.transpose());
      ++k;
      senda::testing::check_element_triad(e, u, h, L, 3.0, 1e-14);
      // The strains do not depend on which of q, −q the kernel used: the energy is
      // continuous across ψ_a ↦ ψ_a(1 − 2π/|ψ_a|) (the same rotation).
      const Eigen::Vector3d psi = u.segment<3>(3);
      if (psi.norm() > 0.5) {
        Eigen::VectorXd v = u;
        v.segment<3>(3) = psi * (1.0 - 2.0 * M_PI / psi.norm());
        CHECK(std::abs(e.energy(v) - e.energy(u)) <= 1e-12 * (1.0 + e.energy(u)));
      }
    }
  }
}

TEST_CASE("Beam3D: objectivity under large rigid rotations about every axis", "[beam3d][objectivity]") {
  std::mt19937 rng(7);
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef);
  const Eigen::VectorXd u = random_state(rng, 0.3, 1.1, 0.6);
  const double W = e.energy(u);
  REQUIRE(W > 0.1);
  const Eigen::VectorXd f = element_force(e, u);
  for (const Eigen::Vector3d axis_angle : {Eigen::Vector3d(2.9, 0, 0), Eigen::Vector3d(0, -2.7, 0),
                                           Eigen::Vector3d(0, 0, 3.0), Eigen::Vector3d(1.2, -0.7, 2.0)}) {
    INFO("rigid rotation " << axis_angle.transpose());
    const Eigen::Matrix3d Q = rotation_matrix(axis_angle);
    // An unstressed element rotated rigidly: no strain, no force.
    const Eigen::VectorXd r0 = rotate_state(Eigen::VectorXd::Zero(12), Q);
    CHECK(e.strains(r0).norm() <= 1e-14);
    CHECK(element_force(e, r0).norm() <= 1e-13);
    // A stressed one: the same energy, the forces and the spatial moments rotated.
    const Eigen::VectorXd r = rotate_state(u, Q);
    CHECK(std::abs(e.energy(r) - W) <= 1e-13 * W);
    CHECK((e.strains(r) - e.strains(u)).norm() <= 1e-13);
    const Eigen::VectorXd fr = element_force(e, r);
    for (int n = 0; n < 2; ++n) {
      CHECK((fr.segment<3>(6 * n) - Q * f.segment<3>(6 * n)).norm() <= 1e-13 * f.norm());
      const Eigen::Vector3d m = spatial_moment(e, u, n), mr = spatial_moment(e, r, n);
      CHECK((mr - Q * m).norm() <= 1e-8 * f.norm());
    }
    // Equilibrium of the element: Σ f_u = 0 and Σ (x × f_u + m) = 0 (no rigid-body work).
    const Eigen::Vector3d xa = kXa + r.segment<3>(0), xb = kXb + r.segment<3>(6);
    CHECK((fr.segment<3>(0) + fr.segment<3>(6)).norm() <= 1e-13 * f.norm());
    const Eigen::Vector3d M = xa.cross(Eigen::Vector3d(fr.segment<3>(0))) + xb.cross(Eigen::Vector3d(fr.segment<3>(6))) +
                              spatial_moment(e, r, 0) + spatial_moment(e, r, 1);
    CHECK(M.norm() <= 1e-8 * f.norm());
  }
}

TEST_CASE("Beam3D in a plane equals Beam2D (same formulation)", "[beam3d][beam]") {
  // Member in the xy plane, reference vector z × e₁ so that e₃ = z: (ux, uy, rz)
  // of Beam3D are (ux, uy, θ) of Beam2D, EI₃ the plane EI, GA₂ its GA_s.
  const Eigen::Vector3d xa(0.3, 0.1, 0.0), xb(-0.4, 1.2, 0.0);
  const Eigen::Vector3d e1 = (xb - xa).normalized();
  const Beam3D b3(1, 0, 1, xa, xb, {3.0, 1.7, 1.3, 0.6, 0.8, 1.1}, Eigen::Vector3d::UnitZ().cross(e1));
  const Beam2D b2(1, 0, 1, xa, xb, 3.0, 1.7, 1.1);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const int map[6] = {0, 1, 5, 6, 7, 11};
  for (int rep = 0; rep < 5; ++rep) {
    Eigen::VectorXd u2(6);
    u2 << 0.4 * uni(rng), 0.4 * uni(rng), 2.5 * uni(rng), 0.4 * uni(rng), 0.4 * uni(rng), 0.0;
    u2[5] = u2[2] + 1.5 * uni(rng);  // relative rotation below π
    Eigen::VectorXd u3 = Eigen::VectorXd::Zero(12);
    for (int i = 0; i < 6; ++i) u3[map[i]] = u2[i];
    INFO("u " << u2.transpose());
    const double W2 = b2.energy(u2);
    CHECK(std::abs(b3.energy(u3) - W2) <= 1e-14 * (1 + W2));
    const Eigen::VectorXd f2 = element_force(b2, u2), f3 = element_force(b3, u3);
    const Eigen::MatrixXd K2 = element_tangent(b2, u2), K3 = element_tangent(b3, u3);
    for (int i = 0; i < 6; ++i) {
      CHECK(std::abs(f3[map[i]] - f2[i]) <= 1e-13 * (1 + f2.norm()));
      for (int j = 0; j < 6; ++j) CHECK(std::abs(K3(map[i], map[j]) - K2(i, j)) <= 1e-12 * (1 + K2.norm()));
    }
    // Out of the plane nothing is loaded in a plane state.
    for (int i : {2, 3, 4, 8, 9, 10}) CHECK(std::abs(f3[i]) <= 1e-13 * (1 + f2.norm()));
  }
}

TEST_CASE("Beam3D in a model: assembled force and tangent of a space frame at a large-rotation state", "[beam3d][model]") {
  // Two members meeting at a rigid corner, out of any coordinate plane, meshed
  // into 2 + 3 elements; root clamped.
  Model m(3);
  const int a = m.add_node(1, {0, 0, 0}), b = m.add_node(2, {0.3, 0.8, 0.5}), c = m.add_node(3, {1.1, 0.6, 0.9});
  mesh_member_3d(m, a, b, 2, kSection, {0, 0, 1}, 10, 1);
  mesh_member_3d(m, b, c, 3, kSection, {1, 0, 0}, 20, 10);
  for (int k = 0; k < kComponents; ++k) m.fix(a, static_cast<Component>(k));
  m.add_load(c, Component::Uz, 1.0);
  m.finalize();
  REQUIRE(m.size() == 6 * 5);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  // A state with nodal rotations of up to ~1.5 rad and relative ones below π.
  Vector q(m.size());
  for (int i = 0; i < m.size(); ++i) q[i] = (m.dof_kind(i) == DofKind::Rotation ? 1.5 : 0.2) * uni(rng);
  const auto f_of = [&](const Eigen::VectorXd& v) {
    Vector f(m.size());
    m.internal_force(v, f);
    return Eigen::VectorXd(f);
  };
  SparseMatrix K = m.tangent_pattern();
  m.tangent(q, 0.0, K);
  const Eigen::MatrixXd Kd(K);
  const Eigen::VectorXd f_fd = senda::testing::fd_gradient([&](const Eigen::VectorXd& v) { return m.energy(v); }, q, 1.0);
  CHECK((f_of(q) - f_fd).norm() <= 1e-7 * (f_of(q).norm() + 3.0));
  const Eigen::MatrixXd K_fd = senda::testing::fd_jacobian(f_of, q, 1.0);
  CHECK((Kd - K_fd).norm() <= 1e-7 * (Kd.norm() + 3.0));
  CHECK((Kd - Kd.transpose()).norm() <= 1e-14 * Kd.norm());
  senda::testing::check_second_order(senda::testing::taylor_remainder(f_of, Kd, q, Eigen::VectorXd::Random(m.size())));
}

TEST_CASE("Beam3D: the exact directional derivative of the tangent against central differences", "[beam3d][dK]") {
  // ∇(K a)·b from the three-deep AutoDiff against [K(u + εa) − K(u − εa)] b/(2ε):
  // the difference falls as ε² (the FD truncation) until round-off, so the exact
  // value is what the differences tend to. States on both sides of the series
  // thresholds (S.7): small angles (≤ 0.05) and large ones (≤ 2.5 rad).
  const Beam3D e(1, 0, 1, kXa, kXb, kSection, kRef);
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double angle : {0.03, 1.2, 2.5}) {
    const Eigen::VectorXd q = random_state(rng, 0.1, angle, std::min(angle, 0.4));
    Eigen::VectorXd a(12), b(12);
    for (int i = 0; i < 12; ++i) {
      a[i] = u(rng);
      b[i] = u(rng);
    }
    Eigen::VectorXd exact;
    REQUIRE(e.tangent_derivative(q, a, b, exact));
    const auto fd = [&](double h) {
      Eigen::MatrixXd Kp(12, 12), Km(12, 12);
      e.compute(q + h * a, nullptr, &Kp);
      e.compute(q - h * a, nullptr, &Km);
      return Eigen::VectorXd((Kp - Km) * b / (2.0 * h));
    };
    const double e1 = (fd(1e-3) - exact).norm(), e2 = (fd(5e-4) - exact).norm();
    INFO("angle " << angle << " |exact| " << exact.norm() << " FD errors " << e1 << " " << e2 << " ratio " << e1 / e2);
    CHECK(e1 <= 1e-4 * exact.norm());
    CHECK(e1 / e2 >= 3.8);  // O(ε²): the exact value is the limit
    CHECK(e1 / e2 <= 4.2);
  }
  SECTION("the model sums it, and matches its finite differences") {
    Model m(3);
    const int n0 = m.add_node(1, kXa), n1 = m.add_node(2, kXb), n2 = m.add_node(3, kXb + Eigen::Vector3d(0.3, 0.6, 0.1));
    m.add_element(std::make_unique<Beam3D>(1, n0, n1, kXa, kXb, kSection, kRef));
    m.add_element(std::make_unique<Beam3D>(2, n1, n2, kXb, m.node_position(n2), kSection, kRef));
    for (int c = 0; c < kComponents; ++c) m.fix(n0, static_cast<Component>(c));
    m.add_load(n2, Component::Uz, 1.0);
    m.finalize();
    Vector q(m.size()), a(m.size()), b(m.size());
    for (int i = 0; i < m.size(); ++i) {
      q[i] = 0.3 * u(rng);
      a[i] = u(rng);
      b[i] = u(rng);
    }
    Vector exact;
    REQUIRE(m.tangent_derivative(q, 0.0, a, b, exact));
    SparseMatrix Kp = m.tangent_pattern(), Km = m.tangent_pattern();
    const double h = 1e-4;
    m.tangent(q + h * a, 0.0, Kp);
    m.tangent(q - h * a, 0.0, Km);
    const Vector fd = (Kp * b - Km * b) / (2.0 * h);
    INFO("|exact| " << exact.norm() << " |fd − exact| " << (fd - exact).norm());
    CHECK((fd - exact).norm() <= 1e-6 * exact.norm());
  }
}

TEST_CASE("3D nodal moment: the spatial moment of the ψ-conjugate load is T(ψ)⁻ᵀ r", "[beam3d][moment-type]") {
  // A load r on rx ry rz has potential −λ r·ψ (beam3d.md S.8). Its spatial moment
  // m (m·δθ = r·δψ for a spin δθ, R ← exp(δθ̂) R) is T(ψ)⁻ᵀ r =
  // r + ½ ψ×r + c ψ×(ψ×r), c = (1 − (θ/2) cot(θ/2))/θ²: checked by central
  // differences of r·ψ along exp(ε ê_k) exp(ψ̂), on the branch of the logarithm
  // continuous with ψ (angles past π included). Then: at ψ ∥ r, m = r (the axial
  // moment); as ψ → 0, m − r = ½ ψ×r + O(θ²) (Argyris's semitangential moment).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto psi_near = [](const Eigen::Matrix3d& R, const Eigen::Vector3d& near) {
    const Eigen::Vector3d p = rotation_vector(R);
    const double a = p.norm();
    Eigen::Vector3d best = p;
    for (int k = -2; k <= 2; ++k) {
      const Eigen::Vector3d c = a > 0 ? Eigen::Vector3d(p * (1.0 + 2.0 * std::numbers::pi * k / a)) : p;
      if ((c - near).norm() < (best - near).norm()) best = c;
    }
    return best;
  };
  const auto formula = [](const Eigen::Vector3d& psi, const Eigen::Vector3d& r) {
    const double th = psi.norm();
    const double c = (1.0 - 0.5 * th / std::tan(0.5 * th)) / (th * th);
    return Eigen::Vector3d(r + 0.5 * psi.cross(r) + c * psi.cross(psi.cross(r)));
  };
  for (double angle : {0.5, 2.0, 4.0, 5.5}) {
    const Eigen::Vector3d psi = angle * Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const Eigen::Vector3d r(u(rng), u(rng), u(rng));
    const Eigen::Matrix3d R = rotation_matrix(psi);
    Eigen::Vector3d m_fd;
    const double h = 1e-5;
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d e = Eigen::Vector3d::Unit(k);
      m_fd[k] = r.dot(psi_near(rotation_matrix(h * e) * R, psi) - psi_near(rotation_matrix(-h * e) * R, psi)) / (2 * h);
    }
    INFO("angle " << angle << " m_fd " << m_fd.transpose() << " formula " << formula(psi, r).transpose());
    CHECK((m_fd - formula(psi, r)).norm() <= 1e-8 * r.norm() / std::pow(std::sin(0.5 * angle), 2));
  }
  const Eigen::Vector3d n = Eigen::Vector3d(1, -2, 2) / 3.0;
  CHECK((formula(4.0 * n, 1.7 * n) - 1.7 * n).norm() <= 1e-14);
  const Eigen::Vector3d r(0.3, 1.0, -0.5), dir = Eigen::Vector3d(0.2, 0.1, 0.9).normalized();
  for (double th : {1e-2, 5e-3}) {
    const Eigen::Vector3d psi = th * dir;
    const double rest = (formula(psi, r) - r - 0.5 * psi.cross(r)).norm();
    INFO("θ " << th << " |m − r − ½ψ×r| " << rest);
    CHECK(rest <= 0.1 * th * th * r.norm());
  }
}

namespace {
// A moment potential P(ψ) (S.12, S.14): its AutoDiff gradient and Hessian against
// central differences at ψ; the Hessian exactly symmetric.
using MomentPotential = double (*)(const Eigen::Vector3d&, const Eigen::Vector3d&, Eigen::Vector3d*, Eigen::Matrix3d*);
void check_moment_potential(MomentPotential potential, const Eigen::Vector3d& psi, const Eigen::Vector3d& m0) {
  Eigen::Vector3d g;
  Eigen::Matrix3d H;
  potential(psi, m0, &g, &H);
  const double h = 1e-5;
  Eigen::Vector3d g_fd;
  Eigen::Matrix3d H_fd;
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d e = h * Eigen::Vector3d::Unit(k);
    Eigen::Vector3d gp, gm;
    g_fd[k] = (potential(psi + e, m0, &gp, nullptr) - potential(psi - e, m0, &gm, nullptr)) / (2 * h);
    H_fd.col(k) = (gp - gm) / (2 * h);
  }
  INFO("ψ " << psi.transpose() << " |g − g_fd| " << (g - g_fd).norm() << " |H − H_fd| " << (H - H_fd).norm());
  // Central differences: error ~h² |P'''| ≈ 1e-10 |m₀|, plus round-off eps|P|/h ≈ 1e-11.
  CHECK((g - g_fd).norm() <= 1e-8 * m0.norm());
  CHECK((H - H_fd).norm() <= 1e-7 * m0.norm());
  CHECK((H - H.transpose()).norm() == 0.0);
}
}  // namespace

TEST_CASE("Semitangential moment: potential, load vector and load stiffness against differences; its moment type",
          "[beam3d][semitangential]") {
  // P(ψ) = |m₀| τ(ψ), τ = 2 atan2(k·v, w) the twist of q(ψ) = (w, v) about
  // k = m₀/|m₀| (beam3d.md S.12). Gradient and Hessian (AutoDiff) against central
  // differences, on both sides of the series threshold of q(ψ) (θ² = 1e-2) and past π.
  const Eigen::Vector3d m0(0.4, -1.1, 0.7);
  const Eigen::Vector3d dirs[3] = {Eigen::Vector3d(0.3, 0.5, -0.8).normalized(), m0.normalized(),
                                   Eigen::Vector3d(1, 2, 2).normalized()};
  for (double angle : {1e-3, 0.09, 0.11, 1.3, 2.9, 4.0})
    for (const Eigen::Vector3d& d : dirs) check_moment_potential(semitangential_potential, angle * d, m0);
  // At ψ = 0: the load is m₀, its stiffness zero (P = m₀·ψ + O(θ³)).
  Eigen::Vector3d g0;
  Eigen::Matrix3d H0;
  CHECK(semitangential_potential(Eigen::Vector3d::Zero(), m0, &g0, &H0) == 0.0);
  CHECK((g0 - m0).norm() <= 1e-15 * m0.norm());
  CHECK(H0.norm() <= 1e-15 * m0.norm());
  // Its type: the spatial moment m (m·δθ = δP for a spin, R ← exp(δθ̂) R) at a
  // rotation α about k is |m₀| k, and a spin δθ changes it by ½ δθ × m (Argyris's
  // semitangential moment), for α up to 3 (both by differences along exp(ε ê) R).
  const double M = m0.norm();
  const Eigen::Vector3d k = m0 / M;
  // rotation_vector is the inverse of exp for angles below π: the states stay below it.
  const auto P_of_R = [&](const Eigen::Matrix3d& R) { return semitangential_potential(rotation_vector(R), m0, nullptr, nullptr); };
  const auto spatial_moment = [&](const Eigen::Matrix3d& R) {
    Eigen::Vector3d m;
    const double h = 1e-5;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d e = h * Eigen::Vector3d::Unit(i);
      m[i] = (P_of_R(rotation_matrix(e) * R) - P_of_R(rotation_matrix(-e) * R)) / (2 * h);
    }
    return m;
  };
  for (double alpha : {0.0, 0.4, 1.5, 3.0}) {
    const Eigen::Matrix3d R = rotation_matrix(alpha * k);
    const Eigen::Vector3d m = spatial_moment(R);
    INFO("α " << alpha << " m " << m.transpose());
    CHECK((m - M * k).norm() <= 1e-9 * M);
    const double h = 1e-4;
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d e = h * Eigen::Vector3d::Unit(j);
      const Eigen::Vector3d dm = (spatial_moment(rotation_matrix(e) * R) - spatial_moment(rotation_matrix(-e) * R)) / (2 * h);
      const Eigen::Vector3d st = 0.5 * Eigen::Vector3d::Unit(j).cross(M * k);
      INFO("spin " << j << " dm " << dm.transpose() << " ½ e×m " << st.transpose());
      // Nested differences: h² terms ~1e-8, round-off eps/(h·1e-5) ~ 2e-7.
      CHECK((dm - st).norm() <= 1e-6 * M);
    }
  }
}

TEST_CASE("Quasitangential moment: potential against differences; the dead-force couples it stands for",
          "[beam3d][quasitangential]") {
  // P(ψ) = 2w (m₀·v) = m₀·(sin θ n) (beam3d.md S.14a). Gradient and Hessian
  // (AutoDiff) against central differences, on both sides of the series threshold
  // of q(ψ) and past π (P is smooth in ψ everywhere).
  const Eigen::Vector3d m0(0.4, -1.1, 0.7);
  const double M = m0.norm();
  const Eigen::Vector3d dirs[3] = {Eigen::Vector3d(0.3, 0.5, -0.8).normalized(), m0.normalized(),
                                   Eigen::Vector3d(1, 2, 2).normalized()};
  for (double angle : {1e-3, 0.09, 0.11, 1.3, 2.9, 4.0, 6.0})
    for (const Eigen::Vector3d& d : dirs) {
      check_moment_potential(quasitangential_potential, angle * d, m0);
      CHECK_THAT(quasitangential_potential(angle * d, m0, nullptr, nullptr),
                 Catch::WithinAbs(std::sin(angle) * m0.dot(d), 1e-15 * M));
    }
  Eigen::Vector3d g0;
  Eigen::Matrix3d H0;
  CHECK(quasitangential_potential(Eigen::Vector3d::Zero(), m0, &g0, &H0) == 0.0);
  CHECK((g0 - m0).norm() <= 1e-15 * M);
  CHECK(H0.norm() <= 1e-15 * M);
  // What it stands for: Argyris's two couples of dead forces on levers fixed to
  // the node. With e₁, e₂ ⊥ k = m₀/M, e₁ × e₂ = k: a lever R e₁ (length a) with
  // the dead force (M/2a) e₂ at its end and a lever R e₂ with −(M/2a) e₁, the
  // opposite forces at the node, have the potential −½M (e₂·R e₁ − e₁·R e₂) (up to
  // a constant): the same P at every rotation, not only at small ones. Its
  // spatial moment (m·δθ = δP for a spin) is ½ (tr R I − Rᵀ) m₀, by differences
  // along exp(ε ê) R; about k it is M cos α k.
  const Eigen::Vector3d k = m0 / M;
  const Eigen::Vector3d e1 = k.cross(Eigen::Vector3d::UnitX()).normalized(), e2 = k.cross(e1);
  const auto P_of_R = [&](const Eigen::Matrix3d& R) {
    return quasitangential_potential(rotation_vector(R), m0, nullptr, nullptr);
  };
  for (const Eigen::Vector3d& psi : {Eigen::Vector3d(0.3, -0.2, 0.5), Eigen::Vector3d(1.2, 0.9, -1.4),
                                     Eigen::Vector3d(-2.0, 0.4, 1.1), Eigen::Vector3d(1.5 * k)}) {
    const Eigen::Matrix3d R = rotation_matrix(psi);
    INFO("ψ " << psi.transpose());
    CHECK_THAT(P_of_R(R), Catch::WithinAbs(0.5 * M * (e2.dot(R * e1) - e1.dot(R * e2)), 1e-14 * M));
    Eigen::Vector3d m;
    const double h = 1e-5;
    for (int i = 0; i < 3; ++i) {
      const Eigen::Vector3d e = h * Eigen::Vector3d::Unit(i);
      m[i] = (P_of_R(rotation_matrix(e) * R) - P_of_R(rotation_matrix(-e) * R)) / (2 * h);
    }
    const Eigen::Vector3d m_qt = 0.5 * (R.trace() * Eigen::Matrix3d::Identity() - R.transpose()) * m0;
    INFO("m " << m.transpose() << " ½(tr R − Rᵀ)m₀ " << m_qt.transpose());
    CHECK((m - m_qt).norm() <= 1e-9 * M);
  }
  const Eigen::Matrix3d Rk = rotation_matrix(1.5 * k);
  CHECK((0.5 * (Rk.trace() * Eigen::Matrix3d::Identity() - Rk.transpose()) * m0 - std::cos(1.5) * m0).norm() <=
        1e-15 * M);
}

TEST_CASE("Semitangential and quasitangential moments in a model: residual, tangent and ∂g/∂λ against differences, "
          "symmetric off equilibrium",
          "[beam3d][semitangential][quasitangential][model]") {
  // Two members meeting at a knee, moments of one type at the free end (two
  // components: one moment m₀) and at the knee, at a state with large rotations
  // that is not an equilibrium: the tangent is ∂g/∂q (g = f − λ(r + ∇P − m₀)),
  // symmetric (K_int and −λ∇²P both Hessians of one function of q), and
  // ∂g/∂λ = −(r + ∇P − m₀).
  const Model::MomentType type =
      GENERATE(Model::MomentType::Semitangential, Model::MomentType::Quasitangential);
  INFO((type == Model::MomentType::Semitangential ? "semitangential" : "quasitangential"));
  Model m(3);
  const int a = m.add_node(1, {0, 0, 0}), b = m.add_node(2, {2, 0, 0}), c = m.add_node(3, {2, 1.5, 0.5});
  const Beam3DSection s{300.0, 100.0, 120.0, 2.0, 3.0, 4.0};
  mesh_member_3d(m, a, b, 2, s, Eigen::Vector3d::UnitZ(), 10, 1);
  mesh_member_3d(m, b, c, 2, s, Eigen::Vector3d::UnitX(), 20, 10);
  for (int k = 0; k < kComponents; ++k) m.fix(a, static_cast<Component>(k));
  m.add_moment_load(c, Component::Rx, 0.8, type);
  m.add_moment_load(c, Component::Rz, -1.3, type);
  m.add_moment_load(b, Component::Ry, 0.6, type);
  m.add_load(c, Component::Uy, 0.2);
  m.finalize();
  CHECK_FALSE(m.is_proportional());
  const int n = m.size();
  Vector q(n);
  for (int i = 0; i < n; ++i) q[i] = 0.9 * std::sin(1.0 + 1.7 * i);  // rotations up to ~1.5 rad
  const double lambda = 0.7;
  SparseMatrix K = m.tangent_pattern();
  m.tangent(q, lambda, K);
  const Eigen::MatrixXd Kd(K);
  Eigen::MatrixXd K_fd(n, n);
  Vector gp(n), gm(n);
  const double h = 1e-6;
  for (int j = 0; j < n; ++j) {
    m.residual(q + h * Vector::Unit(n, j), lambda, gp);
    m.residual(q - h * Vector::Unit(n, j), lambda, gm);
    K_fd.col(j) = (gp - gm) / (2 * h);
  }
  INFO("|K − K_fd| " << (Kd - K_fd).norm() << " of |K| " << Kd.norm());
  CHECK((Kd - K_fd).norm() <= 1e-7 * Kd.norm());
  CHECK((Kd - Kd.transpose()).norm() <= 1e-13 * Kd.norm());
  // The load stiffness alone: K(λ) − K(0) = −λ ∇²P, nonzero here.
  SparseMatrix K0 = m.tangent_pattern();
  m.tangent(q, 0.0, K0);
  CHECK((Kd - Eigen::MatrixXd(K0)).norm() >= 1e-2);
  Vector gl(n);
  m.dg_dlambda(q, lambda, gl);
  // g is affine in λ: the central difference is exact but for round-off
  // eps|g|/h, so a wide step (|g| ≈ 10² here, off equilibrium).
  const double hl = 1e-3;
  m.residual(q, lambda + hl, gp);
  m.residual(q, lambda - hl, gm);
  CHECK((gl - (gp - gm) / (2 * hl)).norm() <= 1e-10 * gl.norm());
  // Not an exact third derivative: the callers use differences.
  Vector out;
  CHECK_FALSE(m.tangent_derivative(q, lambda, q, q, out));
}

TEST_CASE("Model::chart_singularity: a node's rotation vector at a full turn, and nowhere else", "[model][beam3d]") {
  Model m(3);
  const int n0 = m.add_node(1, kXa), n1 = m.add_node(2, kXb);
  m.add_element(std::make_unique<Beam3D>(1, n0, n1, kXa, kXb, kSection, kRef));
  for (int c = 0; c < kComponents; ++c) m.fix(n0, static_cast<Component>(c));
  m.finalize();
  Vector q = Vector::Zero(m.size());
  CHECK(m.chart_singularity(q).empty());
  const int rx = m.equation(n1, Component::Rx), rz = m.equation(n1, Component::Rz);
  q[rx] = 2.0 * M_PI * 0.6;
  q[rz] = 2.0 * M_PI * 0.8;  // |ψ| = 2π
  CHECK(m.chart_singularity(q).find("node 2") != std::string::npos);
  q *= 0.5;  // half a turn: regular
  CHECK(m.chart_singularity(q).empty());
  q *= 4.0;  // two turns
  CHECK(!m.chart_singularity(q).empty());
  q *= 1.0 + 1e-4;  // 1e-4 relative from two turns: regular (a structure's point may lie there)
  CHECK(m.chart_singularity(q).empty());
}
