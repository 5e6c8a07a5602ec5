// SVG drawings: one polyline per element and layer, the labels, the deformed
// shape at true scale and the mode at its documented fraction of the size.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "senda/analysis/result.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/svg.hpp"

#include "support/test_files.hpp"
#include "support/trace_run.hpp"

using namespace senda;
using namespace senda::output;
namespace fs = std::filesystem;
using senda::test::scratch;
using senda::test::slurp;

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The points="..." of the polyline of element e in layer cls, as numbers.
std::vector<double> polyline(const std::string& svg, const std::string& cls, int e) {
  const std::string key = "<polyline class=\"" + cls + "\" data-element=\"" + std::to_string(e) + "\" points=\"";
  const std::size_t a = svg.find(key);
  REQUIRE(a != std::string::npos);
  const std::size_t b = svg.find('"', a + key.size());
  std::string pts = svg.substr(a + key.size(), b - a - key.size());
  std::replace(pts.begin(), pts.end(), ',', ' ');
  std::vector<double> out;
  std::istringstream in(pts);
  for (double x; in >> x;) out.push_back(x);
  return out;
}
}  // namespace

TEST_CASE("svg: von Mises drawings of the structure, the shapes and the modes", "[output][svg]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("svg-von-mises");
  RecorderOptions output;
  output.drawings = true;
  const analysis::TraceResult s = senda::testing::run_into(spec, dir, nullptr, nullptr, output);
  REQUIRE(s.critical_points.size() == 2);
  CHECK_FALSE(fs::exists(dir / "vtk"));  // only what was asked for

  const std::string structure = slurp(dir / "drawings" / "structure.svg");
  CHECK(structure.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(structure.find("</svg>\n") != std::string::npos);
  CHECK(count(structure, "<polyline ") == 2);  // two bars
  CHECK(count(structure, "<polyline class=\"undeformed\"") == 2);
  CHECK_THAT(structure, Catch::Contains("<text class=\"title\" x=\"25.0\" y=\"26\">shallow von Mises truss (h = 0.5)</text>"));
  CHECK_THAT(structure, Catch::Contains("undeformed: 3 nodes, 2 elements"));
  for (const char* id : {">1</text>", ">2</text>", ">3</text>"}) CHECK(count(structure, id) == 1);
  // 800 px wide, 50 px margins: 700 px for the span of 2, 350 px per unit;
  // y down from the top band of 70 px: the apex (0, 0.5) at (400, 70).
  CHECK(polyline(structure, "undeformed", 0) == std::vector<double>{50.0, 245.0, 400.0, 70.0});

  for (const analysis::CriticalRecord& rec : s.critical_points) {
    const critical::CriticalPoint& cp = rec.point;
    INFO(cp.id);
    const std::string shape = slurp(dir / "drawings" / (cp.id + "_shape.svg"));
    CHECK(count(shape, "<polyline ") == 4);
    CHECK(count(shape, "<polyline class=\"reference\"") == 2);
    CHECK(count(shape, "<polyline class=\"deformed\"") == 2);
    CHECK_THAT(shape, Catch::Contains(">" + cp.id + " limit point, lambda = "));
    CHECK_THAT(shape, Catch::Contains("deformed shape, true scale"));
    const std::string mode = slurp(dir / "drawings" / (cp.id + "_mode.svg"));
    CHECK(count(mode, "<polyline class=\"reference\"") == 2);
    CHECK(count(mode, "<polyline class=\"mode\"") == 2);
    CHECK_THAT(mode, Catch::Contains(">" + cp.id + " limit point"));
  }
  // LP1: the apex at true scale, y = 0.5 + uy with uy = -h (1 - 1/sqrt 3) = -0.211325.
  // The drawing's box spans y in [0, 0.5] (the supports and the undeformed apex).
  const double uy = s.critical_points[0].tracked[0];
  CHECK(std::abs(uy + 0.5 * (1 - 1 / std::sqrt(3.0))) < 1e-9);
  const std::vector<double> deformed = polyline(slurp(dir / "drawings" / "LP1_shape.svg"), "deformed", 0);
  REQUIRE(deformed.size() == 4);
  CHECK(deformed[2] == Approx(400.0).margin(0.005));
  CHECK(deformed[3] == Approx(70.0 + (0.5 - (0.5 + uy)) * 350.0).margin(0.005));
  // The mode: largest translation 0.1 × the size (the longest side of the box, the span 2).
  const double size = 2.0;
  CHECK(mode_scale(*spec.model, s.critical_points[0].point.phi) * s.critical_points[0].point.phi.cwiseAbs().maxCoeff() ==
        Approx(0.1 * size).epsilon(1e-12));
}

TEST_CASE("svg: a 3D structure and a frame are drawn, one polyline per element", "[output][svg]") {
  for (const char* cfg : {"star-dome.cfg", "lee-frame.cfg"}) {
    INFO(cfg);
    const input::Spec spec = input::load(kSource + "/problems/" + cfg);
    const fs::path dir = scratch(std::string("svg-") + cfg);
    write_structure_drawing(dir, *spec.model, spec.title);
    const std::string svg = slurp(dir / "drawings" / "structure.svg");
    CHECK(count(svg, "<polyline class=\"undeformed\"") == spec.model->element_count());
    CHECK(count(svg, "class=\"node-label\"") == spec.model->node_count());
    CHECK(svg.find("nan") == std::string::npos);
    CHECK(svg.find("inf") == std::string::npos);
  }
}
