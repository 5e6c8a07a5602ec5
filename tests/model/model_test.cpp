// Model: assembly (residual vs tangent, Taylor test), equation numbering, load
// vectors, and the inconsistencies that must be reported as ModelError.
#include <catch2/catch.hpp>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/model/model.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using senda::testing::fd_jacobian;
using senda::testing::taylor_remainder;
using senda::testing::check_second_order;

namespace {

void bar(Model& m, int id, int a, int b, double EA, StrainMeasure s) {
  m.add_element(std::make_unique<TrussBar>(id, m.dim(), a, b, m.node_position(a), m.node_position(b), EA, s));
}

// A small 3D truss: three base nodes (two pinned, one on a roller free in x),
// an apex and a top node, bars of all three measures, a node–node spring and a
// spring to ground: 1 (roller) + 3 + 3 = 7 unknowns.
Model small_truss() {
  Model m(3);
  const int b1 = m.add_node(10, {0, 0, 0});
  const int b2 = m.add_node(20, {2, 0, 0});
  const int b3 = m.add_node(30, {1, 1.7, 0});
  const int apex = m.add_node(40, {1, 0.6, 1.2});
  const int top = m.add_node(50, {1.3, 0.9, 2.0});
  bar(m, 1, b1, apex, 3.0, StrainMeasure::GreenLagrange);
  bar(m, 2, b2, apex, 2.0, StrainMeasure::Engineering);
  bar(m, 3, b3, apex, 2.5, StrainMeasure::Logarithmic);
  bar(m, 4, b1, b3, 1.5, StrainMeasure::Engineering);
  bar(m, 5, apex, top, 1.0, StrainMeasure::Logarithmic);
  bar(m, 6, b2, top, 0.7, StrainMeasure::GreenLagrange);
  bar(m, 7, b3, top, 0.9, StrainMeasure::GreenLagrange);
  m.add_element(std::make_unique<LinearSpring>(8, apex, top, Component::Ux, 0.4));
  m.add_element(std::make_unique<LinearSpring>(9, top, -1, Component::Uz, 0.6));
  for (Component c : {Component::Ux, Component::Uy, Component::Uz}) {
    m.fix(b1, c);
    m.fix(b2, c);
  }
  m.fix(b3, Component::Uy);
  m.fix(b3, Component::Uz);
  m.add_load(top, Component::Uz, -1.0);
  m.add_load(apex, Component::Uy, 0.25);
  m.add_dead_load(top, Component::Ux, 0.01);
  m.finalize();
  return m;
}

}  // namespace

TEST_CASE("model: equation numbering skips supports, node by node", "[model]") {
  Model m = small_truss();
  // Free: node 30 ux; node 40 ux uy uz; node 50 ux uy uz.
  REQUIRE(m.size() == 7);
  CHECK(m.equation(0, Component::Ux) == -1);
  CHECK(m.equation(1, Component::Uz) == -1);
  CHECK(m.equation(2, Component::Ux) == 0);
  CHECK(m.equation(2, Component::Uy) == -1);
  CHECK(m.equation(3, Component::Ux) == 1);
  CHECK(m.equation(3, Component::Uz) == 3);
  CHECK(m.equation(4, Component::Ux) == 4);
  CHECK(m.equation(4, Component::Uz) == 6);
  CHECK(m.equation(4, Component::Rz) == -1);  // a truss has no rotations
  CHECK(m.dof_name(0) == "node 30 ux");
  CHECK(m.dof_name(6) == "node 50 uz");
  CHECK(m.dof_kind(6) == DofKind::Translation);
  // Load vectors land on their equations.
  Vector r_expected = Vector::Zero(7), d_expected = Vector::Zero(7);
  r_expected[6] = -1.0;
  r_expected[2] = 0.25;
  d_expected[4] = 0.01;
  CHECK(m.reference_load() == r_expected);
  CHECK(m.dead_load() == d_expected);
  Vector dg;
  m.dg_dlambda(Vector::Zero(7), 0.3, dg);
  CHECK(dg == -r_expected);
  // g = f − λ r − d at the reference state (f = 0).
  Vector g;
  m.residual(Vector::Zero(7), 2.0, g);
  CHECK((g - (-2.0 * r_expected - d_expected)).norm() == 0.0);
  // displacement() reads the state through the numbering; 0 on a support.
  Vector q = Vector::LinSpaced(7, 1.0, 7.0);
  CHECK(m.displacement(q, 3, Component::Uy) == 3.0);
  CHECK(m.displacement(q, 0, Component::Uy) == 0.0);
}

