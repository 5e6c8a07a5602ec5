// Downstream check: trace the shallow von Mises truss (supports (±1, 0), apex
// (0, h), EA = 1, Green–Lagrange) with an installed Senda and compare with
//   P(w) = EA (h − w) w (2h − w) / L₀³,  P_max = 2/(3√3) · EA (h/L₀)³.
// Exit code 0 when every point is on the closed form and the largest sampled λ
// is within 1e-3 of P_max (steps of Δw ≈ 0.01 sample the parabola at the top to
// ≈ 4e-4 relative), 1 otherwise.
#include <senda/continuation/path_follower.hpp>
#include <senda/model/model.hpp>
#include <senda/model/truss.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <tuple>

int main() {
  using namespace senda;
  const double h = 0.5, L0 = std::sqrt(1 + h * h);
  model::Model m(2);
  const int a = m.add_node(1, {-1, 0, 0});
  const int apex = m.add_node(2, {0, h, 0});
  const int b = m.add_node(3, {1, 0, 0});
  for (auto [i, j, id] : {std::tuple{a, apex, 1}, std::tuple{apex, b, 2}})
    m.add_element(std::make_unique<model::TrussBar>(id, 2, i, j, m.node_position(i), m.node_position(j), 1.0,
                                                    model::StrainMeasure::GreenLagrange));
  for (int n : {a, b})
    for (auto c : {model::Component::Ux, model::Component::Uy}) m.fix(n, c);
  m.fix(apex, model::Component::Ux);
  m.add_load(apex, model::Component::Uy, -1.0);
  m.finalize();

  continuation::Options o;
  o.initial_load_increment = 0.002;
  o.max_step_ratio = 2.0;
  o.max_steps = 1000;
  o.monitor_dof = m.equation(apex, model::Component::Uy);
  o.max_displacement = 0.5;
  continuation::PathFollower f(m, o);
  if (!f.start(Vector::Zero(m.size()), 0.0)) {
    std::printf("start failed: %s\n", f.message().c_str());
    return 1;
  }
  const double p_max = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(h / L0, 3);
  double lambda_max = 0, worst = 0;
  while (f.advance()) {
    const double w = -f.current().q[0];
    const double p = (h - w) * w * (2 * h - w) / std::pow(L0, 3);
    worst = std::max(worst, std::abs(f.current().lambda - p));
    lambda_max = std::max(lambda_max, f.current().lambda);
  }
  const bool ok = f.termination() == continuation::Termination::Completed && worst <= 1e-9 * p_max &&
                  std::abs(lambda_max - p_max) <= 1e-3 * p_max && lambda_max <= p_max * (1 + 1e-12);
  std::printf("points %d, limit load %.7f (closed form %.7f), worst closed-form error %.2e: %s\n", f.current().index,
              lambda_max, p_max, worst, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
