// The analysis run as the trace command runs it (an Analysis observed by the
// Recorder): results files, the Observer's events, interruption, a mechanism
// refused before anything is written; the path.csv writer.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"
#include "senda/analysis/analysis.hpp"
#include "senda/analysis/observer.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/files.hpp"
#include "senda/output/recorder.hpp"
#include "senda/output/results.hpp"

using namespace senda;
namespace fs = std::filesystem;

#include "support/test_files.hpp"
#include "support/trace_run.hpp"

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

using senda::test::scratch;
using senda::test::slurp;
using senda::testing::run_into;

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// Stops the run at the first poll for which stop() is true.
struct Stopper final : analysis::Observer {
  std::function<bool()> stop;
  int points = 0;
  void on_point(int, const continuation::PathPoint&) override { ++points; }
  bool stop_requested() override { return stop && stop(); }
};
}  // namespace

TEST_CASE("analysis: von Mises through both limit points", "[analysis][trace]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("von-mises") / "nested";  // parents are created

  // The events: the primary branch starts once, its start point (index 0)
  // first; every crossing comes after the point that ends its step.
  struct Events final : analysis::Observer {
    const analysis::Analysis* a = nullptr;
    int starts = 0, points = 0, crossings = 0;
    int previous_index = -1, current_index = -1;
    void on_branch_start(const critical::Branch& b) override {
      if (b.id == 0) {
        ++starts;
        CHECK(points == 0);
      }
    }
    void on_point(int branch, const continuation::PathPoint& p) override {
      if (points == 0) CHECK(p.index == 0);  // the start point
      ++points;
      CHECK(branch == 0);
      CHECK(a->tracked(p.q).size() == 1);
      previous_index = current_index;
      current_index = p.index;
    }
    void on_crossing(int branch, const continuation::Crossing& c) override {
      ++crossings;
      CHECK(branch == 0);
      // The event sees the bracket: the last point is the one after the crossing.
      CHECK(current_index == c.point_after);
      CHECK(previous_index == c.point_before);
    }
  } ev;

  // As run_into, with the Analysis kept for its tracked().
  input::check_mechanism(spec);
  analysis::Analysis a(*spec.model, spec.analysis);
  ev.a = &a;
  analysis::TraceResult s;
  {
    const output::ResultsDir d = output::ResultsDir::prepare(dir, false);
    output::Recorder recorder(d, *spec.model, trace_app::run_info(spec));
    analysis::ObserverList observers({&recorder, &ev});
    s = a.run(observers);
  }
  CHECK(s.termination == continuation::Termination::Completed);
  CHECK(trace_app::exit_code(s.termination) == 0);
  CHECK(ev.starts == 1);
  CHECK(ev.points == s.points);  // the start point included
  REQUIRE(ev.crossings == 2);    // the limit point and the load minimum
  REQUIRE(s.crossings.size() == 2);
  const continuation::Crossing& c0 = s.crossings[0].crossing;
  const continuation::Crossing& c1 = s.crossings[1].crossing;
  CHECK(s.crossings[0].branch == 0);
  // The brackets hold the closed-form limit loads ±0.0344265 (tolerance: the 6 digits quoted).
  CHECK(c0.lambda_before <= 0.0344265 + 5e-7);
  CHECK(std::max(c0.lambda_before, c0.lambda_after) >= 0.034);
  CHECK(c0.negative_pivots_after == 1);
  CHECK(c1.negative_pivots_after == 0);
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
  CHECK(s.critical_points[0].point.id == "LP1");
  CHECK(std::abs(s.critical_points[0].point.lambda - PL) <= 1e-10 * PL);
  CHECK(s.critical_points[1].point.id == "LP2");
  CHECK(std::abs(s.critical_points[1].point.lambda + PL) <= 1e-10 * PL);
  CHECK_THAT(json, Catch::Contains("\"id\": \"LP1\""));
  CHECK_THAT(json, Catch::Contains("\"kind\": \"limit\""));
  CHECK(fs::exists(dir / "modes" / "LP1.csv"));
  CHECK_THAT(json, Catch::Contains("\"points\": " + std::to_string(s.points) + ","));
  CHECK_FALSE(fs::exists(dir / "summary.json.tmp"));

  SECTION("an existing directory is refused, then replaced with overwrite") {
    CHECK_THROWS_WITH(output::ResultsDir::check(dir, false),
                      Catch::Contains("the results directory exists; pass --overwrite"));
    CHECK_NOTHROW(output::ResultsDir::check(dir, true));
    std::ofstream(dir / "notes.txt") << "mine";
    const input::Spec again = input::load(kSource + "/problems/von-mises.cfg");
    run_into(again, dir);  // prepares the directory with overwrite
    CHECK(slurp(dir / "path.csv") == csv);      // deterministic
    CHECK(slurp(dir / "notes.txt") == "mine");  // other files are left alone
  }
}

