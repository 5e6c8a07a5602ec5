// Exact location of critical points with SPL / SPB (docs/theory.md §4).
// Reference values are closed forms of the von Mises two-bar truss (Green–Lagrange,
// supports (±a, 0), apex (0, h), EA = 1, L₀ = √(a² + h²)):
//   limit load         P_L = (2/(3√3)) EA (h/L₀)³ at w = h(1 − 1/√3)      (symmetric path)
//   bifurcation load   P_b = 2 EA a² √(h² − 2a²) / L₀³ at w = h − √(h² − 2a²)  (sway mode, h > √2 a)
// derived from P(w) = EA (h − w) w (2h − w)/L₀³ and, for the sway mode, the
// vanishing of the horizontal stiffness 2 EA (a² + (h−w)² − L₀²... ) — see docs/validation.md.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/model/model.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/truss.hpp"
#include "problems/rigid_bar_models.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;
using namespace senda::critical;

namespace {
std::unique_ptr<Model> von_mises(double a, double h, bool sway) {
  senda::problems::VonMisesTruss t;
  t.a = a;
  t.h = h;
  t.sway = sway;
  return t.build();
}

std::vector<CriticalPoint> trace(const Problem& p, Options o, int max_points, FinderOptions fo = {}) {
  PathFollower f(p, o);
  REQUIRE(f.start(Vector::Zero(p.size()), 0.0));
  CriticalPointFinder finder(fo);
  while (f.advance()) {
    finder.check(f, 0);
    if (static_cast<int>(finder.points().size()) >= max_points) break;
  }
  return finder.points();
}

// Observed order of convergence from the last three residuals above the floor.
double observed_order(const std::vector<double>& h, double floor) {
  std::vector<double> r;
  for (double x : h)
    if (x > floor) r.push_back(x);
  REQUIRE(r.size() >= 3);
  const std::size_t k = r.size() - 1;
  return std::log(r[k] / r[k - 1]) / std::log(r[k - 1] / r[k - 2]);
}
}  // namespace

TEST_CASE("von Mises truss h = 0.5: limit load to 1e-10", "[critical][limit]") {
  const double a = 1, h = 0.5, L0 = std::sqrt(a * a + h * h);
  const auto m = von_mises(a, h, false);
  Options o;
  o.initial_load_increment = 0.01;
  const auto cps = trace(*m, o, 1);
  REQUIRE(cps.size() == 1);
  const CriticalPoint& cp = cps[0];
  INFO(cp.message);
  REQUIRE(cp.converged);
  CHECK(cp.kind == CriticalKind::Limit);
  CHECK(cp.id == "LP1");
  const double PL = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(h / L0, 3);
  CHECK(std::abs(cp.lambda - PL) <= 1e-10 * PL);
  CHECK(std::abs(-cp.q[0] - h * (1 - 1 / std::sqrt(3.0))) <= 1e-8);
  CHECK(cp.newton_iterations <= 6);
  CHECK(cp.factorizations <= 8);
}

TEST_CASE("steep von Mises truss a = 1, h = 2: bifurcation before the limit point", "[critical][bifurcation]") {
  const double a = 1, h = 2, L0 = std::sqrt(a * a + h * h);
  const auto m = von_mises(a, h, true);
  Options o;
  o.initial_load_increment = 0.02;
  const auto cps = trace(*m, o, 2);
  REQUIRE(cps.size() >= 1);
  const CriticalPoint& bp = cps[0];
  INFO(bp.message << " system " << bp.system << " phi.r " << bp.phi_dot_r);
  REQUIRE(bp.converged);
  CHECK(bp.kind == CriticalKind::Bifurcation);
  const double Pb = 2 * a * a * std::sqrt(h * h - 2 * a * a) / std::pow(L0, 3);
  CHECK(std::abs(bp.lambda - Pb) <= 1e-10 * Pb);
  CHECK(std::abs(bp.lambda - 0.252982) <= 1e-6);
}

