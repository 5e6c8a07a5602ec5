#include "senda/input/mesh.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <system_error>
#include <unordered_map>

#include <fmt/core.h>

namespace senda::input {

namespace fs = std::filesystem;

namespace {

constexpr long long kMaxTag = 2147483647LL;  // node and element tags become Senda's int ids

const char* type_name(long long type) {
  switch (type) {
    case 1: return "2-node line";
    case 2: return "3-node triangle";
    case 3: return "4-node quadrangle";
    case 4: return "4-node tetrahedron";
    case 5: return "8-node hexahedron";
    case 6: return "6-node prism";
    case 7: return "5-node pyramid";
    case 8: return "3-node line";
    case 9: return "6-node triangle";
    case 15: return "point";
    default: return "unknown type";
  }
}

// A cursor over the file's bytes. Numbers are read as ASCII tokens or as binary
// values of the given width, as the file says; every failure names the place.
class Reader {
 public:
  Reader(std::string data, std::string file) : d_(std::move(data)), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& message) const {
    std::string where;
    if (binary_data_) {
      where = "byte " + std::to_string(pos);
    } else {
      const long line = 1 + std::count(d_.begin(), d_.begin() + static_cast<long>(std::min(pos, d_.size())), '\n');
      where = "line " + std::to_string(line);
    }
    throw MeshError(file_ + ": " + where + (section_.empty() ? "" : " (" + section_ + ")") + ": " + message);
  }
  [[noreturn]] void truncated() const {
    fail("the file ends inside " + (section_.empty() ? std::string("the mesh") : section_) + " (truncated?)");
  }

  bool at_end() {
    skip_space();
    return pos_ >= d_.size();
  }
  void skip_space() {
    while (pos_ < d_.size() && std::isspace(static_cast<unsigned char>(d_[pos_]))) ++pos_;
  }
  std::string token() {
    skip_space();
    if (pos_ >= d_.size()) truncated();
    const std::size_t b = pos_;
    while (pos_ < d_.size() && !std::isspace(static_cast<unsigned char>(d_[pos_]))) ++pos_;
    return d_.substr(b, pos_ - b);
  }
  // One '\n' (the binary data of a section starts right after its header line).
  void end_of_line() {
    while (pos_ < d_.size() && (d_[pos_] == ' ' || d_[pos_] == '\r')) ++pos_;
    if (pos_ >= d_.size()) truncated();
    if (d_[pos_] != '\n') fail("expected the end of the line");
    ++pos_;
  }
  long long ascii_integer(const char* what) {
    const std::size_t at = (skip_space(), pos_);
    const std::string t = token();
    long long v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) fail_at(at, std::string(what) + ": '" + t + "' is not an integer");
    return v;
  }
  // An integer of the section's data: an ASCII token, or binary of `width` bytes
  // (4: int, 8: size_t).
  long long integer(const char* what, int width) {
    if (!binary_data_) return ascii_integer(what);
    if (d_.size() - pos_ < static_cast<std::size_t>(width)) truncated();
    long long v = 0;
    if (width == 4) {
      std::int32_t x;
      std::memcpy(&x, d_.data() + pos_, 4);
      v = x;
    } else {
      std::uint64_t x;
      std::memcpy(&x, d_.data() + pos_, 8);
      if (x > static_cast<std::uint64_t>(1) << 62) fail(std::string(what) + ": " + std::to_string(x) + " is out of range");
      v = static_cast<long long>(x);
    }
    pos_ += static_cast<std::size_t>(width);
    return v;
  }
  // A count: not negative, and not more items than bytes left (each takes at least one).
  long long count(const char* what, int width) {
    const std::size_t at = pos_;
    const long long v = integer(what, width);
    if (v < 0) fail_at(at, std::string(what) + ": negative count " + std::to_string(v));
    if (static_cast<unsigned long long>(v) > d_.size() - pos_)
      fail_at(at, std::string(what) + ": " + std::to_string(v) + " is more than the bytes left in the file (truncated, or a wrong size)");
    return v;
  }
  double real(const char* what) {
    if (binary_data_) {
      if (d_.size() - pos_ < 8) truncated();
      double x;
      std::memcpy(&x, d_.data() + pos_, 8);
      pos_ += 8;
      if (!std::isfinite(x)) fail(std::string(what) + ": not a finite number");
      return x;
    }
    const std::size_t at = (skip_space(), pos_);
    const std::string t = token();
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v))
      fail_at(at, std::string(what) + ": '" + t + "' is not a finite number");
    return v;
  }
  std::string quoted(const char* what) {
    skip_space();
    if (pos_ >= d_.size()) truncated();
    if (d_[pos_] != '"') fail(std::string(what) + ": expected a name in double quotes");
    const std::size_t e = d_.find('"', pos_ + 1);
    if (e == std::string::npos || d_.find('\n', pos_) < e) fail(std::string(what) + ": the name has no closing quote");
    std::string s = d_.substr(pos_ + 1, e - pos_ - 1);
    pos_ = e + 1;
    return s;
  }
  void expect_end(const std::string& name) {
    binary_data_ = false;
    const std::size_t at = (skip_space(), pos_);
    if (at >= d_.size()) truncated();
    const std::string t = token();
    if (t != "$End" + name.substr(1))
      fail_at(at, "expected $End" + name.substr(1) + ", found '" + t.substr(0, 40) + "' (a count or a size that does not match the data?)");
  }
  // Skips an unknown section up to its $End line.
  void skip_section(const std::string& name) {
    const std::string end = "\n$End" + name.substr(1);
    const std::size_t e = d_.find(end, pos_);
    if (e == std::string::npos) truncated();
    pos_ = e + end.size();
  }

  void set_section(std::string s) { section_ = std::move(s); }
  void set_binary_data(bool b) { binary_data_ = b; }
  bool binary_data() const { return binary_data_; }
  // Where the next item of the data starts: past the white space in ASCII.
  std::size_t item_pos() {
    if (!binary_data_) skip_space();
    return pos_;
  }
  const std::string& section() const { return section_; }
  std::size_t pos() const { return pos_; }

 private:
  std::string d_;
  std::string file_;
  std::size_t pos_ = 0;
  std::string section_;
  bool binary_data_ = false;
};

