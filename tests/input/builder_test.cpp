// The model builder: catalogue problems build, inconsistent models are refused
// at the line that causes it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "senda/critical/branch.hpp"
#include "senda/input/builder.hpp"
#include "support/config_errors.hpp"

using namespace senda::input;
namespace fs = std::filesystem;
namespace input = senda::input;

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

const char* kBase =
    "[model]\n"           // 1
    "node = 1 -1 0\n"     // 2
    "node = 2 0 0.5\n"    // 3
    "node = 3 1 0\n"      // 4
    "truss = 1 1 2 1\n"   // 5
    "truss = 2 2 3 1\n"   // 6
    "fix = 1 all\n"       // 7
    "fix = 3 all\n"       // 8
    "load = 2 uy -1\n";   // 9

std::string error_of(const std::string& text) { return senda::test::build_error(text, "b.cfg"); }
}  // namespace

TEST_CASE("builder: von-mises.cfg", "[input][builder]") {
  const Spec s = load(kSource + "/problems/von-mises.cfg");
  REQUIRE(s.model);
  CHECK(s.model->size() == 1);  // apex uy only: apex ux fixed, supports pinned
  CHECK(s.model->node_count() == 3);
  CHECK(s.model->element_count() == 2);
  CHECK(s.problem_name == "von-mises");
  REQUIRE(s.track.size() == 1);
  CHECK(s.track[0].column == "u_2_uy");
  CHECK(s.analysis.explorer.path.monitor_dof == 0);
  CHECK(s.analysis.explorer.path.max_displacement == 1.1);
  CHECK(s.analysis.explorer.path.constraint == senda::continuation::ConstraintKind::Spherical);
  SECTION("overrides apply") {
    const Spec o = load(kSource + "/problems/von-mises.cfg", {"stop.max_steps=50", "output.name=vm"});
    CHECK(o.analysis.explorer.path.max_steps == 50);
    CHECK(o.problem_name == "vm");
  }
}

TEST_CASE("builder: star-dome.cfg", "[input][builder]") {
  const Spec s = load(kSource + "/problems/star-dome.cfg");
  CHECK(s.model->dim() == 3);
  CHECK(s.model->node_count() == 13);
  CHECK(s.model->element_count() == 24);
  CHECK(s.model->size() == 21);  // 7 free nodes × 3
}

TEST_CASE("builder: a 2D model with the base keys", "[input][builder]") {
  const Spec s = build(Config::parse(kBase, "b.cfg"));
  CHECK(s.model->size() == 2);
  CHECK(s.track[0].column == "u_2_uy");  // default track: the first load's dof
}

