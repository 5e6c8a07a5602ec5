// The general energy–momentum form (Gonzalez's discrete derivative, seed 003 eq. 2.5;
// docs/theory.md eq. 11.8) on geometrically exact beams, the rotary inertia of beam
// nodes, and HHT-α's dissipation.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "dynamics/quadrature.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/model/beam2d.hpp"

using namespace senda;
using model::Component;

namespace {

// A cantilever of two Simo–Reissner elements (L = 1, EA = 100, GA_s = 50, EI = 1),
// member mass ρA = 1, ρI = 0.01 (consistent), a tip mass 0.5 with rotary inertia 0.01.
struct Cantilever {
  std::shared_ptr<model::Model> m = std::make_shared<model::Model>(2);
  int tip = 0;
  SparseMatrix M;
  Cantilever() {
    const int a = m->add_node(1, {0, 0, 0});
    const int b = m->add_node(2, {1, 0, 0});
    const std::vector<int> nodes = model::mesh_member(*m, a, b, 2, {100.0, 50.0, 1.0}, 3, 1);
    tip = nodes.back();
    for (Component c : {Component::Ux, Component::Uy, Component::Rz}) m->fix(a, c);
    m->finalize();
    dynamics::MassSpec s;
    s.nodes = {{tip, 0.5, 0.01}};
    s.line_density = 1.0;
    s.line_rotary_inertia = 0.01;
    s.lumping = dynamics::MassLumping::Consistent;
    M = dynamics::mass_matrix(*m, s);
  }
  Vector v0() const {  // a large transverse tip velocity: rotations of ~1 rad
    Vector v = Vector::Zero(m->size());
    v[m->equation(tip, Component::Uy)] = 3.0;
    return v;
  }
};

double drift(const Cantilever& c, dynamics::Scheme s, int steps, double* last_total = nullptr) {
  dynamics::IntegratorOptions o;
  o.scheme = s;
  o.dt = 0.01;
  o.residual_tolerance = 1e-13;
  if (s == dynamics::Scheme::HHT) o.alpha = -0.1;
  dynamics::Integrator in(*c.m, c.M, {}, {}, o);
  REQUIRE(in.start(0.0, Vector::Zero(c.m->size()), c.v0()));
  const double E0 = in.energies().total;
  double d = 0;
  for (int k = 0; k < steps; ++k) {
    test::require_step(in);
    d = std::max(d, std::abs(in.energies().total - E0) / E0);
  }
  if (last_total) *last_total = in.energies().total / E0;
  return d;
}

}  // namespace

TEST_CASE("Gonzalez's discrete derivative of a beam is directional and consistent", "[dynamics][em][beam]") {
  Cantilever c;
  const int n = c.m->size();
  Vector qa = Vector::Zero(n), qb = Vector::Zero(n);
  for (int i = 0; i < n; ++i) {
    qa[i] = 0.05 * std::sin(1.0 + i);
    qb[i] = 0.3 * std::cos(2.0 * i);
  }
  Vector f;
  dynamics::discrete_force(*c.m, qa, qb, f, nullptr, 1.0, true);
  const double dU = c.m->energy(qb) - c.m->energy(qa);
  INFO("f*.dq " << f.dot(qb - qa) << " dU " << dU);
  CHECK(std::abs(f.dot(qb - qa) - dU) <= 1e-13 * std::abs(dU));  // seed 003 §2.2 property 1
  // Consistency: as q_b → q_a, f* → f(q_a) with an error O(|Δq|) of the correction...
  Vector fa, f1, f2;
  c.m->internal_force(qa, fa);
  const Vector dir = qb - qa;
  dynamics::discrete_force(*c.m, qa, qa + 1e-3 * dir, f1, nullptr, 1.0, true);
  dynamics::discrete_force(*c.m, qa, qa + 5e-4 * dir, f2, nullptr, 1.0, true);
  // ...to the midpoint force f(q_a + Δq/2), so the distance to f(q_a) halves with Δq.
  const double e1 = (f1 - fa).norm(), e2 = (f2 - fa).norm();
  INFO("|f* - f(qa)| " << e1 << " " << e2);
  CHECK(std::abs(e1 / e2 - 2.0) <= 0.05);
}

TEST_CASE("energy-momentum keeps a swinging beam's energy; midpoint and HHT do not", "[dynamics][em][beam]") {
  Cantilever c;
  const double em = drift(c, dynamics::Scheme::EnergyMomentum, 400);
  const double mp = drift(c, dynamics::Scheme::Midpoint, 400);
  double hht_end = 0;
  drift(c, dynamics::Scheme::HHT, 400, &hht_end);
  INFO("EM drift " << em << ", midpoint " << mp << ", HHT final E/E0 " << hht_end);
  CHECK(em <= 1e-10);
  CHECK(mp > 1e3 * em);
  CHECK(hht_end < 1.0 - 1e-3);  // HHT-α damps the high modes: energy is lost
}
