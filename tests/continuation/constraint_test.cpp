// Every constraint kind: the constraint equation of docs/theory.md §2.1 holds for
// the increment of EVERY converged point, written out here independently of
// constraint.cpp. Also the stop criteria and the numerical terminations.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/model.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;

namespace {

void bar(Model& m, int id, int a, int b) {
  m.add_element(std::make_unique<TrussBar>(id, 2, a, b, m.node_position(a), m.node_position(b), 1.0,
                                           StrainMeasure::GreenLagrange));
}

// Von Mises truss, supports (±1, 0), apex (0, h), EA = 1, Green–Lagrange.
// symmetric: apex ux fixed, 1 unknown, P(w) = (h − w) w (2h − w)/L₀³.
// otherwise: apex free in x with a horizontal spring to ground and an oblique load
// (0.1, −1): 2 unknowns that both move, so the quadratic constraints are exercised
// in more than one dimension; the path still has a limit point.
Model von_mises(bool symmetric, double h = 0.5) {
  Model m(2);
  const int n1 = m.add_node(1, {-1, 0, 0});
  const int n2 = m.add_node(2, {0, h, 0});
  const int n3 = m.add_node(3, {1, 0, 0});
  bar(m, 1, n1, n2);
  bar(m, 2, n2, n3);
  for (int n : {n1, n3}) {
    m.fix(n, Component::Ux);
    m.fix(n, Component::Uy);
  }
  if (symmetric) {
    m.fix(n2, Component::Ux);
  } else {
    m.add_element(std::make_unique<LinearSpring>(3, n2, -1, Component::Ux, 0.02));
    m.add_load(n2, Component::Ux, 0.1);
  }
  m.add_load(n2, Component::Uy, -1.0);
  m.finalize();
  return m;
}

double closed_form(double h, double w) { return (h - w) * w * (2 * h - w) / std::pow(1 + h * h, 1.5); }

// c(Δq, Δλ) of each kind, from the theory (not from constraint.cpp), normalised so
// that it is dimensionless: divided by Δs² (quadratic kinds) or Δs (linear kinds).
double constraint_residual(ConstraintKind kind, const Scaling& s, double ds, const Vector& tq, double tl,
                           int control_dof, const Vector& dq, double dl) {
  const double wdq2 = (s.w.array() * dq.array()).square().sum();
  switch (kind) {
    case ConstraintKind::Spherical: return (wdq2 + s.psi * s.psi * dl * dl - ds * ds) / (ds * ds);
    case ConstraintKind::Cylindrical: return (wdq2 - ds * ds) / (ds * ds);
    case ConstraintKind::PseudoArclength:
      return ((s.w.array().square() * tq.array() * dq.array()).sum() + s.psi * s.psi * tl * dl - ds) / ds;
    case ConstraintKind::LoadControl: return (s.psi * dl - std::copysign(ds, tl)) / ds;
    case ConstraintKind::DisplacementControl:
      return (s.w[control_dof] * dq[control_dof] - std::copysign(ds, tq[control_dof])) / ds;
  }
  return NAN;
}

}  // namespace