TEST_CASE("analysis: a stop request ends the run as interrupted", "[analysis][trace]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  // Polled inside each step too (issue 20): asked once the fourth point is in.
  Stopper ev;
  ev.stop = [&] { return ev.points >= 4; };
  const fs::path dir = scratch("interrupted");
  const analysis::TraceResult s = run_into(spec, dir, nullptr, &ev);
  CHECK(s.termination == continuation::Termination::Interrupted);
  CHECK(trace_app::exit_code(s.termination) == 130);
  CHECK(s.points == 4);  // the start point and three steps
  CHECK(lines(slurp(dir / "path.csv")) == 5);
  CHECK_THAT(slurp(dir / "summary.json"), Catch::Contains("\"termination\": \"interrupted\""));
}

TEST_CASE("analysis: a stop request during the location in the path's last step interrupts the run",
          "[analysis][trace]") {
  // von Mises: LP1 is crossed between points 7 and 8; with 8 steps that is the last
  // step, and the request comes with the crossing, so the location of LP1 (which polls
  // it) stops and the path is already done. It ended "completed", exit 0.
  input::Config config = input::Config::read_file(kSource + "/problems/von-mises.cfg");
  config.apply_override("stop.max_steps=8");
  const input::Spec spec = input::build(config);
  struct CrossStopper final : analysis::Observer {
    int crossings = 0;
    void on_crossing(int, const continuation::Crossing&) override { ++crossings; }
    bool stop_requested() override { return crossings > 0; }
  } ev;
  const fs::path dir = scratch("interrupted-locating");
  const analysis::TraceResult s = run_into(spec, dir, nullptr, &ev);
  REQUIRE(ev.crossings == 1);
  REQUIRE(s.critical_points.size() == 1);
  CHECK_FALSE(s.critical_points[0].point.converged);
  CHECK_THAT(s.critical_points[0].point.message, Catch::Contains("interrupted"));
  CHECK(s.termination == continuation::Termination::Interrupted);
  CHECK(trace_app::exit_code(s.termination) == 130);
  CHECK(lines(slurp(dir / "path.csv")) == 10);  // the header, the start point and 8 steps
  CHECK_THAT(slurp(dir / "summary.json"), Catch::Contains("\"termination\": \"interrupted\""));
}

