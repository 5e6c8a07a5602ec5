// The corrector's finishing chord update (docs/theory.md eq. 2.7b,
// `continuation.final_chord`): the same points as Newton throughout, fewer
// factorizations, and a converging step is not cut one update short of its tests.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "benchmarks/space_grid.hpp"
#include "continuation/traced_run.hpp"
#include "problems/rigid_bar_models.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::continuation;

using testing::Run;
using testing::trace;

TEST_CASE("final chord: the von Mises path through both limit points as with Newton, with fewer factorizations",
          "[continuation][final-chord]") {
  const double h = 0.5;
  senda::problems::VonMisesTruss t;
  t.h = h;
  t.sway = false;
  t.measure = model::StrainMeasure::GreenLagrange;
  const auto model = t.build();
  Options o;
  o.initial_load_increment = 0.005;
  o.max_steps = 400;
  o.max_step_ratio = 2.0;
  o.monitor_dof = 0;
  o.max_displacement = 2.2 * h;
  Options newton = o;
  newton.final_chord = false;
  const Run a = trace(*model, o), b = trace(*model, newton);
  REQUIRE(a.end == Termination::Completed);
  REQUIRE(b.end == Termination::Completed);
  CHECK(b.stats.chord_iterations == 0);
  CHECK(a.stats.chord_iterations > 0);
  // Where every chord update met the tests as predicted, the iteration counts and
  // so the step lengths are Newton's: the same points, to the corrector's tolerance.
  REQUIRE(a.points.size() == b.points.size());
  for (std::size_t k = 0; k < a.points.size(); ++k) {
    INFO("point " << k + 1);
    CHECK(a.points[k].iterations == b.points[k].iterations);
    CHECK(a.points[k].negative_pivots == b.points[k].negative_pivots);
    CHECK(std::abs(a.points[k].lambda - b.points[k].lambda) <= 1e-12);
    CHECK((a.points[k].q - b.points[k].q).norm() <= 1e-12);
    CHECK(std::abs(a.points[k].lambda - t.symmetric_load(-a.points[k].q[0])) <= 1e-9 * t.limit_load());
  }
  // One factorization less per chord update.
  CHECK(b.factorizations - a.factorizations == a.stats.chord_iterations);
}

TEST_CASE("final chord: a step that converges one update after max_iterations is not cut",
          "[continuation][final-chord]") {
  // The 10 × 10 space grid of bench_trusses from rest: membrane stiffening makes the
  // first linear predictor overshoot, and Newton walks back slowly (about 2/3 per
  // iteration) before it turns quadratic. Find the first step's Newton count N with
  // chord updates off, then allow N − 1 iterations: with the chord update the last
  // one is made beyond the limit and the step stands; without, the step is cut.
  const model::Model m = benchmarks::space_grid(10, 10);
  Options o;
  o.initial_load_increment = 2.0;  // first step: 6 Newton iterations (3 at 0.05)
  o.max_steps = 1;
  o.max_iterations = 100;
  o.final_chord = false;
  const Run newton = trace(m, o);
  REQUIRE(newton.points.size() == 1);
  REQUIRE(newton.stats.failed_steps == 0);
  const int n = newton.points[0].iterations;
  REQUIRE(n >= 6);  // the slow start this case is about
  o.max_iterations = n - 1;
  const Run cut = trace(m, o);
  CHECK(cut.stats.failed_steps >= 1);  // Newton is stopped at n − 1 and the step halved
  o.final_chord = true;
  const Run chord = trace(m, o);
  REQUIRE(chord.points.size() == 1);
  CHECK(chord.stats.failed_steps == 0);
  CHECK(chord.stats.chord_iterations == 1);
  CHECK(chord.points[0].iterations == n);
  CHECK(std::abs(chord.points[0].lambda - newton.points[0].lambda) <= 1e-12 * std::abs(newton.points[0].lambda));
  CHECK((chord.points[0].q - newton.points[0].q).norm() <= 1e-9 * newton.points[0].q.norm());
  // A step that is not about to converge is still cut at the limit.
  o.max_iterations = n - 3;
  const Run early = trace(m, o);
  CHECK(early.stats.failed_steps >= 1);
}