TEST_CASE("steep von Mises truss: all four critical points, quadratic convergence", "[critical][convergence]") {
  // Symmetric path of the steep truss (a = 1, h = 2): BP at ±P_b, LP at ±P_L (the
  // second pair is the mirror image after snap-through, w → 2h − w).
  const double a = 1, h = 2, L0 = std::sqrt(a * a + h * h);
  const double Pb = 2 * a * a * std::sqrt(h * h - 2 * a * a) / std::pow(L0, 3);
  const double PL = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(h / L0, 3);
  const auto m = von_mises(a, h, true);
  Options o;
  o.initial_load_increment = 0.02;
  o.monitor_dof = 1;
  o.max_displacement = 4.5;
  const auto cps = trace(*m, o, 10);
  REQUIRE(cps.size() == 4);
  const double expected[4] = {Pb, PL, -PL, -Pb};
  const CriticalKind kinds[4] = {CriticalKind::Bifurcation, CriticalKind::Limit, CriticalKind::Limit,
                                 CriticalKind::Bifurcation};
  const char* ids[4] = {"BP1", "LP1", "LP2", "BP2"};
  for (int k = 0; k < 4; ++k) {
    const CriticalPoint& cp = cps[k];
    INFO(cp.id << ": " << cp.message);
    REQUIRE(cp.converged);
    CHECK(cp.id == ids[k]);
    CHECK(cp.kind == kinds[k]);
    CHECK(std::abs(cp.lambda - expected[k]) <= 1e-10 * std::abs(expected[k]));
    // Residual of 1e-10 within 6 iterations, order ≥ 1.8 measured above the round-off floor.
    CHECK(cp.newton_iterations <= 6);
    CHECK(cp.residual <= 1e-10);
    CHECK(observed_order(cp.residual_history, 1e-12) >= 1.8);
    CHECK(cp.factorizations <= 8);
    CHECK(std::abs(cp.negative_pivots_change) == 1);
  }
  // The bifurcation mode is the sway (antisymmetric) mode: horizontal apex motion.
  CHECK(std::abs(cps[0].phi[0]) == Approx(1.0));
  CHECK(std::abs(cps[0].phi[1]) < 1e-8);
}

TEST_CASE("two eigenvalues crossing in one step: inertia test sees it, det test does not", "[critical][multiple]") {
  // A 3D vertical bar (length L, EA) pinned at the base; the top held laterally by
  // two equal springs k in x and y and loaded by P downward. At the vertical state the
  // lateral stiffness is k − P/L in both directions, so two eigenvalues vanish
  // together at P = kL: det K keeps its sign, the negative-pivot count jumps by 2.
  const double L = 1.0, k = 0.1, EA = 100.0;
  Model m(3);
  const int b = m.add_node(1, {0, 0, 0});
  const int t = m.add_node(2, {0, 0, L});
  m.add_element(std::make_unique<TrussBar>(1, 3, b, t, m.node_position(b), m.node_position(t), EA,
                                           StrainMeasure::GreenLagrange));
  m.add_element(std::make_unique<LinearSpring>(2, t, -1, Component::Ux, k));
  m.add_element(std::make_unique<LinearSpring>(3, t, -1, Component::Uy, k));
  for (Component c : {Component::Ux, Component::Uy, Component::Uz}) m.fix(b, c);
  m.add_load(t, Component::Uz, -1.0);
  m.finalize();
  Options o;
  o.initial_load_increment = 0.03;
  o.lambda_max = 0.2;
  SECTION("inertia") {
    FinderOptions fo;
    fo.detect = DetectTest::Inertia;
    const auto cps = trace(m, o, 5, fo);
    REQUIRE(cps.size() == 1);
    CHECK(cps[0].kind == CriticalKind::Multiple);
    CHECK(cps[0].multiplicity == 2);
    CHECK(cps[0].id == "MP1");
    CHECK(cps[0].lambda_before < k * L);
    CHECK(cps[0].lambda_after > k * L);
  }
  SECTION("det") {
    FinderOptions fo;
    fo.detect = DetectTest::Det;
    CHECK(trace(m, o, 5, fo).empty());
  }
}

