// LinearSpring: node–node, node–ground and dof–ground, energy / force / tangent triad.
#include <catch2/catch.hpp>
#include <memory>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/model/spring.hpp"

using namespace senda::model;
using senda::testing::fd_gradient;
using senda::testing::fd_jacobian;
using senda::testing::taylor_remainder;
using senda::testing::element_force;
using senda::testing::element_tangent;

TEST_CASE("linear spring: force and tangent are the derivatives of the energy", "[model][spring]") {
  const double k = 4.5;
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  // 0: node to node; 1: node to ground; 2: one dof (a member's own slot) to ground.
  for (int form : {0, 1, 2}) {
    SECTION(form == 0 ? "node to node" : form == 1 ? "to ground" : "one dof to ground") {
      const int to_ground = form != 0;
      const std::unique_ptr<LinearSpring> made =
          form == 2 ? std::make_unique<LinearSpring>(DofRef{3, Component::Rx, 2}, k, "hinge spring")
                    : std::make_unique<LinearSpring>(1, 0, to_ground ? -1 : 1, Component::Rz, k);
      const LinearSpring& spring = *made;
      const int m = to_ground ? 1 : 2;
      REQUIRE(static_cast<int>(spring.dofs().size()) == m);
      if (form == 2) {
        CHECK(spring.dofs()[0].node == 3);
        CHECK(spring.dofs()[0].component == Component::Rx);
        CHECK(spring.dofs()[0].slot == 2);
        CHECK(spring.describe() == "hinge spring");
      }
      for (int sample = 0; sample < 10; ++sample) {
        Eigen::VectorXd u(m);
        for (int i = 0; i < m; ++i) u[i] = U(rng);
        INFO("u = " << u.transpose());
        const Eigen::VectorXd f = element_force(spring, u);
        const Eigen::MatrixXd K = element_tangent(spring, u);
        // Closed forms: W = ½ k s², s = u_b − u_a (or u_a to ground).
        const double s = to_ground ? u[0] : u[1] - u[0];
        CHECK(spring.energy(u) == Approx(0.5 * k * s * s).epsilon(1e-15));
        // W is quadratic, so central differences are exact up to round-off (≈ 1e-10 with ε = 6e-6).
        CHECK((f - fd_gradient([&](const Eigen::VectorXd& v) { return spring.energy(v); }, u, 1.0)).norm() <=
              1e-8 * k);
        CHECK((K - fd_jacobian([&](const Eigen::VectorXd& v) { return element_force(spring, v); }, u, 1.0)).norm() <=
              1e-8 * k);
        // f is linear: the Taylor remainder is round-off only for every ε (no order to
        // measure; a wrong K would leave ε‖δK h‖ ≥ 1e-7 at ε = 1e-6).
        Eigen::VectorXd h = Eigen::VectorXd::Constant(m, 0.3);
        h[0] = -0.7;
        const auto t = taylor_remainder([&](const Eigen::VectorXd& v) { return element_force(spring, v); }, K, u, h);
        for (double r : t.remainder) CHECK(r <= 1e-13 * k);
      }
      // Node–node: equal and opposite; a common displacement is stress-free.
      if (!to_ground) {
        const Eigen::Vector2d same(0.8, 0.8);
        CHECK(element_force(spring, same).norm() == 0.0);
        const Eigen::VectorXd f = element_force(spring, Eigen::Vector2d(0.1, 0.4));
        CHECK(f[0] == Approx(-k * 0.3));
        CHECK(f[1] == Approx(k * 0.3));
      }
    }
  }
}
