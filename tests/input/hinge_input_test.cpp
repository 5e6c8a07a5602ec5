// model.hinge input: the DOF map it builds, the files a hinged run writes (path.csv,
// modes, states read back), and the messages for bad hinges.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <filesystem>
#include <string>

#include "senda/input/builder.hpp"
#include "support/test_files.hpp"
#include "support/trace_run.hpp"
#include "support/config_errors.hpp"

using namespace senda;
using namespace senda::input;
namespace fs = std::filesystem;

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

// Two-member cantilever along x; the hinge line is appended by each case.
const std::string kCantilever =
    "[model]\n"                     // 1
    "node = 1 0 0\n"                // 2
    "node = 2 1 0\n"                // 3
    "node = 3 2 0\n"                // 4
    "beam = 1 1 2 1e4 1e4 1 2\n"    // 5  ids 1, 2
    "beam = 10 2 3 1e4 1e4 1 2\n"   // 6  ids 10, 11
    "truss = 20 1 3 1\n"            // 7
    "fix = 1 ux uy rz\n"            // 8
    "load = 3 uy -1\n";             // 9

std::string error_of(const std::string& text) { return senda::test::build_error(text, "h.cfg"); }
}  // namespace

TEST_CASE("hinge input: a released member gets its own rotation unknown", "[input][hinge]") {
  const Spec s = build(Config::parse(kCantilever + "hinge = 2 10 spring 5\n", "h.cfg"));
  const model::Model& m = *s.model;
  // Nodes 2, 3 and the two intermediate nodes: 4 × 3, plus member 10's rz at node 2.
  CHECK(m.size() == 13);
  int own = -1;
  for (int i = 0; i < m.size(); ++i)
    if (m.dof_name(i) == "node 2 rz (member 10)") own = i;
  REQUIRE(own >= 0);
  CHECK(m.dof_name(own - 1) == "node 2 rz");
  CHECK(m.element_count() == 6);  // 4 beams, the truss, the spring across the hinge
  bool spring = false;
  for (int e = 0; e < m.element_count(); ++e) spring = spring || m.element(e).describe() == "hinge spring at node 2 (member 10)";
  CHECK(spring);
  // Without a spring, and with every member at the node released, the node's own
  // rotation is not an unknown: 12, with both members' own rotations.
  const Spec all = build(Config::parse(kCantilever + "hinge = 2 1 10\n", "h.cfg"));
  CHECK(all.model->size() == 12 - 1 + 2);
  CHECK(all.model->equation(1, model::Component::Rz) == -1);
}

