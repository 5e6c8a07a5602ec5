#pragma once
// Load histories on the reference load (docs/theory.md §11.2):
//
//   f_ext(t) = λ(t) r + d                                              (eq. 11.4)
//
// r the model's reference load, d its dead load (not scaled), λ(t):
//   Step   λ(t) = λ₀ for t ≥ 0 (applied suddenly at t = 0)
//   Ramp   λ(t) = λ₀ min(t / t_r, 1)
//   Table  piecewise linear through (t_k, λ_k), t_k increasing; constant before the
//          first and after the last point
#include <string>
#include <utility>
#include <vector>

namespace senda::dynamics {

enum class LoadKind { Step, Ramp, Table };
const char* to_string(LoadKind k);  // "step", "ramp", "table"

struct LoadHistory {
  LoadKind kind = LoadKind::Step;
  double lambda = 0.0;      // λ₀ (step, ramp)
  double ramp_time = 0.0;   // t_r > 0 (ramp)
  std::vector<std::pair<double, double>> points;  // (t_k, λ_k) (table)

  // λ(t).
  double factor(double t) const;
  // Empty when valid, else the reason (a ramp time ≤ 0, a table not increasing in t).
  std::string check() const;
};

}  // namespace senda::dynamics