TEST_CASE("analysis: a stop request on a secondary branch says where, and which branches were not traced",
          "[analysis][trace][interrupt]") {
  // Three-bar: branch 1 (from BP1 +) is stopped at its third point. The run's message
  // was the primary path's own end ("load factor crossed lambda_min or lambda_max"),
  // and the branches not traced were named nowhere.
  const input::Spec spec = input::load(kSource + "/problems/three-bar.cfg");
  struct BranchStopper final : analysis::Observer {
    int branch = 0, points = 0;
    void on_branch_start(const critical::Branch& b) override { branch = b.id; }
    void on_point(int b, const continuation::PathPoint&) override { points += b == 1; }
    bool stop_requested() override { return points >= 3; }
  } ev;
  const fs::path dir = scratch("interrupted-on-a-branch");
  const analysis::TraceResult s = run_into(spec, dir, nullptr, &ev);
  CHECK(s.termination == continuation::Termination::Interrupted);
  INFO(s.message);
  CHECK_THAT(s.message, Catch::StartsWith("interrupted on branch 1 (from BP1); the primary path: "));
  CHECK_THAT(s.message, Catch::Contains("interrupted with branches still pending at BP1 (-)"));
  CHECK(s.branches.size() == 2);  // the primary path and branch 1
  // Only the directions asked for are pending: with branches.direction = negative the
  // branch stopped is BP1 (-) itself, and BP1 (+) is no pending branch (it was named).
  input::Config c = input::Config::read_file(kSource + "/problems/three-bar.cfg");
  c.apply_override("branches.direction=negative");
  BranchStopper one_way;
  const analysis::TraceResult n = run_into(input::build(c), scratch("interrupted-one-direction"), nullptr, &one_way);
  CHECK(n.termination == continuation::Termination::Interrupted);
  INFO(n.message);
  CHECK_THAT(n.message, Catch::StartsWith("interrupted on branch 1 (from BP1)"));
  CHECK(n.message.find("still pending") == std::string::npos);
}

TEST_CASE("analysis: the primary path from a start state (continuation.start_state)", "[analysis][trace]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  // Closed form of problems/von-mises.cfg: lambda = P(w) = (h - w) w (2h - w) / L0^3, w = -u.
  const double h = 0.5;
  const auto P = [&](double w) { return (h - w) * w * (2 * h - w) / std::pow(1 + h * h, 1.5); };
  // A guess 1e-3 off the far stable branch at lambda = P(1.05): Newton corrects it at that lambda.
  const double w_rest = 1.05, lambda0 = P(w_rest);
  analysis::AnalysisOptions o = spec.analysis;
  o.start = analysis::StartState{Vector::Constant(1, -(w_rest + 1e-3)), lambda0, "a guess"};
  struct Points final : analysis::Observer {
    std::vector<continuation::PathPoint> points;
    void on_point(int, const continuation::PathPoint& p) override { points.push_back(p); }
  } ev;
  analysis::Analysis a(*spec.model, o);
  const analysis::TraceResult r = a.run(ev);
  REQUIRE(ev.points.size() > 3);
  CHECK(r.termination == continuation::Termination::Completed);  // the displacement limit 1.1
  CHECK_THAT(r.message, Catch::StartsWith("primary path from the saved state a guess: "));
  // The start point: the lambda given, kept exactly; w on the closed form to Newton's tolerance
  // (|g| <= 1e-10 max(1, |lambda|) |r|, |r| = 1, and dP/dw = 0.47 there: |dw| <= 2.2e-10).
  CHECK(ev.points.front().lambda == lambda0);
  CHECK(std::abs(-ev.points.front().q[0] - w_rest) < 1e-9);
  CHECK(ev.points.front().iterations > 0);  // the guess was not an equilibrium
  // Every point on the closed form (as tests/continuation/path_follower_test.cpp), going up
  // the far branch (direction +1: lambda increases from the start).
  for (const continuation::PathPoint& p : ev.points) CHECK(std::abs(p.lambda - P(-p.q[0])) <= 1e-9 * 0.0344265);
  CHECK(ev.points[1].lambda > lambda0);
  // A start state and a saved bifurcation point together, or a state of another size: refused.
  analysis::AnalysisOptions both = o;
  both.from = analysis::SavedState{};
  both.from->point.q = Vector::Zero(1);
  CHECK_THAT(both.validate(), Catch::StartsWith("start and from"));
  analysis::AnalysisOptions other = o;
  other.start->q = Vector::Zero(2);
  CHECK_THROWS_AS(analysis::Analysis(*spec.model, other), std::invalid_argument);
}

