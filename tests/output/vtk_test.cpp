// The VTK output read back: the .pvd indexes list the files a run wrote, every
// .vtu holds the number of points, cells and values its attributes claim, and
// the displacements in it are the ones path.csv and modes/<id>.csv hold.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "senda/analysis/observer.hpp"
#include "senda/analysis/result.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/files.hpp"
#include "senda/output/recorder.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/model.hpp"
#include "senda/output/vtk.hpp"

#include "support/test_files.hpp"
#include "support/trace_run.hpp"

using namespace senda;
using namespace senda::output;
namespace fs = std::filesystem;
using senda::test::scratch;
using senda::test::slurp;

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

// The value of attribute name in the tag text ("" if absent).
std::string attribute(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t a = tag.find(key);
  if (a == std::string::npos) return "";
  const std::size_t b = tag.find('"', a + key.size());
  return tag.substr(a + key.size(), b - a - key.size());
}

// Every tag <name .../> or <name ...> of the text, as its text between < and >.
std::vector<std::string> tags(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  for (std::size_t at = text.find("<" + name + " "); at != std::string::npos; at = text.find("<" + name + " ", at + 1))
    out.push_back(text.substr(at, text.find('>', at) - at));
  return out;
}

// The text between <name ...> and </name> (the first such element; "" if absent).
std::string element_body(const std::string& text, const std::string& name) {
  const std::size_t a = text.find("<" + name);
  if (a == std::string::npos) return "";
  const std::size_t open_end = text.find('>', a) + 1;
  const std::size_t b = text.find("</" + name + ">", open_end);
  return b == std::string::npos ? "" : text.substr(open_end, b - open_end);
}

struct Array {
  std::string name, type;
  int components = 1;  // NumberOfComponents (1 when absent)
  int tuples = -1;     // NumberOfTuples, -1 when absent
  std::vector<double> values;
};

// The DataArrays of a section, with their values parsed.
std::vector<Array> arrays(const std::string& section) {
  std::vector<Array> out;
  std::size_t at = 0;
  while ((at = section.find("<DataArray ", at)) != std::string::npos) {
    const std::size_t open_end = section.find('>', at);
    const std::string tag = section.substr(at, open_end - at);
    const std::size_t close = section.find("</DataArray>", open_end);
    REQUIRE(close != std::string::npos);
    Array a;
    a.name = attribute(tag, "Name");
    a.type = attribute(tag, "type");
    if (!attribute(tag, "NumberOfComponents").empty()) a.components = std::stoi(attribute(tag, "NumberOfComponents"));
    if (!attribute(tag, "NumberOfTuples").empty()) a.tuples = std::stoi(attribute(tag, "NumberOfTuples"));
    CHECK(attribute(tag, "format") == "ascii");
    std::istringstream in(section.substr(open_end + 1, close - open_end - 1));
    std::string word;
    while (in >> word) a.values.push_back(std::strtod(word.c_str(), nullptr));
    out.push_back(a);
    at = close;
  }
  return out;
}

const Array* find(const std::vector<Array>& as, const std::string& name) {
  for (const Array& a : as)
    if (a.name == name) return &a;
  return nullptr;
}

struct Vtu {
  int points = -1, cells = -1;
  std::vector<Array> field, point_data, cell_data, geometry, topology;
};

// Reads a .vtu and checks that every array holds as many values as it claims.
Vtu read_vtu(const fs::path& file) {
  INFO(file.string());
  const std::string text = slurp(file);
  REQUIRE(text.rfind("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\"", 0) == 0);
  REQUIRE(text.find("</VTKFile>") != std::string::npos);
  Vtu v;
  const std::vector<std::string> pieces = tags(text, "Piece");
  REQUIRE(pieces.size() == 1);
  v.points = std::stoi(attribute(pieces[0], "NumberOfPoints"));
  v.cells = std::stoi(attribute(pieces[0], "NumberOfCells"));
  v.field = arrays(element_body(text, "FieldData"));
  v.point_data = arrays(element_body(text, "PointData"));
  v.cell_data = arrays(element_body(text, "CellData"));
  v.geometry = arrays(element_body(text, "Points"));
  v.topology = arrays(element_body(text, "Cells"));
  for (const Array& a : v.field) {
    INFO(a.name);
    CHECK(a.values.size() == static_cast<std::size_t>(a.tuples * a.components));
  }
  for (const Array& a : v.point_data) {
    INFO(a.name);
    CHECK(a.values.size() == static_cast<std::size_t>(v.points * a.components));
  }
  for (const Array& a : v.cell_data) {
    INFO(a.name);
    CHECK(a.values.size() == static_cast<std::size_t>(v.cells * a.components));
  }
  REQUIRE(v.geometry.size() == 1);
  CHECK(v.geometry[0].components == 3);
  CHECK(v.geometry[0].values.size() == static_cast<std::size_t>(3 * v.points));
  const Array* conn = find(v.topology, "connectivity");
  const Array* offsets = find(v.topology, "offsets");
  const Array* types = find(v.topology, "types");
  REQUIRE(conn);
  REQUIRE(offsets);
  REQUIRE(types);
  REQUIRE(offsets->values.size() == static_cast<std::size_t>(v.cells));
  CHECK(types->values.size() == static_cast<std::size_t>(v.cells));
  // Offsets end where the connectivity ends; every index names a point.
  if (v.cells > 0) CHECK(offsets->values.back() == static_cast<double>(conn->values.size()));
  for (double n : conn->values) CHECK((n >= 0 && n < v.points));
  return v;
}

