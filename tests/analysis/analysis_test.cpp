// The trace driver through the C++ API: results files, events, interruption,
// a mechanism refused before anything is written.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "senda/io/builder.hpp"
#include "senda/io/results.hpp"
#include "senda/io/trace.hpp"

using namespace senda;
using namespace senda::io;
namespace fs = std::filesystem;

#include "support/test_files.hpp"

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

using senda::test::scratch;
using senda::test::slurp;

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }
}  // namespace

TEST_CASE("trace driver: von Mises through both limit points", "[io][trace]") {
  const Setup setup = load(kSource + "/problems/von-mises.cfg");
  TraceRun run(setup);
  const fs::path dir = scratch("von-mises") / "nested";  // parents are created
  int starts = 0, points = 0, crossings = 0;
  TraceEvents ev;
  ev.on_start = [&](const TraceRun& r) {
    ++starts;
    CHECK(r.follower().current().index == 0);
  };
  ev.on_point = [&](const TraceRun& r, const continuation::PathPoint& p) {
    ++points;
    CHECK(r.tracked(p).size() == 1);
  };
  ev.on_crossing = [&](const TraceRun& r, const continuation::Crossing& c) {
    ++crossings;
    // The hook sees the bracket: the follower is at the point after the crossing.
    CHECK(r.follower().current().index == c.point_after);
    CHECK(r.follower().previous().index == c.point_before);
  };
  const TraceSummary s = run.run(dir, false, ev);
  CHECK(s.termination == continuation::Termination::Completed);
  CHECK(exit_code(s.termination) == 0);
  CHECK(starts == 1);
  CHECK(points + 1 == s.points);
  REQUIRE(crossings == 2);  // the limit point and the load minimum
  REQUIRE(s.crossings.size() == 2);
  // The brackets hold the closed-form limit loads ±0.0344265 (tolerance: the 6 digits quoted).
  CHECK(s.crossings[0].lambda_before <= 0.0344265 + 5e-7);
  CHECK(std::max(s.crossings[0].lambda_before, s.crossings[0].lambda_after) >= 0.034);
  CHECK(s.crossings[0].negative_pivots_after == 1);
  CHECK(s.crossings[1].negative_pivots_after == 0);
  CHECK(s.lambda_max >= 0.0343);  // sampled points: near, not at, the extremes
  CHECK(s.lambda_min <= -0.0343);
  CHECK(s.lambda_min >= -0.0344265 - 5e-7);

  const std::string csv = slurp(dir / "path.csv");
  CHECK(lines(csv) == s.points + 1);
  CHECK(csv.rfind("point,branch,lambda,u_2_uy,iterations,residual,step_length,det_sign,negative_pivots\n0,0,0,0,", 0) == 0);
  const std::string json = slurp(dir / "summary.json");
  CHECK_THAT(json, Catch::Contains("\"termination\": \"completed\""));
  // Both limit points located (closed form (2/(3√3)) EA (h/L₀)³, h = 0.5, L₀² = 1.25).
  const double PL = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(0.5 / std::sqrt(1.25), 3);
  REQUIRE(s.critical_points.size() == 2);
  CHECK(s.critical_points[0].id == "LP1");
  CHECK(std::abs(s.critical_points[0].lambda - PL) <= 1e-10 * PL);
  CHECK(s.critical_points[1].id == "LP2");
  CHECK(std::abs(s.critical_points[1].lambda + PL) <= 1e-10 * PL);
  CHECK_THAT(json, Catch::Contains("\"id\": \"LP1\""));
  CHECK_THAT(json, Catch::Contains("\"kind\": \"limit\""));
  CHECK(fs::exists(dir / "modes" / "LP1.csv"));
  CHECK_THAT(json, Catch::Contains("\"points\": " + std::to_string(s.points) + ","));
  CHECK_FALSE(fs::exists(dir / "summary.json.tmp"));

  SECTION("an existing directory is refused, then replaced with overwrite") {
    CHECK_THROWS_WITH(check_output_dir(dir, false), Catch::Contains("the results directory exists; pass --overwrite"));
    CHECK_NOTHROW(check_output_dir(dir, true));
    std::ofstream(dir / "notes.txt") << "mine";
    const Setup again = load(kSource + "/problems/von-mises.cfg");
    TraceRun run2(again);
    TraceEvents none;
    run2.run(dir, true, none);
    CHECK(slurp(dir / "path.csv") == csv);          // deterministic
    CHECK(slurp(dir / "notes.txt") == "mine");      // other files are left alone
  }
}

TEST_CASE("trace driver: a stop request ends the run as interrupted", "[io][trace]") {
  const Setup setup = load(kSource + "/problems/von-mises.cfg");
  TraceRun run(setup);
  int polls = 0;
  TraceEvents ev;
  ev.stop_requested = [&] { return ++polls > 3; };
  const fs::path dir = scratch("interrupted");
  const TraceSummary s = run.run(dir, false, ev);
  CHECK(s.termination == continuation::Termination::Interrupted);
  CHECK(exit_code(s.termination) == 130);
  CHECK(s.points == 4);  // the start point and three steps
  CHECK(lines(slurp(dir / "path.csv")) == 5);
  CHECK_THAT(slurp(dir / "summary.json"), Catch::Contains("\"termination\": \"interrupted\""));
}

TEST_CASE("trace driver: a mechanism is bad input, found before anything is written", "[io][trace][errors]") {
  const char* text =
      "[model]\nnode = 1 0 0\nnode = 2 1 0\nnode = 3 2 0\n"
      "truss = 1 1 2 1\ntruss = 2 2 3 1\nfix = 1 all\nfix = 3 all\nload = 2 uy -1\n";
  const Setup setup = build(Config::parse(text, "m.cfg"));
  TraceRun run(setup);
  const fs::path dir = scratch("mechanism");
  TraceEvents ev;
  // Three collinear nodes: the middle one has no transverse stiffness at the start.
  CHECK_THROWS_WITH(run.run(dir, false, ev),
                    Catch::StartsWith("m.cfg:3: key 'model.fix': the structure is a mechanism") &&
                        Catch::Contains("free degree of freedom: node 2 uy"));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("results: numbers are written with 17 significant digits", "[io][results]") {
  const fs::path dir = scratch("writer");
  fs::create_directories(dir);
  TrackedDof t;
  t.equation = 1;
  t.column = "u_7_ux";
  {
    PathWriter w(dir / "path.csv", {t});
    continuation::PathPoint p;
    p.index = 3;
    p.q = Vector::Zero(2);
    p.q[1] = 0.1;
    p.lambda = 1.0 / 3.0;
    p.iterations = 2;
    p.residual = 1e-300;
    p.step_length = 2.5;
    p.det_sign = -1;
    p.negative_pivots = 1;
    w.write(p, 0);
    // The row is on disk before the writer is closed.
    CHECK(lines(slurp(dir / "path.csv")) == 2);
  }
  CHECK(slurp(dir / "path.csv") ==
        "point,branch,lambda,u_7_ux,iterations,residual,step_length,det_sign,negative_pivots\n"
        "3,0,0.33333333333333331,0.10000000000000001,2,1e-300,2.5,-1,1\n");
  SECTION("an existing file is never overwritten by the writer") {
    CHECK_THROWS_AS(PathWriter(dir / "path.csv", {t}), OutputError);
  }
}
