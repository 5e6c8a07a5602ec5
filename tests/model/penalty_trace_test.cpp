// Penalty supports in a trace run: the located limit point of the shallow von Mises
// truss with penalty_fix supports tends to that of the rigid supports as O(1/κ);
// the builder reads both penalty keys.
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <string>
#include <vector>

#include "senda/analysis/analysis.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/input/family.hpp"
#include "senda/model/penalty.hpp"

using namespace senda;

namespace {

// problems/von-mises.cfg (EA = 1, h = 0.5) with the supports given by `supports`.
std::string von_mises(const std::string& supports) {
  return "[model]\nnode = 1 -1.0 0.0\nnode = 2 0.0 0.5\nnode = 3 1.0 0.0\n"
         "truss = 1 1 2 1.0\ntruss = 2 2 3 1.0\nfix = 2 ux\nload = 2 uy -1.0\n" +
         supports +
         "[continuation]\ninitial_step = 0.005\nmax_step_ratio = 2\n"
         "[stop]\nmax_steps = 400\ndisplacement = 2 uy 0.4\n[branches]\nswitch = false\n";
}

double limit_load(const std::string& text) {
  const input::Spec spec = input::build(input::Config::parse(text, "penalty.cfg"));
  analysis::Analysis a(*spec.model, spec.analysis, {});
  const analysis::TraceResult r = a.run();
  REQUIRE(r.critical_points.size() == 1);
  REQUIRE(r.critical_points[0].point.converged);
  return r.critical_points[0].point.lambda;
}

// The exact limit load of the same truss on supports held by isotropic springs κ.
// A bar pushes its support along its own line, so the support slides along that
// line by C/κ (C the bar's compression) and the line through apex and support is
// the rigid one: for an apex deflection w, with l_r(w) = √(1 + (h − w)²),
//   C = −N(l_r + C/κ),  P(w) = 2 C (h − w)/l_r,
// N(l) = EA (s³ − s)/2, s = l/L₀ (Green–Lagrange). λ_κ = max_w P(w), found by
// golden section (to 1e-12 in w; P is flat there, so λ to round-off).
double penalty_limit_load(double kappa) {
  const double h = 0.5, L0 = std::sqrt(1.0 + h * h);
  const auto N = [&](double l) { const double s = l / L0; return 0.5 * (s * s * s - s); };
  const auto dN = [&](double l) { const double s = l / L0; return 0.5 * (3.0 * s * s - 1.0) / L0; };
  const auto P = [&](double w) {
    const double lr = std::sqrt(1.0 + (h - w) * (h - w));
    double C = -N(lr);
    for (int it = 0; it < 50; ++it) C -= (C + N(lr + C / kappa)) / (1.0 + dN(lr + C / kappa) / kappa);
    return 2.0 * C * (h - w) / lr;
  };
  double a = 0.1, b = 0.35;
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  while (b - a > 1e-12) {
    const double x1 = b - g * (b - a), x2 = a + g * (b - a);
    if (P(x1) < P(x2)) {
      a = x1;  // the maximum is right of x1
    } else {
      b = x2;
    }
  }
  return P(0.5 * (a + b));
}

}  // namespace

TEST_CASE("penalty supports: the limit point of the von Mises truss tends to the rigid one as 1/kappa",
          "[model][penalty][trace]") {
  // Rigid supports: P_max = 2/(3√3) EA (h/L₀)³ (problems/von-mises.cfg), located to
  // the critical tolerance 1e-10.
  const double h = 0.5, L0 = std::sqrt(1.0 + h * h);
  const double exact = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(h / L0, 3);
  const double rigid = limit_load(von_mises("fix = 1 all\nfix = 3 all\n"));
  CHECK(rigid == Approx(exact).epsilon(1e-9));
  // Penalty supports of stiffness κ (EA = 1): the supports give way by the bar forces
  // over κ, which moves the limit point by O(1/κ). Measured: λ(κ) − λ_rigid and the
  // exponent of its decay between κ = 1e2, 1e3, 1e4 (1 expected; 0.05 allows the
  // O(1/κ²) term, 1 % of the first at κ = 1e2; measured 0.9976 and 0.9998, κ·Δλ =
  // −0.02448, −0.02462, −0.02463).
  // Each κ also against the exact λ_κ (penalty_limit_load): the location tolerance
  // 1e-10 relative, bounded by 1e-9.
  std::vector<double> kappas = {1e2, 1e3, 1e4}, diff;
  for (double k : kappas) {
    const std::string ks = std::to_string(k);
    const double lam = limit_load(von_mises("penalty_fix = 10 1 " + ks + " all\npenalty_fix = 11 3 " + ks + " ux uy\n"));
    CHECK(lam == Approx(penalty_limit_load(k)).epsilon(1e-9));
    diff.push_back(lam - rigid);
  }
  const double p1 = -std::log10(std::abs(diff[1] / diff[0])), p2 = -std::log10(std::abs(diff[2] / diff[1]));
  INFO("lambda - lambda_rigid: " << diff[0] << ", " << diff[1] << ", " << diff[2] << "; kappa * diff: " << 1e2 * diff[0]
                                 << ", " << 1e3 * diff[1] << ", " << 1e4 * diff[2] << "; exponents " << p1 << ", " << p2);
  CHECK(diff[0] < 0.0);  // softer supports, lower limit load
  CHECK(p1 == Approx(1.0).margin(0.05));
  CHECK(p2 == Approx(1.0).margin(0.05));
  // The differences are far above the location tolerance (1e-10 relative): the exponent is not noise.
  CHECK(std::abs(diff[2]) > 1e-5 * rigid);
  // The coefficient: to first order in 1/κ, C = C_r − N'(l_r) C_r/κ, so P_κ(w) =
  // P(w)(1 − N'(l_r(w))/κ) and the maximum moves by −P_max N'(l*)/κ at the rigid
  // maximiser (l*² = 1 + h²/3, s*² = 13/15, N' = EA (3s*² − 1)/(2L₀) = 0.8 EA/L₀):
  // κΔλ → −0.8 P_max/L₀ = −0.024634. At κ = 1e4 the O(1/κ²) term is 1e-4 of it.
  const double coefficient = -0.8 * exact / L0;
  CHECK(1e4 * diff[2] == Approx(coefficient).epsilon(1e-3));
}

