#include "senda/input/builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <tuple>
#include <numbers>
#include <optional>
#include <set>
#include <system_error>
#include <utility>
#include <Eigen/Geometry>

#include <fmt/core.h>

#include "senda/analysis/mechanism.hpp"
#include "senda/core/number.hpp"
#include "senda/input/mesh.hpp"
#include "senda/input/state.hpp"
#include "senda/linalg/distributed.hpp"
#include "senda/linalg/factorization.hpp"
#include "senda/model/link.hpp"
#include "senda/model/penalty.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/beam2d.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/truss.hpp"

namespace senda::input {

namespace fs = std::filesystem;
using model::Component;

namespace {

const char* kIdRange = "[0, 2147483647]";
const char* kBeam3DSyntax = "ID NODE_A NODE_B EA GA2 GA3 GJ EI2 EI3 VX VY VZ [N]";

// The fields of one record entry, with messages that name the field.
class Fields {
 public:
  Fields(const Entry& e, const OptionSpec& spec) : e_(e), syntax_(spec.valid), f_(split_fields(e.value)) {}
  Fields(const Entry& e, std::string syntax) : e_(e), syntax_(std::move(syntax)), f_(split_fields(e.value)) {}
  std::size_t size() const { return f_.size(); }
  const std::string& operator[](std::size_t i) const { return f_[i]; }
  const Entry& entry() const { return e_; }
  const std::string& syntax() const { return syntax_; }

  void require(std::size_t min, std::size_t max) const {
    if (f_.size() < min || f_.size() > max)
      fail("expected " + (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)) +
           " fields, found " + std::to_string(f_.size()));
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw ConfigError(e_.file, e_.line, e_.key, message, syntax_);
  }
  [[noreturn]] void fail(const std::string& message, const std::string& valid) const {
    throw ConfigError(e_.file, e_.line, e_.key, message, valid);
  }
  int id(std::size_t i, const char* what) const {
    const long v = parse_integer(e_, f_[i], what, kIdRange);
    if (v < 0 || v > 2147483647L) fail(std::string(what) + ": id " + f_[i] + " is out of range", kIdRange);
    return static_cast<int>(v);
  }
  double real(std::size_t i, const char* what) const { return parse_real(e_, f_[i], what, syntax_); }
  double positive(std::size_t i, const char* what) const {
    const double v = real(i, what);
    if (!(v > 0.0)) fail(std::string(what) + " must be positive, found " + f_[i], "(0, inf)");
    return v;
  }

 private:
  const Entry& e_;
  std::string syntax_;
  std::vector<std::string> f_;
};

struct NodeInfo {
  int index;
  Entry entry;
};

// "group:NAME" names a physical group of model.mesh.
constexpr std::string_view kGroupPrefix = "group:";
bool is_group(const std::string& field) { return field.rfind(kGroupPrefix, 0) == 0; }

class Builder {
 public:
  explicit Builder(const Config& c) : c_(c) {}
  Spec run();

 private:
  const OptionSpec& spec(const char* key) const { return *find_option(key); }
  // The entries of a record key; one that starts with group:NAME has the syntax of
  // that form in its messages.
  std::vector<Fields> records(const char* key) const {
    std::vector<Fields> out;
    for (const Entry* e : c_.all(key)) {
      const std::vector<std::string> first = split_fields(e->value);
      const std::string group = group_syntax(key);
      if (!first.empty() && is_group(first[0]) && !group.empty()) out.emplace_back(*e, group);
      else out.emplace_back(*e, spec(key));
    }
    return out;
  }
  std::string group_syntax(std::string_view key) const {
    if (key == "model.truss") return "group:NAME EA [STRAIN]";
    if (key == "model.beam") return dim_ == 3 ? "group:NAME EA GA2 GA3 GJ EI2 EI3 VX VY VZ" : "group:NAME EA GAS EI";
    if (key == "model.fix") return "group:NAME COMP [COMP ...]";
    if (key == "model.load") return "group:NAME COMP VALUE [semitangential|quasitangential]";
    if (key == "model.dead_load") return "group:NAME COMP VALUE";
    return "";
  }
  Component component(const Fields& f, std::size_t i, bool allow_rotation = true) const;
  const NodeInfo& node(const Fields& f, std::size_t i, const char* what) const;
  // The same, or an intermediate node of a meshed beam: a node whose results are read.
  const NodeInfo& result_node(const Fields& f, std::size_t i, const char* what) const;
  // The node of field i, or every node of the group "group:NAME" (in mesh order).
  std::vector<const NodeInfo*> nodes_at(const Fields& f, std::size_t i, const char* what) const;
  // The elements (indices into mesh_->elements) of the group named by field i, which
  // must exist; lines_only: its 2-node lines, at least one.
  std::vector<int> group_elements(const Fields& f, std::size_t i, bool lines_only) const;
  void read_mesh();
  std::string valid_components(bool allow_rotation) const {
    std::string s = dim_ == 3 ? "ux|uy|uz" : "ux|uy";
    if (allow_rotation) s += dim_ == 3 ? "|rx|ry|rz" : "|rz";
    return s;
  }
  int free_equation(const Fields& f, int node, Component comp, const char* purpose) const;
  // The components some element gives node (an index), e.g. "ux uy".
  std::string node_components(int node) const {
    std::string s;
    for (int c = 0; c < model::kComponents; ++c)
      if (used_.count({node, c})) s += std::string(s.empty() ? "" : " ") + model::to_string(static_cast<Component>(c));
    return s.empty() ? "none" : s;
  }
  // The rotation components of a node: rz (2D), rx ry rz (3D); its translations: ux
  // uy (2D), ux uy uz (3D).
  std::vector<Component> rotations() const {
    if (dim_ == 3) return {Component::Rx, Component::Ry, Component::Rz};
    return {Component::Rz};
  }
  std::vector<Component> translations() const {
    if (dim_ == 3) return {Component::Ux, Component::Uy, Component::Uz};
    return {Component::Ux, Component::Uy};
  }
  std::map<std::pair<int, int>, double> read_mode_file(const Fields& f, const std::string& file, bool rotations,
                                                       bool check_nodes = true) const;
  void read_imperfection();
  Eigen::Vector3d imperfection_at(int id) const;
  void check_imperfection_nodes() const;
  void check_imperfection_model() const;
  void read_dynamics(Spec& s);
  void read_rigid_links();
  void read_constraints(DynamicsSpec& d);
  void read_nodes();
  void read_elements();
  struct Member {
    int id, a, b, n;
    model::BeamSection section;
    const Entry* entry;
    int slot_a = 0, slot_b = 0;  // own end rotations (hinges), 0: the node's
    const Entry* hinge_a = nullptr;
    const Entry* hinge_b = nullptr;
    model::Beam3DSection section3{};  // dim = 3
    Eigen::Vector3d ref = Eigen::Vector3d::Zero();
    double k_a = 0.0, k_b = 0.0;  // 3D: the spring K across a released end, 0 if none
    bool held_a = false;          // 3D: spin held at end a (released at both ends, no spring)
    // 3D: the axis of a one-axis hinge at the end (`about`), zero for a ball joint or
    // none; the second axis of a two-axis joint, zero otherwise
    Eigen::Vector3d axis_a = Eigen::Vector3d::Zero(), axis_b = Eigen::Vector3d::Zero();
    Eigen::Vector3d axis2_a = Eigen::Vector3d::Zero(), axis2_b = Eigen::Vector3d::Zero();
  };
  std::vector<std::string> model_notes_;  // said by the command before the run (Spec::model_notes)
  void read_hinges(std::vector<Member>& members, const std::map<int, Entry>& ids);
  void note_single_elements(const std::vector<const Member*>& single, bool mesh_lines);
  void read_thin_walled(std::vector<Member>& members, const std::map<int, Entry>& ids);
  void read_penalties(const std::function<int(const Fields&)>& check_id);
  std::vector<Component> penalty_components(const Fields& f, std::size_t first, std::size_t last);
  std::vector<Component> component_or_all(const Fields& f, std::size_t i, const std::string& prefix) const;
  void read_supports_and_loads();
  void read_continuation(Spec& s);
  void read_design(Spec& s);
  void read_output(Spec& s);

