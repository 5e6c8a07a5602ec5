// Mass matrices, load histories and the energy bookkeeping with damping and a
// time-varying load (docs/theory.md §11.1, 11.2, eq. 11.12).
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "dynamics/quadrature.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/load.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using model::Component;

TEST_CASE("member mass: lumped and consistent give the same total, rotary inertia", "[dynamics][mass]") {
  // A free bar of length 2 (ρA = 3): total mass 6 on each axis, whatever the lumping;
  // consistent: M = (ρA L / 6)[2 1; 1 2] per component (eq. 11.2).
  auto m = std::make_shared<model::Model>(2);
  const int a = m->add_node(1, {0, 0, 0}), b = m->add_node(2, {2, 0, 0});
  m->add_element(std::make_unique<model::TrussBar>(1, 2, a, b, m->node_position(a), m->node_position(b), 1.0,
                                                   model::StrainMeasure::GreenLagrange));
  m->finalize();
  for (auto l : {dynamics::MassLumping::Lumped, dynamics::MassLumping::Consistent}) {
    dynamics::MassSpec s;
    s.line_density = 3.0;
    s.lumping = l;
    const Eigen::MatrixXd M(dynamics::mass_matrix(*m, s));
    Eigen::VectorXd ex = Eigen::VectorXd::Zero(4);
    ex[m->equation(a, Component::Ux)] = ex[m->equation(b, Component::Ux)] = 1;
    CHECK(ex.dot(M * ex) == Approx(6.0).epsilon(1e-15));  // a rigid translation: the total mass
    const int ia = m->equation(a, Component::Uy), ib = m->equation(b, Component::Uy);
    if (l == dynamics::MassLumping::Consistent) {
      CHECK(M(ia, ia) == Approx(2.0 * 6.0 / 6.0));
      CHECK(M(ia, ib) == Approx(6.0 / 6.0));
    } else {
      CHECK(M(ia, ia) == Approx(3.0));
      CHECK(M(ia, ib) == 0.0);
    }
  }
  // A beam: ρI on the rotations, J of a node on its rotation; a spring gets no mass.
  auto f = std::make_shared<model::Model>(2);
  const int c = f->add_node(1, {0, 0, 0}), d = f->add_node(2, {0, 1, 0});
  f->add_element(std::make_unique<model::Beam2D>(1, c, d, f->node_position(c), f->node_position(d), 1.0, 1.0, 1.0));
  f->add_element(std::make_unique<model::LinearSpring>(2, d, -1, Component::Ux, 5.0));
  f->finalize();
  dynamics::MassSpec s;
  s.line_density = 2.0;
  s.line_rotary_inertia = 0.5;
  s.nodes = {{d, 0.0, 0.25}};
  const SparseMatrix M = dynamics::mass_matrix(*f, s);
  CHECK(M.coeff(f->equation(d, Component::Rz), f->equation(d, Component::Rz)) == Approx(0.5 * 0.5 + 0.25));
  CHECK(M.coeff(f->equation(d, Component::Ux), f->equation(d, Component::Ux)) == Approx(1.0));
  CHECK(dynamics::massless_unknown(M) == -1);
  CHECK(dynamics::massless_unknown(dynamics::mass_matrix(*f, {})) == 0);
}

TEST_CASE("load histories", "[dynamics][load]") {
  dynamics::LoadHistory step{dynamics::LoadKind::Step, 2.0, 0.0, {}};
  CHECK(step.factor(0.0) == 2.0);
  CHECK(step.factor(5.0) == 2.0);
  dynamics::LoadHistory ramp{dynamics::LoadKind::Ramp, 2.0, 4.0, {}};
  CHECK(ramp.factor(1.0) == 0.5);
  CHECK(ramp.factor(9.0) == 2.0);
  dynamics::LoadHistory table{dynamics::LoadKind::Table, 0.0, 0.0, {{1.0, 1.0}, {3.0, -1.0}}};
  CHECK(table.check().empty());
  CHECK(table.factor(0.0) == 1.0);
  CHECK(table.factor(2.0) == 0.0);
  CHECK(table.factor(2.5) == -0.5);
  CHECK(table.factor(7.0) == -1.0);
  dynamics::LoadHistory bad{dynamics::LoadKind::Table, 0.0, 0.0, {{1.0, 1.0}, {1.0, 2.0}}};
  CHECK_FALSE(bad.check().empty());
}

TEST_CASE("integrator options: the ranges [dynamics] documents", "[dynamics][options]") {
  dynamics::IntegratorOptions o;
  o.scheme = dynamics::Scheme::Newmark;
  CHECK(o.check().empty());
  o.gamma = 1.0;
  CHECK(o.check().empty());
  o.gamma = 0.4;  // negative numerical damping
  CHECK(o.check() == "Newmark needs 0 < beta <= 1/2 and 1/2 <= gamma <= 1");
  o.gamma = 0.5;
  o.beta = 0.0;
  CHECK_FALSE(o.check().empty());
  o.beta = 0.25;
  o.scheme = dynamics::Scheme::HHT;
  o.alpha = -0.4;
  CHECK_FALSE(o.check().empty());
  o.alpha = -0.1;
  CHECK(o.check().empty());
  o.dt = 0.0;
  CHECK(o.check() == "the time step must be > 0");
}

