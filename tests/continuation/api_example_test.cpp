// The C++ API example of docs/api.md, compiled and checked. The code between the
// two "api-example" markers is the code block of docs/api.md, character for
// character (the last test case compares them), so the documentation cannot drift.
// [api-example]
#include <senda/continuation/path_follower.hpp>
#include <senda/model/model.hpp>
#include <senda/model/truss.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

struct CurvePoint {
  double w, lambda;
  int negative_pivots;
};

// Shallow von Mises truss: supports (±1, 0), apex (0, 0.5), EA = 1, apex load
// pointing down. Traced with the spherical arc length through the limit point.
std::vector<CurvePoint> trace_von_mises() {
  using namespace senda;
  model::Model m(2);  // 2D: nodes have ux, uy
  const int left = m.add_node(1, {-1.0, 0.0, 0.0});
  const int apex = m.add_node(2, {0.0, 0.5, 0.0});
  const int right = m.add_node(3, {1.0, 0.0, 0.0});
  for (auto [a, b] : {std::pair{left, apex}, std::pair{apex, right}})
    m.add_element(std::make_unique<model::TrussBar>(m.element_count() + 1, 2, a, b, m.node_position(a),
                                                    m.node_position(b), /*EA=*/1.0,
                                                    model::StrainMeasure::GreenLagrange));
  for (int n : {left, right}) {
    m.fix(n, model::Component::Ux);
    m.fix(n, model::Component::Uy);
  }
  m.fix(apex, model::Component::Ux);                 // symmetric mode only
  m.add_load(apex, model::Component::Uy, -1.0);       // reference load r, scaled by λ
  m.finalize();                                       // numbers equations, analyses the pattern
  const int uy = m.equation(apex, model::Component::Uy);

  continuation::Options options;                      // defaults: spherical arc length
  options.initial_load_increment = 0.005;
  options.max_step_ratio = 2.0;                       // Δs ≤ 2 Δs₀: a finely sampled curve
  options.monitor_dof = uy;                           // stop when |uy| > 0.9
  options.max_displacement = 0.9;
  continuation::PathFollower follower(m, options);
  if (!follower.start(senda::Vector::Zero(m.size()), 0.0)) {
    std::fprintf(stderr, "start failed: %s\n", follower.message().c_str());
    return {};
  }
  std::vector<CurvePoint> curve;
  while (follower.advance()) {
    const continuation::PathPoint& p = follower.current();
    curve.push_back({-p.q[uy], p.lambda, p.negative_pivots});
    if (follower.last_crossing())                      // inertia changed since the previous point
      std::printf("critical point between lambda = %g and %g\n", follower.last_crossing()->lambda_before,
                  follower.last_crossing()->lambda_after);
  }
  std::printf("%d points, %s: %s\n", follower.current().index, continuation::to_string(follower.termination()),
              follower.message().c_str());
  return curve;
}
// [api-example]

#include <algorithm>
#include <catch2/catch.hpp>

#include "support/test_files.hpp"
#include <fstream>
#include <sstream>
#include <string>


TEST_CASE("API example: the documented trace gives the closed-form curve", "[continuation][api]") {
  const std::vector<CurvePoint> curve = trace_von_mises();
  REQUIRE(curve.size() > 20);
  // P(w) = (h − w) w (2h − w) / L₀³ with h = 0.5, L₀³ = 1.25^{3/2}; the corrector
  // tolerance (1e-10 relative residual) puts every point within 1e-9 of it.
  double lmax = 0, lmin = 0;
  int max_negative = 0;
  for (const CurvePoint& p : curve) {
    const double closed = (0.5 - p.w) * p.w * (1.0 - p.w) / std::pow(1.25, 1.5);
    CHECK(std::abs(p.lambda - closed) <= 1e-9 * 0.0344265);
    lmax = std::max(lmax, p.lambda);
    lmin = std::min(lmin, p.lambda);
    max_negative = std::max(max_negative, p.negative_pivots);
  }
  // The largest sampled λ lies below the limit load by ½|P''| δw² with δw the
  // distance of the nearest point to w = 0.211: P'' ≈ −1.2, δw ≤ 0.02 → ≤ 1e-2 relative.
  CHECK(lmax <= 0.0344265 * (1 + 1e-6));
  CHECK(lmax >= 0.0344265 * (1 - 1e-2));
  CHECK(lmin < -0.03);                              // and through the snap-through
  CHECK(max_negative == 1);
  CHECK(curve.back().w > 0.9);
}

TEST_CASE("API example: docs/api.md shows exactly this code", "[continuation][api][docs]") {
  const std::string marker = "// [api-example]\n";
  const std::string code = senda::test::between(senda::test::slurp(std::string(SENDA_SOURCE_DIR) + "/tests/continuation/api_example_test.cpp"),
                                   marker, marker);
  const std::string doc = senda::test::between(senda::test::slurp(std::string(SENDA_SOURCE_DIR) + "/docs/api.md"), "```cpp\n", "```\n");
  REQUIRE_FALSE(code.empty());
  CHECK(doc == code);
}