TEST_CASE("analysis: the path's lambda bounds must hold its start", "[analysis][options]") {
  // The path stops where lambda crosses a bound; a start outside [lambda_min, lambda_max]
  // never crosses it and ran past the bound (a Python trace() with lambda_max = -1). The
  // library refuses it as the .cfg builder does (stop.lambda_max, with the file's line).
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  analysis::AnalysisOptions o = spec.analysis;
  REQUIRE(o.validate().empty());
  o.explorer.path.lambda_max = -1.0;
  CHECK(o.validate() ==
        "explorer.path.lambda_max must be >= the start's lambda: the trace starts at lambda = 0, above lambda_max = -1");
  CHECK_THROWS_AS(analysis::Analysis(*spec.model, o), std::invalid_argument);
  o.explorer.path.lambda_max = 0.0;  // at the start: within the bounds
  CHECK(o.validate().empty());
  o.explorer.path.lambda_max = INFINITY;
  o.explorer.path.lambda_min = 0.01;
  CHECK_THAT(o.validate(), Catch::StartsWith("explorer.path.lambda_min must be <= the start's lambda: the trace "
                                             "starts at lambda = 0, below lambda_min = 0.01"));
  // From a start state, its lambda is the start.
  o.explorer.path.lambda_min = -INFINITY;
  o.start = analysis::StartState{Vector::Constant(1, -1.05), 0.02, "a guess"};
  o.explorer.path.lambda_max = 0.01;
  CHECK(o.validate() == "explorer.path.lambda_max must be >= the start's lambda: the trace starts at lambda = "
                        "0.02 (start: a guess), above lambda_max = 0.01");
  o.explorer.path.lambda_max = 0.03;
  o.explorer.path.lambda_min = 0.01;
  CHECK(o.validate().empty());
  // The command's own message, at the key's line, is unchanged.
  CHECK_THROWS_WITH(input::load(kSource + "/problems/von-mises.cfg", {"stop.lambda_max=-1"}),
                    Catch::Contains("the trace starts at lambda = 0, above lambda_max"));
}

TEST_CASE("analysis: from a saved point, the lambda bounds must hold the point's lambda", "[analysis][options]") {
  // Branches from a saved point start at its λ (three-bar's BP1, tests/golden): a
  // lambda_max below it let them run past the bound, and a lambda_min between 0 and
  // it was refused ("the trace starts at lambda = 0, below lambda_min").
  const std::string bp1 = kSource + "/tests/golden/three-bar/states/BP1.json";
  const input::Spec spec = input::load(kSource + "/problems/three-bar.cfg", {"branches.from=" + bp1});
  REQUIRE(spec.analysis.from);
  const double lambda = spec.analysis.from->point.lambda;
  REQUIRE(lambda > 0.0);
  analysis::AnalysisOptions o = spec.analysis;
  CHECK(o.validate().empty());
  o.explorer.path.lambda_min = 0.5 * lambda;  // between 0 and the point: accepted
  CHECK(o.validate().empty());
  CHECK_NOTHROW(input::load(kSource + "/problems/three-bar.cfg",
                            {"branches.from=" + bp1, "stop.lambda_min=" + std::to_string(0.5 * lambda)}));
  o.explorer.path.lambda_min = -INFINITY;
  o.explorer.path.lambda_max = 0.5 * lambda;  // below the point: refused
  CHECK_THAT(o.validate(), Catch::StartsWith("explorer.path.lambda_max must be >= the start's lambda: the trace "
                                             "starts at lambda = "));
  CHECK_THAT(o.validate(), Catch::Contains("(from: " + bp1 + ")"));
  CHECK_THROWS_WITH(input::load(kSource + "/problems/three-bar.cfg",
                                {"branches.from=" + bp1, "stop.lambda_max=" + std::to_string(0.5 * lambda)}),
                    Catch::Contains("the branches start at lambda = ") && Catch::Contains("above lambda_max"));
}