TEST_CASE("energy-momentum's balance is exact with damping and a time-varying load", "[dynamics][em]") {
  // A mass on a Hencky bar to ground, pulled by a table load along the bar and damped
  // (C = 0.3 M + 0.01 K₀): T + U − W_ext + D = E₀ holds for the discrete motion to the
  // Newton tolerance (eq. 11.12), while the energy itself changes by O(1).
  auto m = std::make_shared<model::Model>(2);
  const int o = m->add_node(1, {0, 0, 0}), b = m->add_node(2, {1, 0.5, 0});
  m->add_element(std::make_unique<model::TrussBar>(1, 2, o, b, m->node_position(o), m->node_position(b), 20.0,
                                                   model::StrainMeasure::Logarithmic));
  m->fix(o, Component::Ux);
  m->fix(o, Component::Uy);
  m->add_load(b, Component::Ux, 1.0);
  m->finalize();
  const SparseMatrix M = dynamics::mass_matrix(*m, {{{b, 1.0, 0.0}}});
  const SparseMatrix C = dynamics::rayleigh_damping(*m, M, 0.3, 0.01);
  dynamics::LoadHistory load{dynamics::LoadKind::Table, 0.0, 0.0, {{0.0, 0.0}, {1.0, 3.0}, {2.0, -1.0}, {4.0, 0.5}}};
  for (auto s : {dynamics::Scheme::EnergyMomentum, dynamics::Scheme::Midpoint}) {
    dynamics::IntegratorOptions opt;
    opt.scheme = s;
    opt.dt = 0.02;
    opt.residual_tolerance = 1e-13;
    dynamics::Integrator in(*m, M, C, load, opt);
    Vector v0(2);
    v0 << 0.0, 2.0;
    REQUIRE(in.start(0.0, Vector::Zero(2), v0));
    double worst = 0;
    for (int k = 0; k < 300; ++k) {
      test::require_step(in);
      worst = std::max(worst, std::abs(in.energies().relative));
    }
    const dynamics::Energies e = in.energies();
    INFO(dynamics::to_string(s) << ": worst relative balance error " << worst << ", dissipated " << e.dissipated
                                << ", work " << -e.load_potential);
    CHECK(e.dissipated > 0.1);
    CHECK(std::abs(e.load_potential) > 0.1);
    if (s == dynamics::Scheme::EnergyMomentum)
      CHECK(worst <= 1e-11);
    else
      CHECK(worst > 1e-6);  // the midpoint rule's U is not the integral of its force
  }
}

TEST_CASE("a StepHook is called after every converged step and may correct the state", "[dynamics][hook]") {
  // The plug-in point of a constraint solver: here a "projection" that puts the mass
  // back on the circle |x| = 1 after each step and reports |Φ| before it, the kind of
  // correction (position projection with W = I) the constraint part of issue 16 adds.
  struct Project final : dynamics::StepHook {
    int calls = 0;
    std::vector<std::string> columns() const override { return {"phi"}; }
    void after_step(const model::Model&, const SparseMatrix&, dynamics::State& s, std::vector<double>& v) override {
      ++calls;
      const Eigen::Vector2d x(1.0 + s.q[0], s.q[1]);
      v[0] = x.norm() - 1.0;
      const Eigen::Vector2d p = x / x.norm();
      s.q[0] = p.x() - 1.0;
      s.q[1] = p.y();
    }
  };
  auto m = std::make_shared<model::Model>(2);
  const int o = m->add_node(1, {0, 0, 0}), b = m->add_node(2, {1, 0, 0});
  m->add_element(std::make_unique<model::TrussBar>(1, 2, o, b, m->node_position(o), m->node_position(b), 100.0,
                                                   model::StrainMeasure::Logarithmic));
  m->fix(o, Component::Ux);
  m->fix(o, Component::Uy);
  m->finalize();
  dynamics::Integrator in(*m, dynamics::mass_matrix(*m, {{{b, 1.0, 0.0}}}), {}, {}, {});
  Project hook;
  in.set_hook(&hook);
  Vector v0(2);
  v0 << 0.0, 5.0;
  REQUIRE(in.start(0.0, Vector::Zero(2), v0));
  REQUIRE(in.hook_values().size() == 1);
  for (int k = 0; k < 20; ++k) test::require_step(in);
  CHECK(hook.calls == 20);
  CHECK(in.hook_values()[0] > 0.0);  // the bar stretched in the step (centrifugal)
  CHECK(std::abs(std::hypot(1.0 + in.state().q[0], in.state().q[1]) - 1.0) <= 1e-15);
}
