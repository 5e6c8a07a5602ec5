// The Gmsh MSH 4.1 reader (senda/input/mesh.hpp) and `model.mesh` in the builder,
// on files written by the gmsh program (4.8.4) from the committed .geo scripts in
// tests/input/mesh/: the same model read from the ASCII and the binary file, and the
// same model as the hand-written .cfg of the catalogue (von Mises truss, star dome).
// Bad meshes are in the bad-input corpus (tests/bad-input/270-291, tests/cli/bad_input.sh).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "senda/analysis/analysis.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/mesh.hpp"
#include "senda/linalg/factorization.hpp"
#include "support/config_errors.hpp"

using namespace senda;

namespace {
const std::string kDir = std::string(SENDA_SOURCE_DIR) + "/tests/input/mesh/";

// The von Mises truss of problems/von-mises.cfg, from two-bar.msh or its binary twin.
std::string two_bar_cfg(const std::string& mesh) {
  return "[model]\nmesh = " + mesh +
         "\ntruss = group:bars 1.0\nfix = group:base all\nfix = group:apex ux\nload = group:apex uy -1.0\n";
}

double apex_deflection(const model::Model& m, int apex_id) {
  SparseMatrix K = m.tangent_pattern();
  m.tangent(Vector::Zero(m.size()), 0.0, K);
  linalg::SymmetricFactorization f(K);
  REQUIRE(f.factorize(K) == linalg::FactorStatus::Ok);
  const Vector u = f.solve(m.reference_load());
  for (int n = 0; n < m.node_count(); ++n)
    if (m.node_id(n) == apex_id) return m.displacement(u, n, model::Component::Uz);
  FAIL("no apex node");
  return 0.0;
}
}  // namespace

TEST_CASE("mesh: ASCII and binary MSH 4.1 files of gmsh read the same", "[input][mesh]") {
  const input::Mesh a = input::read_msh(kDir + "two-bar.msh");
  const input::Mesh b = input::read_msh(kDir + "two-bar-binary.msh");
  CHECK_FALSE(a.binary);
  CHECK(b.binary);
  for (const input::Mesh* m : {&a, &b}) {
    INFO(m->file);
    REQUIRE(m->nodes.size() == 3);
    // Gmsh numbers the nodes of the geometry's points first: node k is point k.
    CHECK(m->nodes[1].tag == 2);
    CHECK(m->nodes[1].x == Eigen::Vector3d(0.0, 0.5, 0.0));
    REQUIRE(m->elements.size() == 5);  // three points (the groups of points) and two lines
    CHECK(m->elements_in("bars").size() == 2);
    CHECK(m->elements_in("base").size() == 2);
    CHECK(m->elements_in("nothing").empty());
    CHECK(m->group_names() == "apex, bars, base");
    const input::MeshElement& line = m->elements[m->elements_in("bars").back()];
    CHECK(line.type == 1);
    CHECK(line.nodes == std::array<int, 2>{2, 3});
  }
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    CHECK(a.nodes[i].tag == b.nodes[i].tag);
    CHECK(a.nodes[i].x == b.nodes[i].x);  // short decimals: the ASCII digits are exact
  }
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    CHECK(a.elements[i].tag == b.elements[i].tag);
    CHECK(a.elements[i].nodes == b.elements[i].nodes);
    CHECK(a.elements[i].entity_tag == b.elements[i].entity_tag);
  }
}

