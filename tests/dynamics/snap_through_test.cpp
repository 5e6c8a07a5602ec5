// Dynamic snap-through of the shallow von Mises truss (problems/von-mises.cfg with a
// unit apex mass), dead load P applied suddenly at rest (docs/validation.md).
//
// Closed form (docs/theory.md §11.6). With w the downward apex deflection, Green–Lagrange
// bars, c = EA/(4 L₀³): U(w) = c w² (2h − w)², the total potential Π(w) = U(w) − P w,
// and energy conservation ½ m ẇ² + Π(w) = 0 from rest at w = 0. The apex passes the
// barrier (the unstable equilibrium) when Π ≤ 0 there: Π = Π' = 0 gives U = w U', so
// 2h − w = 4h − 4w, w = 2h/3 and
//   P_dyn = U'(2h/3) = 8 EA h³ / (27 L₀³)    (0.7698 of the static limit 2 EA h³/(3√3 L₀³)).
// Below it the apex turns at w₁, the first root of c w (2h − w)² = P, and the period is
//   T = 2 ∫₀^{w₁} dw / √(2 (P w − U(w)) / m).
#include <catch2/catch.hpp>

#include <cmath>

#include "dynamics/quadrature.hpp"
#include "senda/dynamics/integrator.hpp"
#include "senda/dynamics/mass.hpp"
#include "senda/input/builder.hpp"

using namespace senda;

namespace {

constexpr double kH = 0.5, kEA = 1.0;
const double kL0 = std::sqrt(1.0 + kH * kH);
const double kC = kEA / (4 * kL0 * kL0 * kL0);

double U(double w) { return kC * w * w * (2 * kH - w) * (2 * kH - w); }

struct VonMises {
  input::Spec spec = input::load(SENDA_SOURCE_DIR "/problems/von-mises.cfg");
  int apex = spec.model->equation(1, model::Component::Uy);  // node index 1 = id 2

  // Runs from rest under P; stops when the apex passes w = h (snapped: past every
  // unstable equilibrium, which lie in (0.211, h)) or when it turns back (v > 0 after
  // the start: uy is −w). Returns true for a snap. Fills the trajectory's extremum.
  bool run(double P, double dt, double* w_turn = nullptr, double* t_turn = nullptr, double* t_back = nullptr) {
    const SparseMatrix M = dynamics::mass_matrix(*spec.model, {{{1, 1.0, 0.0}}});
    dynamics::LoadHistory load;
    load.lambda = P;  // the reference load is a unit downward force
    dynamics::IntegratorOptions o;
    o.dt = dt;
    o.residual_tolerance = 1e-13;
    dynamics::Integrator in(*spec.model, M, {}, load, o);
    const int n = spec.model->size();
    REQUIRE(in.start(0.0, Vector::Zero(n), Vector::Zero(n)));
    bool turned = false;
    for (int k = 0; k < 200000; ++k) {
      const dynamics::State prev = in.state();
      test::require_step(in);
      const dynamics::State& s = in.state();
      const double w = -s.q[apex], wd = -s.v[apex], w0 = -prev.q[apex], wd0 = -prev.v[apex];
      if (w > kH) return true;
      if (!turned && wd0 > 0 && wd <= 0) {
        turned = true;
        const test::Extremum x = test::hermite_extremum(w0, wd0, w, wd, dt);
        if (w_turn) *w_turn = x.value;
        if (t_turn) *t_turn = prev.t + x.fraction * dt;
        if (!t_back) return false;
      }
      if (turned && wd0 < 0 && wd >= 0) {
        const test::Extremum x = test::hermite_extremum(w0, wd0, w, wd, dt);
        *t_back = prev.t + x.fraction * dt;
        return false;
      }
    }
    FAIL("neither snapped nor turned");
    return false;
  }
};

}  // namespace

TEST_CASE("von Mises truss: the step-load snap-through threshold by bisection", "[dynamics][snap]") {
  const double P_dyn = 8 * kEA * kH * kH * kH / (27 * kL0 * kL0 * kL0);
  VonMises vm;
  double lo = 0.9 * P_dyn, hi = 1.1 * P_dyn;
  REQUIRE_FALSE(vm.run(lo, 0.05));
  REQUIRE(vm.run(hi, 0.05));
  while (hi - lo > 1e-7 * P_dyn) {
    const double mid = 0.5 * (lo + hi);
    (vm.run(mid, 0.05) ? hi : lo) = mid;
  }
  const double found = 0.5 * (lo + hi);
  INFO("P_dyn " << P_dyn << ", found " << found << ", relative " << (found - P_dyn) / P_dyn);
  // The energy–momentum scheme conserves the energy exactly, so the discrete apex
  // crosses the barrier exactly when Π(w_u) < 0, whatever Δt (here ω Δt ≈ 0.03):
  // the bisection finds the closed form to its own tolerance, 1e-7, inside 1e-6.
  CHECK(std::abs(found - P_dyn) <= 1e-6 * P_dyn);
}

TEST_CASE("von Mises truss below the threshold: turning point and period by quadrature", "[dynamics][snap]") {
  const double P_dyn = 8 * kEA * kH * kH * kH / (27 * kL0 * kL0 * kL0);
  const double P = 0.8 * P_dyn;
  // w₁: first root of c w (2h − w)² − P (in (0, 2h/3): the cubic is increasing there).
  const double w1 = test::root([&](double w) { return kC * w * (2 * kH - w) * (2 * kH - w) - P; }, 1e-9, 2 * kH / 3);
  const double T = 2 * test::turning_integral([&](double w) { return 2 * (P * w - U(w)); }, 0.0, w1,
                                              [](double) { return 1.0; });
  VonMises vm;
  double w_turn = 0, t_turn = 0, t_back = 0;
  REQUIRE_FALSE(vm.run(P, 0.002, &w_turn, &t_turn, &t_back));
  INFO("w1 " << w1 << " sim " << w_turn << "; T " << T << " sim " << t_back << " half " << 2 * t_turn);
  // Turning point: energy is exact, the interpolation O(Δt⁴): 1e-6 holds with margin.
  CHECK(std::abs(w_turn - w1) <= 1e-6 * w1);
  // Period: the scheme's phase error is O((ω Δt)²)/12 ≈ 1e-7 at Δt = 0.002 (ω ≈ 0.6),
  // inside 1e-6.
  CHECK(std::abs(t_back - T) <= 1e-6 * T);
  CHECK(std::abs(2 * t_turn - T) <= 1e-6 * T);
}
