#include "senda/output/vtk.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "senda/model/beam3d.hpp"
#include "senda/output/results.hpp"
#include "xml_text.hpp"

namespace senda::output {

namespace fs = std::filesystem;
using model::Component;

namespace {

// VTK cell types (vtkCellType.h).
constexpr int kVtkVertex = 1, kVtkLine = 3, kVtkPolyLine = 4;
constexpr std::size_t kEagerEntries = 200;  // indexes rewritten after every entry up to here

// The nodes of element e in the order of its dofs, each once.
std::vector<int> element_nodes(const model::Element& e) {
  std::vector<int> nodes;
  for (const model::DofRef& d : e.dofs())
    if (std::find(nodes.begin(), nodes.end(), d.node) == nodes.end()) nodes.push_back(d.node);
  return nodes;
}

bool has_rotations(const model::Model& m) {
  for (int e = 0; e < m.element_count(); ++e)
    for (const model::DofRef& d : m.element(e).dofs())
      if (static_cast<int>(d.component) >= static_cast<int>(Component::Rx)) return true;
  return false;
}

// %.17g keeps every bit (a reread gives the number path.csv holds).
void append_real(std::string& s, double x) { s += fmt::format("{:.17g}", x); }

// A Float64 point-data array of 3 components: components c0..c0+2 of every node in state v.
void append_vector_array(std::string& s, const model::Model& m, const Vector& v, const char* name, Component c0) {
  s += fmt::format("        <DataArray type=\"Float64\" Name=\"{}\" NumberOfComponents=\"3\" format=\"ascii\">\n", name);
  for (int n = 0; n < m.node_count(); ++n) {
    s += "         ";
    for (int k = 0; k < 3; ++k) {
      s += ' ';
      append_real(s, m.displacement(v, n, static_cast<Component>(static_cast<int>(c0) + k)));
    }
    s += '\n';
  }
  s += "        </DataArray>\n";
}

using detail::xml_escape;

void write_new_file(const fs::path& file, const std::string& text) {
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (!out) throw OutputError(file.string() + ": cannot create: " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  int err = ok ? 0 : errno;
  if (std::fclose(out) != 0 && ok) err = errno;
  if (!ok || err != 0) {
    std::remove(file.c_str());  // no half-written file (issue 20)
    throw OutputError(file.string() + ": write failed: " + std::strerror(err != 0 ? err : EIO));
  }
}

}  // namespace

std::string vtu_text(const model::Model& m, const Vector& q, double lambda, int point, int branch,
                     const Vector* mode) {
  std::vector<std::vector<int>> cells;
  for (int e = 0; e < m.element_count(); ++e) cells.push_back(element_nodes(m.element(e)));
  const bool rot = has_rotations(m);

  std::string s;
  s += "<?xml version=\"1.0\"?>\n";
  s += "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  s += "  <UnstructuredGrid>\n";
  s += "    <FieldData>\n";
  s += "      <DataArray type=\"Float64\" Name=\"lambda\" NumberOfTuples=\"1\" format=\"ascii\"> ";
  append_real(s, lambda);
  s += " </DataArray>\n";
  s += fmt::format("      <DataArray type=\"Int32\" Name=\"point\" NumberOfTuples=\"1\" format=\"ascii\"> {} </DataArray>\n",
                   point);
  s += fmt::format("      <DataArray type=\"Int32\" Name=\"branch\" NumberOfTuples=\"1\" format=\"ascii\"> {} </DataArray>\n",
                   branch);
  s += "    </FieldData>\n";
  s += fmt::format("    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", m.node_count(), cells.size());

  s += "      <PointData Vectors=\"displacement\">\n";
  append_vector_array(s, m, q, "displacement", Component::Ux);
  if (rot) append_vector_array(s, m, q, "rotation", Component::Rx);
  if (mode) {
    append_vector_array(s, m, *mode, "mode", Component::Ux);
    if (rot) append_vector_array(s, m, *mode, "mode_rotation", Component::Rx);
  }
  s += "      </PointData>\n";

  s += "      <CellData>\n";
  s += "        <DataArray type=\"Int32\" Name=\"element\" NumberOfComponents=\"1\" format=\"ascii\">\n";
  for (std::size_t e = 0; e < cells.size(); ++e) s += fmt::format("          {}\n", e);
  s += "        </DataArray>\n";
  // Space beams: the section's local y axis e₂ at each element's midpoint, turned
  // with it (docs/notes/beam3d.md S.3), so that a glyph shows the twist; (0, 0, 0)
  // for other elements.
  bool beam3d = false;
  for (int e = 0; e < m.element_count() && !beam3d; ++e)
    beam3d = dynamic_cast<const model::Beam3D*>(&m.element(e)) != nullptr;
  if (beam3d) {
    s += "        <DataArray type=\"Float64\" Name=\"section_y\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    Eigen::VectorXd u_e;
    for (int e = 0; e < m.element_count(); ++e) {
      Eigen::Vector3d y = Eigen::Vector3d::Zero();
      if (const auto* b = dynamic_cast<const model::Beam3D*>(&m.element(e))) {
        m.gather(e, q, u_e);
        y = b->section_frame(u_e).col(1);
      }
      s += "         ";
      for (int k = 0; k < 3; ++k) {
        s += ' ';
        append_real(s, y[k]);
      }
      s += '\n';
    }
    s += "        </DataArray>\n";
  }
  s += "      </CellData>\n";

  s += "      <Points>\n";
  s += "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (int n = 0; n < m.node_count(); ++n) {
    const Eigen::Vector3d& x = m.node_position(n);
    s += "         ";
    for (int k = 0; k < 3; ++k) {
      s += ' ';
      append_real(s, m.dim() == 2 && k == 2 ? 0.0 : x[k]);
    }
    s += '\n';
  }
  s += "        </DataArray>\n";
  s += "      </Points>\n";