std::string read_bytes(const fs::path& file, std::uintmax_t max_bytes) {
  const std::string name = file.string();
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw MeshError(name + ": cannot read the mesh: " + ec.message());
  if (ec || !fs::exists(st)) throw MeshError(name + ": cannot read the mesh: no such file");
  if (!fs::is_regular_file(st)) throw MeshError(name + ": the mesh is not a regular file");
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec) throw MeshError(name + ": cannot read the mesh: " + ec.message());
  if (size > max_bytes) throw MeshError(name + ": the mesh is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw MeshError(name + ": cannot open the mesh");
  // Not a mesh at all (a library, an image): said before the whole file is read.
  std::string head(64, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.empty()) throw MeshError(name + ": the mesh file is empty");
  const std::size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string::npos || head.compare(start, 11, "$MeshFormat") != 0)
    throw MeshError(name + ": line 1: not a Gmsh MSH file (it must start with $MeshFormat)");
  in.clear();
  in.seekg(0);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return bytes;
}

int as_tag(Reader& r, long long v, const char* what) {
  if (v < 1 || v > kMaxTag) r.fail(std::string(what) + " " + std::to_string(v) + " is outside [1, 2147483647]");
  return static_cast<int>(v);
}

class MshParser {
 public:
  MshParser(std::string bytes, std::string file) : r_(std::move(bytes), file) { m_.file = std::move(file); }
  Mesh run();

 private:
  void format();
  void physical_names();
  void entities();
  void nodes();
  void elements();
  void check();
  // The header of $Nodes and $Elements: the block count and the item count.
  struct Blocks {
    long long blocks = 0, total = 0;
  };
  Blocks begin_blocks(const char* section, bool& seen, const char* items);
  long long block_dim();  // the entityDim of a block, in [0, 3]
  // The entity of a block of $Nodes or $Elements, checked against $Entities once the
  // whole file is read (a block whose entity is not declared would belong to no group).
  void block_entity(long long dim, long long tag, std::size_t at);
  // The data of a section starts on the line after its name; binary data right there.
  void begin_data() {
    if (!m_.binary) return;
    r_.end_of_line();
    r_.set_binary_data(true);
  }