TEST_CASE("analysis: the primary path from a located limit point leaves along its mode", "[analysis][trace]") {
  // Von Mises' LP1 as trace saved it (tests/golden/von-mises/states/LP1.json): K is
  // 1 x 1 and exactly zero there, so K t = r has no solution (before, the run ended
  // at once, "tangent stiffness singular ... at the start point"). The path leaves
  // along (sigma phi, 0), phi = +1 (node 2 uy up), sigma = continuation.direction.
  const double h = 0.5, L3 = std::pow(1 + h * h, 1.5);
  const auto P = [&](double w) { return (h - w) * w * (2 * h - w) / L3; };
  const double w1 = h * (1 - 1 / std::sqrt(3.0)), w2 = h * (1 + 1 / std::sqrt(3.0));  // dP/dw = 0
  const std::string state = kSource + "/tests/golden/von-mises/states/LP1.json";
  struct Points final : analysis::Observer {
    std::vector<continuation::PathPoint> points;
    void on_point(int, const continuation::PathPoint& p) override { points.push_back(p); }
  };
  for (const int direction : {-1, +1}) {
    INFO("direction " << direction);
    const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg",
                                         {"continuation.start_state=" + state,
                                          "continuation.direction=" + std::to_string(direction)});
    REQUIRE(spec.analysis.start);
    REQUIRE(spec.analysis.start->mode.size() == 1);
    CHECK(spec.analysis.start->mode[0] == 1.0);
    Points ev;
    analysis::Analysis a(*spec.model, spec.analysis);
    const analysis::TraceResult r = a.run(ev);
    INFO(r.message);
    REQUIRE(ev.points.size() > 10);
    CHECK(r.termination == continuation::Termination::Completed);  // the displacement limit 1.1
    // The start point is the state itself (no Newton there), then every point on the
    // closed form, the first step Δs = Δλ₀ √2 = 0.005 √2 in the state's scaled norm.
    CHECK(ev.points.front().lambda == spec.analysis.start->lambda);
    CHECK(ev.points.front().q[0] == spec.analysis.start->q[0]);
    CHECK(std::abs(-ev.points.front().q[0] - w1) < 1e-9);
    for (const continuation::PathPoint& p : ev.points) CHECK(std::abs(p.lambda - P(-p.q[0])) <= 1e-9 * P(w1));
    const continuation::PathPoint& first = ev.points[1];
    CHECK(first.lambda < P(w1));  // a limit point: lambda falls on both sides
    CHECK(std::abs(first.step_length - 0.005 * std::sqrt(2.0)) < 1e-15);
    if (direction < 0) {
      // Down, past the fold: K has one negative pivot until LP2 (the run's first
      // critical point, located), none after; no crossing at the start itself.
      CHECK(-first.q[0] > w1);
      CHECK(first.negative_pivots == 1);
      REQUIRE(r.critical_points.size() == 1);
      const critical::CriticalPoint& lp = r.critical_points.front().point;
      CHECK(lp.kind == critical::CriticalKind::Limit);
      CHECK(lp.converged);
      CHECK(std::abs(lp.lambda + P(w1)) < 1e-12 * P(w1));
      CHECK(std::abs(-lp.q[0] - w2) < 1e-9);
      REQUIRE(r.crossings.size() == 1);
      CHECK(r.crossings.front().crossing.lambda_after < 0.0);
    } else {
      // Up, back through the unloaded state to the displacement limit above it: no
      // critical point on the way.
      CHECK(-first.q[0] < w1);
      CHECK(first.negative_pivots == 0);
      CHECK(r.critical_points.empty());
      CHECK(r.crossings.empty());
    }
  }
  // A limit point's state that is not an equilibrium of this model (q moved by 1 %,
  // as a state of another version of the model would be): said, not started from.
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg", {"continuation.start_state=" + state});
  analysis::AnalysisOptions o = spec.analysis;
  o.start->q[0] *= 1.01;
  Points ev;
  analysis::Analysis a(*spec.model, o);
  const analysis::TraceResult r = a.run(ev);
  CHECK(r.termination == continuation::Termination::Diverged);
  CHECK_THAT(r.message, Catch::Contains("the limit point is not an equilibrium of this model: residual"));
  CHECK(ev.points.empty());
}