TEST_CASE("constraints: the constraint equation holds at every converged point", "[continuation][constraint]") {
  const ConstraintKind kinds[] = {ConstraintKind::Spherical, ConstraintKind::Cylindrical,
                                  ConstraintKind::PseudoArclength, ConstraintKind::LoadControl,
                                  ConstraintKind::DisplacementControl};
  for (bool symmetric : {true, false}) {
    for (ConstraintKind kind : kinds) {
      SECTION(std::string(to_string(kind)) + (symmetric ? " (1 unknown)" : " (2 unknowns)")) {
        Model model = von_mises(symmetric);
        const int uy = model.equation(1, Component::Uy);
        Options o;
        o.constraint = kind;
        o.control_dof = uy;
        o.initial_load_increment = 0.004;
        o.max_step_ratio = 3.0;
        o.max_steps = 300;
        o.monitor_dof = uy;
        o.max_displacement = 0.9;  // beyond the flat position w = h, where λ < 0
        // Load control cannot pass the limit load 0.0344: stop below it.
        if (kind == ConstraintKind::LoadControl) o.lambda_max = 0.03;
        PathFollower f(model, o);
        REQUIRE(f.start(Vector::Zero(model.size()), 0.0));
        const Scaling s = f.scaling();
        REQUIRE(s.w.size() == model.size());
        int points = 0;
        double lmax = 0.0;
        while (!f.done()) {
          // The frame of the next step: tangent at the current point, before advance().
          const Vector tq = f.tangent_q();
          const double tl = f.tangent_lambda();
          // The unit tangent is unit in the scaled norm.
          REQUIRE(std::abs(s.norm(tq, tl) - 1.0) <= 1e-14);
          if (!f.advance()) break;
          ++points;
          const PathPoint& p = f.current();
          const Vector dq = p.q - f.previous().q;
          const double dl = p.lambda - f.previous().lambda;
          INFO("point " << p.index << " lambda " << p.lambda << " ds " << p.step_length);
          REQUIRE(p.step_length > 0.0);
          // The corrector solves the constraint exactly at every iteration (its linear
          // form, or the quadratic's root), so only round-off remains: ≈ 1e-15
          // relative; 1e-12 leaves room for the cancellation in wdq2 − ds².
          CHECK(std::abs(constraint_residual(kind, s, p.step_length, tq, tl, uy, dq, dl)) <= 1e-12);
          // And it is an equilibrium point (the residual tolerance of the options).
          CHECK(p.residual <= o.residual_tolerance * f.residual_scale(p.lambda));
          if (symmetric) CHECK(std::abs(p.lambda - closed_form(0.5, -p.q[0])) <= 1e-9 * 0.0344265);
          lmax = std::max(lmax, p.lambda);
          // Step control stays in its clamp: Δs ≤ max_step_ratio·Δs₀, Δs₀ = Δλ₀‖(v, 1)‖_W
          // = Δλ₀√2 (the automatic scaling makes ‖v‖_W = 1 for one kind of unknown, ψ = 1).
          CHECK(p.step_length <= 3.0 * 0.004 * std::sqrt(2.0) * (1 + 1e-12));
        }
        CHECK(points >= 5);
        CHECK(f.termination() == Termination::Completed);
        if (kind == ConstraintKind::LoadControl) {
          CHECK(f.current().lambda > 0.03);
        } else {
          // Every other kind passes the limit point (λ_max = 0.0344265 for the symmetric truss).
          CHECK(std::abs(f.current().q[uy]) > 0.9);
          if (symmetric) CHECK(lmax > 0.034);
          CHECK(f.current().lambda < 0.0);  // snap-through traced, not jumped
        }
      }
    }
  }
}

// The linear constraints compute δλ and the predictor length in one pass
// (constraint.cpp); they must equal the generic formulas written with value() and
// gradient(): δλ = −(c + c_q·a)/(c_q·b + c_λ), α = −c(0)/(c_q·t_q + c_λ t_λ).
TEST_CASE("constraints: one-pass corrections equal the linearised constraint", "[continuation][constraint]") {
  const int n = 7;
  Scaling s;
  s.w = Vector::LinSpaced(n, 0.5, 2.0);
  s.psi = 0.7;
  StepFrame f;
  f.scaling = &s;
  f.ds = 0.3;
  f.tq = Vector::LinSpaced(n, -0.4, 0.9);
  f.tl = -0.25;
  f.control_dof = 4;
  const Vector dq = Vector::LinSpaced(n, 0.1, -0.2), a = Vector::LinSpaced(n, 0.03, 0.5),
               b = Vector::LinSpaced(n, -1.0, 0.4);
  const double dl = 0.05;
  for (ConstraintKind kind :
       {ConstraintKind::PseudoArclength, ConstraintKind::LoadControl, ConstraintKind::DisplacementControl}) {
    INFO(to_string(kind));
    const auto c = make_constraint(kind);
    Vector c_q;
    double c_l = 0.0;
    c->gradient(f, dq, dl, c_q, c_l);
    const double expected = -(c->value(f, dq, dl) + c_q.dot(a)) / (c_q.dot(b) + c_l);
    const std::optional<double> got = c->correction(f, dq, dl, a, b);
    REQUIRE(got);
    CHECK(*got == Approx(expected).epsilon(1e-14));
    // After the update the (linear) constraint holds.
    CHECK(std::abs(c->value(f, dq + a + *got * b, dl + *got)) <= 1e-14);
    const Vector zero = Vector::Zero(n);
    c->gradient(f, zero, 0.0, c_q, c_l);
    const double alpha = -c->value(f, zero, 0.0) / (c_q.dot(f.tq) + c_l * f.tl);
    // Orientation: every kind steps forward along its own measure here.
    if (alpha > 0.0) {
      const std::optional<double> p = c->predictor_length(f);
      REQUIRE(p);
      CHECK(*p == Approx(alpha).epsilon(1e-14));
      CHECK(std::abs(c->value(f, *p * f.tq, *p * f.tl)) <= 1e-14);
    } else {
      CHECK_FALSE(c->predictor_length(f));
    }
  }
  // No real δλ: a load-control step with ψ = 0, a displacement step whose b_j = 0.
  Scaling s0 = s;
  s0.psi = 0.0;
  StepFrame f0 = f;
  f0.scaling = &s0;
  CHECK_FALSE(make_constraint(ConstraintKind::LoadControl)->correction(f0, dq, dl, a, b));
  Vector b0 = b;
  b0[4] = 0.0;
  CHECK_FALSE(make_constraint(ConstraintKind::DisplacementControl)->correction(f, dq, dl, a, b0));
}