  Reader r_;
  Mesh m_;
  bool seen_nodes_ = false, seen_elements_ = false, seen_entities_ = false;
  struct BlockEntity {
    long long dim, tag;
    std::size_t at;  // the block header's byte
    std::string section;
    bool binary;
  };
  std::vector<BlockEntity> block_entities_;
};

void MshParser::format() {
  r_.set_section("$MeshFormat");
  const std::string version = r_.token();
  if (version != "4.1")
    r_.fail("MSH version " + version.substr(0, 20) + ": Senda reads version 4.1 (write it with gmsh -format msh41)");
  const long long type = r_.ascii_integer("file-type");
  if (type != 0 && type != 1) r_.fail("file-type " + std::to_string(type) + ": 0 (ASCII) or 1 (binary) expected");
  const long long size = r_.ascii_integer("data-size");
  if (size != 8) r_.fail("data-size " + std::to_string(size) + ": Senda reads 8 (the size_t of 64-bit Gmsh)");
  m_.binary = type == 1;
  if (m_.binary) {
    r_.end_of_line();
    r_.set_binary_data(true);
    if (r_.integer("one", 4) != 1) r_.fail("the binary mesh was written with another byte order");
  }
  r_.expect_end("$MeshFormat");
}

void MshParser::physical_names() {
  r_.set_section("$PhysicalNames");
  const long long n = r_.count("numPhysicalNames", 8);
  std::set<std::pair<int, int>> seen;
  for (long long i = 0; i < n; ++i) {
    PhysicalGroup g;
    g.dim = static_cast<int>(r_.ascii_integer("dimension"));
    if (g.dim < 0 || g.dim > 3) r_.fail("dimension " + std::to_string(g.dim) + " of a physical group (0 to 3)");
    g.tag = as_tag(r_, r_.ascii_integer("physicalTag"), "physical tag");
    g.name = r_.quoted("physical name");
    if (!seen.insert({g.dim, g.tag}).second)
      r_.fail("physical group " + std::to_string(g.tag) + " of dimension " + std::to_string(g.dim) + " is named twice");
    m_.groups.push_back(std::move(g));
  }
  r_.expect_end("$PhysicalNames");
}

void MshParser::entities() {
  r_.set_section("$Entities");
  if (seen_entities_) r_.fail("a second $Entities section");
  seen_entities_ = true;
  begin_data();
  long long counts[4];
  for (long long& c : counts) c = r_.count("number of entities", 8);
  for (int dim = 0; dim < 4; ++dim)
    for (long long i = 0; i < counts[dim]; ++i) {
      const int tag = as_tag(r_, r_.integer("entity tag", 4), "entity tag");
      for (int k = 0; k < (dim == 0 ? 3 : 6); ++k) r_.real("entity coordinate");
      const long long nphys = r_.count("numPhysicalTags", 8);
      std::vector<int>& groups = m_.entity_groups[{dim, tag}];
      // A negative tag: the entity is in the group with its orientation reversed
      // (gmsh writes -1 for a curve listed as -3 in `Physical Curve(1) = {1, -3}`).
      // It is in the group all the same; its elements were dropped in silence.
      for (long long k = 0; k < nphys; ++k) {
        const long long t = r_.integer("physical tag", 4);
        groups.push_back(as_tag(r_, t < 0 ? -t : t, "physical tag"));
      }
      if (dim > 0) {
        const long long nb = r_.count("number of bounding entities", 8);
        for (long long k = 0; k < nb; ++k) r_.integer("bounding entity tag", 4);
      }
    }
  r_.expect_end("$Entities");
}

MshParser::Blocks MshParser::begin_blocks(const char* section, bool& seen, const char* items) {
  r_.set_section(section);
  if (seen) r_.fail(std::string("a second ") + section + " section");
  seen = true;
  begin_data();
  Blocks h;
  h.blocks = r_.count("numEntityBlocks", 8);
  h.total = r_.count(items, 8);
  r_.integer("minimum tag", 8);
  r_.integer("maximum tag", 8);
  return h;
}