struct PvdDataSet {
  double timestep;
  std::string file, name;
};

std::vector<PvdDataSet> read_pvd(const fs::path& file) {
  const std::string text = slurp(file);
  REQUIRE(text.find("<VTKFile type=\"Collection\"") != std::string::npos);
  REQUIRE(text.find("</VTKFile>") != std::string::npos);
  std::vector<PvdDataSet> out;
  for (const std::string& t : tags(text, "DataSet"))
    out.push_back({std::strtod(attribute(t, "timestep").c_str(), nullptr), attribute(t, "file"), attribute(t, "name")});
  return out;
}

// Rows of a CSV with a header, as name → column of numbers (strtod of each field).
std::map<std::string, std::vector<double>> read_csv(const fs::path& file) {
  std::istringstream in(slurp(file));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream hs(line);
  for (std::string f; std::getline(hs, f, ',');) names.push_back(f);
  std::map<std::string, std::vector<double>> cols;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::size_t k = 0;
    for (std::string f; std::getline(ls, f, ','); ++k)
      if (k < names.size()) cols[names[k]].push_back(std::strtod(f.c_str(), nullptr));
  }
  return cols;
}

}  // namespace

TEST_CASE("vtk: von Mises read back from the .pvd and .vtu files", "[output][vtk]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("vtk-von-mises");
  RecorderOptions output;
  output.vtk = true;
  const analysis::TraceResult s = senda::testing::run_into(spec, dir, nullptr, nullptr, output);
  REQUIRE(s.termination == continuation::Termination::Completed);
  REQUIRE(s.critical_points.size() == 2);

  auto path = read_csv(dir / "path.csv");
  const std::vector<double>& uy = path["u_2_uy"];
  REQUIRE(static_cast<int>(uy.size()) == s.points);

  // One entry per path point, in order, timestep = point index.
  const std::vector<PvdDataSet> sets = read_pvd(dir / "vtk" / "branch0.pvd");
  REQUIRE(static_cast<int>(sets.size()) == s.points);
  CHECK_FALSE(fs::exists(dir / "vtk" / "branch0.pvd.tmp"));
  for (std::size_t k = 0; k < sets.size(); ++k) {
    INFO("point " << k);
    CHECK(sets[k].timestep == path["point"][k]);
    CHECK(fs::exists(dir / "vtk" / sets[k].file));
  }

  // Every file: 3 nodes, 2 bars (VTK_LINE), node 2 (index 1) carries u_2_uy of path.csv bit for bit.
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, sets.size() / 2, sets.size() - 1}) {
    INFO("point " << k << " file " << sets[k].file);
    const Vtu v = read_vtu(dir / "vtk" / sets[k].file);
    CHECK(v.points == 3);
    CHECK(v.cells == 2);
    CHECK(find(v.topology, "types")->values == std::vector<double>{3, 3});
    CHECK(find(v.topology, "connectivity")->values == std::vector<double>{0, 1, 1, 2});
    CHECK(v.geometry[0].values == std::vector<double>{-1, 0, 0, 0, 0.5, 0, 1, 0, 0});
    const Array* d = find(v.point_data, "displacement");
    REQUIRE(d);
    CHECK(d->components == 3);
    CHECK(d->values[3 * 1 + 1] == uy[k]);
    CHECK(d->values[3 * 1 + 0] == 0.0);  // ux of the apex is fixed
    CHECK(d->values[0] == 0.0);          // the supports do not move
    CHECK_FALSE(find(v.point_data, "rotation"));  // a truss: no rotations
    CHECK_FALSE(find(v.point_data, "mode"));
    REQUIRE(find(v.field, "lambda"));
    CHECK(find(v.field, "lambda")->values == std::vector<double>{path["lambda"][k]});
    CHECK(find(v.field, "point")->values == std::vector<double>{path["point"][k]});
    CHECK(find(v.cell_data, "element")->values == std::vector<double>{0, 1});
  }

  // The modes: one entry per critical point, named by its id, with the mode of modes/<id>.csv.
  const std::vector<PvdDataSet> modes = read_pvd(dir / "vtk" / "modes.pvd");
  REQUIRE(modes.size() == 2);
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const critical::CriticalPoint& cp = s.critical_points[k].point;
    INFO(cp.id);
    CHECK(modes[k].name == cp.id);
    CHECK(modes[k].file == "mode_" + cp.id + ".vtu");
    CHECK(modes[k].timestep == static_cast<double>(k));
    const Vtu v = read_vtu(dir / "vtk" / modes[k].file);
    CHECK(v.points == 3);
    CHECK(v.cells == 2);
    const Array* mode = find(v.point_data, "mode");
    REQUIRE(mode);
    auto csv = read_csv(dir / "modes" / (cp.id + ".csv"));
    REQUIRE(csv["phi"].size() == 1);  // one unknown: the apex uy
    CHECK(mode->values[3 * 1 + 1] == csv["phi"][0]);
    CHECK(std::abs(mode->values[3 * 1 + 1]) == 1.0);  // scaled to max |phi_j| = 1
    // The state of the critical point: λ and the apex deflection of summary.json.
    CHECK(find(v.field, "lambda")->values[0] == cp.lambda);
    CHECK(find(v.point_data, "displacement")->values[3 * 1 + 1] == s.critical_points[k].tracked[0]);
  }
}

