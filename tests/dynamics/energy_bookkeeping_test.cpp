// The energy bookkeeping of senda::dynamics::Integrator (docs/theory.md §11): the
// energy convergence test at Newton's round-off floor, RK4's work of a ramp load (its
// own quadrature, converging with the motion), the error measured against the energy
// supplied, and an unstable explicit step refused instead of reported as a small error.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "dynamics/quadrature.hpp"
#include "dynamics/truss1.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/dynamics/simulation.hpp"
#include "senda/model/spring.hpp"

using namespace senda;
using dynamics::Scheme;
using model::Component;

namespace {

// A unit mass on a spring k to ground, loaded along it by the reference load 1.
struct Oscillator {
  std::shared_ptr<model::Model> m = std::make_shared<model::Model>(2);
  int node = 0;
  explicit Oscillator(double k) {
    node = m->add_node(1, {0, 0, 0});
    m->add_element(std::make_unique<model::LinearSpring>(1, node, -1, Component::Ux, k));
    m->add_load(node, Component::Ux, 1.0);
    m->finalize();
  }
  SparseMatrix mass() const { return dynamics::mass_matrix(*m, {{{node, 1.0, 0.0}}}); }
};

dynamics::LoadHistory ramp(double lambda, double t_r) {
  dynamics::LoadHistory L;
  L.kind = dynamics::LoadKind::Ramp;
  L.lambda = lambda;
  L.ramp_time = t_r;
  return L;
}

class Quiet final : public dynamics::SimulationObserver {};

}  // namespace

TEST_CASE("the energy convergence test stops at Newton's round-off floor", "[dynamics][energy]") {
  // Seed 003's Truss1 (Hencky bar EA = 100, unit mass at (1, 0), v = (0, 5)) at
  // Δt = 2.5e-4: the predictor is so good that the first correction's work w₀ is near
  // round-off, and |δxᵀR| ≤ 1e-20 w₀ (the default) was never met: every scheme failed
  // its first step "in 25 iterations (relative residual 0.000000)".
  const test::Truss1 t;
  for (Scheme s : {Scheme::EnergyMomentum, Scheme::Midpoint, Scheme::Newmark, Scheme::HHT}) {
    INFO(dynamics::to_string(s));
    dynamics::IntegratorOptions opt;
    opt.scheme = s;
    opt.dt = 2.5e-4;
    opt.test = dynamics::ConvergenceTest::Energy;  // energy_tolerance at its default, 1e-20
    dynamics::Integrator in(*t.m, t.mass(), {}, {}, opt);
    REQUIRE(in.start(0.0, Vector::Zero(2), t.v0()));
    for (int k = 0; k < 400; ++k) {
      const dynamics::StepReport r = test::require_step(in);
      CHECK(r.iterations <= 4);
    }
  }
}

TEST_CASE("RK4's work of a ramp load converges with the motion", "[dynamics][energy][rk4]") {
  // k = 100, m = 1 (ω = 10), λ ramped to 2 over t_r = 1.05, from rest. The work was
  // f_ext(t_{n+½})·Δq, exact only for a constant load: off by a third on the first step
  // (u ∝ t³ there), and the largest relative error was 0.333 at every Δt. RK4's own
  // quadrature of f_ext·v over its stages converges as the motion does.
  const Oscillator osc(100.0);
  auto largest = [&](double dt) {
    dynamics::IntegratorOptions opt;
    opt.scheme = Scheme::Index1RK4;
    opt.dt = dt;
    dynamics::Integrator in(*osc.m, osc.mass(), {}, ramp(2.0, 1.05), opt);
    REQUIRE(in.start(0.0, Vector::Zero(1), Vector::Zero(1)));
    Quiet quiet;
    const dynamics::SimulationResult r = dynamics::simulate(in, std::lround(3.0 / dt), {}, quiet);
    REQUIRE(r.end == dynamics::SimulationEnd::Completed);
    // The motion itself, against u = (λ/k)(t/t_r − sin ωt / (ω t_r)) after the ramp's
    // end, u = (λ/k)(1 + (sin ω(t − t_r) − sin ωt)/(ω t_r)).
    const double t = in.state().t, w = 10.0, tr = 1.05;
    const double u = 0.02 * (1.0 + (std::sin(w * (t - tr)) - std::sin(w * t)) / (w * tr));
    // (t_r falls inside a step at Δt = 0.02: the kink of λ(t) costs RK4 its order there.)
    CHECK(std::abs(in.state().q[0] - u) <= 1e-4 * 0.02);
    return r.max_relative_error;
  };
  const double e1 = largest(0.02), e2 = largest(0.01);
  INFO("largest relative energy errors " << e1 << ", " << e2);
  CHECK(e1 <= 1e-5);
  CHECK(e1 / e2 >= 12.0);  // order ≥ 3.6 (RK4: 4)
}