TEST_CASE("builder: inconsistent models name the line", "[input][builder][errors]") {
  struct Case {
    const char* name;
    std::string extra;
    std::string expected;
  };
  const Case cases[] = {
      {"duplicate node id", "node = 2 5 5\n", "b.cfg:10: key 'model.node': node 2 defined twice (first at line 3)"},
      {"duplicate element id", "truss = 2 1 3 1\n", "b.cfg:10: key 'model.truss': element id 2 already used by model.truss at line 6"},
      {"missing node", "truss = 3 1 9 1\n", "b.cfg:10: key 'model.truss': NODE_B: node 9 does not exist"},
      {"zero-length element", "node = 4 1 0.0\ntruss = 3 3 4 1\n",
       "b.cfg:11: key 'model.truss': zero length: nodes 3 and 4 are at the same position"},
      {"non-positive stiffness", "truss = 3 1 3 0\n", "b.cfg:10: key 'model.truss': EA must be positive, found 0"},
      {"negative spring", "spring = 3 2 ground uy -2\n", "b.cfg:10: key 'model.spring': K must be positive, found -2"},
      {"unknown component", "load = 2 uw 1\n", "b.cfg:10: key 'model.load': unknown component 'uw' (valid: ux|uy|rz)"},
      {"uz in 2D", "load = 2 uz 1\n", "b.cfg:10: key 'model.load': component uz does not exist in a 2D model"},
      {"Z in 2D", "node = 4 0 1 2\n", "b.cfg:10: key 'model.node': Z given in a 2D model"},
      {"too few fields", "truss = 3 1\n", "b.cfg:10: key 'model.truss': expected 4 to 5 fields, found 2"},
      {"malformed coordinate", "node = 4 0 1.2.3\n", "b.cfg:10: key 'model.node': Y: malformed number '1.2.3'"},
      {"unconnected node", "node = 4 3 3\n", "b.cfg:10: key 'model.node': node 4 is not connected to any element"},
      {"load on a support", "load = 1 ux 1\n", "b.cfg:10: key 'model.load': node 1 ux is fixed"},
      {"displacement control without control", "[continuation]\nconstraint = displacement\n",
       "b.cfg:11: key 'continuation.control': constraint = displacement needs the controlled dof"},
      {"control without displacement control", "[continuation]\ncontrol = 2 uy\n",
       "b.cfg:11: key 'continuation.control': is used only with constraint = displacement"},
      {"lambda range empty", "[stop]\nlambda_min = -1\nlambda_max = -2\n", "b.cfg:12: key 'stop.lambda_max': lambda_max must exceed lambda_min"},
      {"track a fixed dof", "[output]\ntrack = 1 ux\n", "b.cfg:11: key 'output.track': node 1 ux is fixed: nothing to track"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const std::string text = std::string(kBase) + c.extra;
      INFO(text);
      CHECK_THAT(error_of(text), Catch::Contains(c.expected));
    }
  }
  SECTION("no load at all") {
    const std::string text = "[model]\nnode = 1 0 0\nnode = 2 1 0\ntruss = 1 1 2 1\nfix = 1 all\n";
    CHECK_THAT(error_of(text), Catch::Contains("b.cfg: key 'model.load': no load: give at least one 'load = NODE COMP VALUE'"));
  }
  SECTION("a fixed component the node does not have") {
    // A truss node has ux uy: 'fix = 2 rz' (a typo for ux) would hold nothing.
    CHECK_THAT(error_of(std::string(kBase) + "fix = 2 rz\n"),
               Catch::Contains("b.cfg:10: key 'model.fix': node 2 rz is not a degree of freedom of any element: the "
                               "support would hold nothing (valid: a component of the node: ux uy)"));
    // A beam gives its nodes rz: the same key is a support there, and a truss-only
    // node of a mixed model is still refused.
    const std::string frame = "[model]\nnode = 1 0 0\nnode = 2 1 0\nnode = 3 2 0\nbeam = 1 1 2 1 1 1\n"
                              "truss = 2 2 3 1\nfix = 1 ux uy rz\nfix = 3 all\nload = 2 uy -1\n";
    CHECK(error_of(frame).empty());
    CHECK(error_of(frame + "fix = 2 rz\n").empty());
    CHECK_THAT(error_of(frame + "fix = 3 rz\n"),
               Catch::Contains("b.cfg:10: key 'model.fix': node 3 rz is not a degree of freedom of any element"));
    // 'all' names the translations and fixes those the node has: a node held only by
    // a rotational spring has none, and 'all' is no error there.
    CHECK(error_of(frame + "node = 4 5 5\nspring = 3 4 ground rz 1\nfix = 4 all\n").empty());
  }
  SECTION("Z missing in 3D") {
    CHECK_THAT(error_of("[model]\ndim = 3\nnode = 1 0 0\n"), Catch::Contains("b.cfg:3: key 'model.node': Z is required in a 3D model"));
  }
}

