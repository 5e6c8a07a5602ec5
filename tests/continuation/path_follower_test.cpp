// Path following on the shallow von Mises truss (closed form, docs/validation.md):
// supports (±1, 0), apex (0, h), EA = 1, Green–Lagrange, apex load P downward:
//   P(w) = EA (h − w) w (2h − w) / L₀³,  L₀ = √(1 + h²).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;

namespace {
Model von_mises(double a, double h, StrainMeasure m) {
  Model model(2);
  const int n1 = model.add_node(1, {-a, 0, 0});
  const int n2 = model.add_node(2, {0, h, 0});
  const int n3 = model.add_node(3, {a, 0, 0});
  model.add_element(std::make_unique<TrussBar>(1, 2, n1, n2, model.node_position(n1), model.node_position(n2), 1.0, m));
  model.add_element(std::make_unique<TrussBar>(2, 2, n2, n3, model.node_position(n2), model.node_position(n3), 1.0, m));
  for (int n : {n1, n3}) {
    model.fix(n, Component::Ux);
    model.fix(n, Component::Uy);
  }
  model.fix(n2, Component::Ux);  // symmetric path only
  model.add_load(n2, Component::Uy, -1.0);
  model.finalize();
  return model;
}
double closed_form(double h, double w) { return (h - w) * w * (2 * h - w) / std::pow(1 + h * h, 1.5); }
}  // namespace

TEST_CASE("von Mises truss: every converged point on the closed form, through the limit point",
          "[continuation][von-mises]") {
  const double h = 0.5;
  Model model = von_mises(1.0, h, StrainMeasure::GreenLagrange);
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
