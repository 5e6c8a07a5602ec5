// The whole-analysis example of docs/api.md ("The whole analysis in memory"),
// compiled and checked: the code between the two "api-analysis" markers is the
// code block of docs/api.md that follows <!-- api-analysis -->, character for
// character (the last test case compares them).
// [api-analysis]
#include <senda/analysis/analysis.hpp>
#include <senda/core/family.hpp>
#include <senda/model/model.hpp>
#include <senda/model/truss.hpp>

#include <cstdio>
#include <memory>
#include <utility>

// Steep von Mises truss: supports (±1, 0), apex (0, h), EA = 1, apex load down,
// the apex free to sway: a symmetric (sway) bifurcation before the limit point.
std::shared_ptr<const senda::model::Model> steep_truss(double h) {
  using namespace senda::model;
  auto m = std::make_shared<Model>(2);
  const int left = m->add_node(1, {-1.0, 0.0, 0.0});
  const int apex = m->add_node(2, {0.0, h, 0.0});
  const int right = m->add_node(3, {1.0, 0.0, 0.0});
  for (auto [a, b] : {std::pair{left, apex}, std::pair{apex, right}})
    m->add_element(std::make_unique<TrussBar>(m->element_count() + 1, 2, a, b, m->node_position(a),
                                              m->node_position(b), /*EA=*/1.0, StrainMeasure::GreenLagrange));
  for (int n : {left, right}) {
    m->fix(n, Component::Ux);
    m->fix(n, Component::Uy);
  }
  m->add_load(apex, Component::Uy, -1.0);
  m->finalize();
  return m;
}

// The path, its critical points, the sway branches of BP1 and the curve of BP1
// as the rise h grows, all in memory: nothing is written, nothing printed.
senda::analysis::TraceResult analyse_steep_truss() {
  using namespace senda;
  const std::shared_ptr<const model::Model> truss = steep_truss(2.0);
  analysis::AnalysisOptions o;                           // every default, as trace has them
  o.explorer.path.initial_load_increment = 0.02;
  o.explorer.path.max_steps = 60;
  o.explorer.max_depth = 1;                              // the branches of BP1, not theirs
  o.design.follow = {"BP1"};                             // lambda_cr(h) from BP1 ...
  o.design.directions = analysis::CurveDirections::Up;   // ... as h grows ...
  o.design.curve.mu_max = 2.5;                           // ... up to h = 2.5
  o.track = {truss->equation(1, model::Component::Uy)};  // the apex uy in the records
  auto rise = std::make_shared<core::FunctionFamily>(
      [](double h) -> std::shared_ptr<const core::Problem> { return steep_truss(h); });
  analysis::Analysis a(*truss, o, {{"h", 2.0, rise}});
  analysis::TraceResult r = a.run();
  std::printf("%s after %d points: %s\n", continuation::to_string(r.termination), r.points, r.message.c_str());
  for (const analysis::CriticalRecord& c : r.critical_points)
    std::printf("%s %s lambda = %.12g, apex uy = %.6f\n", c.point.id.c_str(), critical::to_string(c.point.kind),
                c.point.lambda, c.tracked.at(0));
  return r;
}
// [api-analysis]

#include <catch2/catch.hpp>

#include "support/test_files.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace {
// The sway bifurcation load of the steep truss (a = 1, EA = 1, Green–Lagrange):
// λ_B(h) = 2√(h² − 2)/(1 + h²)^{3/2} (docs/validation.md).
double lambda_b(double h) { return 2.0 * std::sqrt(h * h - 2.0) / std::pow(1.0 + h * h, 1.5); }
}  // namespace

TEST_CASE("API: the whole analysis of a model built in code, in memory", "[analysis][api]") {
  using namespace senda;
  const analysis::TraceResult r = analyse_steep_truss();
  const analysis::CriticalRecord* bp = r.find("BP1");
  REQUIRE(bp != nullptr);
  REQUIRE(bp->point.converged);
  CHECK(bp->point.kind == critical::CriticalKind::Bifurcation);
  // Located by SPB to the tolerance 1e-10 (docs/validation.md: 1.3e-15).
  CHECK(std::abs(bp->point.lambda - lambda_b(2.0)) <= 1e-10);
  // Apex at y = √2 at the bifurcation (x² + y² = h² − 2a² with x = 0): uy = √2 − 2.
  REQUIRE(bp->tracked.size() == 1);
  CHECK(std::abs(bp->tracked[0] - (std::sqrt(2.0) - 2.0)) <= 1e-8);
  // dλ_B/dh from eq. 8.3 against the derivative of the closed form.
  REQUIRE(bp->sensitivities.size() == 1);
  REQUIRE(bp->sensitivities[0].sensitivity.valid);
  const double d = 1e-6;
  CHECK(std::abs(bp->sensitivities[0].sensitivity.dlambda_dmu - (lambda_b(2 + d) - lambda_b(2 - d)) / (2 * d)) <= 1e-7);
  // Both sway half-branches from BP1.
  int from_bp1 = 0;
  for (const critical::Branch& b : r.branches) from_bp1 += b.start_point == "BP1" ? 1 : 0;
  CHECK(from_bp1 == 2);
  // The curve of BP1 up to h = 2.5, every point on the closed form.
  REQUIRE(r.curves.size() == 1);
  const analysis::CurveRecord& c = r.curves[0];
  CHECK(c.followed);
  REQUIRE(c.curve.points.size() > 3);
  for (const critical::CurvePoint& p : c.curve.points) {
    INFO("h = " << p.mu);
    CHECK(std::abs(p.lambda - lambda_b(p.mu)) <= 1e-9);
  }
  CHECK(c.curve.points.back().mu >= 2.5 - 1e-9);
}

TEST_CASE("API: docs/api.md shows exactly the whole-analysis code", "[analysis][api][docs]") {
  const std::string marker = "// [api-analysis]\n";
  const std::string code =
      senda::test::between(senda::test::slurp(std::string(SENDA_SOURCE_DIR) + "/tests/analysis/api_analysis_test.cpp"), marker, marker);
  const std::string doc =
      senda::test::between(senda::test::slurp(std::string(SENDA_SOURCE_DIR) + "/docs/api.md"), "<!-- api-analysis -->\n```cpp\n", "```\n");
  REQUIRE_FALSE(code.empty());
  CHECK(doc == code);
}