TEST_CASE("builder: a mode file (model.imperfection) is read with every number checked", "[input][builder][errors]") {
  const fs::path dir = fs::temp_directory_path() / "senda_builder_mode_test";
  fs::create_directories(dir);
  const std::string model =
      "[model]\nnode = 1 -1 0\nnode = 2 0 2\nnode = 3 1 0\ntruss = 1 1 2 1\ntruss = 2 2 3 1\n"
      "fix = 1 all\nfix = 3 all\nload = 2 uy -1\n";
  auto build_with = [&](const std::string& rows) {
    const fs::path f = dir / "mode.csv";
    std::ofstream(f) << "equation,dof,phi\n" << rows;
    return input::build(input::Config::parse(model + "imperfection = " + f.string() + " 0.001\n", "m.cfg"));
  };
  // A good file moves the apex by AMPLITUDE × φ.
  const input::Spec s = build_with("0,node 2 ux,1\n1,node 2 uy,0\n");
  CHECK(s.model->node_position(1).x() == Approx(0.001).margin(1e-15));
  // Trailing text after the number was read as the number (strtod), now refused.
  CHECK_THROWS_WITH(build_with("0,node 2 ux,1x\n"), Catch::Contains("row 1") && Catch::Contains("finite number"));
  // A node id beyond int wrapped onto an existing node, now refused.
  CHECK_THROWS_WITH(build_with("0,node 4294967298 ux,1\n"), Catch::Contains("row 1"));
  CHECK_THROWS_WITH(build_with("0,node 2 ux,nan\n"), Catch::Contains("row 1"));
  fs::remove_all(dir);
}

TEST_CASE("builder: output.track and stop.displacement name the intermediate nodes of meshed beams",
          "[input][builder][track]") {
  // euler-column.cfg: one member of 16 elements from node 1 (base, clamped) to node 2
  // (top, loaded), intermediate nodes 3 … 17 from the base up; node 10 is mid-height.
  const Spec s = load(kSource + "/problems/euler-column.cfg",
                      {"output.track=10 uy", "output.track=17 rz", "stop.displacement=10 ux 0.5"});
  const senda::model::Model& m = *s.model;
  REQUIRE(s.track.size() == 5);  // the file's 2 ux, 2 uy, 2 rz, then these
  CHECK(s.track[3].column == "u_10_uy");
  CHECK(s.track[4].column == "u_17_rz");
  CHECK(m.node_id(s.track[3].node) == 10);
  // Node 10 is at mid-height: y = 8/16.
  CHECK(m.node_position(s.track[3].node).y() == Approx(0.5).margin(1e-15));
  CHECK(s.analysis.track[3] == m.equation(s.track[3].node, senda::model::Component::Uy));
  CHECK(s.analysis.explorer.path.monitor_dof ==
        m.equation(s.track[3].node, senda::model::Component::Ux));
  // Nothing else names them: a support or a load on an intermediate node is refused,
  // as such (it said "node 4 does not exist", while track takes it).
  CHECK_THAT(senda::test::build_error(
                 "[model]\nnode = 1 0 0\nnode = 2 0 1\nbeam = 1 1 2 1e5 1e5 1.0 4\nfix = 1 ux uy rz\nfix = 4 ux\n"
                 "load = 2 uy -1\n",
                 "b.cfg"),
             Catch::Contains("b.cfg:6: key 'model.fix'") &&
                 Catch::Contains("node 4 is an intermediate node of the beam member at line 4"));
}

TEST_CASE("trace: a tracked intermediate node of the Euler column moves half as far as its top on the primary "
          "path", "[input][builder][track]") {
  // Uniform compression of a straight member: every element has the same strain, so
  // node 10 (8 of 16 elements up) moves by exactly half the top's uy, to round-off.
  Spec s = load(kSource + "/problems/euler-column.cfg", {"output.track=10 uy", "stop.max_steps=6"});
  s.analysis.explorer.switch_branches = false;
  struct Points : senda::critical::ExplorerEvents {
    std::vector<senda::Vector> q;
    void on_point(const senda::critical::Branch&, const senda::continuation::PathFollower& f) override {
      q.push_back(f.current().q);
    }
  } points;
  senda::critical::BranchExplorer ex(*s.model, s.analysis.explorer);
  REQUIRE(ex.run(senda::Vector::Zero(s.model->size()), 0.0, points));
  REQUIRE(points.q.size() == 7);
  const int top = s.analysis.track[1], mid = s.analysis.track[3];  // u_2_uy, u_10_uy
  for (const senda::Vector& q : points.q) {
    INFO("top " << q[top] << " mid " << q[mid]);
    CHECK(std::abs(q[mid] - 0.5 * q[top]) <= 1e-12 * std::abs(q[top]));
  }
  CHECK(points.q.back()[top] < 0.0);
}