long long MshParser::block_dim() {
  const long long dim = r_.integer("entityDim", 4);
  if (dim < 0 || dim > 3) r_.fail("entityDim " + std::to_string(dim) + " (0 to 3)");
  return dim;
}

void MshParser::block_entity(long long dim, long long tag, std::size_t at) {
  block_entities_.push_back({dim, tag, at, r_.section(), r_.binary_data()});
}

void MshParser::nodes() {
  const auto [blocks, total] = begin_blocks("$Nodes", seen_nodes_, "numNodes");
  for (long long b = 0; b < blocks; ++b) {
    const std::size_t at = r_.item_pos();
    const long long dim = block_dim();
    block_entity(dim, r_.integer("entityTag", 4), at);
    const long long parametric = r_.integer("parametric", 4);
    if (parametric != 0 && parametric != 1) r_.fail("parametric " + std::to_string(parametric) + " (0 or 1)");
    const long long n = r_.count("numNodesInBlock", 8);
    const std::size_t first = m_.nodes.size();
    for (long long i = 0; i < n; ++i) {
      MeshNode node;
      node.tag = as_tag(r_, r_.integer("nodeTag", 8), "node tag");
      m_.nodes.push_back(node);
    }
    const int extra = parametric ? static_cast<int>(dim) : 0;
    for (long long i = 0; i < n; ++i) {
      Eigen::Vector3d& x = m_.nodes[first + static_cast<std::size_t>(i)].x;
      for (int k = 0; k < 3; ++k) x[k] = r_.real("node coordinate");
      // As for model.node: the extent and the duplicate test stay finite.
      if (x.cwiseAbs().maxCoeff() > 1e100)
        r_.fail(fmt::format("node {}: a coordinate exceeds 1e100 in magnitude", m_.nodes[first + static_cast<std::size_t>(i)].tag));
      for (int k = 0; k < extra; ++k) r_.real("parametric coordinate");
    }
  }
  if (static_cast<long long>(m_.nodes.size()) != total)
    r_.fail("the header gives " + std::to_string(total) + " nodes, the blocks hold " + std::to_string(m_.nodes.size()));
  r_.expect_end("$Nodes");
}

void MshParser::elements() {
  const auto [blocks, total] = begin_blocks("$Elements", seen_elements_, "numElements");
  for (long long b = 0; b < blocks; ++b) {
    const std::size_t at = r_.item_pos();
    const long long dim = block_dim();
    const long long entity = r_.integer("entityTag", 4);
    block_entity(dim, entity, at);
    const long long type = r_.integer("elementType", 4);
    const std::string block = fmt::format("the block of entity {} of dimension {}", entity, dim);
    if (type != 1 && type != 15)
      r_.fail(fmt::format("element type {} ({}) in {}: Senda reads 2-node lines (type 1), which become trusses or "
                          "beams, and points (type 15); mesh in 1D (gmsh -1)",
                          type, type_name(type), block));
    const int per = type == 1 ? 2 : 1;
    if ((type == 1) != (dim == 1)) r_.fail(fmt::format("{} elements in {}", type_name(type), block));
    const long long n = r_.count("numElementsInBlock", 8);
    for (long long i = 0; i < n; ++i) {
      MeshElement e;
      e.type = static_cast<int>(type);
      e.entity_dim = static_cast<int>(dim);
      e.entity_tag = static_cast<int>(entity);
      e.tag = as_tag(r_, r_.integer("elementTag", 8), "element tag");
      for (int k = 0; k < per; ++k) e.nodes[k] = as_tag(r_, r_.integer("nodeTag", 8), "node tag");
      m_.elements.push_back(e);
    }
  }
  if (static_cast<long long>(m_.elements.size()) != total)
    r_.fail("the header gives " + std::to_string(total) + " elements, the blocks hold " + std::to_string(m_.elements.size()));
  r_.expect_end("$Elements");
}