TEST_CASE("model: assembled tangent is the derivative of the residual", "[model]") {
  Model m = small_truss();
  const int n = m.size();
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> U(-0.3, 0.3);
  const double lambda = 0.7;
  auto g = [&](const Vector& q) {
    Vector out;
    m.residual(q, lambda, out);
    return out;
  };
  for (int sample = 0; sample < 10; ++sample) {
    Vector q(n);
    for (int i = 0; i < n; ++i) q[i] = U(rng);
    INFO("sample " << sample);
    SparseMatrix K = m.tangent_pattern();
    m.tangent(q, lambda, K);
    const Eigen::MatrixXd Kd(K);
    CHECK((Kd - Kd.transpose()).norm() <= 1e-14 * Kd.norm());
    // Central differences: ≈ 1e-10 relative (see truss_test); 1e-7 keeps a margin.
    CHECK((Kd - fd_jacobian(g, q, 1.0)).norm() <= 1e-7 * Kd.norm());
    // Internal force is the gradient of the total energy.
    Vector f;
    m.internal_force(q, f);
    CHECK((f - senda::testing::fd_gradient([&](const Eigen::VectorXd& v) { return m.energy(v); }, q, 1.0)).norm() <=
          1e-7 * (f.norm() + 1.0));
    // Taylor remainder of the residual: order 2 over ε = 1e-1 … 1e-6 above round-off.
    Vector h(n);
    for (int i = 0; i < n; ++i) h[i] = U(rng);
    h *= 0.1 / h.norm();
    const auto t = taylor_remainder(g, Kd, q, h);
    check_second_order(t);
  }
}

TEST_CASE("model: a second assembly into the same matrix does not accumulate", "[model]") {
  Model m = small_truss();
  Vector q = Vector::Constant(m.size(), 0.05);
  SparseMatrix K1 = m.tangent_pattern(), K2;
  m.tangent(q, 0.0, K1);
  K2 = K1;
  m.tangent(q, 0.0, K2);  // values must be overwritten, not added to
  CHECK((Eigen::MatrixXd(K1) - Eigen::MatrixXd(K2)).norm() == 0.0);
}

TEST_CASE("model: inconsistent models are ModelErrors", "[model]") {
  SECTION("no elements") {
    Model m(2);
    m.add_node(1, {0, 0, 0});
    CHECK_THROWS_AS(m.finalize(), ModelError);
  }
  SECTION("unconnected node") {
    Model m(2);
    const int a = m.add_node(1, {0, 0, 0});
    const int b = m.add_node(2, {1, 0, 0});
    m.add_node(3, {5, 5, 0});
    bar(m, 1, a, b, 1.0, StrainMeasure::Engineering);
    m.fix(a, Component::Ux);
    m.fix(a, Component::Uy);
    m.add_load(b, Component::Ux, 1.0);
    try {
      m.finalize();
      FAIL("no exception");
    } catch (const ModelError& e) {
      CHECK(std::string(e.what()).find("node 3") != std::string::npos);
    }
  }
  SECTION("load on a degree of freedom no element uses") {
    Model m(3);
    const int a = m.add_node(1, {0, 0, 0});
    const int b = m.add_node(2, {1, 0, 0});
    bar(m, 1, a, b, 1.0, StrainMeasure::Engineering);
    m.add_load(b, Component::Rz, 1.0);  // trusses have no rotations
    CHECK_THROWS_AS(m.finalize(), ModelError);
  }
  SECTION("dead load on a degree of freedom no element uses") {
    Model m(2);
    const int a = m.add_node(1, {0, 0, 0});
    const int b = m.add_node(2, {1, 0, 0});
    bar(m, 1, a, b, 1.0, StrainMeasure::Engineering);
    m.add_dead_load(b, Component::Uz, 1.0);  // 2D: no uz
    CHECK_THROWS_AS(m.finalize(), ModelError);
  }
  SECTION("everything fixed") {
    Model m(2);
    const int a = m.add_node(1, {0, 0, 0});
    const int b = m.add_node(2, {1, 0, 0});
    bar(m, 1, a, b, 1.0, StrainMeasure::Engineering);
    for (int n : {a, b}) {
      m.fix(n, Component::Ux);
      m.fix(n, Component::Uy);
    }
    CHECK_THROWS_AS(m.finalize(), ModelError);
  }
  SECTION("modified after finalize") {
    Model m = small_truss();
    CHECK_THROWS_AS(m.add_node(99, {0, 0, 0}), std::logic_error);
  }
}