TEST_CASE("vtk: a frame has rotations, one line per beam element", "[output][vtk]") {
  const input::Spec spec = input::load(kSource + "/problems/lee-frame.cfg");
  const model::Model& m = *spec.model;
  const fs::path dir = scratch("vtk-lee");
  RecorderOptions output;
  output.vtk = true;
  const analysis::TraceResult s = senda::testing::run_into(spec, dir, nullptr, nullptr, output);
  const std::vector<PvdDataSet> sets = read_pvd(dir / "vtk" / "branch0.pvd");
  REQUIRE(static_cast<int>(sets.size()) == s.points);
  const Vtu v = read_vtu(dir / "vtk" / sets.back().file);
  CHECK(v.points == m.node_count());
  CHECK(v.cells == m.element_count());
  CHECK(m.element_count() > 10);  // the members are meshed
  for (double t : find(v.topology, "types")->values) CHECK(t == 3.0);
  const Array* rot = find(v.point_data, "rotation");
  REQUIRE(rot);
  CHECK(rot->components == 3);
  // A plane frame: rotation about z only, and some node has turned.
  double rz_max = 0.0;
  for (int n = 0; n < v.points; ++n) {
    CHECK(rot->values[3 * n + 0] == 0.0);
    CHECK(rot->values[3 * n + 1] == 0.0);
    rz_max = std::max(rz_max, std::abs(rot->values[3 * n + 2]));
  }
  CHECK(rz_max > 0.1);
  // The tracked displacement of the last point, bit for bit.
  auto path = read_csv(dir / "path.csv");
  const input::TrackedDof& t = spec.track.front();
  const Array* d = find(v.point_data, "displacement");
  CHECK(d->values[3 * t.node + static_cast<int>(t.component)] == path[t.column].back());
  REQUIRE_FALSE(s.critical_points.empty());
  const Vtu mv = read_vtu(dir / "vtk" / ("mode_" + s.critical_points.front().point.id + ".vtu"));
  CHECK(find(mv.point_data, "mode_rotation"));
}

TEST_CASE("vtk: the .pvd index is complete after every file, then every 1 %", "[output][vtk]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("vtk-index");
  fs::create_directories(dir);
  const int n = spec.model->size();
  {
    VtkWriter w(dir, *spec.model);
    continuation::PathPoint p;
    p.q = Vector::Zero(n);
    for (int k = 0; k < 300; ++k) {
      p.index = k;
      p.lambda = 1e-3 * k;
      w.write_point(p, 1);
      const std::size_t on_disk = read_pvd(dir / "vtk" / "branch1.pvd").size();
      INFO("after point " << k);
      if (k < 200)
        CHECK(on_disk == static_cast<std::size_t>(k + 1));
      else  // rewritten when it has grown by 1 % (2 or 3 entries here)
        CHECK((on_disk >= static_cast<std::size_t>(k + 1) - 3 && on_disk <= static_cast<std::size_t>(k + 1)));
    }
    w.finish();
    CHECK(read_pvd(dir / "vtk" / "branch1.pvd").size() == 300);
  }
  CHECK(fs::exists(dir / "vtk" / "b1_p000299.vtu"));
  CHECK_FALSE(fs::exists(dir / "vtk" / "branch1.pvd.tmp"));
}

