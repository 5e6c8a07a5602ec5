// A step that goes over from one path to another near a bifurcation point of the
// perfect structure (docs/theory.md §4): the three-bar structure of
// problems/three-bar.cfg (its BP1 at λ_c = 1/3 is stable-symmetric: the secondary
// branch rises to LP1 = 0.4222) with a lateral dead load ε at node 3. The natural
// path of the imperfect structure bends away from the fundamental one near λ_c and
// follows the secondary branch up to its maximum near 0.4222; it has no maximum near
// λ_c. The complementary path (uy of the other sign) has a minimum there. With the
// file's steps and ε = 1e-5, the step from λ 0.328 to 0.368 went from the natural
// path to the complementary one (det K changed, t_λ did not), and its minimum,
// 0.3339, was located and reported as the path's LP1, and taken by --imperfection
// as the structure's λ_max. A minimum inside a step that went up in λ is not on the
// path from the step's first point: it is now not located, and says why; the study
// re-traces with shorter steps and finds the natural path's maximum.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "senda/analysis/studies.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/input/family.hpp"
#include "support/trace_run.hpp"

using namespace senda;

namespace {
// problems/three-bar.cfg with a lateral dead load ${eps} at node 3 (a parameter).
input::Config imperfect_three_bar(const std::vector<std::string>& overrides) {
  std::ifstream in(std::string(SENDA_SOURCE_DIR) + "/problems/three-bar.cfg");
  std::stringstream text;
  text << in.rdbuf() << "\n[parameters]\neps = 0\n";
  std::string s = text.str();
  const std::string model = "[model]\n";
  const auto at = s.find(model);
  REQUIRE(at != std::string::npos);
  s.insert(at + model.size(), "dead_load = 3 uy ${eps}\n");
  input::Config c = input::Config::parse(s, "three-bar-eps.cfg");
  c.apply_override("branches.switch=false");
  for (const std::string& o : overrides) c.apply_override(o);
  return c;
}

analysis::TraceResult trace(const std::vector<std::string>& overrides, const std::string& name) {
  const input::Config c = imperfect_three_bar(overrides);
  return senda::testing::run_into(input::build(c),
                                  std::filesystem::path(SENDA_BINARY_DIR) / "test-results" / ("complementary-" + name),
                                  &c);
}
}  // namespace

TEST_CASE("a step onto the complementary path: its extremum is not reported as the path's",
          "[critical][locate][imperfect]") {
  // The reference: the natural path at steps 10 times shorter, with no jump. Its first
  // critical point is the maximum near the perfect branch's LP1 (0.4222257).
  const analysis::TraceResult fine =
      trace({"parameters.eps=1e-5", "continuation.initial_step=0.002", "stop.max_steps=2000"}, "fine");
  REQUIRE(!fine.critical_points.empty());
  const critical::CriticalPoint& natural = fine.critical_points.front().point;
  INFO("fine steps: " << natural.id << " at " << natural.lambda << ": " << natural.message);
  REQUIRE(natural.converged);
  CHECK(natural.kind == critical::CriticalKind::Limit);
  CHECK(natural.lambda == Approx(0.4222257).epsilon(1e-4));

  SECTION("the file's steps: the complementary path's minimum is said, not located") {
    const analysis::TraceResult r = trace({"parameters.eps=1e-5"}, "file-steps");
    bool said = false;
    for (const analysis::CriticalRecord& c : r.critical_points) {
      INFO(c.point.id << " at " << c.point.lambda << ": " << c.point.message);
      // Nothing located below the natural path's maximum: the path has no critical
      // point near λ_c.
      if (c.point.converged) CHECK(c.point.lambda > 0.4);
      if (!c.point.converged && c.point.message.find("complementary path") != std::string::npos &&
          c.point.message.find("a minimum of lambda") != std::string::npos)
        said = true;
    }
    CHECK(said);
  }

  SECTION("--imperfection: the amplitude whose path jumped is re-traced, and gets the natural path's maximum") {
    const input::Config config = imperfect_three_bar({});
    const input::Spec reference = input::build(config);
    const input::ConfigFamily family(config, "eps", reference);
    const analysis::ImperfectionRun run = analysis::imperfection_study(
        family, "eps", {1e-5}, reference.analysis.explorer.path, reference.analysis.explorer.finder);
    REQUIRE(run.study.points.size() == 1);
    const critical::ImperfectionPoint& p = run.study.points.front();
    INFO(p.message);
    REQUIRE(p.found);
    CHECK(p.lambda_max == Approx(natural.lambda).epsilon(1e-8));
    CHECK(p.message.find("re-tracing") != std::string::npos);
  }
}