TEST_CASE("an energy-creating step is refused: RK4 beyond its stability limit", "[dynamics][energy][rk4]") {
  // ω = 10: RK4 is stable for ωΔt ≤ 2.78. At ωΔt = 5 the energy grew 8e5-fold while the
  // reported relative error, over max(T + U), stayed at 1 and the run "completed".
  const Oscillator osc(100.0);
  Vector q0(1);
  q0 << 0.01;
  dynamics::IntegratorOptions opt;
  opt.scheme = Scheme::Index1RK4;
  opt.dt = 0.5;
  dynamics::Integrator in(*osc.m, osc.mass(), {}, {}, opt);
  REQUIRE(in.start(0.0, q0, Vector::Zero(1)));
  dynamics::StepReport r;
  int taken = 0;
  for (; taken < 50; ++taken) {
    r = in.step();
    if (r.status != dynamics::StepStatus::Converged) break;
  }
  CHECK(r.status == dynamics::StepStatus::Unstable);
  CHECK(in.message().find("dynamics.dt") != std::string::npos);
  // The state is the last good one.
  CHECK(in.state().t == Approx(0.5 * taken));
  CHECK(std::abs(in.energies().relative) <= dynamics::kUnstableEnergy);

  // Schemes that lose energy are never refused, down to all of it: a kicked oscillator
  // under a load (E₀ > 0 and W_ext > 0) damped away by Newmark with γ = 0.9, HHT at
  // α = −1/3 and RK4 within its limit; the error then reaches −(E₀ + W), past −max(E₀,
  // W), where a first, two-sided test refused them as "unstable".
  {
    const Oscillator unit(1.0);
    Vector v0(1);
    v0 << 0.01;
    dynamics::LoadHistory step;
    step.lambda = 0.001;
    struct Case {
      Scheme scheme;
      double dt, gamma, beta, alpha;
      int steps;
    };
    for (const Case& c : {Case{Scheme::Newmark, 0.2, 0.9, 0.49, 0.0, 2000}, Case{Scheme::HHT, 0.5, 0.5, 0.25, -1.0 / 3.0, 4000},
                          Case{Scheme::Index1RK4, 2.0, 0.5, 0.25, 0.0, 400}}) {
      INFO(dynamics::to_string(c.scheme));
      dynamics::IntegratorOptions d;
      d.scheme = c.scheme;
      d.dt = c.dt;
      d.gamma = c.gamma;
      d.beta = c.beta;
      d.alpha = c.alpha;
      dynamics::Integrator damped(*unit.m, unit.mass(), {}, step, d);
      REQUIRE(damped.start(0.0, Vector::Zero(1), v0));
      for (int k = 0; k < c.steps; ++k) test::require_step(damped);
      CHECK(damped.energies().relative < -0.5);  // most of the energy gone, and said so
    }
  }

  // Within the limit (ωΔt = 2) RK4 damps, it does not create energy: no refusal; nor
  // for the implicit schemes at ωΔt = 5, which are unconditionally stable here.
  for (auto [scheme, dt] : {std::pair{Scheme::Index1RK4, 0.2}, std::pair{Scheme::Newmark, 0.5},
                            std::pair{Scheme::EnergyMomentum, 0.5}, std::pair{Scheme::HHT, 0.5}}) {
    INFO(dynamics::to_string(scheme));
    opt.scheme = scheme;
    opt.dt = dt;
    dynamics::Integrator ok(*osc.m, osc.mass(), {}, {}, opt);
    REQUIRE(ok.start(0.0, q0, Vector::Zero(1)));
    for (int k = 0; k < 200; ++k) test::require_step(ok);
  }
}