TEST_CASE("mesh: the von Mises truss from a mesh is the model of von-mises.cfg", "[input][mesh]") {
  const input::Spec cfg = input::load(std::string(SENDA_SOURCE_DIR) + "/problems/von-mises.cfg");
  for (const char* file : {"two-bar.msh", "two-bar-binary.msh"}) {
    INFO(file);
    const input::Spec s = input::build(input::Config::parse(two_bar_cfg(file), kDir + "two-bar.cfg"));
    const model::Model& a = *s.model;
    const model::Model& b = *cfg.model;
    REQUIRE(a.size() == b.size());
    REQUIRE(a.node_count() == b.node_count());
    for (int n = 0; n < a.node_count(); ++n) {
      CHECK(a.node_id(n) == b.node_id(n));
      CHECK(a.node_position(n) == b.node_position(n));
    }
    CHECK(a.reference_load() == b.reference_load());
    // The tangent at a deformed state: the same bars, supports and numbering.
    const Vector q = Vector::Constant(a.size(), -0.1);
    SparseMatrix Ka = a.tangent_pattern(), Kb = b.tangent_pattern();
    a.tangent(q, 0.0, Ka);
    b.tangent(q, 0.0, Kb);
    CHECK((Eigen::MatrixXd(Ka) - Eigen::MatrixXd(Kb)).norm() == 0.0);
    REQUIRE(s.track.size() == 1);
    CHECK(s.track[0].column == "u_2_uy");  // the first load's dof, as with the .cfg
  }
}

TEST_CASE("mesh: the star dome in 3D from a binary mesh gives the .cfg's deflection", "[input][mesh]") {
  const std::string text =
      "[model]\ndim = 3\nstrain = engineering\nmesh = star-dome.msh\ntruss = group:bars 465000\n"
      "fix = group:rim all\nload = group:apex uz -220.46\n";
  const input::Spec s = input::build(input::Config::parse(text, kDir + "star-dome.cfg"));
  const input::Spec cfg = input::load(std::string(SENDA_SOURCE_DIR) + "/problems/star-dome.cfg");
  REQUIRE(s.model->size() == cfg.model->size());
  const double w = apex_deflection(*s.model, 1), w_cfg = apex_deflection(*cfg.model, 1);
  INFO("mesh " << w << ", cfg " << w_cfg);
  // Gmsh computes the points from cos/sin (8.215999999999999 for 8.216, -25 at
  // y = 3e-15): coordinates agree to ~1e-15 relative, so does the deflection, up to
  // the condition of K(0) (its stiffnesses span ~1e2).
  CHECK(std::abs(w - w_cfg) <= 1e-12 * std::abs(w_cfg));
}

TEST_CASE("mesh: messages name the file, the entity and the group", "[input][mesh]") {
  const std::string file = kDir + "x.cfg";
  using test::build_error;
  CHECK_THAT(build_error("[model]\nmesh = two-bar.msh\ntruss = group:bar 1\nfix = group:base all\nload = group:apex uy -1\n", file),
             Catch::Contains("two-bar.msh: no physical group is named 'bar'") && Catch::Contains("apex, bars, base"));
  CHECK_THAT(build_error("[model]\nmesh = two-bar.msh\ntruss = group:apex 1\nload = group:apex uy -1\n", file),
             Catch::Contains("the physical group 'apex' holds no 2-node line elements"));
  CHECK_THAT(build_error("[model]\nnode = 1 0 0\nnode = 2 1 0\ntruss = 1 1 2 1\nfix = group:base all\nload = 2 uy 1\n", file),
             Catch::Contains("'group:base' names a physical group, but there is no model.mesh"));
  CHECK_THAT(build_error("[model]\nmesh = two-bar.msh\nnode = 1 0 0\nnode = 9 1 0\ntruss = 9 1 9 1\n"
                         "truss = group:bars 1\nfix = group:base all\nload = group:apex uy -1\n", file),
             Catch::Contains("x.cfg:2: key 'model.mesh'") && Catch::Contains("node 1 has the id of the node at line 3"));
  CHECK_THAT(build_error("[model]\nmesh = two-bar.msh\nnode = 7 0 0\nnode = 9 1 0\ntruss = 5 7 9 1\n"
                         "truss = group:bars 1\nfix = group:base all\nload = group:apex uy -1\n", file),
             Catch::Contains("x.cfg:6: key 'model.truss'") &&
                 Catch::Contains("element 5 of the physical group 'bars': its tag as an element id is already used by "
                                 "model.truss at line 5"));
  // .cfg nodes and bars mixed with the mesh's (ids apart), and a dead load on a group.
  {
    const input::Spec s = input::build(input::Config::parse(
        "[model]\nmesh = two-bar.msh\nnode = 11 -1 1\nnode = 12 1 1\ntruss = 40 11 2 1.0\ntruss = 41 2 12 1.0\n"
        "truss = group:bars 1.0\nfix = group:base all\nfix = 11 all\nfix = 12 all\nload = group:apex uy -1.0\n"
        "dead_load = group:apex ux 0.25\n",
        file));
    CHECK(s.model->element_count() == 4);
    CHECK(s.model->size() == 2);  // the apex, node 2 of the mesh, is the one free node
    CHECK(s.model->node_count() == 5);
    const model::Model& m = *s.model;
    const int apex = m.equation(3, model::Component::Ux);  // node index 3: the mesh's node 2 (after 11, 12, 1)
    REQUIRE(m.node_id(3) == 2);
    CHECK(m.dead_load()[apex] == 0.25);
    CHECK(m.reference_load()[m.equation(3, model::Component::Uy)] == -1.0);
  }
  // A mesh relative to the .cfg's directory, not the working directory.
  CHECK_THAT(build_error(two_bar_cfg("two-bar.msh"), "/nonexistent/x.cfg"),
             Catch::Contains("/nonexistent/two-bar.msh: cannot read the mesh: no such file"));
  CHECK(build_error(two_bar_cfg(kDir + "two-bar.msh"), "/nonexistent/x.cfg").empty());  // absolute
}

