#pragma once
// Helpers of the dynamics tests: a step that must converge, and reference values: a root by bisection, the integral of a
// motion between two turning points, the extremum of a cubic Hermite interpolant.
#include <cmath>
#include <functional>
#include <numbers>
#include <sstream>

#include <catch2/catch.hpp>

#include "senda/dynamics/integrator.hpp"

namespace test {

// One step that must converge; on failure the message names the iterations' residuals.
inline senda::dynamics::StepReport require_step(senda::dynamics::Integrator& in) {
  const senda::dynamics::StepReport r = in.step();
  if (r.status != senda::dynamics::StepStatus::Converged) {
    std::ostringstream o;
    o << in.message() << "; residuals";
    for (double x : r.residuals) o << " " << x;
    FAIL(o.str());
  }
  return r;
}

// A root of f in [a, b] (f(a), f(b) of opposite signs), to the last bit.
inline double root(const std::function<double(double)>& f, double a, double b) {
  double fa = f(a);
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (a + b);
    if (m == a || m == b) break;
    const double fm = f(m);
    if ((fm > 0) == (fa > 0)) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

// ∫_a^b h(r) / √F(r) dr for F with simple roots at a and b (a turning-point integral).
// With r = a + (b − a)(1 − cos φ)/2 the integrand h(r) (b − a) sin φ / (2 √F(r)) is
// smooth and even in φ, so the midpoint rule in φ ∈ [0, π] converges faster than any
// power of 1/n (n = 4000 gives the double-precision value for these tests).
inline double turning_integral(const std::function<double(double)>& F, double a, double b,
                               const std::function<double(double)>& h, int n = 4000) {
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    const double phi = std::numbers::pi * (k + 0.5) / n;
    const double r = a + 0.5 * (b - a) * (1 - std::cos(phi));
    sum += h(r) * 0.5 * (b - a) * std::sin(phi) / std::sqrt(F(r));
  }
  return sum * std::numbers::pi / n;
}

struct Extremum {
  double value;     // the extreme value of the interpolant
  double fraction;  // where, as a fraction of the step
};

// The extremum inside a step of the cubic Hermite interpolant of (y0, y0') and
// (y1, y1') over a step dt, y0' and y1' of opposite signs.
inline Extremum hermite_extremum(double y0, double d0, double y1, double d1, double dt) {
  auto value = [&](double s) {
    const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
    const double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
    return h00 * y0 + h10 * dt * d0 + h01 * y1 + h11 * dt * d1;
  };
  auto slope = [&](double s) {
    return (6 * s * s - 6 * s) * (y0 - y1) + (3 * s * s - 4 * s + 1) * dt * d0 + (3 * s * s - 2 * s) * dt * d1;
  };
  double a = 0, b = 1;
  const bool rising = d0 > 0;
  for (int i = 0; i < 100; ++i) {
    const double m = 0.5 * (a + b);
    if ((slope(m) > 0) == rising)
      a = m;
    else
      b = m;
  }
  const double s = 0.5 * (a + b);
  return {value(s), s};
}

}  // namespace test