TEST_CASE("path follower: stop criteria", "[continuation][stop]") {
  Model model = von_mises(true);
  Options o;
  o.initial_load_increment = 0.004;
  o.max_step_ratio = 3.0;
  o.max_steps = 500;
  SECTION("max_steps") {
    o.max_steps = 5;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    int n = 0;
    while (f.advance()) ++n;
    CHECK(n == 5);
    CHECK(f.current().index == 5);
    CHECK(f.termination() == Termination::MaxSteps);
  }
  SECTION("lambda_max") {
    o.lambda_max = 0.02;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) CHECK((f.done() || f.current().lambda <= 0.02));
    CHECK(f.termination() == Termination::Completed);
    CHECK(f.current().lambda > 0.02);
    CHECK(f.previous().lambda <= 0.02);
  }
  SECTION("lambda_min, tracing downwards") {
    o.direction = -1;
    o.lambda_min = -0.01;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) {
    }
    CHECK(f.termination() == Termination::Completed);
    CHECK(f.current().lambda < -0.01);
    CHECK(f.current().q[0] > 0.0);  // pulled up
  }
  SECTION("displacement limit") {
    o.monitor_dof = 0;
    o.max_displacement = 0.3;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) {
    }
    CHECK(f.termination() == Termination::Completed);
    CHECK(std::abs(f.current().q[0]) > 0.3);
    CHECK(std::abs(f.previous().q[0]) <= 0.3);
    CHECK(f.message().find("displacement") != std::string::npos);
  }
  SECTION("stop at zero load") {
    // λ returns to zero at w = h = 0.5 (the flat position), after the limit point.
    o.stop_at_zero_load = true;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) {
    }
    CHECK(f.termination() == Termination::Completed);
    CHECK(f.current().lambda <= 0.0);
    CHECK(f.previous().lambda > 0.0);
    CHECK(-f.current().q[0] >= 0.5);
    CHECK(-f.previous().q[0] < 0.5);
  }
}

TEST_CASE("path follower: numerical terminations are statuses", "[continuation][stop]") {
  SECTION("step too small: one Newton iteration cannot meet a tight tolerance") {
    // After a single iteration the increment is the first correction itself,
    // O(Δs²) ≫ 1e-9 Δs for every admissible Δs: every step is cut until Δs_min.
    Model model = von_mises(true);
    Options o;
    o.max_iterations = 1;
    o.min_step_ratio = 1e-3;
    o.initial_load_increment = 0.01;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    CHECK_FALSE(f.advance());
    CHECK(f.termination() == Termination::StepTooSmall);
    CHECK(f.current().index == 0);
    CHECK(f.stats().failed_steps >= 10);  // 2⁻¹⁰ < 1e-3: at least ten halvings
    CHECK(f.message().find("no convergence") != std::string::npos);
  }
  SECTION("a mechanism at the start is reported with the DOF") {
    // One bar along x, pinned at node 1, node 2 free in x and y: nothing resists
    // uy at the reference state (K_yy = N/l = 0 exactly).
    Model m(2);
    const int a = m.add_node(1, {0, 0, 0});
    const int b = m.add_node(2, {1, 0, 0});
    bar(m, 1, a, b);
    m.fix(a, Component::Ux);
    m.fix(a, Component::Uy);
    m.add_load(b, Component::Ux, 1.0);
    m.finalize();
    PathFollower f(m, Options{});
    CHECK_FALSE(f.start(Vector::Zero(m.size()), 0.0));
    CHECK(f.done());
    CHECK(f.termination() == Termination::Diverged);
    INFO(f.message());
    CHECK(f.message().find("singular") != std::string::npos);
    CHECK(f.message().find("node 2 uy") != std::string::npos);
    CHECK_FALSE(f.advance());
  }
}