// Tags unique, element nodes defined, no zero-length line, no two nodes at one place.
void MshParser::check() {
  const std::string& f = m_.file;
  if (!seen_nodes_) throw MeshError(f + ": no $Nodes section");
  if (!seen_elements_) throw MeshError(f + ": no $Elements section");
  // Groups reach elements through the entities of $Entities: a block of an entity
  // not declared there would belong to no group and be dropped without a word (a
  // corrupt or hand-edited file). A file without $Entities has no groups at all, which
  // the builder reports when a key names one.
  if (seen_entities_)
    for (const BlockEntity& b : block_entities_)
      if (b.tag < 1 || b.tag > kMaxTag || !m_.entity_groups.count({static_cast<int>(b.dim), static_cast<int>(b.tag)})) {
        r_.set_section(b.section);
        r_.set_binary_data(b.binary);
        r_.fail_at(b.at, fmt::format("entity {} of dimension {} is not in $Entities", b.tag, b.dim));
      }
  for (std::size_t i = 0; i < m_.nodes.size(); ++i)
    if (!m_.node_by_tag.emplace(m_.nodes[i].tag, static_cast<int>(i)).second)
      throw MeshError(fmt::format("{}: node {} is defined twice in $Nodes", f, m_.nodes[i].tag));
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = Eigen::Vector3d::Constant(-INFINITY);
  for (const MeshNode& n : m_.nodes) {
    lo = lo.cwiseMin(n.x);
    hi = hi.cwiseMax(n.x);
  }
  const double extent = m_.nodes.empty() ? 0.0 : (hi - lo).stableNorm();
  const double tol = 1e-12 * extent;
  const auto at = [](const Eigen::Vector3d& x) { return fmt::format("({:.17g}, {:.17g}, {:.17g})", x[0], x[1], x[2]); };
  std::set<int> element_tags;
  for (const MeshElement& e : m_.elements) {
    if (!element_tags.insert(e.tag).second) throw MeshError(fmt::format("{}: element {} is defined twice in $Elements", f, e.tag));
    for (int k = 0; k < (e.type == 1 ? 2 : 1); ++k)
      if (!m_.node_by_tag.count(e.nodes[k]))
        throw MeshError(fmt::format("{}: element {} uses node {}, which $Nodes does not define", f, e.tag, e.nodes[k]));
    if (e.type != 1) continue;
    if (e.nodes[0] == e.nodes[1])
      throw MeshError(fmt::format("{}: element {} has zero length: it joins node {} to itself", f, e.tag, e.nodes[0]));
    const Eigen::Vector3d& a = m_.nodes[m_.node_by_tag.at(e.nodes[0])].x;
    const Eigen::Vector3d& b = m_.nodes[m_.node_by_tag.at(e.nodes[1])].x;
    if (!((b - a).stableNorm() > tol))
      throw MeshError(fmt::format("{}: element {} has zero length: nodes {} and {} are at the same position {}", f, e.tag,
                                  e.nodes[0], e.nodes[1], at(a)));
  }
  // Duplicate positions: a grid of cells of size tol; a pair closer than tol is in
  // neighbouring cells. (A non-coherent geometry gives Gmsh nodes that coincide.)
  if (m_.nodes.size() < 2) return;
  if (tol == 0.0)
    throw MeshError(fmt::format("{}: duplicate nodes: nodes {} and {} are at the same position {}", f, m_.nodes[0].tag,
                                m_.nodes[1].tag, at(m_.nodes[0].x)));
  struct Key {
    long long i, j, k;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    std::size_t operator()(const Key& c) const {
      // Unsigned: the products wrap (cell indices reach 1e12), signed ones would overflow.
      const auto u = [](long long v) { return static_cast<unsigned long long>(v); };
      return static_cast<std::size_t>(u(c.i) * 73856093ULL ^ u(c.j) * 19349663ULL ^ u(c.k) * 83492791ULL);
    }
  };
  std::unordered_map<Key, std::vector<int>, Hash> cells;
  cells.reserve(m_.nodes.size());
  for (std::size_t n = 0; n < m_.nodes.size(); ++n) {
    const Eigen::Vector3d c = ((m_.nodes[n].x - lo) / tol).array().floor();
    const Key key{static_cast<long long>(c[0]), static_cast<long long>(c[1]), static_cast<long long>(c[2])};
    for (long long di = -1; di <= 1; ++di)
      for (long long dj = -1; dj <= 1; ++dj)
        for (long long dk = -1; dk <= 1; ++dk) {
          const auto it = cells.find({key.i + di, key.j + dj, key.k + dk});
          if (it == cells.end()) continue;
          for (int o : it->second)
            if ((m_.nodes[o].x - m_.nodes[n].x).stableNorm() <= tol)
              throw MeshError(fmt::format("{}: duplicate nodes: nodes {} and {} are at the same position {} (within "
                                          "1e-12 of the mesh's extent; is the geometry coherent?)",
                                          f, m_.nodes[o].tag, m_.nodes[n].tag, at(m_.nodes[n].x)));
        }
    cells[key].push_back(static_cast<int>(n));
  }
}