TEST_CASE("mesh: parametric coordinates, skipped sections and refused structure", "[input][mesh]") {
  // problems/deep-arch.geo with n = 2, written by gmsh with -save_parametric (binary:
  // a u after x y z of every node inside a curve) and without (ASCII).
  const input::Mesh p = input::read_msh(kDir + "arch-parametric.msh");
  const input::Mesh a = input::read_msh(kDir + "arch.msh");
  REQUIRE(p.nodes.size() == 5);
  REQUIRE(a.nodes.size() == 5);
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    CHECK(p.nodes[i].tag == a.nodes[i].tag);
    // Gmsh writes ASCII reals with 16 significant digits: equal to 1e-15.
    CHECK((p.nodes[i].x - a.nodes[i].x).norm() <= 1e-15);
  }
  CHECK(p.elements_in("arch").size() == 4);

  // Small ASCII files written here: an unknown section is skipped, the rest refused.
  const std::string two = std::string("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n");
  const std::string body =
      "$Nodes\n1 2 1 2\n1 1 0 2\n1\n2\n0 0 0\n1 0 0\n$EndNodes\n$Elements\n1 1 1 1\n1 1 1 1\n1 1 2\n$EndElements\n";
  const std::filesystem::path dir = std::filesystem::path(SENDA_BINARY_DIR) / "test-results" / "mesh-reader";
  std::filesystem::create_directories(dir);
  auto read = [&](const std::string& name, const std::string& text) {
    const std::filesystem::path f = dir / name;
    std::ofstream(f, std::ios::binary) << text;
    return input::read_msh(f);
  };
  auto error = [&](const std::string& name, const std::string& text) {
    try {
      read(name, text);
    } catch (const input::MeshError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // A curve listed reversed in its physical group (gmsh writes tag -1 for it in
  // $Entities) is in the group: both bars of "bars" (the second was dropped).
  const input::Mesh rev = read(
      "reversed.msh", two + "$PhysicalNames\n1\n1 1 \"bars\"\n$EndPhysicalNames\n$Entities\n0 2 0 0\n"
                            "1 0 0 0 1 0 0 1 1 0\n2 1 0 0 2 0 0 1 -1 0\n$EndEntities\n"
                            "$Nodes\n2 3 1 3\n1 1 0 2\n1\n2\n0 0 0\n1 0 0\n1 2 0 1\n3\n2 0 0\n$EndNodes\n"
                            "$Elements\n2 2 1 2\n1 1 1 1\n1 1 2\n1 2 1 1\n2 2 3\n$EndElements\n");
  CHECK(rev.elements_in("bars").size() == 2);
  const input::Mesh m = read("comment.msh", two + "$Comment\nanything $Nodes\n$EndComment\n" + body);
  CHECK(m.nodes.size() == 2);
  CHECK(m.elements.size() == 1);
  CHECK(m.elements_in("x").empty());  // no groups: nothing is named
  CHECK_THAT(error("second.msh", two + body + "$Nodes\n0 0 0 0\n$EndNodes\n"),
             Catch::Contains("second.msh: line 17 ($Nodes): a second $Nodes section"));
  CHECK_THAT(error("count.msh", two + "$Nodes\n1 3 1 2\n1 1 0 2\n1\n2\n0 0 0\n1 0 0\n$EndNodes\n"),
             Catch::Contains("($Nodes): the header gives 3 nodes, the blocks hold 2"));
  CHECK_THAT(error("far.msh", two + "$Nodes\n1 1 1 1\n0 1 0 1\n1\n1e101 0 0\n$EndNodes\n"),
             Catch::Contains("node 1: a coordinate exceeds 1e100"));
  CHECK_THAT(error("nan.msh", two + "$Nodes\n1 1 1 1\n0 1 0 1\n1\nnan 0 0\n$EndNodes\n"),
             Catch::Contains("line 8 ($Nodes): node coordinate: 'nan' is not a finite number"));
  CHECK_THAT(error("partitioned.msh", two + "$PartitionedEntities\n2\n$EndPartitionedEntities\n" + body),
             Catch::Contains("a partitioned mesh"));
  CHECK_THAT(error("noelements.msh", two + "$Nodes\n0 0 0 0\n$EndNodes\n"), Catch::Contains("no $Elements section"));
  CHECK_THAT(error("end.msh", two + "$Nodes\n0 0 0 0\n$EndElements\n"),
             Catch::Contains("line 6 ($Nodes): expected $EndNodes, found '$EndElements'"));
  CHECK_THAT(error("empty.msh", ""), Catch::Contains("empty.msh: the mesh file is empty"));
  // One node (extent 0): read; two at one place: duplicates.
  CHECK(read("one.msh", two + "$Nodes\n1 1 1 1\n0 1 0 1\n1\n0.5 0 0\n$EndNodes\n$Elements\n0 0 0 0\n$EndElements\n")
            .nodes.size() == 1);
  CHECK_THAT(error("same.msh", two + "$Nodes\n1 2 1 2\n0 1 0 2\n1\n2\n0.5 0 0\n0.5 0 0\n$EndNodes\n$Elements\n0 0 0 0\n$EndElements\n"),
             Catch::Contains("duplicate nodes: nodes 1 and 2 are at the same position (0.5, 0, 0)"));
  CHECK_THAT(error("tag.msh", two + "$Nodes\n1 1 1 1\n0 1 0 1\n0\n0 0 0\n$EndNodes\n"),
             Catch::Contains("($Nodes): node tag 0 is outside [1, 2147483647]"));

  // With $Entities, every block of $Nodes and $Elements must be of an entity it
  // declares (dimension and tag): a block of another would belong to no group.
  // Two points (1, 2) and the curve 1 between them.
  const std::string entities = "$Entities\n2 1 0 0\n1 0 0 0 0\n2 1 0 0 0\n1 0 0 0 1 0 0 0 2 1 -2\n$EndEntities\n";
  const std::string nodes = "$Nodes\n1 2 1 2\n1 1 0 2\n1\n2\n0 0 0\n1 0 0\n$EndNodes\n";
  const std::string elements = "$Elements\n1 1 1 1\n1 1 1 1\n1 1 2\n$EndElements\n";
  CHECK(read("declared.msh", two + entities + nodes + elements).elements.size() == 1);
  CHECK_THAT(error("element-entity.msh", two + entities + nodes + "$Elements\n1 1 1 1\n1 99 1 1\n1 1 2\n$EndElements\n"),
             Catch::Contains("element-entity.msh: line 20 ($Elements): entity 99 of dimension 1 is not in $Entities"));
  // The tag of a point, in a block of dimension 1.
  CHECK_THAT(error("element-dim.msh", two + entities + nodes + "$Elements\n1 1 1 1\n1 2 1 1\n1 1 2\n$EndElements\n"),
             Catch::Contains("line 20 ($Elements): entity 2 of dimension 1 is not in $Entities"));
  CHECK_THAT(error("node-entity.msh",
                   two + entities + "$Nodes\n1 2 1 2\n1 7 0 2\n1\n2\n0 0 0\n1 0 0\n$EndNodes\n" + elements),
             Catch::Contains("node-entity.msh: line 12 ($Nodes): entity 7 of dimension 1 is not in $Entities"));
  // Binary: the byte of the block header (tests/bad-input/291: the same edit in two-bar-binary.msh).
  const std::string bin = std::string(SENDA_SOURCE_DIR) + "/tests/bad-input/mesh/binary-undeclared-entity.msh";
  CHECK_THROWS_WITH(input::read_msh(bin), Catch::Contains("binary-undeclared-entity.msh: byte 884 ($Elements): entity 99 "
                                                          "of dimension 1 is not in $Entities"));
}

TEST_CASE("mesh: 3D beams from a mesh: the plane arch in 3D has the 2D limit load", "[input][mesh]") {
  // The 20-element mesh of problems/deep-arch.geo, as plane beams (model.dim = 2) and as
  // space beams (Beam3D, section axis e2 = z) with the out-of-plane dofs of every node
  // of the group fixed: the plane case of Beam3D is Beam2D's formulation
  // (docs/notes/beam3d.md), so both limit points are the same point.
  const std::string mesh = std::string(SENDA_SOURCE_DIR) + "/tests/problems/mesh/deep-arch-20.msh";
  const std::string tail =
      "load = group:apex uy -1.0\n[continuation]\ninitial_step = 2\n[stop]\nmax_steps = 200\n"
      "displacement = 2 uy 1.15\n[branches]\nswitch = false\n[output]\ntrack = 2 uy\n";
  const std::string plane = "[model]\nmesh = " + mesh +
                            "\nbeam = group:arch 1e6 1e6 1.0\nfix = group:hinged ux uy\nfix = group:clamped ux uy rz\n" + tail;
  const std::string space = "[model]\ndim = 3\nmesh = " + mesh +
                            "\nbeam = group:arch 1e6 1e6 1e6 1.0 1.0 1.0 0 0 1\nfix = group:arch uz rx ry\n"
                            "fix = group:hinged all\nfix = group:clamped all rz\n" + tail;
  {
    // A hinge names a member from the mesh by its element tag: line 13 ends at the
    // crown (node 2), line 14 starts there; releasing 13 adds its own end rotation.
    const input::Spec s = input::build(input::Config::parse(plane + "[model]\nhinge = 2 13\n", kDir + "arch.cfg"));
    CHECK(s.model->size() == 59);
    CHECK_THAT(test::build_error(plane + "[model]\nhinge = 2 12\n", kDir + "arch.cfg"),
               Catch::Contains("member 12 does not touch node 2 (it joins nodes 11 and 12)"));
  }
  double lambda[2];
  int k = 0;
  for (const std::string* text : {&plane, &space}) {
    const input::Spec s = input::build(input::Config::parse(*text, kDir + "arch.cfg"));
    // 21 nodes; 2D: 3 dofs each less 2 + 3 supported; 3D: the free ux uy rz of the same.
    CHECK(s.model->size() == 58);
    analysis::Analysis a(*s.model, s.analysis);
    const analysis::TraceResult r = a.run();
    const analysis::CriticalRecord* lp = r.find("LP1");
    REQUIRE(lp);
    REQUIRE(lp->point.converged);
    lambda[k++] = lp->point.lambda;
  }
  INFO("2D " << lambda[0] << ", 3D " << lambda[1]);
  CHECK(std::abs(lambda[0] - 9.30589851932) <= 1e-9 * 9.3);  // cfg_catalogue_test's 20-element value
  // Both located to critical.tolerance = 1e-10 (scaled): 1e-9 relative bounds the two.
  CHECK(std::abs(lambda[1] - lambda[0]) <= 1e-9 * lambda[0]);
}