TEST_CASE("analysis: the unknowns the options name must be the problem's", "[analysis][errors]") {
  // problems/von-mises.cfg has one unknown (the apex uy). An index past q gave a
  // tracked column of zeros (track) or a read past the state (monitor_dof).
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  REQUIRE(spec.model->size() == 1);
  auto error = [&](const std::function<void(analysis::AnalysisOptions&)>& edit) -> std::string {
    analysis::AnalysisOptions o = spec.analysis;
    edit(o);
    try {
      analysis::Analysis a(*spec.model, o);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error([](analysis::AnalysisOptions&) {}).empty());
  CHECK(error([](analysis::AnalysisOptions& o) { o.track = {0, 1}; }) ==
        "analysis options: track[1] = 1: not an unknown of the problem (valid: [0, 1), n = 1)");
  CHECK_THAT(error([](analysis::AnalysisOptions& o) { o.track = {-1}; }), Catch::Contains("track[0] = -1"));
  CHECK(error([](analysis::AnalysisOptions& o) { o.explorer.path.monitor_dof = 500; }) ==
        "analysis options: explorer.path.monitor_dof = 500: not an unknown of the problem (valid: [0, 1), or -1 for none)");
  CHECK(error([](analysis::AnalysisOptions& o) { o.explorer.path.monitor_dof = -1; }) ==
        "analysis options: explorer.path.max_displacement = 1.1 bounds no unknown: explorer.path.monitor_dof is -1 "
        "(valid: an unknown in [0, 1) with a finite bound)");
  CHECK(error([](analysis::AnalysisOptions& o) {
          o.explorer.path.monitor_dof = -1;
          o.explorer.path.max_displacement = std::numeric_limits<double>::infinity();
        }).empty());
  CHECK(error([](analysis::AnalysisOptions& o) { o.explorer.path.max_displacement = std::nan(""); }) ==
        "analysis options: explorer.path.max_displacement must be > 0 (infinity: no bound)");
  CHECK(error([](analysis::AnalysisOptions& o) {
          o.explorer.path.constraint = continuation::ConstraintKind::DisplacementControl;
          o.explorer.path.control_dof = 1;
        }) == "analysis options: explorer.path.control_dof = 1: not an unknown of the problem (valid: [0, 1))");
}

TEST_CASE("analysis: a mechanism is bad input, found before anything is written", "[analysis][trace][errors]") {
  const char* text =
      "[model]\nnode = 1 0 0\nnode = 2 1 0\nnode = 3 2 0\n"
      "truss = 1 1 2 1\ntruss = 2 2 3 1\nfix = 1 all\nfix = 3 all\nload = 2 uy -1\n";
  const input::Spec spec = input::build(input::Config::parse(text, "m.cfg"));
  const fs::path dir = scratch("mechanism");
  // Three collinear nodes: the middle one has no transverse stiffness at the start.
  CHECK_THROWS_WITH(run_into(spec, dir),
                    Catch::StartsWith("m.cfg:3: key 'model.node': the structure is a mechanism") &&
                        Catch::Contains("free degree of freedom: node 2 uy"));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("results: numbers are written with 17 significant digits", "[output][results]") {
  const fs::path dir = scratch("writer");
  fs::create_directories(dir);
  output::RunInfo info;
  info.track_columns = {"u_7_ux"};
  info.track = {1};
  {
    output::PathWriter w(dir / "path.csv", info);
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
    CHECK_THROWS_AS(output::PathWriter(dir / "path.csv", info), output::OutputError);
  }
}