Mesh MshParser::run() {
  bool first = true;
  while (!r_.at_end()) {
    r_.set_section("");
    r_.set_binary_data(false);
    const std::size_t at = r_.pos();
    const std::string name = r_.token();
    if (name.size() < 2 || name[0] != '$')
      r_.fail_at(at, first ? "not a Gmsh MSH file (it must start with $MeshFormat)"
                           : "expected a section ($Nodes, $Elements, ...), found '" + name.substr(0, 40) + "'");
    if (first && name != "$MeshFormat") r_.fail_at(at, "not a Gmsh MSH file (it must start with $MeshFormat)");
    first = false;
    if (name == "$MeshFormat") format();
    else if (name == "$PhysicalNames") physical_names();
    else if (name == "$Entities") entities();
    else if (name == "$Nodes") nodes();
    else if (name == "$Elements") elements();
    else if (name == "$PartitionedEntities") r_.fail_at(at, "a partitioned mesh: Senda reads unpartitioned meshes");
    else r_.skip_section(name);
  }
  if (first) throw MeshError(m_.file + ": not a Gmsh MSH file (no $MeshFormat)");
  check();
  return std::move(m_);
}

}  // namespace

std::vector<const PhysicalGroup*> Mesh::find_groups(const std::string& name) const {
  std::vector<const PhysicalGroup*> out;
  for (const PhysicalGroup& g : groups)
    if (g.name == name) out.push_back(&g);
  return out;
}

std::vector<int> Mesh::elements_in(const std::string& name) const {
  std::set<std::pair<int, int>> entities;  // (dim, entity tag) of the group's entities
  for (const PhysicalGroup* g : find_groups(name))
    for (const auto& [entity, tags] : entity_groups)
      if (entity.first == g->dim && std::find(tags.begin(), tags.end(), g->tag) != tags.end()) entities.insert(entity);
  std::vector<int> out;
  for (std::size_t i = 0; i < elements.size(); ++i)
    if (entities.count({elements[i].entity_dim, elements[i].entity_tag})) out.push_back(static_cast<int>(i));
  return out;
}

std::string Mesh::group_names() const {
  // A .cfg names a group by one field of a record, group:NAME: a field ends at
  // whitespace and '#' starts a comment, and there is no quoting, so a name holding
  // either cannot be written there. Listing such a name as valid ("my col") would
  // promise what the reader cannot do: it is set apart, with the remedy.
  const auto nameable = [](const std::string& n) {
    return std::none_of(n.begin(), n.end(), [](char c) { return c == '#' || std::isspace(static_cast<unsigned char>(c)); });
  };
  std::set<std::string> names, unnameable;
  for (const PhysicalGroup& g : groups) (nameable(g.name) ? names : unnameable).insert(g.name);
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  if (s.empty()) s = "none";
  if (unnameable.empty()) return s;
  std::string u;
  for (const std::string& n : unnameable) u += (u.empty() ? "'" : ", '") + n + "'";
  const bool one = unnameable.size() == 1;
  return s + "; the group" + (one ? " " : "s ") + u + (one ? " has a name" : " have names") +
         " that group:NAME cannot hold (a field ends at a space and '#' starts a comment; there is no quoting): "
         "rename " + (one ? "it" : "them") + " in the .geo without spaces or '#' (Physical Curve(\"my_col\")) and mesh again";
}

int Mesh::node_index(int tag) const {
  const auto it = node_by_tag.find(tag);
  return it == node_by_tag.end() ? -1 : it->second;
}

Mesh read_msh(const fs::path& file, std::uintmax_t max_bytes) {
  return MshParser(read_bytes(file, max_bytes), file.string()).run();
}

}  // namespace senda::input