TEST_CASE("vtk: --overwrite removes the old vtk/ and drawings/, nothing else", "[output][vtk]") {
  const fs::path dir = scratch("vtk-overwrite");
  fs::create_directories(dir / "vtk");
  fs::create_directories(dir / "drawings");
  std::ofstream(dir / "vtk" / "branch0.pvd") << "old";
  std::ofstream(dir / "drawings" / "structure.svg") << "old";
  std::ofstream(dir / "notes.txt") << "mine";
  ResultsDir::prepare(dir, true);
  CHECK_FALSE(fs::exists(dir / "vtk"));
  CHECK_FALSE(fs::exists(dir / "drawings"));
  CHECK(slurp(dir / "notes.txt") == "mine");
}

TEST_CASE("vtk: an interrupted run keeps a .vtu and an index entry for every point written", "[output][vtk]") {
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("vtk-interrupted");
  // Stops once five points after the start point are written.
  struct Events final : analysis::Observer {
    int seen = 0;
    void on_point(int, const continuation::PathPoint& p) override {
      if (p.index > 0) ++seen;
    }
    bool stop_requested() override { return seen >= 5; }
  } ev;
  RecorderOptions output;
  output.vtk = true;
  output.drawings = true;
  const analysis::TraceResult s = senda::testing::run_into(spec, dir, nullptr, &ev, output);
  REQUIRE(s.termination == continuation::Termination::Interrupted);
  REQUIRE(s.points == 6);  // the start point and five steps
  const std::vector<PvdDataSet> sets = read_pvd(dir / "vtk" / "branch0.pvd");
  REQUIRE(sets.size() == 6);
  for (int k = 0; k < 6; ++k) CHECK(sets[k].file == "b0_p00000" + std::to_string(k) + ".vtu");
  CHECK(read_vtu(dir / "vtk" / sets.back().file).points == 3);
  CHECK(read_pvd(dir / "vtk" / "modes.pvd").empty());  // no critical point before the interruption
  CHECK(fs::exists(dir / "drawings" / "structure.svg"));
}

TEST_CASE("VTK of a space beam: the section's local y axis per element, turned with the twist",
          "[output][vtk][beam3d]") {
  // One member along x of two elements, reference vector z (e₂ = z). Twisting the
  // far end by 0.4 about x (the near end fixed) turns the midpoint sections by
  // 0.1 and 0.3: e₂ = (0, −sin a, cos a) at a = 0.1, 0.3 (the geodesic midpoint of
  // each element, beam3d.md S.3).
  model::Model m(3);
  const int a = m.add_node(1, {0, 0, 0}), b = m.add_node(2, {2, 0, 0});
  model::mesh_member_3d(m, a, b, 2, model::Beam3DSection{1, 1, 1, 1, 1, 1}, Eigen::Vector3d::UnitZ(), 10, 1);
  for (int c = 0; c < model::kComponents; ++c) m.fix(a, static_cast<model::Component>(c));
  m.add_load(b, model::Component::Rx, 1.0);
  m.finalize();
  Vector q = Vector::Zero(m.size());
  q[m.equation(b, model::Component::Rx)] = 0.4;
  q[m.equation(2, model::Component::Rx)] = 0.2;  // the middle node (index 2)
  const std::string s = vtu_text(m, q, 1.0, 0, 0, nullptr);
  const auto at = s.find("Name=\"section_y\"");
  REQUIRE(at != std::string::npos);
  std::istringstream in(s.substr(s.find('>', at) + 1));
  for (double angle : {0.1, 0.3}) {
    double y[3];
    in >> y[0] >> y[1] >> y[2];
    INFO("angle " << angle << ": " << y[0] << " " << y[1] << " " << y[2]);
    CHECK(std::abs(y[0]) <= 1e-15);
    CHECK(std::abs(y[1] + std::sin(angle)) <= 1e-15);
    CHECK(std::abs(y[2] - std::cos(angle)) <= 1e-15);
  }
}
