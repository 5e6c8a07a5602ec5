#include "senda/input/dome.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <Eigen/Core>
#include <fmt/core.h>
#include <fmt/format.h>

namespace senda::input {

namespace {

struct LatticeNode {
  int q, r;       // axial coordinates of the triangular lattice
  int ring;       // hexagonal distance from the centre
  double angle;   // of the lattice position, in [0, 2π)
};

int hex_distance(int q, int r) { return std::max({std::abs(q), std::abs(r), std::abs(q + r)}); }

// The lattice nodes in ring order, by angle within a ring (the crown first).
std::vector<LatticeNode> lattice(int n) {
  std::vector<LatticeNode> out;
  for (int q = -n; q <= n; ++q)
    for (int r = -n; r <= n; ++r) {
      const int k = hex_distance(q, r);
      if (k > n) continue;
      const double x = q + 0.5 * r, y = 0.5 * std::numbers::sqrt3 * r;
      double a = std::atan2(y, x);
      if (a < 0.0) a += 2.0 * std::numbers::pi;
      out.push_back({q, r, k, k == 0 ? 0.0 : a});
    }
  std::sort(out.begin(), out.end(), [](const LatticeNode& u, const LatticeNode& v) {
    return u.ring != v.ring ? u.ring < v.ring : u.angle < v.angle;
  });
  return out;
}

struct Geometry {
  double sphere_radius;  // R
  double z_rim;          // √(R² − a²)
};
Geometry geometry(const DomeOptions& o) {
  const double a = o.base_radius, H = o.rise;
  const double R = (a * a + H * H) / (2.0 * H);
  return {R, std::sqrt(R * R - a * a)};
}
double height(const DomeOptions& o, double rho) {
  const Geometry g = geometry(o);
  return std::sqrt(g.sphere_radius * g.sphere_radius - rho * rho) - g.z_rim;
}

}  // namespace

const char* to_string(DomeLoad load) { return load == DomeLoad::Apex ? "apex" : "distributed"; }

std::string DomeOptions::validate() const {
  if (rings < 2 || rings > 2000) return fmt::format("rings must be in [2, 2000], found {}", rings);
  // Within [1e-50, 1e50]: the sphere's radius is (a² + H²)/(2H), and at a = 1e300 its
  // square overflowed (NaN coordinates); at 1e-300 the heights underflowed to a flat
  // dome. The .cfg reader bounds coordinates by 1e100 and the extent below by 1e-100.
  if (!(base_radius >= 1e-50) || !(base_radius <= 1e50)) return "base_radius must be in [1e-50, 1e50]";
  if (!(rise > 0.0) || !(rise < base_radius)) return "rise must be in (0, base_radius) (a shallow cap)";
  if (!(EA > 0.0) || !std::isfinite(EA)) return "EA must be positive and finite";
  if (layers != 1 && layers != 2) return fmt::format("layers must be 1 or 2, found {}", layers);
  if (!(depth > 0.0) || !(depth <= 10.0)) return "depth must be in (0, 10] (in units of the crown height h1)";
  if (max_steps < 1) return "max_steps must be at least 1";
  return "";
}

long dome_unknowns(int rings, int layers) {
  // 1 + 3n(n − 1) free top nodes; the bottom layer has one node per upward triangle, 3n².
  return 3L * (1L + 3L * rings * (rings - 1L)) + (layers == 2 ? 9L * rings * rings : 0L);
}

double crown_height(const DomeOptions& o) { return o.rise - height(o, o.base_radius / o.rings); }

double star_limit_load(const DomeOptions& o) {
  const double h = crown_height(o), rho = o.base_radius / o.rings;
  const double L = std::hypot(h, rho);
  return 2.0 / std::numbers::sqrt3 * o.EA * std::pow(h / L, 3);
}

std::string dome_config(const DomeOptions& o) {
  if (const std::string why = o.validate(); !why.empty()) throw std::logic_error("dome_config: " + why);
  const int n = o.rings;
  const std::vector<LatticeNode> nodes = lattice(n);
  // (q, r) → node id (1-based, in ring order).
  const int w = 2 * n + 1;
  std::vector<int> id(static_cast<std::size_t>(w) * w, 0);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    id[static_cast<std::size_t>(nodes[i].q + n) * w + (nodes[i].r + n)] = static_cast<int>(i) + 1;
  auto at = [&](int q, int r) {
    if (hex_distance(q, r) > n) return 0;
    return id[static_cast<std::size_t>(q + n) * w + (r + n)];
  };
  // Top-layer positions: ring k on the circle ρ_k = k a/n, lifted onto the cap.
  std::vector<Eigen::Vector3d> top(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const LatticeNode& v = nodes[i];
    const double rho = o.base_radius * v.ring / n;
    top[i] = {rho * std::cos(v.angle), rho * std::sin(v.angle), v.ring == n ? 0.0 : height(o, rho)};
  }
  // Bottom layer (layers = 2): one node under the centroid of every upward triangle
  // (q, r), (q + 1, r), (q, r + 1), depth × h₁ below the mean height of its corners;
  // anchored at (q, r), so the bottom nodes form the same lattice shifted by a third.
  std::vector<int> bottom_id(static_cast<std::size_t>(w) * w, 0);
  std::vector<std::array<int, 3>> corners;  // top ids of each bottom node's triangle
  std::vector<std::pair<int, int>> anchor;
  if (o.layers == 2)
    for (const LatticeNode& v : nodes) {
      const int c0 = at(v.q, v.r), c1 = at(v.q + 1, v.r), c2 = at(v.q, v.r + 1);
      if (c1 == 0 || c2 == 0) continue;
      corners.push_back({c0, c1, c2});
      anchor.emplace_back(v.q, v.r);
      bottom_id[static_cast<std::size_t>(v.q + n) * w + (v.r + n)] = static_cast<int>(nodes.size() + corners.size());
    }
  auto bottom_at = [&](int q, int r) {
    if (q < -n || q > n || r < -n || r > n) return 0;
    return bottom_id[static_cast<std::size_t>(q + n) * w + (r + n)];
  };
  const double h1 = crown_height(o), p_star = star_limit_load(o);
  const char* layer_word = o.layers == 2 ? "double-layer" : "single-layer";
  fmt::memory_buffer b;
  auto out = std::back_inserter(b);
  fmt::format_to(out,
                 "# Shallow {} lattice dome, generated by senda::input::dome_config (the `dome` app):\n"
                 "# {} rings, {} nodes, {} unknowns; base radius {:.17g}, rise {:.17g}, EA {:.17g}; rim pinned;\n"
                 "# {} load. Crown height above ring 1 h1 = {:.17g}; the six crown bars with ring 1 fixed snap\n"
                 "# at P_star = (2/sqrt 3) EA (h1/L1)^3 = {:.17g} (lib/include/senda/input/dome.hpp).\n"
                 "# The reference load is P_star (at each loaded node): lambda is the load in units of P_star.\n",
                 layer_word, n, nodes.size() + corners.size(), dome_unknowns(n, o.layers), o.base_radius, o.rise, o.EA,
                 to_string(o.load), h1, p_star);
  if (o.layers == 2)
    fmt::format_to(out, "# Bottom layer: {} nodes, {:.17g} h1 below the centroids of the top layer's upward triangles.\n",
                   corners.size(), o.depth);
  fmt::format_to(out, "\n[problem]\ntitle = lattice dome, {} rings{}\ndescription = shallow {} truss dome, {} load\n\n", n,
                 o.layers == 2 ? ", two layers" : "", layer_word, to_string(o.load));
  fmt::format_to(out, "[model]\ndim = 3\n");
  for (std::size_t i = 0; i < nodes.size(); ++i)
    fmt::format_to(out, "node = {} {:.17g} {:.17g} {:.17g}\n", i + 1, top[i].x(), top[i].y(), top[i].z());
  const double drop = o.depth * crown_height(o);
  for (std::size_t k = 0; k < corners.size(); ++k) {
    Eigen::Vector3d c = Eigen::Vector3d::Zero();
    for (int t : corners[k]) c += top[static_cast<std::size_t>(t) - 1];
    c /= 3.0;
    fmt::format_to(out, "node = {} {:.17g} {:.17g} {:.17g}\n", nodes.size() + k + 1, c.x(), c.y(), c.z() - drop);
  }
  // Each bar once: the three lattice directions (1, 0), (0, 1), (−1, 1) from every
  // node; the edges between two rim nodes are left out (both ends pinned: they would
  // carry nothing). Bottom layer: its chords in the same directions and three web
  // bars from each bottom node to its triangle's corners (a tetrahedron on a rigid
  // triangle: every bottom node is held).
  int bar = 0;
  const int dirs[3][2] = {{1, 0}, {0, 1}, {-1, 1}};
  for (const LatticeNode& v : nodes)
    for (const auto& d : dirs) {
      const int other = at(v.q + d[0], v.r + d[1]);
      if (other == 0) continue;
      const int self = at(v.q, v.r);
      if (v.ring == n && nodes[static_cast<std::size_t>(other) - 1].ring == n) continue;
      fmt::format_to(out, "truss = {} {} {} {:.17g}\n", ++bar, self, other, o.EA);
    }
  for (std::size_t k = 0; k < corners.size(); ++k) {
    const auto [q, r] = anchor[k];
    const int self = static_cast<int>(nodes.size() + k + 1);
    for (const auto& d : dirs)
      if (const int other = bottom_at(q + d[0], r + d[1]); other != 0)
        fmt::format_to(out, "truss = {} {} {} {:.17g}\n", ++bar, self, other, o.EA);
    for (int t : corners[k]) fmt::format_to(out, "truss = {} {} {} {:.17g}\n", ++bar, self, t, o.EA);
  }
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].ring == n) fmt::format_to(out, "fix = {} all\n", i + 1);
  if (o.load == DomeLoad::Apex) {
    fmt::format_to(out, "load = 1 uz {:.17g}\n", -p_star);
  } else {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i].ring < n) fmt::format_to(out, "load = {} uz {:.17g}\n", i + 1, -p_star);
  }
  // The load is P_star (the crown's bound; for the distributed load too, each node's
  // own snap being of that order): the limit load is near λ = 0.55 at every size, and
  // the first step, a twentieth of the bound, is resolved at every size (a load of 1
  // would put the snap at λ ~ EA (a/(n R))³, below what a step resolves from n ≈ 80).
  fmt::format_to(out, "\n[continuation]\ninitial_step = 0.05\n\n");
  fmt::format_to(out, "[stop]\nmax_steps = {}\ndisplacement = 1 uz {:.6g}\n\n", o.max_steps, 1.5 * h1);
  fmt::format_to(out, "[branches]\nswitch = false\n\n[output]\ntrack = 1 uz\n");
  return fmt::to_string(b);
}

}  // namespace senda::input
