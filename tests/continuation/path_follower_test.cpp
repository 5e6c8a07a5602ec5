// Path following on the shallow von Mises truss (closed form, docs/validation.md):
// supports (±1, 0), apex (0, h), EA = 1, Green–Lagrange, apex load P downward:
//   P(w) = EA (h − w) w (2h − w) / L₀³,  L₀ = √(1 + h²).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"
#include "problems/rigid_bar_models.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;

namespace {
std::unique_ptr<Model> von_mises(double a, double h, StrainMeasure m) {
  senda::problems::VonMisesTruss t;
  t.a = a;
  t.h = h;
  t.sway = false;  // symmetric path only
  t.measure = m;
  return t.build();
}
double closed_form(double h, double w) { return (h - w) * w * (2 * h - w) / std::pow(1 + h * h, 1.5); }
// The symmetric von Mises truss (h = 0.5) of axial stiffness EA.
senda::problems::VonMisesTruss symmetric_truss(double EA) {
  senda::problems::VonMisesTruss t;
  t.h = 0.5;
  t.EA = EA;
  t.sway = false;
  return t;
}
}  // namespace

TEST_CASE("von Mises truss: every converged point on the closed form, through the limit point",
          "[continuation][von-mises]") {
  const double h = 0.5;
  const auto model_ptr = von_mises(1.0, h, StrainMeasure::GreenLagrange);
  const Model& model = *model_ptr;
  for (ConstraintKind kind : {ConstraintKind::Spherical, ConstraintKind::Cylindrical, ConstraintKind::PseudoArclength}) {
    SECTION(to_string(kind)) {
      Options o;
      o.constraint = kind;
      o.initial_load_increment = 0.005;
      o.max_steps = 400;
      o.max_step_ratio = 2.0;  // sample the load minimum closely enough to see it
      o.monitor_dof = 0;
      o.max_displacement = 2.2 * h;
      PathFollower f(model, o);
      REQUIRE(f.start(Vector::Zero(model.size()), 0.0));
      double lmax = 0, lmin = 0;
      int negatives = 0;
      while (f.advance()) {
        const double w = -f.current().q[0];
        const double lam = f.current().lambda;
        INFO("point " << f.current().index << " w = " << w << " lambda = " << lam);
        REQUIRE(std::abs(lam - closed_form(h, w)) <= 1e-9 * 0.0344265);
        lmax = std::max(lmax, lam);
        lmin = std::min(lmin, lam);
        negatives = std::max(negatives, f.current().negative_pivots);
      }
      CHECK(f.termination() == Termination::Completed);
      CHECK(lmax > 0.034);
      CHECK(lmin < -0.034);  // the snap-through branch was traced down to the load minimum
      CHECK(negatives == 1);
    }
  }
}

TEST_CASE("the first step's load increment is initial_step, whatever the constraint and the weights",
          "[continuation][first-step]") {
  // continuation.initial_step is the first predictor's Δλ (docs/config.md). Under
  // cylindrical steps, which measure the displacements alone, the first step was
  // Δλ₀ ‖(v, 1)‖ long: √2 Δλ₀ with auto_scale, and at unit weights on a stiff
  // structure Δλ₀ ‖(v, 1)‖/‖v‖ (the fork-supported beam went from 0 to 1.9e5 in one
  // step). A stiff von Mises truss (EA = 1e4, ‖v‖ ~ 1e-4 per unit load) at a small
  // increment, where the corrector moves λ by a fraction of Δλ₀ of the order of Δλ₀
  // over the limit load.
  const senda::problems::VonMisesTruss t = symmetric_truss(1e4);
  const auto model = t.build();
  const double dl0 = 1e-3 * t.limit_load();
  for (ConstraintKind kind : {ConstraintKind::Spherical, ConstraintKind::Cylindrical, ConstraintKind::PseudoArclength,
                              ConstraintKind::LoadControl})
    for (bool auto_scale : {true, false}) {
      DYNAMIC_SECTION(to_string(kind) << (auto_scale ? ", auto_scale" : ", unit weights")) {
        Options o;
        o.constraint = kind;
        o.auto_scale = auto_scale;
        o.initial_load_increment = dl0;
        o.max_steps = 1;
        PathFollower f(*model, o);
        REQUIRE(f.start(Vector::Zero(model->size()), 0.0));
        REQUIRE(f.advance());
        CHECK(f.current().lambda == Approx(dl0).epsilon(1e-2));
        // A branch's first step scales from the path's first step in (q, λ): the
        // same for every constraint.
        CHECK(f.metric_step_length() ==
              Approx(dl0 * f.scaling().norm(f.current().q / f.current().lambda, 1.0)).epsilon(1e-2));
      }
    }
}

TEST_CASE("cylindrical steps on a very stiff structure at unit weights are not below the resolvable step",
          "[continuation][first-step]") {
  // The smallest step the model resolves, 64 eps times the point's size, measured the
  // point with ψλ in it: under cylindrical steps, which measure the displacements
  // alone, a stiff column (EI = 1e10, ‖v‖ = 5e-12 per unit load) stopped at its second
  // step, "step length 4.83e-06 below the smallest the model resolves here, 1.42e-05"; this
  // truss (EA = 1e15) stopped at its first, 0.00136 against 0.00488.
  const senda::problems::VonMisesTruss t = symmetric_truss(1e15);
  const auto model = t.build();
  Options o;
  o.constraint = ConstraintKind::Cylindrical;
  o.auto_scale = false;
  o.initial_load_increment = 1e-2 * t.limit_load();
  o.max_steps = 10;
  PathFollower f(*model, o);
  REQUIRE(f.start(Vector::Zero(model->size()), 0.0));
  while (f.advance()) {
  }
  INFO(f.message());
  CHECK(f.termination() == Termination::MaxSteps);
  CHECK(f.current().index == 10);
  CHECK(f.current().lambda > 0.1 * t.limit_load());
}