TEST_CASE("penalty supports: the sensitivity of the limit load to kappa", "[model][penalty][trace]") {
  // κ as a design parameter: dλ_cr/dκ (eq. 8.2, the model rebuilt at κ ± δ) against
  // the central difference of the exact λ_κ (step 1e-3 κ: truncation 1e-6 relative,
  // round-off 1e-16/1.4e-6 ≈ 1e-10 relative), ≈ 0.8 P_max/(L₀ κ²) to leading order.
  const std::string text = von_mises("penalty_fix = 10 1 ${kappa} all\npenalty_fix = 11 3 ${kappa} all\n") +
                           "[parameters]\nkappa = 1000\n[design]\nparameter = kappa\n";
  const input::Config config = input::Config::parse(text, "kappa.cfg");
  const input::Spec spec = input::build(config);
  analysis::Analysis a(*spec.model, spec.analysis, input::design_parameters(config, spec));
  const analysis::TraceResult r = a.run();
  REQUIRE(r.critical_points.size() == 1);
  REQUIRE(r.critical_points[0].sensitivities.size() == 1);
  const critical::Sensitivity& s = r.critical_points[0].sensitivities[0].sensitivity;
  REQUIRE(s.valid);
  const double k = 1000.0, d = 1e-3 * k;
  const double exact = (penalty_limit_load(k + d) - penalty_limit_load(k - d)) / (2.0 * d);
  INFO("dlambda/dkappa " << std::setprecision(10) << s.dlambda_dmu << " against " << exact);
  // Measured 1.0e-6 relative (both are central differences: the reference's
  // truncation ≈ (δ/κ)² = 1e-6); the bound 1e-5 keeps a decade of margin.
  CHECK(s.dlambda_dmu == Approx(exact).epsilon(1e-5));
}

TEST_CASE("penalty keys: the builder makes a PenaltyFix with its point and a PenaltyTie", "[model][penalty][input]") {
  // Node 3 held at the point (1.01, 0): the gap X − p = −0.01 in ux, 0 in uy; node 4
  // coincides with node 3 and is tied to it.
  const std::string text =
      "[model]\nnode = 1 -1 0\nnode = 2 0 0.5\nnode = 3 1 0\nnode = 4 1 0\n"
      "truss = 1 1 2 1\ntruss = 2 2 3 1\ntruss = 3 2 4 1\nfix = 1 all\nfix = 2 ux\nfix = 4 all\nload = 2 uy -1\n"
      "penalty_fix = 10 3 1e3 all at 1.01 0\npenalty_tie = 11 3 4 5e2 ux uy\n";
  const input::Spec spec = input::build(input::Config::parse(text, "keys.cfg"));
  const model::Model& m = *spec.model;
  REQUIRE(m.element_count() == 5);
  const auto* fix = dynamic_cast<const model::PenaltyFix*>(&m.element(3));
  const auto* tie = dynamic_cast<const model::PenaltyTie*>(&m.element(4));
  REQUIRE(fix);
  REQUIRE(tie);
  CHECK(fix->kappa() == 1e3);
  CHECK(tie->kappa() == 5e2);
  REQUIRE(fix->dofs().size() == 2);
  const Eigen::VectorXd phi = fix->violation(Eigen::Vector2d::Zero());
  CHECK(phi[0] == Approx(-0.01).epsilon(1e-12));
  CHECK(phi[1] == 0.0);
  REQUIRE(tie->dofs().size() == 4);
  CHECK(tie->dofs()[0].node == 2);  // node id 3 is index 2
  CHECK(tie->dofs()[2].node == 3);
  // At rest the fix pulls node 3 towards x = 1.01 with κ·0.01 = 10: the residual at
  // q = 0, λ = 0 is that force (an offset point acts like a dead load).
  Vector g(m.size());
  m.residual(Vector::Zero(m.size()), 0.0, g);
  CHECK(g[m.equation(2, model::Component::Ux)] == Approx(-10.0).epsilon(1e-12));
}
