// Newmark's Newton test at small β (docs/theory.md §11.4): the unknown is a_{n+1} and
// the test's reference is the physical forces, so that a tiny β (down to the explicit
// central-difference limit β → 0) converges to the motion of the other β.
//
// Before: Newton's unknown was Δq and a_{n+1} = (Δq − Δt v)/(βΔt²) − (1/(2β) − 1) a_n;
// the reference of the residual test held ‖M v‖/(βΔt) and ‖M a‖(1/(2β) − 1), so at
// β = 1e-8 the unconverged predictor passed it: 0 Newton iterations in 62 % of the
// steps of tests/dynamics/von-mises-step.cfg, the apex 1e-2 off the motion of β = 1e-6
// at t = 20, and at β = 1e-300 no iteration at all and the apex nearly at rest (exit 0).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dynamics/quadrature.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/input/builder.hpp"

using namespace senda;

namespace {

struct Motion {
  std::vector<double> u;   // the apex's uy at every step (and t = 0)
  int min_iterations = 1000, max_iterations = 0;
};

// The von Mises truss under its step load (tests/dynamics/von-mises-step.cfg: apex mass
// 1, lambda 0.03, above the snap-through threshold) by Newmark, γ = ½, to t = 2.
Motion newmark(double beta, double dt) {
  const input::Spec spec = input::load(SENDA_SOURCE_DIR "/tests/dynamics/von-mises-step.cfg");
  const SparseMatrix M = dynamics::mass_matrix(*spec.model, spec.dynamics.mass);
  dynamics::IntegratorOptions o = spec.dynamics.integrator;
  o.scheme = dynamics::Scheme::Newmark;
  o.beta = beta;
  o.gamma = 0.5;
  o.dt = dt;
  dynamics::Integrator in(*spec.model, M, {}, spec.dynamics.load, o);
  const int n = spec.model->size();
  REQUIRE(in.start(0.0, Vector::Zero(n), Vector::Zero(n)));
  const int apex = spec.model->equation(1, model::Component::Uy);  // node index 1 = id 2
  Motion m;
  m.u.push_back(in.state().q[apex]);
  const int steps = static_cast<int>(std::lround(2.0 / dt));
  for (int k = 0; k < steps; ++k) {
    const dynamics::StepReport r = test::require_step(in);
    m.min_iterations = std::min(m.min_iterations, r.iterations);
    m.max_iterations = std::max(m.max_iterations, r.iterations);
    m.u.push_back(in.state().q[apex]);
  }
  return m;
}

// max_k |a_k − b_k| over the steps of two runs at the same Δt.
double difference(const Motion& a, const Motion& b) {
  REQUIRE(a.u.size() == b.u.size());
  double d = 0.0;
  for (std::size_t k = 0; k < a.u.size(); ++k) d = std::max(d, std::abs(a.u[k] - b.u[k]));
  return d;
}

}  // namespace

TEST_CASE("Newmark converges at any beta: 1e-300 and 1e-8 give the motion of 1e-6 and 1/4", "[dynamics][newmark]") {
  const double dt = 0.02;
  const Motion quarter = newmark(0.25, dt), micro = newmark(1e-6, dt), tiny = newmark(1e-8, dt),
               zero = newmark(1e-300, dt);
  for (const Motion* m : {&quarter, &micro, &tiny, &zero}) {
    // The predictor a_{n+1} = a_n is never the answer of this nonlinear motion: every
    // step iterates (at 1e-8 most took none, at 1e-300 all).
    CHECK(m->min_iterations >= 1);
    CHECK(m->max_iterations <= 4);
  }
  // The updates of two β differ by Δt² Δβ (a_{n+1} − a_n): the motion is linear in β to
  // first order, so 1e-6 and 1e-8 differ by (1e-6 − 1e-8)/(1/4 − 1e-8) of what 1/4 and
  // 1e-8 do (measured 5.66e-12 = 3.96e-6 × 1.430e-6), and 1e-300 and 1e-8 by 1e-8/(1/4)
  // of it (5.72e-14): the same motion. Before, 1e-8 was up to 1.1e-4 off 1e-6 by t = 2
  // (1.9e-2 by t = 20) and 1e-300 5.3e-2 (1.35 by t = 20).
  const double d1 = difference(tiny, quarter);
  INFO("|u(1e-8) - u(1/4)| = " << d1 << ", |u(1e-8) - u(1e-6)| = " << difference(tiny, micro)
                               << ", |u(1e-300) - u(1e-8)| = " << difference(zero, tiny));
  CHECK(difference(tiny, micro) == Approx((1e-6 - 1e-8) / 0.25 * d1).epsilon(0.01));
  CHECK(difference(zero, tiny) <= 1e-8 / 0.25 * d1 * 1.01 + 1e-15);
  // Against β = 1/4: both second order (γ = ½), so they differ by O(Δt²): the difference
  // at Δt, Δt/2, Δt/4 falls by 4 each time (measured ratios 3.99998, 3.99999).
  const double d2 = difference(newmark(1e-8, dt / 2), newmark(0.25, dt / 2));
  const double d4 = difference(newmark(1e-8, dt / 4), newmark(0.25, dt / 4));
  INFO("|u(1e-8) - u(1/4)| at dt, dt/2, dt/4: " << d1 << " " << d2 << " " << d4);
  CHECK(d1 / d2 == Approx(4.0).margin(0.2));
  CHECK(d2 / d4 == Approx(4.0).margin(0.2));
}