TEST_CASE("path follower: the start point is accepted at the round-off floor of g, not at an unbalance",
          "[continuation][start]") {
  // A tilted clamped–free column of 256 Simo–Reissner elements, L = 1, EA = GA_s =
  // 1e7, EI = 1e3, based at (1000, 2000), under a unit axial tip load. At q = 0 the
  // element forces are round-off, ≈ eps EA per element (N = EA ε with ε rounded),
  // and Newton cannot reduce them: ‖g‖ stays above the absolute 1e-10 that
  // tol_r max(‖r‖ max(1, |λ|), ‖g(q₀, λ₀)‖) is with ‖r‖ = 1, so the start was refused
  // ("no equilibrium found at the start load factor") before the floor of eq. 2.9a.
  const int n = 256;
  const double L = 1.0, EA = 1e7, EI = 1e3, c = std::cos(0.5), s = std::sin(0.5);
  const Eigen::Vector3d X0{1000.0, 2000.0, 0.0}, e{c, s, 0.0};
  auto column = [&](double dead) {
    Model m(2);
    std::vector<int> node;
    for (int i = 0; i <= n; ++i) node.push_back(m.add_node(i + 1, X0 + (L * i / n) * e));
    for (int i = 0; i < n; ++i)
      m.add_element(std::make_unique<Beam2D>(i + 1, node[i], node[i + 1], m.node_position(node[i]),
                                             m.node_position(node[i + 1]), EA, EA, EI));
    for (Component k : {Component::Ux, Component::Uy, Component::Rz}) m.fix(node[0], k);
    m.add_load(node[n], Component::Ux, -c);
    m.add_load(node[n], Component::Uy, -s);
    if (dead != 0.0) m.add_dead_load(node[n], Component::Ux, dead);
    m.finalize();
    return std::pair{std::move(m), node[n]};
  };
  SECTION("round-off at rest: accepted, and the path is the closed form") {
    auto [m, tip] = column(0.0);
    Vector g(m.size());
    m.residual(Vector::Zero(m.size()), 0.0, g);
    INFO("|g(0, 0)| = " << g.norm());
    CHECK(g.norm() > 1e-10);  // above the old absolute test
    PathFollower f(m, Options{});
    REQUIRE(f.start(Vector::Zero(m.size()), 0.0));
    CHECK(f.current().residual > 1e-10);
    CHECK(f.current().residual < 1e3 * std::numeric_limits<double>::epsilon() * EA * std::sqrt(3.0 * n));
    CHECK(f.current().iterations >= 1);
    // The accepted point is the rest state: displacements of round-off size only
    // (the first step from it is not checked here, see the report: the corrector
    // does not converge on this column's first step yet).
    CHECK(f.current().q.lpNorm<Eigen::Infinity>() < 1e-9);
    CHECK(f.current().negative_pivots == 0);
  }
  SECTION("a real unbalance at λ = 0 is not accepted at the floor") {
    // A dead tip load of 1e-3, far above the floor eps ‖ |K| |x₀ + q| ‖ but with a
    // small Newton step after it (g no longer decreases from one iteration to the
    // next only at round-off): equilibrated by Newton, not taken as round-off.
    auto [m, tip] = column(1e-3);
    {
      Options o;
      o.max_iterations = 1;  // one step leaves the geometric nonlinearity's residual: refused
      PathFollower f(m, o);
      CHECK_FALSE(f.start(Vector::Zero(m.size()), 0.0));
      CHECK(f.termination() == Termination::Diverged);
      CHECK(f.message().find("no equilibrium found at the start load factor") != std::string::npos);
    }
    PathFollower f(m, Options{});
    REQUIRE(f.start(Vector::Zero(m.size()), 0.0));
    const double ux = m.displacement(f.current().q, tip, Component::Ux);
    const double uy = m.displacement(f.current().q, tip, Component::Uy);
    // ux = 1e-3 × (axial flexibility c L/EA · c + bending flexibility L³/(3EI) · s · s)
    // to first order: the tip moves by far more than round-off.
    CHECK(ux == Approx(1e-3 * (c * c * L / EA + s * s * L * L * L / (3 * EI))).epsilon(2e-2));
    CHECK(std::abs(uy) > 1e-8);
  }
}