TEST_CASE("hinge input: bad hinges are refused at their line", "[input][hinge][errors]") {
  const std::string at = "h.cfg:10: key 'model.hinge': ";
  CHECK_THAT(error_of(kCantilever + "hinge = 2 7\n"), Catch::StartsWith(at + "MEMBER: no beam member has id 7"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 20\n"),
             Catch::StartsWith(at + "MEMBER: element 20 is a truss (line 7), not a beam member"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 11\n"),
             Catch::StartsWith(at + "MEMBER: 11 is an element inside the member of line 6"));
  CHECK_THAT(error_of(kCantilever + "hinge = 1 10\n"),
             Catch::StartsWith(at + "member 10 does not touch node 1 (it joins nodes 2 and 3)"));
  CHECK_THAT(error_of(kCantilever + "hinge = 3 10\n"),
             Catch::StartsWith(at + "hinge at node 3 releases nothing: member 10 is the only member there"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 10 10\n"),
             Catch::StartsWith(at + "member 10 is already released at node 2 (listed twice)"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 10\nhinge = 2 10\n"),
             Catch::StartsWith("h.cfg:11: key 'model.hinge': member 10 is already released at node 2 (hinge at line 10)"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2\n"),
             Catch::StartsWith(at + "expected a node and at least one member, found 1 field(s)"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 10 spring\n"),
             Catch::StartsWith(at + "'spring' must be followed by exactly one field, the stiffness K"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 10 spring -1\n"), Catch::StartsWith(at + "K must be positive"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 spring 1\n"), Catch::StartsWith(at + "no member listed before 'spring'"));
  CHECK_THAT(error_of(kCantilever + "hinge = 9 10\n"), Catch::StartsWith(at + "NODE: node 9 does not exist"));
  // A support or load on the rotation of a node whose members are all released.
  CHECK_THAT(error_of(kCantilever + "hinge = 2 1 10\nload = 2 rz 1\n"),
             Catch::StartsWith("h.cfg:11: key 'model.load': node 2 rz: every member at the node is released by the "
                               "hinge at line 10") &&
                 Catch::Contains("the load would act on nothing"));
  CHECK_THAT(error_of(kCantilever + "hinge = 2 1 10\nfix = 2 rz\n"),
             Catch::StartsWith("h.cfg:11: key 'model.fix': node 2 rz: every member at the node is released") &&
                 Catch::Contains("the support would hold nothing"));
  // ... but with one member still attached, they act on the node's rotation.
  CHECK(error_of(kCantilever + "hinge = 2 10\nload = 2 rz 1\n").empty());
}

TEST_CASE("hinge input: a cantilever with a hinge is refused as a mechanism", "[input][hinge][errors]") {
  // Without the truss the outer member turns freely about the hinge.
  std::string text = kCantilever;
  text.erase(text.find("truss = 20 1 3 1\n"), 17);
  const Spec spec = build(Config::parse(text + "hinge = 2 10\n", "m.cfg"));
  const fs::path dir = senda::test::scratch("hinge-mechanism");
  try {
    senda::testing::run_into(spec, dir);
    FAIL("no mechanism found");
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    INFO(msg);
    // At the line of the hinge's node (node 2, line 3): the first unknown the mechanism
    // moves is the member's own rotation there (the message had no line).
    CHECK_THAT(msg, Catch::StartsWith("m.cfg:3: key 'model.node': the structure is a mechanism or is not supported") &&
                        Catch::Contains("nearly singular"));
    // The mechanism (the outer member turning about the hinge) leaves a pivot at
    // rounding level, not an exact zero; the driver names the unknowns of its null
    // vector (inverse iteration), the hinged end rotation first.
    CHECK_THAT(msg, Catch::Contains("the mechanism moves node 2 rz (member 10)"));
  }
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("catalogue .cfg: leaning column, sway bifurcation of a hinged portal", "[catalogue][hinge]") {
  const Config config = Config::read_file(kSource + "/problems/leaning-column.cfg");
  const Spec spec = build(config);
  const fs::path dir = fs::path(SENDA_BINARY_DIR) / "test-results" / "catalogue-leaning-column";
  const analysis::TraceResult s = senda::testing::run_into(spec, dir, &config);
  REQUIRE(!s.critical_points.empty());
  const auto& bp = s.critical_points.front().point;
  CHECK(bp.kind == critical::CriticalKind::Bifurcation);
  // tan x = 2x: P_cr = 1.358533 EI/h²; with 8 elements per member the O(h²) error is
  // 5.14e-3 (tests/model/hinge_test.cpp: 1.36552); 1e-4 covers the location tolerance.
  CHECK(bp.lambda == Approx(1.358533 * (1 + 5.14e-3)).epsilon(1e-4));
  // The files: path.csv with the tracked columns, the mode of the bifurcation point
  // with every dof named, including the members' own rotations.
  const std::string path = senda::test::slurp(dir / "path.csv");
  CHECK_THAT(path, Catch::Contains("u_3_ux") && Catch::Contains("u_3_rz"));
  bool mode_found = false;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.path().string().find("mode") != std::string::npos && f.is_regular_file()) {
      const std::string text = senda::test::slurp(f.path());
      if (text.find("node 3 rz (member 101)") != std::string::npos) mode_found = true;
    }
  CHECK(mode_found);
  // Both halves of the sway branch switched; the saved state of BP1 (with the
  // members' own rotations) reads back into the same model and restarts them.
  REQUIRE(s.branches.size() == 3);
  CHECK(s.branches[1].start_point == "BP1");
  CHECK(s.branches[2].start_point == "BP1");
  REQUIRE(fs::exists(dir / "states" / "BP1.json"));
  Config config_from = config;
  config_from.apply_override("branches.from=" + (dir / "states" / "BP1.json").string());
  const Spec again = build(config_from);
  const fs::path dir2 = fs::path(SENDA_BINARY_DIR) / "test-results" / "catalogue-leaning-column-from";
  const analysis::TraceResult s2 = senda::testing::run_into(again, dir2, &config_from);
  REQUIRE(s2.branches.size() == 3);
  CHECK(s2.branches[1].points == s.branches[1].points);
}

TEST_CASE("hinge input: model.beam_formulation = corotational meshes co-rotational members", "[input][hinge][corotational]") {
  const Spec s = load(kSource + "/problems/leaning-column.cfg", {"model.beam_formulation=corotational"});
  CHECK(s.model->element(0).describe() == "beam 1 (co-rotational)");
  // 3 × 7 inner nodes and the two tops (ux uy rz), node 2's rz (pinned base), and
  // the own rotations of members 101 (at node 3) and 201 (at node 4).
  CHECK(s.model->size() == 3 * (21 + 2) + 1 + 2);
  const fs::path dir = fs::path(SENDA_BINARY_DIR) / "test-results" / "leaning-column-corotational";
  const analysis::TraceResult t = senda::testing::run_into(s, dir);
  REQUIRE(!t.critical_points.empty());
  // 8 per member: error ≈ 0.112/64 = 1.77e-3 above 1.358533 (tests/model/hinge_test.cpp).
  CHECK(t.critical_points.front().point.lambda == Approx(1.358533 * (1 + 1.77e-3)).epsilon(1e-4));
  CHECK(error_of(kCantilever + "beam_formulation = euler\n") ==
        "h.cfg:10: key 'model.beam_formulation': unknown value 'euler' (valid: simo-reissner|corotational)");
}

TEST_CASE("hinge input: a spring at a clamped member end is a semi-rigid support", "[input][hinge]") {
  // hinge = 1 1 spring K at the clamp: member 1 is joined to the fixed rotation of
  // node 1 by K. Tip load P = 1 on the cantilever of length 2 (members 1 and 10):
  // δ = PL³/(3EI) + PL/GA_s − PLh²/(12EI) + PL²/K (h = 0.5 the element length; the
  // h² term is the one-point element's, tests/model/hinge_test.cpp).
  std::string text = kCantilever;
  text.erase(text.find("truss = 20 1 3 1\n"), 17);
  const Spec s = build(Config::parse(text + "hinge = 1 1 spring 4\n", "h.cfg"));
  const model::Model& m = *s.model;
  SparseMatrix K = m.tangent_pattern();
  m.tangent(Vector::Zero(m.size()), 0.0, K);
  const Vector v = Eigen::MatrixXd(K).ldlt().solve(Vector(m.reference_load()));
  const double L = 2.0, h = 0.5, k = 4.0;
  const double delta = L * L * L / 3 + L / 1e4 - L * h * h / 12 + L * L / k;
  CHECK(-v[m.equation(2, model::Component::Uy)] == Approx(delta).epsilon(1e-9));
}