TEST_CASE("von Mises truss: bifurcation and limit point coincide at h/a = sqrt(3)", "[critical][transition]") {
  // P_b(h) − P_L(h) changes sign where w_b = w_L, i.e. h² = 3a²: for h > √3a the sway
  // bifurcation comes first on the symmetric path, for h < √3a the limit point.
  auto first_two = [](double h) {
    const auto m = von_mises(1.0, h, true);
    Options o;
    o.initial_load_increment = 0.005;
    o.max_step_ratio = 1.0;  // one crossing per step: the two points are close here
    const auto cps = trace(*m, o, 2);
    REQUIRE(cps.size() == 2);
    INFO(cps[0].message << " / " << cps[1].message);
    REQUIRE(cps[0].converged);
    REQUIRE(cps[1].converged);
    return cps;
  };
  const double h1 = std::sqrt(3.0) - 0.05, h2 = std::sqrt(3.0) + 0.05;
  const auto below = first_two(h1), above = first_two(h2);
  CHECK(below[0].kind == CriticalKind::Limit);
  CHECK(below[1].kind == CriticalKind::Bifurcation);
  CHECK(above[0].kind == CriticalKind::Bifurcation);
  CHECK(above[1].kind == CriticalKind::Limit);
  // P_b ≤ P_L always (P_L is the maximum of P(w)); what changes sign at √3 is
  // e(h) = w_b − w_L = h/√3 − √(h² − 2), the distance between the two along the path.
  // The located points give e to 1e-8; the zero of the chord through them lies
  // 2.2e-3 from √3 (the curvature of e over Δh = 0.05, from the closed form).
  const double e1 = below[0].q[1] - below[1].q[1];  // w = −q[1]: w_b − w_L > 0 below
  const double e2 = above[1].q[1] - above[0].q[1];  // < 0 above
  CHECK(e1 > 0);
  CHECK(e2 < 0);
  const double h_star = h1 - e1 * (h2 - h1) / (e2 - e1);
  auto e = [](double h) { return h / std::sqrt(3.0) - std::sqrt(h * h - 2.0); };
  CHECK(std::abs(e1 - e(h1)) <= 1e-8);
  CHECK(std::abs(e2 - e(h2)) <= 1e-8);
  CHECK(std::abs(h_star - std::sqrt(3.0)) <= 2.5e-3);
}

TEST_CASE("a location factorizes over the follower's idle factorization and leaves its counters alone",
          "[critical][memory]") {
  // CriticalPointFinder::check lends the follower's Newton factorization object
  // (idle between steps) to locate() for the start mode's other end and SPL/SPB's
  // penalized K, so that a location holds no factor besides the path's two
  // (docs/performance.md, the 10⁶ dome). The located points must be those of a
  // location with a factorization of its own, the follower's counters must not
  // count the location's work, and the next step must still work.
  const double a = 1, h = 2;
  const auto m = von_mises(a, h, true);
  Options o;
  o.initial_load_increment = 0.02;
  o.monitor_dof = 1;
  o.max_displacement = 4.5;
  PathFollower f(*m, o);
  REQUIRE(f.start(Vector::Zero(m->size()), 0.0));
  CriticalPointFinder finder(FinderOptions{});
  int located = 0, steps_after = 0;
  while (f.advance()) {
    if (located > 0) ++steps_after;
    const long path_factorizations = f.factorizations();
    const linalg::FactorStats before = f.factor_stats();
    const auto found = finder.check(f, 0);
    CHECK(f.factorizations() == path_factorizations);
    // (its solves do grow: the eigenvalue monitor solves with the point's factorization)
    CHECK(f.factor_stats().factorize_seconds == before.factorize_seconds);
    for (const auto& fp : found) {
      const CriticalPoint& cp = finder.points()[fp.index];
      INFO(cp.id << ": " << cp.message);
      REQUIRE(cp.converged);
      CHECK(cp.factorizations > 0);
      // The same bracket located with a factorization of its own.
      const CriticalPoint own = locate(*m, f.previous(), f.current(), f.factorization(), finder.options().locate_options);
      REQUIRE(own.converged);
      CHECK(own.lambda == Approx(cp.lambda).epsilon(1e-13));
      CHECK((own.q - cp.q).norm() <= 1e-12 * (1.0 + cp.q.norm()));
      CHECK(own.factorizations == cp.factorizations);
      CHECK(own.newton_iterations == cp.newton_iterations);
      ++located;
    }
    if (located >= 2 && steps_after >= 2) break;  // and two steps on, over the borrowed object
  }
  CHECK(located >= 2);
  CHECK(steps_after >= 2);
  CHECK(f.termination() == Termination::Running);
}