  s += "      <Cells>\n";
  s += "        <DataArray type=\"Int64\" Name=\"connectivity\" NumberOfComponents=\"1\" format=\"ascii\">\n";
  for (const std::vector<int>& c : cells) {
    s += "         ";
    for (int n : c) s += fmt::format(" {}", n);
    s += '\n';
  }
  s += "        </DataArray>\n";
  s += "        <DataArray type=\"Int64\" Name=\"offsets\" NumberOfComponents=\"1\" format=\"ascii\">\n";
  std::size_t offset = 0;
  for (const std::vector<int>& c : cells) s += fmt::format("          {}\n", offset += c.size());
  s += "        </DataArray>\n";
  s += "        <DataArray type=\"UInt8\" Name=\"types\" NumberOfComponents=\"1\" format=\"ascii\">\n";
  for (const std::vector<int>& c : cells)
    s += fmt::format("          {}\n", c.size() == 1 ? kVtkVertex : c.size() == 2 ? kVtkLine : kVtkPolyLine);
  s += "        </DataArray>\n";
  s += "      </Cells>\n";
  s += "    </Piece>\n";
  s += "  </UnstructuredGrid>\n";
  s += "</VTKFile>\n";
  return s;
}

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string s;
  s += "<?xml version=\"1.0\"?>\n";
  s += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  s += "  <Collection>\n";
  for (const PvdEntry& e : entries) {
    s += "    <DataSet timestep=\"";
    append_real(s, e.timestep);
    s += "\" group=\"\" part=\"0\"";
    if (!e.name.empty()) s += " name=\"" + xml_escape(e.name) + "\"";
    s += " file=\"" + xml_escape(e.file) + "\"/>\n";
  }
  s += "  </Collection>\n";
  s += "</VTKFile>\n";
  return s;
}

VtkWriter::VtkWriter(const fs::path& dir, const model::Model& m) : dir_(dir / "vtk"), model_(m) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw OutputError(dir_.string() + ": cannot create: " + ec.message());
}

VtkWriter::~VtkWriter() {
  try {
    finish();
  } catch (const std::exception&) {
    // An index that cannot be written now was reported by the last write.
  }
}

void VtkWriter::update(const std::string& pvd_name, Index& index, bool force) {
  const std::size_t n = index.entries.size();
  if (n == index.written && index.on_disk) return;
  const bool due = n <= kEagerEntries || n - index.written >= std::max<std::size_t>(1, index.written / 100);
  if (!force && !due) return;
  write_file_atomically(dir_ / pvd_name, pvd_text(index.entries));
  index.written = n;
  index.on_disk = true;
}

void VtkWriter::write_point(const continuation::PathPoint& p, int branch) {
  const std::string name = fmt::format("b{}_p{:06d}.vtu", branch, p.index);
  write_new_file(dir_ / name, vtu_text(model_, p.q, p.lambda, p.index, branch));
  Index& index = branches_[branch];
  index.entries.push_back({static_cast<double>(p.index), name, ""});
  update(fmt::format("branch{}.pvd", branch), index, false);
}

void VtkWriter::write_mode(const critical::CriticalPoint& cp, int branch) {
  if (!cp.converged || cp.phi.size() != cp.q.size() || cp.phi.size() == 0) return;  // not located: no mode
  const double scale = cp.phi.cwiseAbs().maxCoeff();
  const Vector mode = scale > 0 ? Vector(cp.phi / scale) : cp.phi;
  const std::string name = "mode_" + cp.id + ".vtu";
  write_new_file(dir_ / name, vtu_text(model_, cp.q, cp.lambda, cp.point_after, branch, &mode));
  modes_.entries.push_back({static_cast<double>(modes_.entries.size()), name, cp.id});
  update("modes.pvd", modes_, true);
}

void VtkWriter::finish() {
  for (auto& [b, index] : branches_) update(fmt::format("branch{}.pvd", b), index, true);
  update("modes.pvd", modes_, true);
}

}  // namespace senda::output