  const Config& c_;
  int dim_ = 2;
  model::StrainMeasure strain_ = model::StrainMeasure::GreenLagrange;
  model::BeamFormulation formulation_ = model::BeamFormulation::SimoReissner;
  std::unique_ptr<model::Model> model_;
  std::optional<Mesh> mesh_;           // model.mesh
  const Entry* mesh_entry_ = nullptr;
  std::map<int, NodeInfo> nodes_;  // by user id
  // The intermediate nodes of meshed beams (model.beam … N), by id, with the member's
  // entry: results may name them (output.track, stop.displacement), nothing else.
  std::map<int, NodeInfo> inner_nodes_;
  // model.imperfection: (node id, component) → AMPLITUDE·φ, translations only, for
  // every node the mode file moves (user, mesh and intermediate nodes of meshed beams).
  std::map<std::pair<int, int>, double> imperfection_;
  const Entry* imperfection_entry_ = nullptr;
  std::string imperfection_file_;
  std::vector<Entry> node_entries_;
  double extent_ = 0.0;            // size of the model, for the zero-length test
  std::vector<std::pair<int, int>> links_;  // dynamics.rigid_link: node indices (a, b)
  std::set<std::pair<int, int>> used_;   // (node index, component) used by an element
  std::set<std::pair<int, int>> fixed_;  // (node index, component) fixed
  std::map<int, const Entry*> hinged_;    // node index → first hinge entry there
  std::set<int> hinge_spring_nodes_;      // node indices with a spring across a hinge
  std::map<std::pair<int, int>, const Entry*> penalty_held_;  // (node index, component) → its penalty_fix
  const Entry* first_load_ = nullptr;
  const Entry* first_typed_moment_ = nullptr;  // the first model.load marked semitangential or quasitangential
  const Entry* first_axis_hinge_ = nullptr;    // the first 3D hinge with 'about' (one- or two-axis)
  const Entry* first_thin_walled_ = nullptr;   // the first model.thin_walled
  std::optional<std::pair<int, Component>> first_load_dof_;
};

std::optional<Component> component_from(const std::string& s) {
  if (s == "ux") return Component::Ux;
  if (s == "uy") return Component::Uy;
  if (s == "uz") return Component::Uz;
  if (s == "rx") return Component::Rx;
  if (s == "ry") return Component::Ry;
  if (s == "rz") return Component::Rz;
  return std::nullopt;
}

std::optional<model::StrainMeasure> strain_from(const std::string& s) {
  for (auto m : {model::StrainMeasure::GreenLagrange, model::StrainMeasure::Engineering,
                 model::StrainMeasure::Logarithmic})
    if (s == model::to_string(m)) return m;
  return std::nullopt;
}

Component Builder::component(const Fields& f, std::size_t i, bool allow_rotation) const {
  const std::optional<Component> c = component_from(f[i]);
  const std::string valid = valid_components(allow_rotation);
  if (!c) f.fail("unknown component '" + f[i] + "'", valid);
  if (*c == Component::Uz && dim_ == 2) f.fail("component uz does not exist in a 2D model (model.dim = 2)", valid);
  if ((*c == Component::Rx || *c == Component::Ry) && dim_ == 2)
    f.fail("component " + f[i] + " does not exist in a 2D model (model.dim = 2)", valid);
  if (static_cast<int>(*c) >= static_cast<int>(Component::Rx) && !allow_rotation)
    f.fail("component " + f[i] + " is not allowed here", valid);
  return *c;
}

const NodeInfo& Builder::node(const Fields& f, std::size_t i, const char* what) const {
  const int id = f.id(i, what);
  const auto it = nodes_.find(id);
  // An intermediate node of a meshed beam exists (track takes it) but carries no
  // support or load: said as such, not "does not exist".
  if (it == nodes_.end() && inner_nodes_.count(id))
    f.fail(std::string(what) + ": node " + std::to_string(id) +
               " is an intermediate node of the beam member at line " + std::to_string(inner_nodes_.at(id).entry.line) +
               ", which that member's N elements made: output.track takes it, this key a node of model.node or of "
               "the mesh",
           "a node of model.node; to act at a point along a member, split the member there at a node of its own");
  if (it == nodes_.end()) f.fail(std::string(what) + ": node " + std::to_string(id) + " does not exist", "a node id defined by model.node");
  return it->second;
}

const NodeInfo& Builder::result_node(const Fields& f, std::size_t i, const char* what) const {
  const int id = f.id(i, what);
  if (const auto it = nodes_.find(id); it != nodes_.end()) return it->second;
  if (const auto it = inner_nodes_.find(id); it != inner_nodes_.end()) return it->second;
  std::string valid = "a node id defined by model.node";
  if (!inner_nodes_.empty())
    valid += ", or an intermediate node of a meshed beam (" + std::to_string(inner_nodes_.begin()->first) + " … " +
             std::to_string(inner_nodes_.rbegin()->first) + ")";
  f.fail(std::string(what) + ": node " + std::to_string(id) + " does not exist", valid);
}

std::vector<int> Builder::group_elements(const Fields& f, std::size_t i, bool lines_only) const {
  const std::string name = f[i].substr(kGroupPrefix.size());
  if (!mesh_) f.fail("'" + f[i] + "' names a physical group, but there is no model.mesh", "model.mesh = FILE.msh");
  const std::vector<const PhysicalGroup*> groups = mesh_->find_groups(name);
  if (groups.empty())
    f.fail(mesh_->file + ": no physical group is named '" + name + "'", "a group of the mesh: " + mesh_->group_names());
  // Gmsh lets a point group and a curve group share a name; group:NAME took the nodes
  // of both (a tip load `load = group:top uy -1` on a mesh whose top curve was also
  // "top" acted at all 10 nodes of the curve, and the cantilever buckled at 0.12 of
  // its load, nothing said).
  // Only groups that hold elements count (a surface group meshed with -1 holds none),
  // and only where the key takes nodes: a truss or beam takes the lines alone.
  const auto kind = [](int dim) {
    return dim == 0 ? "a point group" : dim == 1 ? "a curve group" : dim == 2 ? "a surface group" : "a volume group";
  };
  const auto holds_elements = [&](const PhysicalGroup& g) {
    return std::any_of(mesh_->elements.begin(), mesh_->elements.end(), [&](const MeshElement& el) {
      if (el.entity_dim != g.dim) return false;
      const auto it = mesh_->entity_groups.find({el.entity_dim, el.entity_tag});
      return it != mesh_->entity_groups.end() && std::find(it->second.begin(), it->second.end(), g.tag) != it->second.end();
    });
  };
  if (!lines_only) {
    const PhysicalGroup* first = nullptr;
    for (const PhysicalGroup* g : groups) {
      if (!holds_elements(*g)) continue;
      if (!first)
        first = g;
      else if (g->dim != first->dim)
        f.fail(fmt::format("{}: the name '{}' is given to {} and to {}: group:{} would take the nodes of both",
                           mesh_->file, name, kind(first->dim), kind(g->dim), name),
               "one name per group: rename one of them in the .geo and mesh again");
    }
  }
  std::vector<int> out = mesh_->elements_in(name);
  if (lines_only) {
    std::erase_if(out, [&](int e) { return mesh_->elements[e].type != 1; });
    if (out.empty())
      f.fail(mesh_->file + ": the physical group '" + name + "' holds no 2-node line elements",
             "a group of curves meshed with 2-node lines");
  } else if (out.empty()) {
    f.fail(mesh_->file + ": the physical group '" + name + "' holds no elements, so no nodes",
           "a group of points or curves of the mesh");
  }
  return out;
}

std::vector<const NodeInfo*> Builder::nodes_at(const Fields& f, std::size_t i, const char* what) const {
  if (!is_group(f[i])) return {&node(f, i, what)};
  std::vector<const NodeInfo*> out;
  std::set<int> seen;
  for (int e : group_elements(f, i, false)) {
    const MeshElement& el = mesh_->elements[e];
    for (int k = 0; k < (el.type == 1 ? 2 : 1); ++k) {
      if (!seen.insert(el.nodes[k]).second) continue;
      const auto it = nodes_.find(el.nodes[k]);
      if (it == nodes_.end() || it->second.entry.key != "model.mesh")
        f.fail(fmt::format("{}: node {} of the physical group '{}' is not a node of any truss or beam of the mesh",
                           mesh_->file, el.nodes[k], f[i].substr(kGroupPrefix.size())));
      out.push_back(&it->second);
    }
  }
  return out;
}

// model.mesh = FILE: read here, its nodes added by read_nodes, its lines by read_elements.
void Builder::read_mesh() {
  mesh_entry_ = c_.find("model.mesh");
  if (!mesh_entry_) return;
  const Entry& e = *mesh_entry_;
  fs::path file = e.value;
  // Relative to the .cfg that names it (a problem and its mesh travel together);
  // an override on the command line is relative to the working directory.
  if (file.is_relative() && e.file != kCommandLine) file = fs::path(e.file).parent_path() / file;
  try {
    mesh_ = read_msh(file);
  } catch (const MeshError& err) {
    throw ConfigError(e.file, e.line, e.key, err.what(), "a Gmsh MSH 4.1 file (ASCII or binary)");
  }
  bool structural = false;
  for (const char* key : {"model.truss", "model.beam"})
    for (const Entry* r : c_.all(key)) {
      const std::vector<std::string> fields = split_fields(r->value);
      structural = structural || (!fields.empty() && is_group(fields.front()));
    }
  if (!structural)
    throw ConfigError(e.file, e.line, e.key,
                      mesh_->file + ": no truss or beam is made from the mesh ('truss = group:NAME EA' or "
                                    "'beam = group:NAME ...'); groups: " + mesh_->group_names());
}

int Builder::free_equation(const Fields& f, int node, Component comp, const char* purpose) const {
  const int id = model_->node_id(node);
  const std::string dof = "node " + std::to_string(id) + " " + model::to_string(comp);
  if (!used_.count({node, static_cast<int>(comp)}))
    f.fail(dof + " is not a degree of freedom of any element: nothing to " + purpose);
  if (fixed_.count({node, static_cast<int>(comp)})) f.fail(dof + " is fixed: nothing to " + purpose);
  const int eq = model_->equation(node, comp);
  if (eq < 0) f.fail(dof + " is not free: nothing to " + purpose);
  return eq;
}

// The rows of a mode file (DIR/modes/<id>.csv: "equation,dof,phi", dof "node N ux|uy|...")
// as (node id, component) → φ, every row's node id and value checked; hinge slots
// skipped, rotations too unless `rotations`. Errors at the entry of f.
std::map<std::pair<int, int>, double> Builder::read_mode_file(const Fields& f, const std::string& file,
                                                              bool rotations, bool check_nodes) const {
  std::map<std::pair<int, int>, double> phi_of;
  // Read like the .cfg: a regular file of bounded size (a FIFO or /dev/zero is
  // refused, not read).
  {
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
      f.fail("cannot read the mode file '" + file + "': " + ec.message(), "a modes/<id>.csv written by trace");
    if (ec || !fs::exists(st)) f.fail("cannot read the mode file '" + file + "': no such file", "a modes/<id>.csv written by trace");
    if (!fs::is_regular_file(st)) f.fail("the mode file '" + file + "' is not a regular file", "a modes/<id>.csv written by trace");
    if (fs::file_size(file, ec) > 64u * 1024u * 1024u || ec) f.fail("the mode file '" + file + "' is larger than 64 MiB");
  }
  std::ifstream in(file);
  if (!in) f.fail("cannot read the mode file '" + file + "'", "a modes/<id>.csv written by trace");
  std::string line;
  int row = 0;
  if (!std::getline(in, line) || line.rfind("equation,dof,phi", 0) != 0)
    f.fail("'" + file + "' is not a mode file (first line 'equation,dof,phi')");
  while (std::getline(in, line)) {
    ++row;
    const std::size_t a = line.find(','), b = line.rfind(',');
    if (a == std::string::npos || b == a) f.fail("'" + file + "' row " + std::to_string(row) + ": expected 3 fields");
    const std::vector<std::string> dof = split_fields(line.substr(a + 1, b - a - 1));
    if (dof.size() != 3 || dof[0] != "node") continue;  // "node 3 rz (member 2)": a hinge slot
    const std::optional<Component> c = component_from(dof[2]);
    if (!c || (!rotations && static_cast<int>(*c) >= static_cast<int>(Component::Rx))) continue;
    // The whole field must be the number: no trailing text, no id beyond int.
    int id = 0;
    double phi = 0.0;
    const std::string& id_text = dof[1];
    const std::string phi_text = line.substr(b + 1);
    const auto ri = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    const auto rp = std::from_chars(phi_text.data(), phi_text.data() + phi_text.size(), phi);
    if (ri.ec != std::errc() || ri.ptr != id_text.data() + id_text.size() || rp.ec != std::errc() ||
        rp.ptr != phi_text.data() + phi_text.size() || !std::isfinite(phi))
      f.fail("'" + file + "' row " + std::to_string(row) + ": cannot read '" + line +
             "' (a node id and a finite number expected)");
    phi_of[{id, static_cast<int>(*c)}] = phi;
  }
  if (!check_nodes) return phi_of;
  // Every node of the model, the intermediate nodes of meshed beams included (the
  // model is built when a dynamics.kick is read).
  std::set<std::string> node_ids;
  for (const Fields& n : records("model.node"))
    if (n.size() > 0) node_ids.insert(n[0]);
  if (mesh_)
    for (const MeshNode& n : mesh_->nodes) node_ids.insert(std::to_string(n.tag));
  for (int k = 0; k < model_->node_count(); ++k) node_ids.insert(std::to_string(model_->node_id(k)));
  for (const auto& [key, v] : phi_of)
    if (!node_ids.count(std::to_string(key.first)))
      f.fail("the mode file moves node " + std::to_string(key.first) + ", which this model does not have",
             "a mode of the same model");
  return phi_of;
}


// model.imperfection = MODE_FILE AMPLITUDE: node offsets AMPLITUDE·φ from a mode file
// (translations only). Its nodes are checked once the beams are meshed
// (check_imperfection_nodes): a mode of a framed model moves intermediate nodes.
void Builder::read_imperfection() {
  const std::vector<Fields> recs = records("model.imperfection");
  if (recs.empty()) return;
  const Fields& f = recs.front();
  f.require(2, 2);
  const double amplitude = f.real(1, "AMPLITUDE");
  imperfection_ = read_mode_file(f, f[0], false, false);
  for (auto& [key, v] : imperfection_) v *= amplitude;
  imperfection_entry_ = &f.entry();
  imperfection_file_ = f[0];
}

Eigen::Vector3d Builder::imperfection_at(int id) const {
  Eigen::Vector3d d = Eigen::Vector3d::Zero();
  for (Component c : {Component::Ux, Component::Uy, Component::Uz})
    if (const auto it = imperfection_.find({id, static_cast<int>(c)}); it != imperfection_.end())
      d[c == Component::Ux ? 0 : c == Component::Uy ? 1 : 2] = it->second;
  return d;
}

void Builder::check_imperfection_nodes() const {
  if (!imperfection_entry_) return;
  std::set<int> ids;
  for (int k = 0; k < model_->node_count(); ++k) ids.insert(model_->node_id(k));
  for (const auto& [key, v] : imperfection_)
    if (!ids.count(key.first))
      c_.fail(imperfection_entry_, "model.imperfection",
              "the mode file moves node " + std::to_string(key.first) + ", which this model does not have",
              "a mode of the same model");
}

// The model the mode file was written for, where its run's state is beside it
// (DIR/modes/<id>.csv and DIR/states/<id>.json, as trace writes them): its unknowns'
// fingerprint must be this model's. A mode of another mesh of the same structure (a
// column of N = 16 reused at N = 32: its node ids exist here, at other places) moved
// the nodes it named and left the others straight, 0.42 of the intended mode, with
// nothing said. A mode file on its own (copied, or written by hand with some nodes
// only) is taken as it is.
void Builder::check_imperfection_model() const {
  if (!imperfection_entry_) return;
  const fs::path mode(imperfection_file_);
  if (mode.parent_path().filename() != "modes") return;
  const fs::path state = mode.parent_path().parent_path() / "states" / (mode.stem().string() + ".json");
  std::error_code ec;
  if (!fs::is_regular_file(state, ec)) return;
  try {
    read_state_point(state, model_->size(), core::unknowns_fingerprint(*model_), "model.imperfection");
  } catch (const ConfigError& err) {
    c_.fail(imperfection_entry_, "model.imperfection",
            "the mode file '" + imperfection_file_ + "' was written with " + state.string() + ", which says: " +
                err.message() + " (another mesh N of the members, other nodes or supports: node ids need not be at "
                "the same places)",
            "a modes/<id>.csv of this model (a run of this file, e.g. at AMPLITUDE = 0)");
  }
}

void Builder::read_nodes() {
  read_imperfection();
  const std::map<std::pair<int, int>, double>& offset = imperfection_;
  const std::vector<Fields> recs = records("model.node");
  if (recs.empty() && !mesh_) c_.fail(nullptr, "model.node", "no nodes: give at least two 'node = ID X Y" + std::string(dim_ == 3 ? " Z" : "") + "' in [model]");
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = Eigen::Vector3d::Constant(-INFINITY);
  for (const Fields& f : recs) {
    if (dim_ == 3 && f.size() == 3) f.fail("Z is required in a 3D model (model.dim = 3)");
    if (dim_ == 2 && f.size() == 4) f.fail("Z given in a 2D model (model.dim = 2); set model.dim = 3 or drop Z");
    f.require(3, 3 + (dim_ == 3));
    const int id = f.id(0, "ID");
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    x.x() = f.real(1, "X");
    x.y() = f.real(2, "Y");
    if (dim_ == 3) x.z() = f.real(3, "Z");
    if (x.cwiseAbs().maxCoeff() > 1e100) f.fail("a coordinate exceeds 1e100 in magnitude", "|X|, |Y|, |Z| <= 1e100");
    for (Component c : {Component::Ux, Component::Uy, Component::Uz})
      if (const auto it = offset.find({id, static_cast<int>(c)}); it != offset.end())
        x[c == Component::Ux ? 0 : c == Component::Uy ? 1 : 2] += it->second;
    if (const auto it = nodes_.find(id); it != nodes_.end())
      f.fail("node " + std::to_string(id) + " defined twice (first at line " + std::to_string(it->second.entry.line) +
             ")", "unique node ids");
    const int index = model_->add_node(id, x);
    nodes_.emplace(id, NodeInfo{index, f.entry()});
    node_entries_.push_back(f.entry());
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  // Mesh nodes: those of the lines of the groups a truss or beam is made from.
  if (mesh_) {
    std::vector<char> used(mesh_->nodes.size(), 0);
    for (const char* key : {"model.truss", "model.beam"})
      for (const Fields& f : records(key))
        if (f.size() > 0 && is_group(f[0]))
          for (int e : group_elements(f, 0, true))
            for (int tag : mesh_->elements[e].nodes) used[mesh_->node_index(tag)] = 1;
    const Entry& me = *mesh_entry_;
    for (std::size_t k = 0; k < mesh_->nodes.size(); ++k) {
      if (!used[k]) continue;
      const MeshNode& mn = mesh_->nodes[k];
      Eigen::Vector3d x = mn.x;
      if (dim_ == 2 && x.z() != 0.0)
        c_.fail(&me, me.key, fmt::format("{}: node {} has z = {:.17g} in a 2D model (model.dim = 2)", mesh_->file, mn.tag, x.z()),
                "z = 0 in 2D, or model.dim = 3");
      for (Component c : {Component::Ux, Component::Uy, Component::Uz})
        if (const auto it = offset.find({mn.tag, static_cast<int>(c)}); it != offset.end())
          x[c == Component::Ux ? 0 : c == Component::Uy ? 1 : 2] += it->second;
      if (const auto it = nodes_.find(mn.tag); it != nodes_.end())
        c_.fail(&me, me.key, fmt::format("{}: node {} has the id of the node at line {}", mesh_->file, mn.tag,
                                         it->second.entry.line),
                "node ids unique across model.node and the mesh");
      const int index = model_->add_node(mn.tag, x);
      nodes_.emplace(mn.tag, NodeInfo{index, me});
      node_entries_.push_back(me);
      lo = lo.cwiseMin(x);
      hi = hi.cwiseMax(x);
    }
  }
  extent_ = (hi - lo).stableNorm();
  // A structure 1e-300 across: the elements' squared lengths underflow (a truss of
  // nodes 1e-300 apart ended in an internal error, exit 3). Coordinates are bounded
  // above by 1e100 when read; the extent below by the same margin from underflow.
  if (extent_ > 0.0 && extent_ < 1e-100) {
    const Entry* e = c_.find("model.node");
    c_.fail(e, "model.node",
            fmt::format("the nodes span {:.3g}: below 1e-100, where the elements' squared lengths underflow; "
                        "write the coordinates in another length unit",
                        extent_),
            "a structure at least 1e-100 across");
  }
}

void Builder::read_elements() {
  std::map<int, Entry> ids;  // element ids are shared by trusses and springs
  // `what`: how the message names the element ("" for the ID field of f).
  auto claim_id = [&](const Fields& f, int id, const std::string& what) {
    if (const auto it = ids.find(id); it != ids.end())
      f.fail((what.empty() ? "element id " + std::to_string(id) : what) + " already used by " + it->second.key +
                 " at line " + std::to_string(it->second.line),
             "unique element ids (a mesh's element tags included)");
    ids.emplace(id, f.entry());
    return id;
  };
  auto check_id = [&](const Fields& f) { return claim_id(f, f.id(0, "ID"), ""); };
  // The line elements of the group of a "group:NAME ..." record, with their nodes.
  struct MeshLine {
    int tag;
    const NodeInfo *a, *b;
  };
  // A pair of nodes joined by two lines made into members of one kind: a curve
  // repeated in the geometry (Line(3) = {2, 1} beside Line(1) = {1, 2}), whose member
  // counted twice and doubled its stiffness (von Mises' LP1 +50 %), nothing said. A
  // truss beside a beam on the same two nodes (a tie) is two members, as when typed.
  std::map<std::pair<int, int>, std::pair<int, bool>> line_on_pair;  // nodes -> (tag, beam)
  auto mesh_lines = [&](const Fields& f, bool beam) {
    std::vector<MeshLine> out;
    const std::string group = f[0].substr(kGroupPrefix.size());
    for (int e : group_elements(f, 0, true)) {
      const MeshElement& el = mesh_->elements[e];
      claim_id(f, el.tag, fmt::format("{}: element {} of the physical group '{}': its tag as an element id is", mesh_->file,
                                      el.tag, group));
      const auto [lo, hi] = std::minmax(el.nodes[0], el.nodes[1]);
      const auto [it, fresh] = line_on_pair.emplace(std::pair<int, int>(lo, hi), std::pair<int, bool>(el.tag, beam));
      if (!fresh && it->second.second == beam && it->second.first != el.tag)
        f.fail(fmt::format("{}: elements {} and {} both join nodes {} and {}: a line defined twice (a curve repeated "
                           "in the geometry?), whose {} would count twice",
                           mesh_->file, it->second.first, el.tag, lo, hi, beam ? "beam" : "bar"),
               "one line between two nodes for each kind of member");
      out.push_back({el.tag, &nodes_.at(el.nodes[0]), &nodes_.at(el.nodes[1])});
    }
    return out;
  };
  auto strain_field = [&](const Fields& f, std::size_t i) {
    if (f.size() <= i) return strain_;
    const auto s = strain_from(f[i]);
    if (!s) f.fail("STRAIN: unknown strain measure '" + f[i] + "'", "green-lagrange|engineering|logarithmic");
    return *s;
  };
  auto bar_length = [&](const Fields& f, const NodeInfo& a, const NodeInfo& b) {
    if (a.index == b.index) f.fail("connects node " + f[1] + " to itself");
    // stableNorm: nodes 1e-300 apart have a squared length that underflows to 0.
    const double l0 = (model_->node_position(b.index) - model_->node_position(a.index)).stableNorm();
    if (!(l0 > 1e-12 * extent_)) {
      // The coordinates, whole: nodes 1e-300 apart are not "at the same position".
      const auto at = [&](const NodeInfo& n) {
        const auto x = model_->node_position(n.index);
        return fmt::format("({:.17g}, {:.17g}, {:.17g})", x[0], x[1], x[2]);
      };
      if (l0 == 0.0) f.fail("zero length: nodes " + f[1] + " and " + f[2] + " are at the same position " + at(a));
      f.fail(fmt::format("zero length: nodes {} {} and {} {} are {:.3g} apart, below 1e-12 of the model's extent ({:.3g})",
                         f[1], at(a), f[2], at(b), l0, extent_));
    }
    return l0;
  };
  auto use = [&](int node, Component c) { used_.insert({node, static_cast<int>(c)}); };
  auto use_translations = [&](int node) {
    use(node, Component::Ux);
    use(node, Component::Uy);
    if (dim_ == 3) use(node, Component::Uz);
  };

  auto add_truss = [&](int id, const NodeInfo& a, const NodeInfo& b, double EA, model::StrainMeasure m) {
    model_->add_element(std::make_unique<model::TrussBar>(id, dim_, a.index, b.index, model_->node_position(a.index),
                                                          model_->node_position(b.index), EA, m));
    use_translations(a.index);
    use_translations(b.index);
  };
  // The bound first, from the records alone: a mesh group's bars are counted before
  // any is built.
  const long max_elements = *c_.integer("model.max_elements");
  long elements = static_cast<long>(records("model.spring").size() + records("model.penalty_fix").size() +
                                    records("model.penalty_tie").size());
  for (const Fields& f : records("model.truss"))
    elements += f.size() > 0 && is_group(f[0]) ? static_cast<long>(group_elements(f, 0, true).size()) : 1;
  if (const Entry* bound = c_.find("model.max_elements"); elements > max_elements)
    c_.fail(bound ? bound : mesh_entry_, "model.max_elements",
            "the model has " + std::to_string(elements) + " trusses, springs and penalty elements, more than model.max_elements = " +
                std::to_string(max_elements) + " (raise model.max_elements for a larger model)");
  for (const Fields& f : records("model.truss")) {
    if (f.size() > 0 && is_group(f[0])) {  // group:NAME EA [STRAIN]
      f.require(2, 3);
      const double EA = f.positive(1, "EA");
      const model::StrainMeasure m = strain_field(f, 2);
      for (const MeshLine& l : mesh_lines(f, false)) add_truss(l.tag, *l.a, *l.b, EA, m);
      continue;
    }
    f.require(4, 5);
    const int id = check_id(f);
    const NodeInfo& a = node(f, 1, "NODE_A");
    const NodeInfo& b = node(f, 2, "NODE_B");
    bar_length(f, a, b);
    const double EA = f.positive(3, "EA");
    add_truss(id, a, b, EA, strain_field(f, 4));
  }
  // Intermediate nodes of meshed beams: ids above every user id, in input order.
  // long: a user id may be 2147483647 (the largest int), and so may id + N − 1.
  long next_node_id = nodes_.empty() ? 1 : nodes_.rbegin()->first + 1L;
  std::vector<Member> members;  // beam members in input order, meshed after the hinges are read
  // The 3D member has its own syntax (the option table's is the 2D one, kept for
  // the 2D messages).
  std::vector<Fields> beams = records("model.beam");
  if (dim_ == 3) {
    beams.clear();
    for (const Fields& f : records("model.beam"))
      beams.emplace_back(f.entry(), f.size() > 0 && is_group(f[0]) ? f.syntax() : std::string(kBeam3DSyntax));
  }
  // The total first, from the N fields alone: the loop below records every element
  // id of a member, and 2·10⁶ of them cost a second and 600 MB before the member
  // that crossed the bound was reached (issue 20: 1000 members of N = 100 000).
  {
    long total = elements;
    const std::size_t n_field = dim_ == 3 ? 12 : 6;  // position of N
    for (const Fields& f : beams) {
      if (f.size() > 0 && is_group(f[0])) {
        const long lines = static_cast<long>(group_elements(f, 0, true).size());
        total += lines;
        if (total > max_elements)
          f.fail(f[0] + ": with the " + std::to_string(lines) + " lines of this group the model has " +
                     std::to_string(total) + " elements, more than model.max_elements = " +
                     std::to_string(max_elements) + " (raise model.max_elements for a larger model)",
                 "at most model.max_elements elements in all");
        continue;
      }
      if (f.size() != n_field + 1) {
        ++total;
        continue;
      }
      const long v = parse_integer(f.entry(), f[n_field], "N", "[1, 100000]");
      total += std::clamp(v, 1L, 100000L);
      if (total > max_elements)
        f.fail("N: with this member the model has " + std::to_string(total) + " elements, more than model.max_elements = " +
                   std::to_string(max_elements) + " (raise model.max_elements for a larger model)",
               "at most model.max_elements elements in all");
    }
  }
  // The section of a beam record, its fields from `o` on (3: after ID A B; 1: after group:NAME).
  auto read_section = [&](const Fields& f, std::size_t o, Member& m) {
    if (dim_ == 3) {
      m.section3.EA = f.positive(o, "EA");
      m.section3.GA2 = f.positive(o + 1, "GA2");
      m.section3.GA3 = f.positive(o + 2, "GA3");
      m.section3.GJ = f.positive(o + 3, "GJ");
      m.section3.EI2 = f.positive(o + 4, "EI2");
      m.section3.EI3 = f.positive(o + 5, "EI3");
      m.ref = {f.real(o + 6, "VX"), f.real(o + 7, "VY"), f.real(o + 8, "VZ")};
      const double rn = m.ref.stableNorm();
      if (!(rn > 0.0) || !std::isfinite(rn)) f.fail("VX VY VZ: the reference vector is zero", "a vector not parallel to the member");
    } else {
      m.section.EA = f.positive(o, "EA");
      m.section.GAs = f.positive(o + 1, "GAS");
      m.section.EI = f.positive(o + 2, "EI");
    }
  };
  // The test of Beam3D, here so that the message names the line: e₂ is the part of
  // (VX, VY, VZ) normal to the member, and must be resolved. `member`: how to name it.
  auto check_reference = [&](const Fields& f, const Member& m, const std::string& member) {
    if (dim_ != 3) return;
    const Eigen::Vector3d d = (model_->node_position(m.b) - model_->node_position(m.a)).normalized();
    const Eigen::Vector3d r = m.ref / m.ref.stableNorm();
    if (!((r - r.dot(d) * d).norm() > 1e-6))
      f.fail(fmt::format("VX VY VZ: the reference vector ({}, {}, {}) is parallel to {} (it sets the section's local y axis)",
                         m.ref[0], m.ref[1], m.ref[2], member),
             "a vector not parallel to the member");
  };
  for (const Fields& f : beams) {
    if (f.size() > 0 && is_group(f[0])) {
      // group:NAME EA GAS EI (2D), group:NAME EA GA2 GA3 GJ EI2 EI3 VX VY VZ (3D): one
      // element per line of the mesh (the mesh is the discretization, no N).
      const std::size_t fields = dim_ == 3 ? 10 : 4;
      if (f.size() == fields + 1)
        f.fail("N is not given with group:NAME: each line of the mesh is one beam element (refine the mesh instead)");
      f.require(fields, fields);
      Member proto{0, 0, 0, 1, {}, &f.entry()};
      read_section(f, 1, proto);
      const std::vector<MeshLine> lines = mesh_lines(f, true);
      elements += static_cast<long>(lines.size());
      for (const MeshLine& l : lines) {
        Member m = proto;
        m.id = l.tag;
        m.a = l.a->index;
        m.b = l.b->index;
        check_reference(f, m, fmt::format("element {} of {}", l.tag, mesh_->file));
        members.push_back(m);
      }
      continue;
    }
    // 2D: ID A B EA GAS EI [N]; 3D: ID A B EA GA2 GA3 GJ EI2 EI3 VX VY VZ [N].
    const std::size_t n_field = dim_ == 3 ? 12 : 6;
    f.require(n_field, n_field + 1);
    const int id = check_id(f);
    const NodeInfo& a = node(f, 1, "NODE_A");
    const NodeInfo& b = node(f, 2, "NODE_B");
    bar_length(f, a, b);
    Member proto{id, a.index, b.index, 1, {}, &f.entry()};
    read_section(f, 3, proto);
    check_reference(f, proto, "the member");
    const model::BeamSection& section = proto.section;
    const model::Beam3DSection& section3 = proto.section3;
    const Eigen::Vector3d& ref = proto.ref;
    int n = 1;
    if (f.size() == n_field + 1) {
      const long v = parse_integer(f.entry(), f[n_field], "N", "[1, 100000]");
      if (v < 1 || v > 100000)
        f.fail("N: the number of elements must be in [1, 100000], found " + f[n_field], "[1, 100000]");
      n = static_cast<int>(v);
    }
    elements += n;
    if (elements > max_elements)
      f.fail("N: with this member the model has " + std::to_string(elements) + " elements, more than model.max_elements = " +
                 std::to_string(max_elements) + " (raise model.max_elements for a larger model)",
             "at most model.max_elements elements in all");
    if (id + (n - 1L) > 2147483647L)
      f.fail("N: element ids " + std::to_string(id) + " … " + std::to_string(id + (n - 1L)) + " of this member exceed " +
                 kIdRange,
             "ID + N − 1 <= 2147483647");
    if (n > 1 && next_node_id + (n - 2L) > 2147483647L)
      f.fail("N: the intermediate nodes of this member would get ids " + std::to_string(next_node_id) + " … " +
                 std::to_string(next_node_id + (n - 2L)) + ", above the largest id 2147483647",
             "intermediate node ids (above every node id) <= 2147483647");
    // Element ids id, id+1, …, id+n−1 must all be free.
    for (int k = 1; k < n; ++k) {
      if (const auto it = ids.find(id + k); it != ids.end())
        f.fail("element id " + std::to_string(id + k) + " (element " + std::to_string(k + 1) + " of this member) already used by " +
                   it->second.key + " at line " + std::to_string(it->second.line),
               "unique element ids: a member of N elements uses ID … ID+N−1");
      ids.emplace(id + k, f.entry());
    }
    members.push_back(Member{id, a.index, b.index, n, section, &f.entry()});
    members.back().section3 = section3;
    members.back().ref = ref;
  }
  read_hinges(members, ids);
  read_thin_walled(members, ids);
  // Typed Simo–Reissner members of one element: said (note_single_elements()).
  if (formulation_ == model::BeamFormulation::SimoReissner) {
    // A member meshed by hand, one element per member along a line or a curve (the
    // Bathe-Bolourchi bend: 8 members of 5.6° each), is a discretization: an end where
    // exactly two members meet nearly in line (within 30°) continues the member.
    std::map<int, std::vector<std::pair<const Member*, Eigen::Vector3d>>> at_node;  // node -> (member, direction away)
    for (const Member& m : members) {
      const Eigen::Vector3d d = (model_->node_position(m.b) - model_->node_position(m.a)).normalized();
      at_node[m.a].emplace_back(&m, d);
      at_node[m.b].emplace_back(&m, -d);
    }
    const auto continues = [&](const Member& m, int node) {
      const auto& here = at_node[node];
      if (here.size() != 2) return false;
      const Eigen::Vector3d& mine = here[0].first == &m ? here[0].second : here[1].second;
      const Eigen::Vector3d& other = here[0].first == &m ? here[1].second : here[0].second;
      return mine.dot(other) < -std::cos(std::numbers::pi / 6.0);
    };
    // A mesh group's line is a member of one element too where its curve is meshed
    // into that one line (Transfinite Curve = 2: a portal's columns and girder, which
    // found no sway buckling up to 6 times its load, nothing said), and it is not
    // continued in line by another. A curve of several lines is a discretization
    // however coarse (a 160° arch in 4 lines turns 40° from line to line).
    std::map<std::pair<int, int>, int> lines_of_curve;
    std::map<int, std::pair<int, int>> curve_of_line;
    if (mesh_)
      for (const MeshElement& el : mesh_->elements)
        if (el.type == 1) {
          ++lines_of_curve[{el.entity_dim, el.entity_tag}];
          curve_of_line[el.tag] = {el.entity_dim, el.entity_tag};
        }
    const auto alone_on_its_curve = [&](const Member& m) {
      const auto it = curve_of_line.find(m.id);
      return it != curve_of_line.end() && lines_of_curve[it->second] == 1;
    };
    std::vector<const Member*> single, single_lines;
    for (const Member& m : members) {
      if (m.n != 1 || continues(m, m.a) || continues(m, m.b)) continue;
      if (m.entry->value.rfind("group:", 0) != 0)
        single.push_back(&m);
      else if (alone_on_its_curve(m))
        single_lines.push_back(&m);
    }
    note_single_elements(single, false);
    note_single_elements(single_lines, true);
  }
  for (const Member& m : members) {
    // model.imperfection: the intermediate nodes at the perfect member's points
    // (its ends' positions without their offsets) moved by their own offsets.
    std::vector<Eigen::Vector3d> inner;
    if (!imperfection_.empty() && m.n > 1) {
      const Eigen::Vector3d xa = model_->node_position(m.a) - imperfection_at(model_->node_id(m.a));
      const Eigen::Vector3d xb = model_->node_position(m.b) - imperfection_at(model_->node_id(m.b));
      for (int k = 1; k < m.n; ++k)
        inner.push_back(xa + (xb - xa) * (static_cast<double>(k) / m.n) +
                        imperfection_at(static_cast<int>(next_node_id + (k - 1))));
    }
    // The member's intermediate nodes, made by the meshing below: ux uy rz (2D), or
    // every translation and rotation (3D), all the member's own.
    const int first_inner = model_->node_count();
    const auto record_inner = [&] {
      for (int x = first_inner; x < model_->node_count(); ++x) {
        inner_nodes_.emplace(model_->node_id(x), NodeInfo{x, *m.entry});
        for (int c = 0; c < model::kComponents; ++c)
          if (dim_ == 3 || c == static_cast<int>(Component::Ux) || c == static_cast<int>(Component::Uy) ||
              c == static_cast<int>(Component::Rz))
            use(x, static_cast<Component>(c));
      }
    };
    if (dim_ == 3) {
      model::mesh_member_3d(*model_, m.a, m.b, m.n, m.section3, m.ref, static_cast<int>(next_node_id), m.id,
                            {m.slot_a, m.held_a, m.axis_a, m.axis2_a}, {m.slot_b, false, m.axis_b, m.axis2_b}, inner);
      record_inner();
      next_node_id += m.n - 1;
      // A ball-jointed end has its own rotation; a one-axis hinge keeps the node's.
      for (int end = 0; end < 2; ++end) {
        const int x = end == 0 ? m.a : m.b;
        const bool own = (end == 0 ? m.slot_a : m.slot_b) != 0 && (end == 0 ? m.axis_a : m.axis_b) == Eigen::Vector3d::Zero();
        for (int c = 0; c < model::kComponents; ++c)
          if (c < 3 || !own) use(x, static_cast<Component>(c));
      }
      continue;
    }
    model::mesh_member(*model_, m.a, m.b, m.n, m.section, static_cast<int>(next_node_id), m.id, m.slot_a, m.slot_b,
                       formulation_, inner);
    record_inner();
    next_node_id += m.n - 1;
    for (int x : {m.a, m.b}) {
      use(x, Component::Ux);
      use(x, Component::Uy);
    }
    // A released end has its own rotation; the node's rz is used by the others.
    if (m.slot_a == 0) use(m.a, Component::Rz);
    if (m.slot_b == 0) use(m.b, Component::Rz);
  }
  for (int node : hinge_spring_nodes_)
    for (Component c : rotations()) use(node, c);
  for (const Fields& f : records("model.spring")) {
    f.require(5, 5);
    const int id = check_id(f);
    const NodeInfo& a = node(f, 1, "NODE_A");
    const bool ground = f[2] == "ground";
    const NodeInfo* b = ground ? nullptr : &node(f, 2, "NODE_B");
    if (f[3] == "axial") {
      if (ground) f.fail("an axial spring needs two nodes, not ground");
      const double l0 = bar_length(f, a, *b);
      const double k = f.positive(4, "K");
      // N = k (l − l₀): a bar with the engineering measure and EA = k l₀ (spring.hpp).
      model_->add_element(std::make_unique<model::TrussBar>(id, dim_, a.index, b->index,
                                                            model_->node_position(a.index),
                                                            model_->node_position(b->index), k * l0,
                                                            model::StrainMeasure::Engineering));
      use_translations(a.index);
      use_translations(b->index);
      continue;
    }
    if (!component_from(f[3]))
      f.fail("COMPONENT: unknown component '" + f[3] + "'", valid_components(true) + "|axial");
    const Component c = component(f, 3);
    if (b && b->index == a.index) f.fail("connects node " + f[1] + " to itself");
    const double k = f.positive(4, "K");
    model_->add_element(std::make_unique<model::LinearSpring>(id, a.index, b ? b->index : -1, c, k));
    use(a.index, c);
    if (b) use(b->index, c);
  }
  read_rigid_links();
  if (ids.empty() && links_.empty())
    c_.fail(nullptr, "model.truss", "no elements: give at least one 'truss', 'beam' or 'spring' in [model]");
  read_penalties(check_id);
  for (const auto& [id, info] : nodes_) {
    bool any = false;
    for (int c = 0; c < model::kComponents; ++c) any = any || used_.count({info.index, c});
    if (!any)
      throw ConfigError(info.entry.file, info.entry.line, info.entry.key,
                        "node " + std::to_string(id) + " is not connected to any element");
  }
}

// Field i of a component list: one component, or all (every translation).
std::vector<Component> Builder::component_or_all(const Fields& f, std::size_t i, const std::string& prefix) const {
  if (f[i] == "all") {
    std::vector<Component> t = {Component::Ux, Component::Uy};
    if (dim_ == 3) t.push_back(Component::Uz);
    return t;
  }
  if (!component_from(f[i])) f.fail(prefix + "unknown component '" + f[i] + "'", valid_components(true) + "|all");
  return {component(f, i)};
}

// The components of a penalty element, fields first … last−1: ux uy uz rz (rx ry
// in 3D) or all (every translation), each once.
std::vector<Component> Builder::penalty_components(const Fields& f, std::size_t first, std::size_t last) {
  std::vector<Component> comps;
  for (std::size_t i = first; i < last; ++i) {
    for (Component c : component_or_all(f, i, "COMP: ")) {
      if (std::find(comps.begin(), comps.end(), c) != comps.end())
        f.fail(std::string("COMP: component ") + model::to_string(c) + " given twice", "each component once");
      comps.push_back(c);
    }
  }
  if (comps.empty()) f.fail("no component: give at least one COMP", valid_components(true) + "|all");
  return comps;
}

// penalty_fix = ID NODE KAPPA COMP [COMP ...] [at X Y [Z]] and
// penalty_tie = ID NODE_A NODE_B KAPPA COMP [COMP ...]: the penalty elements of
// lib/model/penalty.hpp (seed 003 §3.3). They act on components that some element
// has (they connect nothing by themselves) and are read after every element.
void Builder::read_penalties(const std::function<int(const Fields&)>& check_id) {
  // A penalty acts on a component some element has; a component is held by one
  // penalty_fix at most (ties may join a held or a rigidly fixed component).
  const auto held = [&](const Fields& f, const NodeInfo& n, Component c) {
    const std::string dof = "node " + std::to_string(model_->node_id(n.index)) + " " + model::to_string(c);
    if (!used_.count({n.index, static_cast<int>(c)}))
      f.fail(dof + " is not a degree of freedom of any element: the penalty would hold nothing");
    if (f.entry().key != "model.penalty_fix") return;
    const auto [it, fresh] = penalty_held_.emplace(std::pair{n.index, static_cast<int>(c)}, &f.entry());
    if (!fresh)
      f.fail(dof + " is already held by the penalty_fix at line " + std::to_string(it->second->line),
             "one penalty_fix per component");
  };
  for (const Fields& f : records("model.penalty_fix")) {
    if (f.size() < 4) f.fail("expected ID NODE KAPPA and at least one component, found " + std::to_string(f.size()) + " field(s)");
    const int id = check_id(f);
    const NodeInfo& n = node(f, 1, "NODE");
    const double kappa = f.positive(2, "KAPPA");
    std::size_t end = f.size();
    for (std::size_t i = 3; i < f.size(); ++i)
      if (f[i] == "at") end = i;
    const std::vector<Component> comps = penalty_components(f, 3, end);
    std::vector<double> gap(comps.size(), 0.0);
    if (end < f.size()) {
      if (f.size() - end - 1 != static_cast<std::size_t>(dim_))
        f.fail("'at' must be followed by the " + std::to_string(dim_) + " coordinates of the point, found " +
                   std::to_string(f.size() - end - 1) + " field(s)",
               dim_ == 3 ? "at X Y Z" : "at X Y");
      Eigen::Vector3d p = Eigen::Vector3d::Zero();
      for (int k = 0; k < dim_; ++k) p[k] = f.real(end + 1 + k, k == 0 ? "X" : k == 1 ? "Y" : "Z");
      for (std::size_t k = 0; k < comps.size(); ++k) {
        const int c = static_cast<int>(comps[k]);
        if (c >= static_cast<int>(Component::Rx))
          f.fail(std::string("'at' gives a point: component ") + model::to_string(comps[k]) + " is a rotation",
                 "translations only with 'at'");
        gap[k] = model_->node_position(n.index)[c] - p[c];
      }
    }
    for (Component c : comps) held(f, n, c);
    model_->add_element(std::make_unique<model::PenaltyFix>(id, n.index, comps, kappa, gap));
  }
  for (const Fields& f : records("model.penalty_tie")) {
    if (f.size() < 5)
      f.fail("expected ID NODE_A NODE_B KAPPA and at least one component, found " + std::to_string(f.size()) + " field(s)");
    const int id = check_id(f);
    const NodeInfo& a = node(f, 1, "NODE_A");
    const NodeInfo& b = node(f, 2, "NODE_B");
    if (a.index == b.index) f.fail("ties node " + f[1] + " to itself");
    const double kappa = f.positive(3, "KAPPA");
    const std::vector<Component> comps = penalty_components(f, 4, f.size());
    for (Component c : comps) {
      const int k = static_cast<int>(c);
      if (k < static_cast<int>(Component::Rx)) {
        const double xa = model_->node_position(a.index)[k], xb = model_->node_position(b.index)[k];
        if (std::abs(xb - xa) > 1e-12 * extent_)
          f.fail(fmt::format("nodes {} and {} are not at the same position in {} ({:.17g} and {:.17g}): a penalty tie "
                             "joins coincident points (for a fixed distance use a truss or an axial spring)",
                             f[1], f[2], model::to_string(c), xa, xb),
                 "nodes at the same position in the tied translations");
      }
      held(f, a, c);
      held(f, b, c);
    }
    model_->add_element(std::make_unique<model::PenaltyTie>(id, a.index, b.index, comps, kappa));
  }
}

// The error for a MEMBER field (of `who`: "a hinge") whose id is not a beam
// member's: an element inside a meshed member, another kind of element (`why`
// follows its line), or nothing.
[[noreturn]] static void not_a_member(const Fields& f, int id, const std::map<int, Entry>& ids, const std::string& who,
                                      const std::string& why, const std::string& expect) {
  const auto e = ids.find(id);
  if (e != ids.end() && e->second.key == "model.beam")
    f.fail("MEMBER: " + std::to_string(id) + " is an element inside the member of line " +
               std::to_string(e->second.line) + ": " + who + " names a member by its ID (the first field of beam)",
           expect);
  if (e != ids.end())
    f.fail("MEMBER: element " + std::to_string(id) + " is a " + e->second.key.substr(6) + " (line " +
               std::to_string(e->second.line) + "), not a beam member" + why,
           expect);
  f.fail("MEMBER: no beam member has id " + std::to_string(id), expect);
}

// hinge = NODE MEMBER [MEMBER ...] [spring K]: each listed member gets its own end
// rotation at NODE (Model::add_dof): rz in 2D, a rotation vector rx ry rz in 3D (a
// ball joint, docs/notes/beam3d.md S.10); with "spring K" a rotational spring joins
// it to the node's rotation. 3D, hinge = NODE MEMBER [MEMBER ...] about VX VY VZ: a
// one-axis hinge, each listed member's end turning relative to the node about that
// axis by its own angle (S.13); about VX VY VZ WX WY WZ: a two-axis (universal)
// joint, two angles (S.15).
void Builder::read_hinges(std::vector<Member>& members, const std::map<int, Entry>& ids) {
  std::map<int, int> member_index;
  std::map<int, int> members_at;  // node index → number of member ends there
  for (std::size_t i = 0; i < members.size(); ++i) {
    member_index[members[i].id] = static_cast<int>(i);
    ++members_at[members[i].a];
    ++members_at[members[i].b];
  }
  for (const Fields& f : records("model.hinge")) {
    if (f.size() < 2) f.fail("expected a node and at least one member, found " + std::to_string(f.size()) + " field(s)");
    if (dim_ == 3)
      for (std::size_t i = 1; i < f.size(); ++i)
        if (f[i] == "bending" || f[i] == "torsion")
          f.fail("partial releases by name ('" + f[i] +
                     "') are not available: a 3D hinge is a ball joint (all three rotation components of each listed "
                     "member released), a one-axis hinge about a given axis, 'about VX VY VZ' (for a torsion "
                     "release the member's direction; docs/notes/beam3d.md S.13), or a two-axis joint, "
                     "'about VX VY VZ WX WY WZ' (S.15)",
                 "NODE MEMBER [MEMBER ...] [spring K] [about VX VY VZ [WX WY WZ]]");
    const NodeInfo& n = node(f, 0, "NODE");
    const int node_id = model_->node_id(n.index);
    // The members, then the options 'spring K' and 'about VX VY VZ' (3D), in either order.
    std::size_t last = f.size();
    std::optional<double> k;
    Eigen::Vector3d axis = Eigen::Vector3d::Zero(), axis2 = Eigen::Vector3d::Zero();
    const char* grammar = dim_ == 3 ? "NODE MEMBER [MEMBER ...] [spring K] [about VX VY VZ [WX WY WZ]]"
                                    : "NODE MEMBER [MEMBER ...] [spring K]";
    for (std::size_t i = 1; i < f.size(); ++i) {
      if (f[i] != "spring" && f[i] != "about") {
        if (last != f.size())
          f.fail("field " + std::to_string(i + 1) + " ('" + f[i] + "') after '" + f[i - 1] +
                     "': 'spring' takes one field and 'about' three or six, and the members come before both",
                 grammar);
        continue;
      }
      if (i == 1) f.fail("no member listed before '" + f[i] + "'", grammar);
      if (last == f.size()) last = i;
      if (f[i] == "spring") {
        if (k) f.fail("'spring' given twice", grammar);
        if (i + 1 >= f.size() || f[i + 1] == "about")
          f.fail("'spring' must be followed by exactly one field, the stiffness K", grammar);
        k = f.positive(i + 1, "K");
        i += 1;
      } else {
        if (dim_ != 3)
          f.fail("'about' (a one- or two-axis hinge) is for space frames, model.dim = 3: a plane hinge releases rz",
                 grammar);
        if (axis != Eigen::Vector3d::Zero()) f.fail("'about' given twice", grammar);
        // Three fields (one axis) or six (a two-axis joint), up to the next option or the end.
        std::size_t count = 0;
        while (i + 1 + count < f.size() && f[i + 1 + count] != "spring" && f[i + 1 + count] != "about") ++count;
        if (count != 3 && count != 6)
          f.fail("'about' must be followed by three fields, the hinge axis VX VY VZ, or six, the two axes of a "
                 "two-axis joint VX VY VZ WX WY WZ; found " + std::to_string(count),
                 grammar);
        const auto read_axis = [&](std::size_t j, const char* x, const char* y, const char* z) {
          const Eigen::Vector3d v(f.real(j, x), f.real(j + 1, y), f.real(j + 2, z));
          const double vn = v.stableNorm();  // a direction: (0, 0, 1e-300) is one
          if (!(vn > 0.0) || !std::isfinite(vn))
            f.fail("the hinge axis (" + f[j] + ", " + f[j + 1] + ", " + f[j + 2] + ") is zero",
                   std::string("a nonzero axis ") + x + " " + y + " " + z);
          return v;
        };
        axis = read_axis(i + 1, "VX", "VY", "VZ");
        if (count == 6) {
          axis2 = read_axis(i + 4, "WX", "WY", "WZ");
          if (!((axis / axis.stableNorm()).cross(axis2 / axis2.stableNorm()).norm() > 1e-6))
            f.fail("the two axes of a two-axis joint, (" + f[i + 1] + ", " + f[i + 2] + ", " + f[i + 3] + ") and (" +
                       f[i + 4] + ", " + f[i + 5] + ", " + f[i + 6] + "), are parallel: it would be a one-axis hinge",
                   "two axes that are not parallel (a universal joint: perpendicular)");
        }
        i += count;
        if (!first_axis_hinge_) first_axis_hinge_ = &f.entry();
      }
    }
    for (std::size_t i = 1; i < last; ++i) {
      const int id = f.id(i, "MEMBER");
      const auto it = member_index.find(id);
      if (it == member_index.end())
        not_a_member(f, id, ids, "a hinge", ": only beams carry moments", "the id of a model.beam member with an end at NODE");
      Member& m = members[it->second];
      if (m.a != n.index && m.b != n.index)
        f.fail("member " + std::to_string(id) + " does not touch node " + std::to_string(node_id) + " (it joins nodes " +
                   std::to_string(model_->node_id(m.a)) + " and " + std::to_string(model_->node_id(m.b)) + ")",
               "the id of a model.beam member with an end at NODE");
      const Entry*& released = m.a == n.index ? m.hinge_a : m.hinge_b;
      if (released)
        f.fail("member " + std::to_string(id) + " is already released at node " + std::to_string(node_id) +
               (released == &f.entry() ? std::string(" (listed twice)")
                                       : " (hinge at line " + std::to_string(released->line) + ")"));
      // In 3D a lone member end may be released: it is then pinned with its own
      // rotation, so that a member released at both ends has its spin held (S.10).
      if (members_at[n.index] == 1 && !k && dim_ == 2)
        f.fail("hinge at node " + std::to_string(node_id) + " releases nothing: member " + std::to_string(id) +
                   " is the only member there (a member end is pinned by leaving rz free)",
               "a node where two or more members meet, or 'spring K'");
      released = &f.entry();
      if (dim_ == 3) {
        // The unknowns are added below, once both ends of every member are known.
        (m.a == n.index ? m.k_a : m.k_b) = k.value_or(0.0);
        (m.a == n.index ? m.axis_a : m.axis_b) = axis;
        (m.a == n.index ? m.axis2_a : m.axis2_b) = axis2;
        continue;
      }
      const int slot = model_->add_dof(n.index, Component::Rz, "member " + std::to_string(id));
      (m.a == n.index ? m.slot_a : m.slot_b) = slot;
      if (k) {
        model_->add_element(std::make_unique<model::LinearSpring>(
            model::DofRef{n.index, Component::Rz}, model::DofRef{n.index, Component::Rz, slot}, *k,
            "hinge spring at node " + std::to_string(node_id) + " (member " + std::to_string(id) + ")"));
        hinge_spring_nodes_.insert(n.index);
      }
    }
    hinged_.emplace(n.index, &f.entry());
  }
  if (dim_ != 3) return;
  // Ball joints (S.10): a released end gets its own rotation vector. A member
  // released at both ends without a spring would spin freely about its own axis:
  // its component along e₁ at end a is held at 0 (spin_held), which changes no
  // equilibrium and no critical point (the spin is a symmetry of its energy).
  for (Member& m : members) {
    m.held_a = m.hinge_a && m.hinge_b && m.k_a == 0.0 && m.k_b == 0.0 && m.axis_a == Eigen::Vector3d::Zero() && m.axis_b == Eigen::Vector3d::Zero();
    for (int end = 0; end < 2; ++end) {
      if (!(end == 0 ? m.hinge_a : m.hinge_b)) continue;
      const int node = end == 0 ? m.a : m.b;
      const std::string label = "member " + std::to_string(m.id);
      int& slot = end == 0 ? m.slot_a : m.slot_b;
      const double k = end == 0 ? m.k_a : m.k_b;
      const std::string spring_name = "hinge spring at node " + std::to_string(model_->node_id(node)) + " (" + label + ")";
      if ((end == 0 ? m.axis_a : m.axis_b) != Eigen::Vector3d::Zero()) {
        // A one-axis hinge (S.13): the node's rotation and the hinge angle; a
        // spring across it is W = ½ K α², α the exact relative rotation. A
        // two-axis joint (S.15): two angles, a spring K on each.
        const bool two = (end == 0 ? m.axis2_a : m.axis2_b) != Eigen::Vector3d::Zero();
        slot = model_->add_dof(node, Component::Rx, label, two ? "hinge1" : "hinge");
        if (two) model_->add_dof(node, Component::Rx, label, "hinge2");
        for (int j = 0; j < (two ? 2 : 1) && k > 0.0; ++j)
          model_->add_element(std::make_unique<model::LinearSpring>(
              model::DofRef{node, Component::Rx, slot + j}, k, two ? spring_name + " " + std::to_string(j + 1) : spring_name));
        continue;
      }
      if (end == 0 && m.held_a) {
        slot = model_->add_dof(node, Component::Ry, label, "r2");
        model_->add_dof(node, Component::Rz, label, "r3");
        continue;
      }
      slot = model_->add_dof(node, Component::Rx, label);
      model_->add_dof(node, Component::Ry, label);
      model_->add_dof(node, Component::Rz, label);
      if (k > 0.0) {
        model_->add_element(std::make_unique<model::BallJointSpring>(node, slot, k, spring_name));
        hinge_spring_nodes_.insert(node);
      }
    }
  }
}

// thin_walled = MEMBER EIW GIW (3D): the member's elements get the warping
// unknowns of its nodes and the Wagner term (docs/notes/beam3d.md S.16).
void Builder::read_thin_walled(std::vector<Member>& members, const std::map<int, Entry>& ids) {
  const std::vector<Fields> records_ = records("model.thin_walled");
  if (records_.empty()) return;
  const char* expect = "the id of a model.beam member";
  if (dim_ != 3)
    records_.front().fail("thin-walled members (warping torsion, the Wagner term) are for space frames, model.dim = 3",
                          "model.dim = 3");
  std::map<int, std::size_t> member_index;
  for (std::size_t i = 0; i < members.size(); ++i) member_index[members[i].id] = i;
  std::map<int, const Entry*> given;
  for (const Fields& f : records_) {
    f.require(3, 4);
    const int id = f.id(0, "MEMBER");
    const auto it = member_index.find(id);
    if (it == member_index.end()) not_a_member(f, id, ids, "a thin-walled line", "", expect);
    if (const auto g = given.find(id); g != given.end())
      f.fail("member " + std::to_string(id) + " is already thin-walled (line " + std::to_string(g->second->line) + ")",
             "each member once");
    given.emplace(id, &f.entry());
    Member& m = members[it->second];
    for (const Entry* h : {m.hinge_a, m.hinge_b})
      if (h)
        f.fail("member " + std::to_string(id) + " is released by the hinge at line " + std::to_string(h->line) +
                   ": a thin-walled member needs rigid ends (its warping unknowns are its nodes')",
               "a member with no hinge at its ends");
    m.section3.EIw = f.positive(1, "EIW");
    m.section3.GIw = f.positive(2, "GIW");
    if (f.size() == 4) {
      m.section3.EK4 = f.real(3, "EK4");
      if (!(m.section3.EK4 >= 0.0)) f.fail("EK4 must be >= 0, found " + f[3], "[0, inf)");
    }
    if (!first_thin_walled_) first_thin_walled_ = &f.entry();
  }
}

void Builder::read_supports_and_loads() {
  // The node's own rotation of a hinged node exists only if a member there is not
  // released (or a spring holds it).
  auto check_rotation = [&](const Fields& f, int node, Component c, const char* what) {
    if (static_cast<int>(c) < static_cast<int>(Component::Rx) || used_.count({node, static_cast<int>(c)})) return;
    const auto h = hinged_.find(node);
    if (h == hinged_.end()) return;
    f.fail("node " + std::to_string(model_->node_id(node)) + " " + model::to_string(c) +
           ": every member at the node is released by the hinge at line " +
           std::to_string(h->second->line) + ", so the node's own rotation belongs to no element: " + what);
  };
  for (const Fields& f : records("model.fix")) {
    if (f.size() < 2) f.fail("expected a node and at least one component, found " + std::to_string(f.size()) + " field(s)");
    const std::vector<const NodeInfo*> at = nodes_at(f, 0, "NODE");
    for (std::size_t i = 1; i < f.size(); ++i) {
      if (f[i] == "warp") {
        // Restrained warping (S.16): the node's warping unknown held at 0.
        for (const NodeInfo* n : at) {
          if (model_->warping_slot(n->index) == 0)
            f.fail("node " + std::to_string(model_->node_id(n->index)) +
                       " warp: the node has no warping unknown (no model.thin_walled member there)",
                   "a node of a thin-walled member");
          model_->fix_warping(n->index);
        }
        continue;
      }
      const bool all = f[i] == "all";
      const std::vector<Component> comps = component_or_all(f, i, "");
      // A group (a mesh's physical group) may mix nodes of beams and of trusses: a
      // component some of its nodes have is fixed where they have it; one that none
      // has is the typo below.
      const bool group = is_group(f[0]);
      for (Component c : comps) {
        if (!group || all) continue;
        bool someone = false;
        for (const NodeInfo* n : at) someone = someone || used_.count({n->index, static_cast<int>(c)}) > 0;
        if (!someone)
          f.fail("no node of " + f[0] + " has " + model::to_string(c) +
                     ": it is not a degree of freedom of any element there, and the support would hold nothing",
                 "a component of one of its nodes");
      }
      for (const NodeInfo* n : at)
        for (Component c : comps) {
          check_rotation(f, n->index, c, "the support would hold nothing");
          // A component no element has would be fixed to no effect, and a typo
          // (rz for ux) would leave the intended one free. 'all' names every
          // translation, so it fixes those the node has; a group, those its nodes have.
          if (!used_.count({n->index, static_cast<int>(c)})) {
            if (all || group) continue;
            f.fail("node " + std::to_string(model_->node_id(n->index)) + " " + model::to_string(c) +
                       (is_group(f[0]) ? " (of " + f[0] + ")" : "") +
                       " is not a degree of freedom of any element: the support would hold nothing",
                   "a component of the node: " + node_components(n->index));
          }
          if (const auto it = penalty_held_.find({n->index, static_cast<int>(c)}); it != penalty_held_.end())
            f.fail("node " + std::to_string(model_->node_id(n->index)) + " " + model::to_string(c) + " is held by the " + it->second->key +
                       " at line " + std::to_string(it->second->line) +
                       ": a rigid support there would leave the penalty acting on nothing",
                   "a component not held by a penalty element");
          model_->fix(n->index, c);
          fixed_.insert({n->index, static_cast<int>(c)});
        }
    }
  }
  bool any_load = false;
  // The reference loads as the lines add up, per (node, component, moment type): the
  // sum and the sum of the magnitudes, a sum within 1e-12 of its terms being zero (0.1 +
  // 0.2 - 0.3 leaves -2.8e-17). Lines that cancel (load = 2 uy -1 and load = 2 uy 1)
  // leave λ scaling nothing: the path ran to λ = 4 with every displacement zero.
  std::map<std::tuple<int, int, int>, std::pair<double, double>> sums;
  const auto add_to_sum = [&](int node, Component c, int type, double value) {
    auto& [sum, size] = sums[{node, static_cast<int>(c), type}];
    sum += value;
    size += std::abs(value);
  };
  for (const char* key : {"model.load", "model.dead_load"}) {
    const bool reference = std::string_view(key) == "model.load";
    for (const Fields& f : records(key)) {
      f.require(3, reference ? 4 : 3);
      const std::vector<const NodeInfo*> at = nodes_at(f, 0, "NODE");
      const Component c = component(f, 1);
      const double value = f.real(2, "VALUE");
      // The moment type (docs/notes/beam3d.md S.8, S.12, S.14): psi-conjugate unless told.
      const bool typed = f.size() == 4;
      model::Model::MomentType type = model::Model::MomentType::Semitangential;
      if (typed) {
        if (f[3] == "quasitangential")
          type = model::Model::MomentType::Quasitangential;
        else if (f[3] != "semitangential")
          f.fail("unknown moment type '" + f[3] + "'",
                 "semitangential or quasitangential (or nothing: the psi-conjugate moment)");
        if (dim_ != 3 || static_cast<int>(c) < 3)
          f.fail("a " + f[3] + " load is a moment of a 3D model: its component must be rx, ry or rz, found " + f[1],
                 "rx|ry|rz with model.dim = 3");
        if (!first_typed_moment_) first_typed_moment_ = &f.entry();
      }
      for (const NodeInfo* n : at) {
        const std::string dof = "node " + std::to_string(model_->node_id(n->index)) + " " + f[1] +
                                (is_group(f[0]) ? " (of " + f[0] + ")" : "");
        check_rotation(f, n->index, c, "the load would act on nothing");
        if (!used_.count({n->index, static_cast<int>(c)}))
          f.fail(dof + " is not a degree of freedom of any element: the load would act on nothing");
        if (fixed_.count({n->index, static_cast<int>(c)}))
          f.fail(dof + " is fixed: a load on a support has no effect");
        if (typed) {
          model_->add_moment_load(n->index, c, value, type);
          add_to_sum(n->index, c, 1 + static_cast<int>(type), value);
          if (!first_load_) {
            first_load_ = &f.entry();
            first_load_dof_ = {n->index, c};
          }
        } else if (reference) {
          model_->add_load(n->index, c, value);
          add_to_sum(n->index, c, 0, value);
          if (!first_load_) {
            first_load_ = &f.entry();
            first_load_dof_ = {n->index, c};
          }
        } else {
          model_->add_dead_load(n->index, c, value);
        }
      }
    }
  }
  for (const auto& [dof, total] : sums) any_load = any_load || std::abs(total.first) > 1e-12 * total.second;
  if (!any_load) {
    const std::vector<const Entry*> loads = c_.all("model.load");
    if (loads.empty())
      c_.fail(nullptr, "model.load", "no load: give at least one 'load = NODE COMP VALUE' in [model]",
              "NODE COMP VALUE");
    const bool cancel = std::any_of(sums.begin(), sums.end(), [](const auto& x) { return x.second.second > 0.0; });
    throw ConfigError(loads.front()->file, loads.front()->line, "model.load",
                      cancel ? "the reference loads add up to zero at every node and component (lines on the same "
                               "one add up, and these cancel): lambda would scale nothing"
                             : "every reference load is zero: lambda would scale nothing");
  }
}

void Builder::read_continuation(Spec& s) {
  continuation::Options& o = s.analysis.explorer.path;
  const Entry* ce = c_.find("continuation.constraint");
  o.constraint = *continuation::constraint_from_string(*c_.text("continuation.constraint"));
  const std::vector<const Entry*> ctl = c_.all("continuation.control");
  if (o.constraint == continuation::ConstraintKind::DisplacementControl) {
    if (ctl.empty())
      c_.fail(ce, "continuation.control", "constraint = displacement needs the controlled dof 'control = NODE COMP'",
              "NODE COMP");
    Fields f(*ctl.back(), spec("continuation.control"));
    f.require(2, 2);
    const NodeInfo& n = node(f, 0, "NODE");
    o.control_dof = free_equation(f, n.index, component(f, 1), "control");
  } else if (!ctl.empty()) {
    Fields f(*ctl.back(), spec("continuation.control"));
    f.fail("is used only with constraint = displacement (constraint is " +
           std::string(continuation::to_string(o.constraint)) + ")");
  }
  o.initial_load_increment = *c_.real("continuation.initial_step");
  o.min_step_ratio = *c_.real("continuation.min_step_ratio");
  o.max_step_ratio = *c_.real("continuation.max_step_ratio");
  o.max_step_growth = *c_.real("continuation.max_step_growth");
  o.max_turn_degrees = *c_.real("continuation.max_turn");
  o.target_iterations = static_cast<int>(*c_.integer("continuation.target_iterations"));
  o.max_iterations = static_cast<int>(*c_.integer("continuation.max_iterations"));
  if (o.target_iterations > o.max_iterations)
    c_.fail(c_.find("continuation.target_iterations"), "continuation.target_iterations",
            "target_iterations (" + std::to_string(o.target_iterations) + ") exceeds max_iterations (" +
                std::to_string(o.max_iterations) + ")",
            "[1, continuation.max_iterations]");
  o.residual_tolerance = *c_.real("continuation.residual_tolerance");
  o.increment_tolerance = *c_.real("continuation.increment_tolerance");
  o.direction = static_cast<int>(*c_.integer("continuation.direction"));
  o.auto_scale = *c_.boolean("continuation.auto_scale");
  o.reuse_factorization = *c_.boolean("continuation.reuse_factorization");
  o.final_chord = *c_.boolean("continuation.final_chord");
  o.psi = *c_.real("continuation.psi");
  if (o.psi == 0.0 && o.constraint == continuation::ConstraintKind::LoadControl)
    c_.fail(c_.find("continuation.psi"), "continuation.psi", "psi = 0 leaves load control without a step",
            "(0, inf) with constraint = load");

  // The start of the primary path: q = 0 at lambda = 0, or a saved state.
  double lambda0 = 0.0;
  if (const Entry* e = c_.find("continuation.start_state")) {
    if (c_.has("branches.from"))
      c_.fail(e, e->key,
              "a run starts either its primary path from a state or the branches of a saved point: "
              "start_state is given with branches.from (trace --from)",
              "one of them");
    StatePoint p;
    try {
      p = read_state_point(e->value, model_->size(), core::unknowns_fingerprint(*model_), e->key);
    } catch (const ConfigError& err) {  // located at the line that names the state
      c_.fail(e, e->key, "the saved state '" + e->value + "': " + err.message(),
              "a DIR/states/<id>.json of this model (trace's located points, simulate's final.json)");
    }
    lambda0 = p.lambda;
    s.analysis.start = analysis::StartState{p.q, p.lambda, e->value, p.phi, p.scaling};
  }
  const std::string start = s.analysis.start ? "the trace starts at lambda = " + fmt::format("{:.17g}", lambda0) +
                                                   " (continuation.start_state)"
                                             : std::string("the trace starts at lambda = 0");
  o.max_steps = static_cast<int>(*c_.integer("stop.max_steps"));
  if (auto v = c_.real("stop.lambda_min")) o.lambda_min = *v;
  if (auto v = c_.real("stop.lambda_max")) o.lambda_max = *v;
  if (o.lambda_min >= o.lambda_max)
    c_.fail(c_.find("stop.lambda_max"), "stop.lambda_max", "lambda_max must exceed lambda_min",
            "(stop.lambda_min, inf)");
  // With branches.from the run starts at the saved point's λ: checked once the state
  // is read (build()).
  if (o.lambda_min > lambda0 && !c_.has("branches.from"))
    c_.fail(c_.find("stop.lambda_min"), "stop.lambda_min", start + ", below lambda_min",
            s.analysis.start ? "(-inf, the start's lambda]" : "(-inf, 0]");
  if (o.lambda_max < lambda0 && !c_.has("branches.from"))
    c_.fail(c_.find("stop.lambda_max"), "stop.lambda_max", start + ", above lambda_max",
            s.analysis.start ? "[the start's lambda, inf)" : "[0, inf)");
  if (const Entry* e = c_.find("stop.displacement")) {
    Fields f(*e, spec("stop.displacement"));
    f.require(3, 3);
    const NodeInfo& n = result_node(f, 0, "NODE");
    o.monitor_dof = free_equation(f, n.index, component(f, 1), "monitor");
    o.max_displacement = f.positive(2, "LIMIT");
  }
  o.stop_at_zero_load = *c_.boolean("stop.zero_load");
  o.linear_solver = *linalg::solver_from_string(*c_.text("linalg.solver"));
  if (o.linear_solver == linalg::Solver::Mumps && !linalg::mumps_available())
    c_.fail(c_.find("linalg.solver"), "linalg.solver", "this build of Senda has no MUMPS (libmumps-seq-dev)",
            "auto, cholmod");
  // Under mpirun -np P > 1 the other ranks only take part in MUMPS's calls: a
  // CHOLMOD run would leave them idle (docs/user-guide.md "Distributed runs").
  if (o.linear_solver == linalg::Solver::Cholmod && linalg::mpi_processes() > 1)
    c_.fail(c_.find("linalg.solver"), "linalg.solver",
            "cholmod runs on one process; under mpirun -np " + std::to_string(linalg::mpi_processes()) +
                " the factorization is distributed by mumps",
            "auto, mumps");

  critical::FinderOptions& k = s.analysis.explorer.finder;
  k.detect = *critical::detect_test_from_string(*c_.text("critical.detect"));
  k.locate = *c_.boolean("critical.locate");
  k.locate_options.tolerance = *c_.real("critical.tolerance");
  k.locate_options.max_iterations = static_cast<int>(*c_.integer("critical.max_iterations"));
  k.locate_options.bifurcation_tolerance = *c_.real("critical.bifurcation_tolerance");
  k.locate_options.linear_solver = o.linear_solver;
  k.refine_fraction = *c_.real("critical.refine_fraction");
  k.monitor_eigenvalues = *c_.boolean("critical.monitor_eigenvalues");

  critical::ExplorerOptions& b = s.analysis.explorer;
  // Branches are switched to at located points only.
  b.switch_branches = *c_.boolean("branches.switch") && k.locate;
  if (const Entry* e = c_.find("branches.at")) {
    std::string id;
    for (char ch : e->value + ",") {
      if (ch != ',' && ch != ' ') {
        id += ch;
        continue;
      }
      if (id.empty()) continue;
      const bool ok = id.size() > 2 && (id.rfind("BP", 0) == 0) &&
                      id.find_first_not_of("0123456789", 2) == std::string::npos;
      if (!ok)
        throw ConfigError(e->file, e->line, e->key, "'" + id + "' is not a bifurcation point id",
                          "BP1, BP2, ... separated by commas");
      b.switch_at.push_back(id);
      id.clear();
    }
  }
  b.max_depth = static_cast<int>(*c_.integer("branches.max_depth"));
  const std::string dir = *c_.text("branches.direction");
  b.direction = dir == "positive" ? 1 : dir == "negative" ? -1 : 0;
  b.max_branches = static_cast<int>(*c_.integer("branches.max_branches"));
  b.symmetric_tolerance = *c_.real("branches.symmetric_tolerance");
  b.switch_step_ratio = *c_.real("branches.switch_step_ratio");
}

void Builder::read_design(Spec& s) {
  std::set<std::string, std::less<>> seen;  // not a scan per line: 200 000 lines (issue 20)
  for (const Entry* e : c_.all("design.parameter"))
    if (seen.insert(e->value).second) s.design_parameters.push_back(e->value);
  analysis::DesignOptions& d = s.analysis.design;
  if (auto t = c_.text("design.follow")) {
    std::string v = *t;
    std::replace(v.begin(), v.end(), ',', ' ');
    for (const std::string& id : split_fields(v)) d.follow.push_back(id);
  }
  d.directions = *analysis::curve_directions_from_string(*c_.text("design.direction"));
  critical::CurveOptions& o = d.curve;
  if (auto v = c_.real("design.mu_min")) o.mu_min = *v;
  if (auto v = c_.real("design.mu_max")) o.mu_max = *v;
  if (o.mu_min >= o.mu_max)
    c_.fail(c_.find("design.mu_max"), "design.mu_max", "mu_max must exceed mu_min (a curve would end at its first step)",
            "(design.mu_min, inf)");
  o.step = *c_.real("design.step");
  o.max_points = static_cast<int>(*c_.integer("design.max_points"));
  // A curve may grow its step to four first steps (and never below the default bound).
  o.max_step = std::max(o.max_step, 4.0 * o.step);
  // The curve's keys without a curve: kept for a later --follow run, so not refused,
  // but said (they were accepted in silence), in the file's order.
  if (d.follow.empty()) {
    std::vector<const Entry*> unused;
    for (const char* key : kCurveKeys)
      if (const Entry* e = c_.find(key)) unused.push_back(e);
    std::stable_sort(unused.begin(), unused.end(), [](const Entry* a, const Entry* b) { return a->line < b->line; });
    for (const Entry* e : unused)
      s.notes.push_back(location(e->file, e->line) + ": " + e->key +
                        " has no effect: no critical point is followed (design.follow, or --follow on the "
                        "command line)");
  }
}

void Builder::read_output(Spec& s) {
  auto add = [&](const Fields* f, int node, Component c) {
    TrackedDof t;
    t.node = node;
    t.node_id = model_->node_id(node);
    t.component = c;
    t.column = "u_" + std::to_string(t.node_id) + "_" + model::to_string(c);
    if (f) {
      t.equation = free_equation(*f, node, c, "track");
      for (const TrackedDof& o : s.track)
        if (o.column == t.column) f->fail("node " + (*f)[0] + " " + (*f)[1] + " is tracked twice");
    } else {
      t.equation = model_->equation(node, c);
    }
    s.track.push_back(t);
  };
  for (const Fields& f : records("output.track")) {
    f.require(2, 2);
    const NodeInfo& n = result_node(f, 0, "NODE");
    add(&f, n.index, component(f, 1));
  }
  if (s.track.empty() && first_load_dof_) add(nullptr, first_load_dof_->first, first_load_dof_->second);
  for (const TrackedDof& t : s.track) s.analysis.track.push_back(t.equation);
  s.output.plot = *c_.boolean("output.plot");
  s.output.vtk = *c_.boolean("output.vtk");
  s.output.drawings = *c_.boolean("output.drawings");
}

// dynamics.rigid_link: read with the elements, since a link's nodes need numbered
// translations (model::RigidLinkPlace) even when no element holds them (a pendulum).
void Builder::read_rigid_links() {
  std::set<std::pair<int, int>> seen;
  for (const Fields& f : records("dynamics.rigid_link")) {
    f.require(2, 2);
    const NodeInfo& a = node(f, 0, "NODE_A");
    const NodeInfo& b = node(f, 1, "NODE_B");
    if (a.index == b.index) f.fail("links node " + f[0] + " to itself");
    const double length = (model_->node_position(b.index) - model_->node_position(a.index)).norm();
    if (!(length > 1e-12 * extent_) || !std::isfinite(length))
      f.fail(fmt::format("zero length: nodes {} and {} are {:.3g} apart, below 1e-12 of the model's extent ({:.3g}); "
                         "a rigid link needs a positive reference length",
                         f[0], f[1], length, extent_),
             "two nodes apart");
    if (!seen.insert(std::minmax(a.index, b.index)).second)
      f.fail("nodes " + f[0] + " and " + f[1] + " are linked twice (redundant constraints: [M G^T; G 0] is singular)",
             "one link per pair of nodes");
    links_.emplace_back(a.index, b.index);
    model_->add_element(std::make_unique<model::RigidLinkPlace>(static_cast<int>(links_.size()), dim_, a.index, b.index));
    for (int node : {a.index, b.index})
      for (int k = 0; k < dim_; ++k) used_.insert({node, k});
  }
}

// The rigid links as a ConstraintSet on the numbered unknowns, and their stabilisation.
void Builder::read_constraints(DynamicsSpec& d) {
  const bool index1 = d.integrator.scheme == dynamics::Scheme::Index1RK4;
  const char* needs_index1[] = {"dynamics.baumgarte", "dynamics.projection", "dynamics.projection_weight",
                                "dynamics.phi_tolerance", "dynamics.phi_dot_tolerance",
                                "dynamics.projection_tolerance"};
  if (!links_.empty() && !index1)
    c_.fail(c_.find("dynamics.rigid_link"), "dynamics.rigid_link",
            "a rigid link is a Lagrange-multiplier constraint: only the index1-rk4 integrator takes it",
            "dynamics.integrator = index1-rk4");
  for (const char* key : needs_index1)
    if (c_.has(key) && links_.empty())
      c_.fail(c_.find(key), key, "stabilises rigid links, and there is none", "dynamics.rigid_link = NODE_A NODE_B");
  if (links_.empty()) return;
  dynamics::ConstraintSet c(model_->size());
  for (const auto& [a, b] : links_) {
    const dynamics::ConstraintPoint pa = dynamics::model_point(*model_, a), pb = dynamics::model_point(*model_, b);
    bool moves = false;
    for (int k = 0; k < 3; ++k) moves = moves || pa.eq[k] >= 0 || pb.eq[k] >= 0;
    if (!moves) {
      const Entry* e = c_.all("dynamics.rigid_link")[c.size()];
      throw ConfigError(e->file, e->line, e->key,
                        "both nodes are fixed in every translation: the link constrains nothing (a zero row of G)",
                        "a link with a free end");
    }
    c.add_distance(pa, pb);
  }
  dynamics::Index1Options& o = d.integrator.index1;
  if (const Entry* e = c_.find("dynamics.baumgarte")) {
    const Fields f(*e, spec("dynamics.baumgarte"));
    f.require(2, 2);
    o.alpha = f.real(0, "ALPHA");
    o.beta = f.real(1, "BETA");
    if (!(o.alpha >= 0.0) || !(o.beta >= 0.0))
      f.fail("ALPHA and BETA must be >= 0 (a negative one makes the violation grow)", "ALPHA >= 0, BETA >= 0");
  }
  const std::string projection = *c_.text("dynamics.projection");
  o.projection = projection == "every-step"      ? dynamics::Projection::EveryStep
                 : projection == "when-violated" ? dynamics::Projection::WhenViolated
                                                 : dynamics::Projection::None;
  o.weight = *c_.text("dynamics.projection_weight") == "identity" ? dynamics::Weight::Identity : dynamics::Weight::Mass;
  o.position_tolerance = *c_.real("dynamics.phi_tolerance");
  o.velocity_tolerance = *c_.real("dynamics.phi_dot_tolerance");
  o.projection_tolerance = *c_.real("dynamics.projection_tolerance");
  for (const char* key : {"dynamics.phi_tolerance", "dynamics.phi_dot_tolerance"})
    if (c_.has(key) && o.projection != dynamics::Projection::WhenViolated)
      c_.fail(c_.find(key), key, "only dynamics.projection = when-violated has a trigger tolerance",
              "dynamics.projection = when-violated");
  for (const char* key : {"dynamics.projection_weight", "dynamics.projection_tolerance"})
    if (c_.has(key) && o.projection == dynamics::Projection::None)
      c_.fail(c_.find(key), key, "there is no projection (dynamics.projection = none)",
              "dynamics.projection = every-step|when-violated");
  if (o.projection == dynamics::Projection::WhenViolated && !(o.projection_tolerance < o.position_tolerance)) {
    const char* key = c_.has("dynamics.projection_tolerance") ? "dynamics.projection_tolerance" : "dynamics.phi_tolerance";
    c_.fail(c_.find(key), key,
            fmt::format("projection_tolerance = {:g} must be below phi_tolerance = {:g} (a projection must end "
                        "below the level that triggers it)",
                        o.projection_tolerance, o.position_tolerance),
            "projection_tolerance < phi_tolerance");
  }
  if (const std::string why = o.validate(); !why.empty()) c_.fail(nullptr, "dynamics.rigid_link", why);
  d.constraints = std::move(c);
}

void Builder::read_dynamics(Spec& s) {
  DynamicsSpec& d = s.dynamics;
  const int n = model_->size();
  d.q0 = Vector::Zero(n);
  d.v0 = Vector::Zero(n);
  for (const Entry& e : c_.entries()) d.given = d.given || e.key.rfind("dynamics.", 0) == 0;
  if (!d.given) return;
  if (first_typed_moment_)
    throw ConfigError(first_typed_moment_->file, first_typed_moment_->line, first_typed_moment_->key,
                      "a semitangential or quasitangential moment depends on the rotation; the dynamics applies the "
                      "fixed pattern lambda r only: not supported there",
                      "no 'semitangential' or 'quasitangential' with [dynamics]");
  // The mass model lumps a member's line density on its two ends' matching dofs
  // (dynamics/mass.cpp); a hinge angle has no such partner and no rotary inertia of
  // its own there.
  if (first_thin_walled_)
    throw ConfigError(first_thin_walled_->file, first_thin_walled_->line, first_thin_walled_->key,
                      "the dynamics has no mass model for the warping unknowns of a thin-walled member: not supported "
                      "there",
                      "no model.thin_walled with [dynamics]");
  if (first_axis_hinge_)
    throw ConfigError(first_axis_hinge_->file, first_axis_hinge_->line, first_axis_hinge_->key,
                      "the dynamics has no mass model for the angle of a one- or two-axis hinge ('about'): not "
                      "supported there",
                      "a ball joint (no 'about') or a rigid joint with [dynamics]");
  const std::string scheme = *c_.text("dynamics.integrator");
  dynamics::IntegratorOptions& o = d.integrator;
  o.scheme = scheme == "midpoint"     ? dynamics::Scheme::Midpoint
             : scheme == "newmark"    ? dynamics::Scheme::Newmark
             : scheme == "hht"        ? dynamics::Scheme::HHT
             : scheme == "index1-rk4" ? dynamics::Scheme::Index1RK4
                                      : dynamics::Scheme::EnergyMomentum;
  o.dt = *c_.real("dynamics.dt");
  o.beta = *c_.real("dynamics.beta");
  o.gamma = *c_.real("dynamics.gamma");
  o.alpha = *c_.real("dynamics.alpha");
  o.em_tangent = *c_.text("dynamics.tangent") == "symmetric" ? dynamics::EmTangent::Symmetric : dynamics::EmTangent::Exact;
  const std::string test = *c_.text("dynamics.convergence");
  o.test = test == "energy" ? dynamics::ConvergenceTest::Energy
           : test == "both" ? dynamics::ConvergenceTest::Both
                            : dynamics::ConvergenceTest::Residual;
  o.residual_tolerance = *c_.real("dynamics.tolerance");
  o.energy_tolerance = *c_.real("dynamics.energy_tolerance");
  o.max_iterations = static_cast<int>(*c_.integer("dynamics.max_iterations"));
  o.solver = *linalg::solver_from_string(*c_.text("linalg.solver"));
  for (const char* key : {"dynamics.beta", "dynamics.gamma"})
    if (c_.has(key) && o.scheme != dynamics::Scheme::Newmark)
      c_.fail(c_.find(key), key, "only the newmark integrator takes beta and gamma (hht sets its own from alpha)",
              "dynamics.integrator = newmark");
  if (c_.has("dynamics.alpha") && o.scheme != dynamics::Scheme::HHT)
    c_.fail(c_.find("dynamics.alpha"), "dynamics.alpha", "only the hht integrator takes alpha", "dynamics.integrator = hht");
  if (c_.has("dynamics.tangent") && o.scheme != dynamics::Scheme::EnergyMomentum)
    c_.fail(c_.find("dynamics.tangent"), "dynamics.tangent",
            "only the energy-momentum integrator takes a tangent choice (the others use K itself)",
            "dynamics.integrator = energy-momentum");
  // Newton's settings mean nothing to the explicit RK4, which takes no iteration:
  // they were accepted and ignored.
  if (o.scheme == dynamics::Scheme::Index1RK4)
    for (const char* key : {"dynamics.convergence", "dynamics.tolerance", "dynamics.energy_tolerance",
                            "dynamics.max_iterations"})
      if (c_.has(key))
        c_.fail(c_.find(key), key,
                "index1-rk4 is explicit and takes no Newton iteration: this setting of Newton's would have no effect",
                "an implicit integrator (energy-momentum, midpoint, newmark, hht)");
  // Each tolerance serves its own test only: given beside the other test it was
  // accepted and ignored.
  if (o.scheme != dynamics::Scheme::Index1RK4) {
    if (o.test == dynamics::ConvergenceTest::Energy && c_.has("dynamics.tolerance"))
      c_.fail(c_.find("dynamics.tolerance"), "dynamics.tolerance",
              "dynamics.convergence = energy does not test the residual: this tolerance would have no effect",
              "dynamics.convergence = residual or both");
    if (o.test == dynamics::ConvergenceTest::Residual && c_.has("dynamics.energy_tolerance"))
      c_.fail(c_.find("dynamics.energy_tolerance"), "dynamics.energy_tolerance",
              "dynamics.convergence = residual does not test the work of the corrections: this tolerance would have "
              "no effect",
              "dynamics.convergence = energy or both");
  }

  // Time.
  d.t_end = *c_.real("dynamics.t_end");
  const long max_steps = *c_.integer("dynamics.max_steps");
  // At least one step: a Δt above 1e9 t_end made the ceiling 0 and the run "completed"
  // at t = 0.
  const double steps = std::max(1.0, std::ceil(d.t_end / o.dt - 1e-9));
  if (!(steps <= static_cast<double>(max_steps)))
    c_.fail(c_.find("dynamics.dt"), "dynamics.dt",
            fmt::format("t_end/dt = {:g} steps is more than dynamics.max_steps = {}", steps, max_steps),
            fmt::format("[{:g}, inf)", d.t_end / static_cast<double>(max_steps)));
  d.steps = static_cast<long>(steps);
  d.output_every = *c_.integer("dynamics.output_every");

  // Mass.
  std::set<int> massed;
  for (const Fields& f : records("dynamics.mass")) {
    f.require(2, 3);
    const NodeInfo& nd = node(f, 0, "NODE");
    if (!massed.insert(nd.index).second) f.fail("node " + f[0] + " is given a mass twice");
    const double m = f.real(1, "M"), J = f.size() > 2 ? f.real(2, "J") : 0.0;
    if (!(m >= 0.0) || !(J >= 0.0)) f.fail("masses must be >= 0", "M >= 0, J >= 0");
    // A part of a mass that cannot move (M on a node whose translations are all fixed,
    // J on one with no free rotation of its own: a truss node, rz fixed) does nothing:
    // a node id typed wrong, like a load on a support, which is refused too. Each part
    // on its own: a J on a truss node beside an M that acts was accepted in silence.
    const auto any_free = [&](const std::vector<Component>& cs) {
      return std::any_of(cs.begin(), cs.end(), [&](Component c) { return model_->equation(nd.index, c) >= 0; });
    };
    const bool m_idle = m > 0.0 && !any_free(translations()), J_idle = J > 0.0 && !any_free(rotations());
    if (m_idle || J_idle) {
      // J acts on the node's own rotations only: the ends of members hinged there
      // carry dynamics.line_rotary_inertia, not the nodal J.
      const std::string what = m_idle && J_idle ? "has neither a free translation nor a free rotation of its own"
                               : m_idle         ? "has no free translation"
                                                : "has no free rotation of its own";
      const std::string part = m_idle ? "a mass" : "a rotary inertia J";
      f.fail("node " + f[0] + " " + what + ": " + part + " on it has no effect" +
                 (J_idle ? " (J acts on the node's own free rotations: a truss node has none, a fixed rz is not free; "
                           "the ends of members hinged there take dynamics.line_rotary_inertia)"
                         : ""),
             "a node with a free translation (for M > 0) and a free rotation (for J > 0)");
    }
    d.mass.nodes.push_back({nd.index, m, J});
  }
  d.mass.line_density = *c_.real("dynamics.line_density");
  d.mass.line_rotary_inertia = *c_.real("dynamics.line_rotary_inertia");
  d.mass.lumping = *c_.text("dynamics.mass_matrix") == "consistent" ? dynamics::MassLumping::Consistent
                                                                    : dynamics::MassLumping::Lumped;
  const SparseMatrix M = dynamics::mass_matrix(*model_, d.mass);
  // A member mass setting that changes nothing was accepted and ignored: a rotary
  // inertia per length with no member rotation free (trusses only), a consistent mass
  // with no line density. The mass matrix without it is the same.
  const auto idle = [&](const char* key, dynamics::MassSpec without, const std::string& why, const char* valid) {
    const SparseMatrix M0 = dynamics::mass_matrix(*model_, without);
    const bool same = M0.nonZeros() == M.nonZeros() &&
                      std::equal(M0.valuePtr(), M0.valuePtr() + M0.nonZeros(), M.valuePtr());
    if (same) c_.fail(c_.find(key), key, why + ": it would have no effect", valid);
  };
  if (c_.has("dynamics.line_rotary_inertia") && d.mass.line_rotary_inertia > 0.0) {
    dynamics::MassSpec without = d.mass;
    without.line_rotary_inertia = 0.0;
    idle("dynamics.line_rotary_inertia", without,
         "no member of this model has a free rotation (a truss has none; fixed or hinged ends take none)",
         "beam members with free rotations, or 0");
  }
  if (c_.has("dynamics.mass_matrix") && d.mass.lumping == dynamics::MassLumping::Consistent) {
    dynamics::MassSpec without = d.mass;
    without.lumping = dynamics::MassLumping::Lumped;
    idle("dynamics.mass_matrix", without,
         "a consistent member mass needs a member mass (dynamics.line_density or line_rotary_inertia > 0 on members "
         "with free ends)",
         "lumped, or a line density");
  }
  if (const int i = dynamics::massless_unknown(M); i >= 0) {
    const Entry* e = c_.find("dynamics.line_density");
    c_.fail(e, e ? "dynamics.line_density" : "dynamics.mass",
            model_->dof_name(i) + " has no mass: every unknown needs one (a nodal mass, a rotary inertia J, "
                                  "a line density or a line rotary inertia)");
  }
  d.damping_mass = *c_.real("dynamics.damping_mass");
  d.damping_stiffness = *c_.real("dynamics.damping_stiffness");
  // Finite inputs whose products overflow are refused here, naming the key: a start
  // that is not finite reached the integrator as an internal error (exit 3) or as a
  // step failure that blamed something else.
  if (d.damping_mass > 0.0 || d.damping_stiffness > 0.0) {
    const SparseMatrix C = dynamics::rayleigh_damping(*model_, M, d.damping_mass, d.damping_stiffness);
    if (!std::all_of(C.valuePtr(), C.valuePtr() + C.nonZeros(), [](double x) { return std::isfinite(x); })) {
      const char* key = d.damping_stiffness > 0.0 ? "dynamics.damping_stiffness" : "dynamics.damping_mass";
      c_.fail(c_.find(key), key,
              fmt::format("the damping matrix C = a M + b K0 (a = {:g}, b = {:g}) is not finite: its products with "
                          "the masses and stiffnesses overflow",
                          d.damping_mass, d.damping_stiffness),
              "a, b such that a M + b K0 is finite");
    }
  }

  // Initial state.
  if (c_.has("dynamics.lambda") && c_.has("dynamics.initial_state") &&
      split_fields(c_.find("dynamics.initial_state")->value).size() > 1)
    c_.fail(c_.find("dynamics.lambda"), "dynamics.lambda",
            "the load factor is given twice: by lambda and by the FACTOR of initial_state", "one of them");
  double factor = 1.0;
  if (const Entry* e = c_.find("dynamics.initial_state")) {
    const Fields f(*e, spec("dynamics.initial_state"));
    f.require(1, 2);
    if (f.size() > 1) factor = f.real(1, "FACTOR");
    StatePoint p;
    try {
      p = read_state_point(f[0], n, core::unknowns_fingerprint(*model_), "dynamics.initial_state");
    } catch (const ConfigError& err) {  // located at the line that names the state
      f.fail("the saved state '" + f[0] + "': " + err.message(), "a DIR/states/<id>.json of this model, written by trace");
    }
    d.initial_state = f[0];
    d.initial_id = p.id;
    d.initial_lambda = p.lambda;
    d.q0 = p.q;
    // FACTOR × λ of the state is the load factor: finite both, their product may not
    // be (a state at λ = 34 with FACTOR 1e307 ended as "internal error: Integrator:
    // the load factor must be finite").
    if (!std::isfinite(factor * p.lambda))
      f.fail(fmt::format("FACTOR {} times the state's lambda {} is {}: not a finite load factor", f[1],
                         core::format_number(p.lambda), factor * p.lambda),
             "FACTOR with |FACTOR × lambda of the state| finite");
    if (!std::isfinite(model_->energy(d.q0)))
      f.fail("the saved state's strain energy is not finite in this model", "a DIR/states/<id>.json of this model, written by trace");
  }
  for (const Fields& f : records("dynamics.velocity")) {
    f.require(3, 3);
    const NodeInfo& nd = node(f, 0, "NODE");
    const int eq = free_equation(f, nd.index, component(f, 1), "give a velocity");
    d.v0[eq] += f.real(2, "VALUE");
  }
  if (const Entry* e = c_.find("dynamics.kick")) {
    const Fields f(*e, spec("dynamics.kick"));
    f.require(2, 2);
    const double amplitude = f.real(1, "AMPLITUDE");
    std::map<int, int> index_of;  // node id → index, all nodes of the built model
    for (int k = 0; k < model_->node_count(); ++k) index_of.emplace(model_->node_id(k), k);
    for (const auto& [key, phi] : read_mode_file(f, f[0], true)) {
      const auto at = index_of.find(key.first);
      // A mesh node that no element uses is not in the model.
      if (at == index_of.end())
        f.fail("the mode file moves node " + std::to_string(key.first) + ", which this model does not have",
               "a mode of the same model");
      const int eq = model_->equation(at->second, static_cast<Component>(key.second));
      // A mode of this model is zero where this model is fixed (its file scales φ to
      // max |φ| = 1); a mode that moves a fixed component is another model's, and
      // dropping that entry lost the whole kick of a one-unknown oscillator.
      if (eq < 0 && std::abs(phi) > 1e-9)
        f.fail("the mode file moves node " + std::to_string(key.first) + " " +
                   model::to_string(static_cast<Component>(key.second)) + " by " + fmt::format("{:g}", phi) +
                   ", which this model fixes or does not have",
               "a mode of the same model");
      if (eq >= 0) d.v0[eq] += amplitude * phi;
    }
  }
  // The initial velocities (velocity entries and the kick added up) and their kinetic
  // energy ½ v0ᵀ M v0, E0's part: finite, or no energy balance can be kept.
  if (const Entry* e = c_.has("dynamics.kick") ? c_.find("dynamics.kick") : c_.find("dynamics.velocity")) {
    const char* key = c_.has("dynamics.kick") ? "dynamics.kick" : "dynamics.velocity";
    const std::string sources = c_.has("dynamics.kick") && c_.has("dynamics.velocity") ? "dynamics.velocity and the kick"
                                : c_.has("dynamics.kick")                               ? "the kick"
                                                                                        : "dynamics.velocity";
    if (!d.v0.allFinite())
      c_.fail(e, key, "the initial velocities (" + sources + ", added up) are not finite: their sum overflows",
              "velocities whose sum is finite");
    const double kinetic = 0.5 * d.v0.dot(M * d.v0);
    if (!std::isfinite(kinetic))
      c_.fail(e, key,
              fmt::format("the initial kinetic energy 1/2 v0^T M v0 of {} is {}: not finite (the largest |v0| is {:g})",
                          sources, kinetic, d.v0.cwiseAbs().maxCoeff()),
              "velocities whose kinetic energy is finite");
  }

  // Load history.
  const std::string kind = *c_.text("dynamics.load");
  dynamics::LoadHistory& L = d.load;
  L.kind = kind == "ramp" ? dynamics::LoadKind::Ramp : kind == "table" ? dynamics::LoadKind::Table : dynamics::LoadKind::Step;
  L.lambda = c_.real("dynamics.lambda").value_or(factor * d.initial_lambda);
  if (L.kind == dynamics::LoadKind::Ramp) {
    if (!c_.has("dynamics.ramp_time"))
      c_.fail(c_.find("dynamics.load"), "dynamics.ramp_time", "a ramp load needs its duration", "(0, inf)");
    L.ramp_time = *c_.real("dynamics.ramp_time");
  } else if (c_.has("dynamics.ramp_time")) {
    c_.fail(c_.find("dynamics.ramp_time"), "dynamics.ramp_time", "only a ramp load has a ramp time", "dynamics.load = ramp");
  }
  const std::vector<Fields> points = records("dynamics.load_point");
  if (L.kind == dynamics::LoadKind::Table) {
    if (points.empty()) c_.fail(c_.find("dynamics.load"), "dynamics.load_point", "a table load needs load_point entries", "T LAMBDA");
    if (c_.has("dynamics.lambda"))
      c_.fail(c_.find("dynamics.lambda"), "dynamics.lambda", "a table load takes its factors from load_point", "no lambda");
    // Nor the FACTOR of a start state (it was accepted and ignored: λ(0) came from the
    // table).
    if (const Entry* e = c_.find("dynamics.initial_state"); e && split_fields(e->value).size() > 1)
      c_.fail(e, "dynamics.initial_state",
              "a table load takes its factors from load_point: the FACTOR of initial_state would have no effect",
              "STATE_FILE alone (its q), with the table's factors");
    for (const Fields& f : points) {
      f.require(2, 2);
      const double t = f.real(0, "T"), lam = f.real(1, "LAMBDA");
      if (!L.points.empty() && !(t > L.points.back().first))
        f.fail("the times of load_point must increase (" + f[0] + " after " + fmt::format("{:g}", L.points.back().first) + ")");
      L.points.emplace_back(t, lam);
    }
  } else if (!points.empty()) {
    points.front().fail("only a table load has load points", "dynamics.load = table");
  }

  // Events.
  for (const Fields& f : records("dynamics.event")) {
    f.require(3, 3);
    const NodeInfo& nd = node(f, 0, "NODE");
    const Component c = component(f, 1);
    DynamicsEvent ev;
    ev.equation = free_equation(f, nd.index, c, "watch");
    ev.value = f.real(2, "VALUE");
    ev.name = "u_" + f[0] + "_" + f[1] + " = " + f[2];
    d.events.push_back(ev);
  }
  read_constraints(d);
  if (const std::string why = o.check(); !why.empty()) c_.fail(nullptr, "dynamics.integrator", why);
}

// Simo–Reissner members of one element (typed with N = 1, or a mesh group's line
// alone on its curve; not continued in line by another member): the element has one
// integration point and a constant curvature, so a member bent in double curvature (a
// sway frame's columns)
// cannot bend and takes the sway in shear, and a member's own buckling is not
// represented (a pinned column of one element found no buckling up to 3.5 times its
// Euler load). A portal frame of such members (N left at its default 1) had its sway
// stiffness 8 400 times the hand value and no buckling up to 10 times its load, with
// nothing said. Said, not refused: one element may be meant (a brace that only
// carries axial force).
void Builder::note_single_elements(const std::vector<const Member*>& single, bool mesh_lines) {
  if (single.empty()) return;
  std::string ids_text;
  for (std::size_t k = 0; k < single.size() && k < 5; ++k) ids_text += (k ? ", " : "") + std::to_string(single[k]->id);
  if (single.size() > 5) ids_text += ", ...";
  const std::size_t count = single.size();
  const bool one = count == 1;
  const Entry& e = *single.front()->entry;
  const std::string why =
      "a Simo-Reissner element has one integration point and a constant curvature, so one element cannot bend in "
      "double curvature (the columns of a sway frame: far too stiff) nor buckle as the member does; ";
  if (mesh_lines)
    model_notes_.push_back(location(e.file, e.line) + ": model.beam: " + std::to_string(count) + " line" +
                           (one ? " " : "s ") + "of the mesh " + (one ? "is a member" : "are members") +
                           " of one element (the only line of its curve, not continued in line by another; element" +
                           (one ? " " : "s ") + ids_text + "): " + why +
                           "mesh each curve into N >= 4 lines (Transfinite Curve{...} = 5, or a smaller mesh size)" +
                           (dim_ == 2 ? ", or use model.beam_formulation = corotational" : ""));
  else
    model_notes_.push_back(location(e.file, e.line) + ": model.beam: " + std::to_string(count) + " member" +
                           (one ? " has" : "s have") + " one element (N = 1, the default; member" + (one ? " " : "s ") +
                           ids_text + "): " + why +
                           "give each member N >= 4 elements, or use model.beam_formulation = corotational (2D)");
}

Spec Builder::run() {
  Spec s;
  s.config_file = c_.file();
  dim_ = static_cast<int>(*c_.integer("model.dim"));
  strain_ = *strain_from(*c_.text("model.strain"));
  formulation_ = *c_.text("model.beam_formulation") == "corotational" ? model::BeamFormulation::Corotational
                                                                       : model::BeamFormulation::SimoReissner;
  // Only plane beams have a co-rotational element: in 3D the key was ignored, and a
  // run "with corotational beams" was Simo–Reissner's, bit for bit.
  if (formulation_ == model::BeamFormulation::Corotational && dim_ == 3)
    c_.fail(c_.find("model.beam_formulation"), "model.beam_formulation",
            "corotational beams are plane (Corotational2D): a 3D model's beams are Simo-Reissner's",
            "simo-reissner with dim = 3");
  model_ = std::make_unique<model::Model>(dim_);
  read_mesh();
  read_nodes();
  read_elements();
  check_imperfection_nodes();
  read_supports_and_loads();
  try {
    model_->finalize();
  } catch (const model::ModelError& e) {
    c_.fail(nullptr, "", std::string("inconsistent model: ") + e.what());
  }
  check_imperfection_model();
  s.model_notes = std::move(model_notes_);
  read_continuation(s);
  read_design(s);
  read_output(s);
  read_dynamics(s);
  s.title = c_.text("problem.title").value_or("");
  s.description = c_.text("problem.description").value_or("");
  s.problem_name = c_.text("output.name").value_or(fs::path(c_.file()).stem().string());
  s.node_entries = std::move(node_entries_);
  if (const auto from = c_.text("branches.from")) {
    // The branches of a saved point start from the state's own first step (its
    // initial_step, a length in the state's scaled norm) times switch_step_ratio: a
    // load increment asked for on the command line would be ignored, as it was.
    if (const Entry* e = c_.find("continuation.initial_step"); e && e->file == kCommandLine)
      c_.fail(e, e->key,
              "does not apply to a run from a saved state (branches.from, --from): its branches start from the "
              "state's first step (initial_step in " + *from + ") times branches.switch_step_ratio; set that ratio",
              "branches.switch_step_ratio=R with --from");
    // A run from a saved point traces only that point's branches: without switching
    // (--primary-only) it traced them all the same, the request dropped in silence.
    if (c_.boolean("branches.switch") == false)
      c_.fail(c_.find("branches.switch"), "branches.switch",
              "false (--primary-only) with a run from a saved state (branches.from, --from), which traces only "
              "that point's branches",
              "true with branches.from");
    analysis::SavedState st;
    try {
      st = read_state(*from, model_->size(), core::unknowns_fingerprint(*model_));
    } catch (const ConfigError& err) {  // at the line (or the command line) that names the state
      c_.fail(c_.find("branches.from"), "branches.from", "the saved state '" + *from + "': " + err.message(),
              "a DIR/states/BPn.json of this model, written by trace");
    }
    st.source = *from;
    // The branches start at the saved point's λ, and stop where they cross a bound:
    // one outside [lambda_min, lambda_max] would run on past it (lambda_max = 12 with
    // Roorda's BP1 at 14.0: branches to λ = 17.5), and a bound on the other side of 0
    // is no reason to refuse (lambda_min = 10 was, "the trace starts at lambda = 0").
    const continuation::Options& o = s.analysis.explorer.path;
    const std::string at = "the branches start at lambda = " + fmt::format("{:.17g}", st.point.lambda) +
                           " (branches.from " + *from + ")";
    if (o.lambda_min > st.point.lambda)
      c_.fail(c_.find("stop.lambda_min"), "stop.lambda_min", at + ", below lambda_min",
              "(-inf, the saved point's lambda]");
    if (o.lambda_max < st.point.lambda)
      c_.fail(c_.find("stop.lambda_max"), "stop.lambda_max", at + ", above lambda_max",
              "[the saved point's lambda, inf)");
    // The same for stop.displacement: branches from a point past it ended at once,
    // "displacement limit reached".
    if (o.monitor_dof >= 0 && o.monitor_dof < st.point.q.size() &&
        std::abs(st.point.q[o.monitor_dof]) > o.max_displacement)
      c_.fail(c_.find("stop.displacement"), "stop.displacement",
              "the branches start at " + model_->dof_name(o.monitor_dof) + " = " +
                  fmt::format("{:.17g}", st.point.q[o.monitor_dof]) + " (branches.from " + *from +
                  "), beyond the limit",
              "a limit above the saved point's |displacement|");
    s.analysis.from = std::move(st);
  }
  s.model = std::move(model_);
  if (const std::string why = s.analysis.validate(); !why.empty())
    c_.fail(nullptr, "", "inconsistent options: " + why);
  return s;
}

}  // namespace

Spec build(const Config& config) {
  for (const Entry& e : config.entries())
    if (e.key.rfind("cosim.", 0) == 0)
      config.fail(&e, e.key, "this is a co-simulation file ([cosim]): run it with 'cosim FILE.cfg'");
  return Builder(config).run();
}

std::vector<std::string> track_columns(const Spec& spec) {
  std::vector<std::string> out;
  for (const TrackedDof& t : spec.track) out.push_back(t.column);
  return out;
}

Spec load(const fs::path& file, const std::vector<std::string>& overrides) {
  Config c = Config::read_file(file);
  c.apply_overrides(overrides);
  return build(c);
}

void check_mechanism(const Spec& spec) {
  const model::Model& m = *spec.model;
  const analysis::MechanismCheck c = analysis::check_mechanism(m);
  if (c.kind == analysis::MechanismKind::Held) return;
  const std::string file = spec.config_file.string();
  // 3D, a model with ball joints (a member's own rotation vector at a node, "node 2
  // rx (member 13)"), whose mechanism turns something: the usual cause is a line of
  // members ball-jointed at both of its ends, which spins about itself. Senda holds
  // that spin (docs/notes/beam3d.md S.10) only for one member released at both ends,
  // not for a chain of members — what a girder meshed into several lines is (each
  // line one member). Holding it for a chain is not result-neutral in general (a
  // load on an inner node of the chain breaks the symmetry the rule rests on, and a
  // mesh can name those nodes), so the message names the cause and the remedies. The
  // unknowns listed cannot tell it (an exact zero pivot is found at an inner node's
  // rotation, "node 5 rx"), hence "if".
  const auto rotation = [&](int eq) {
    std::string n = m.dof_name(eq);  // "node 5 rx", "node 2 rx (member 13)"
    if (const auto p = n.find(" (member "); p != std::string::npos) n.resize(p);
    const std::string c = n.substr(n.rfind(' ') + 1);
    return c == "rx" || c == "ry" || c == "rz" || c == "r2" || c == "r3";
  };
  bool ball_joints = false;
  for (int eq = 0; m.dim() == 3 && eq < m.size() && !ball_joints; ++eq)
    ball_joints = m.equation_dof(eq).slot > 0 && rotation(eq);
  // Not for one member's own rotation alone (tests/bad-input/428: a member ball-jointed at
  // one end, free about its axis there): the message's own-rotation advice is the cause.
  const auto spin_hint = [&](const std::vector<int>& eqs) -> std::string {
    const bool one_own = eqs.size() == 1 && !c.more && rotation(eqs[0]) && m.equation_dof(eqs[0]).slot > 0;
    if (!ball_joints || std::none_of(eqs.begin(), eqs.end(), rotation) || one_own) return {};
    return "; if a line of several members (a girder meshed into several lines, or typed as several members) is "
           "ball-jointed at both of its ends, it turns freely about itself, a spin that Senda holds only for one "
           "member released at both ends (beam = ID NODE_A NODE_B ... N): type the line as one member, or let a "
           "joint carry the twist, a one-axis hinge (about VX VY VZ), a two-axis joint (about VX VY VZ WX WY WZ, "
           "the two bending axes) or a spring K (docs/config.md, model.hinge)";
  };
  // The line of the node of an unknown (its model.node line, or model.mesh's for a
  // mesh node), and that line's key (it was always 'model.fix', at a line that holds
  // a node or the mesh); an intermediate node of a meshed member has none: line stays
  // 0, the file alone, and the key the one that helps, model.fix.
  std::string key = "model.fix";
  const auto node_line = [&](int eq, int& line, std::string& where) {
    const int n = m.equation_dof(eq).node;
    if (n >= 0 && n < static_cast<int>(spec.node_entries.size())) {
      line = spec.node_entries[n].line;
      where = spec.node_entries[n].file;
      if (line > 0) key = spec.node_entries[n].key;
    }
  };
  if (c.kind == analysis::MechanismKind::NearlySingular) {
    // At the line of the first node the mechanism moves that has one (a hinge's node for
    // a member's own rotation there), as an exact zero pivot's message is (it had no
    // line at all: "x.cfg: key 'model.fix': ...").
    int line = 0;
    std::string where = file;
    for (int eq : c.moves) {
      node_line(eq, line, where);
      if (line > 0) break;
    }
    std::string moves;
    for (int eq : c.moves) moves += (moves.empty() ? "" : ", ") + m.dof_name(eq);
    throw ConfigError(where, line, key,
                      "the structure is a mechanism or is not supported: the tangent stiffness is " +
                          (c.status == linalg::FactorStatus::Ok
                               ? "nearly singular (smallest/largest pivot " + fmt::format("{:.3g}", c.pivot_ratio) + ")"
                               : std::string(linalg::to_string(c.status))) +
                          " at the undeformed state" + (moves.empty() ? "" : "; the mechanism moves " + moves) +
                          "; add supports (fix), elements or a spring at a hinge" + spin_hint(c.moves));
  }
  std::string dofs;
  for (int eq : c.free_equations) dofs += (dofs.empty() ? "" : ", ") + m.dof_name(eq);  // "node 3 uy"
  if (c.more) dofs += ", ...";
  // Locate the message at the first free dof's node line (not for a member's own
  // rotation at a hinge: the file alone, as before).
  int line = 0;
  std::string where = file;
  if (m.equation_dof(c.free_equations.front()).slot == 0) node_line(c.free_equations.front(), line, where);
  const bool several = c.free_equations.size() > 1;
  // A member's own rotation at a hinge cannot be fixed: say what holds it.
  bool own = false;
  for (int eq : c.free_equations) own = own || m.equation_dof(eq).slot > 0;
  throw ConfigError(where, line, key,
                    "the structure is a mechanism or is not supported: the tangent stiffness is singular at the "
                    "undeformed state; free degree" + std::string(several ? "s" : "") + " of freedom: " + dofs +
                        (several ? " (fix them, or add bars or springs that hold them)"
                                 : " (fix it, or add a bar or spring that holds it)") +
                        (own ? "; a member's own rotation at a hinge turns freely when nothing holds the member's "
                               "other end: fix that end's rotation, or add 'spring K' to the hinge"
                             : "") +
                        spin_hint(c.free_equations));
}

}  // namespace senda::input
