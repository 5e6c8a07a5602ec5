#pragma once
// Reader of Gmsh MSH 4.1 files (ASCII and binary), for `model.mesh` (docs/config.md).
//
// Senda reads the file itself instead of linking Gmsh's API (libgmsh): the API keeps
// one process-wide model behind gmsh::initialize()/finalize(), which is global mutable
// state (lib/ keeps none) and would make two meshes read at once share it. The part
// of the format Senda needs is small: $MeshFormat, $PhysicalNames, $Entities, $Nodes
// and $Elements (the format is described in the Gmsh reference manual, "MSH file
// format version 4.1"); other sections are skipped, partitioned meshes refused.
//
// Elements kept: 2-node lines (Gmsh type 1) and points (type 15, which Gmsh writes for
// a physical group of points). Any other type is an error: mesh in 1D (`gmsh -1`).
// An element belongs to the physical groups of the entity it is classified on.
//
// Every error is a MeshError naming the file, where in it (line of an ASCII file, byte
// offset of a binary one, the section) and the entity: node tag, element tag, group.
// Counts in the file are never trusted for allocation beyond the bytes it has.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace senda::input {

class MeshError : public std::runtime_error {
 public:
  explicit MeshError(const std::string& what) : std::runtime_error(what) {}
};

struct MeshNode {
  int tag = 0;
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
};

struct MeshElement {
  int tag = 0;
  int type = 0;                     // 1: 2-node line, 15: point
  int entity_dim = 0, entity_tag = 0;
  std::array<int, 2> nodes{0, 0};   // node tags; a point uses nodes[0] only
};

struct PhysicalGroup {
  int dim = 0, tag = 0;
  std::string name;  // "" when $PhysicalNames does not name it
};

struct Mesh {
  std::string file;
  bool binary = false;
  std::vector<MeshNode> nodes;           // in file order, tags unique
  std::vector<MeshElement> elements;     // in file order, tags unique
  std::vector<PhysicalGroup> groups;     // in $PhysicalNames order
  // (entity dim, entity tag) -> physical tags of that entity
  std::map<std::pair<int, int>, std::vector<int>> entity_groups;

  // The groups called `name` (Gmsh lets groups of several dimensions share a name;
  // the builder refuses such a name where a key uses it).
  std::vector<const PhysicalGroup*> find_groups(const std::string& name) const;
  // Indices into elements of every element in a group called `name`, in file order.
  std::vector<int> elements_in(const std::string& name) const;
  // The names of every named group, "a, b, c" (for messages); names that a .cfg
  // field cannot hold (a space, a '#') are set apart after them, with the remedy.
  std::string group_names() const;
  // Index into nodes by tag, or -1.
  int node_index(int tag) const;

  std::map<int, int> node_by_tag;  // tag -> index into nodes
};

// Reads and checks a mesh: MSH 4.1, ASCII or binary (data size 8, either byte order
// refused but the machine's), supported element types, unique node and element tags,
// every element node defined, no two nodes at the same position (within 1e-12 of the
// mesh's extent), no line element of zero length. Throws MeshError.
// `max_bytes` bounds the file size (checked before a byte is read).
Mesh read_msh(const std::filesystem::path& file, std::uintmax_t max_bytes = std::uintmax_t(1) << 30);

}  // namespace senda::input
