#include "senda/output/svg.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <system_error>
#include <vector>

#include "senda/output/results.hpp"
#include "xml_text.hpp"

namespace senda::output {

namespace fs = std::filesystem;
using model::Component;

namespace {

constexpr double kWidth = 800.0, kMaxPlotHeight = 560.0, kMargin = 50.0, kTop = 70.0;
constexpr double kStubFraction = 0.04;  // length of a ground-spring stub / structure size
constexpr double kPi = 3.14159265358979323846;

struct P2 {
  double x = 0.0, y = 0.0;
};

// The drawing plane: x-y in 2D, an axonometric view in 3D.
P2 project(const model::Model& m, const Eigen::Vector3d& x) {
  if (m.dim() == 2) return {x[0], x[1]};
  const double az = 30.0 * kPi / 180.0, el = 25.0 * kPi / 180.0;
  return {x[0] * std::cos(az) - x[1] * std::sin(az),
          (x[0] * std::sin(az) + x[1] * std::cos(az)) * std::sin(el) + x[2] * std::cos(el)};
}

Eigen::Vector3d translation(const model::Model& m, const Vector& v, int n) {
  return {m.displacement(v, n, Component::Ux), m.displacement(v, n, Component::Uy),
          m.displacement(v, n, Component::Uz)};
}

std::vector<int> element_nodes(const model::Element& e) {
  std::vector<int> nodes;
  for (const model::DofRef& d : e.dofs())
    if (std::find(nodes.begin(), nodes.end(), d.node) == nodes.end()) nodes.push_back(d.node);
  return nodes;
}

// Size of the undeformed structure: the longest side of its bounding box (1 for a single point).
double structure_size(const model::Model& m) {
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int n = 0; n < m.node_count(); ++n) {
    lo = lo.cwiseMin(m.node_position(n));
    hi = hi.cwiseMax(m.node_position(n));
  }
  const double d = m.node_count() > 0 ? (hi - lo).maxCoeff() : 0.0;
  return d > 0 ? d : 1.0;
}

using detail::xml_escape;

}  // namespace

double mode_scale(const model::Model& m, const Vector& v, double fraction) {
  double umax = 0.0;
  for (int n = 0; n < m.node_count(); ++n) umax = std::max(umax, translation(m, v, n).norm());
  return umax > 0 ? fraction * structure_size(m) / umax : 0.0;
}

std::string svg_text(const model::Model& m, const Drawing& d) {
  const int nn = m.node_count();
  const double size = structure_size(m);
  // Projected node positions of the two layers.
  std::vector<P2> base(nn), moved(nn);
  for (int n = 0; n < nn; ++n) {
    base[n] = project(m, m.node_position(n));
    if (d.u) moved[n] = project(m, m.node_position(n) + d.scale * translation(m, *d.u, n));
  }
  std::vector<std::vector<int>> cells;
  for (int e = 0; e < m.element_count(); ++e) cells.push_back(element_nodes(m.element(e)));
  const double stub = kStubFraction * size;

  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  auto extend = [&](const P2& p) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x), ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  };
  for (int n = 0; n < nn; ++n) {
    extend(base[n]);
    if (d.u) extend(moved[n]);
  }
  for (const auto& c : cells)
    if (c.size() == 1) extend({base[c[0]].x, base[c[0]].y - stub});
  if (!(xhi >= xlo)) xlo = xhi = ylo = yhi = 0.0;
  const double bw = xhi - xlo, bh = yhi - ylo;
  double s = bw > 0 ? (kWidth - 2 * kMargin) / bw : (bh > 0 ? kMaxPlotHeight / bh : 1.0);
  if (bh * s > kMaxPlotHeight) s = kMaxPlotHeight / bh;
  const double plot_w = bw * s, plot_h = bh * s;
  const double height = kTop + plot_h + kMargin;
  const double x0 = (kWidth - plot_w) / 2;  // centred
  auto sx = [&](const P2& p) { return x0 + (p.x - xlo) * s; };
  auto sy = [&](const P2& p) { return kTop + (yhi - p.y) * s; };

  std::string out;
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\">\n",
      kWidth, height, kWidth, height);
  out +=
      "<style>\n"
      "  polyline { fill: none; stroke-linecap: round; stroke-linejoin: round; }\n"
      "  .undeformed { stroke: #111111; stroke-width: 2; }\n"
      "  .reference { stroke: #b0b0b0; stroke-width: 1.5; }\n"
      "  .deformed { stroke: #1f5fbf; stroke-width: 2.5; }\n"
      "  .mode { stroke: #c0392b; stroke-width: 2.5; }\n"
      "  text { font-family: sans-serif; fill: #111111; }\n"
      "  .title { font-size: 18px; }\n"
      "  .caption { font-size: 13px; fill: #444444; }\n"
      "  .node-label { font-size: 11px; fill: #555555; }\n"
      "</style>\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += fmt::format("<text class=\"title\" x=\"{:.1f}\" y=\"26\">{}</text>\n", kMargin / 2, xml_escape(d.title));
  if (!d.caption.empty())
    out += fmt::format("<text class=\"caption\" x=\"{:.1f}\" y=\"48\">{}</text>\n", kMargin / 2, xml_escape(d.caption));

  auto layer = [&](const std::vector<P2>& pts, const char* cls) {
    out += fmt::format("<g class=\"layer-{}\">\n", cls);
    for (std::size_t e = 0; e < cells.size(); ++e) {
      const auto& c = cells[e];
      std::string points;
      for (int n : c) points += fmt::format("{}{:.2f},{:.2f}", points.empty() ? "" : " ", sx(pts[n]), sy(pts[n]));
      if (c.size() == 1) {  // a spring to ground: a stub below its node
        const P2 g{pts[c[0]].x, pts[c[0]].y - stub};
        points += fmt::format(" {:.2f},{:.2f}", sx(g), sy(g));
      }
      out += fmt::format("<polyline class=\"{}\" data-element=\"{}\" points=\"{}\"/>\n", cls, e, points);
    }
    out += "</g>\n";
  };
  layer(base, d.u ? "reference" : "undeformed");
  if (d.u) layer(moved, d.layer);
  if (d.node_labels) {
    out += "<g class=\"layer-nodes\">\n";
    for (int n = 0; n < nn; ++n) {
      out += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3\" fill=\"#111111\"/>\n", sx(base[n]), sy(base[n]));
      out += fmt::format("<text class=\"node-label\" x=\"{:.2f}\" y=\"{:.2f}\">{}</text>\n", sx(base[n]) + 5,
                         sy(base[n]) - 5, m.node_id(n));
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

void write_structure_drawing(const fs::path& dir, const model::Model& m, const std::string& title) {
  std::error_code ec;
  fs::create_directories(dir / "drawings", ec);
  if (ec) throw OutputError((dir / "drawings").string() + ": cannot create: " + ec.message());
  Drawing d;
  d.title = title;
  d.caption = fmt::format("undeformed: {} nodes, {} elements", m.node_count(), m.element_count());
  d.node_labels = true;
  write_file_atomically(dir / "drawings" / "structure.svg", svg_text(m, d));
}

void write_critical_drawings(const fs::path& dir, const model::Model& m, const critical::CriticalPoint& cp) {
  if (!cp.converged || cp.q.size() != m.size()) return;
  std::error_code ec;
  fs::create_directories(dir / "drawings", ec);
  if (ec) throw OutputError((dir / "drawings").string() + ": cannot create: " + ec.message());
  const std::string what = fmt::format("{} {} point, lambda = {:.9g}", cp.id, critical::to_string(cp.kind), cp.lambda);
  Drawing shape;
  shape.title = what;
  shape.caption = "deformed shape, true scale (grey: undeformed)";
  shape.u = &cp.q;
  write_file_atomically(dir / "drawings" / (cp.id + "_shape.svg"), svg_text(m, shape));
  if (cp.phi.size() != m.size()) return;
  Drawing mode;
  mode.title = what;
  mode.u = &cp.phi;
  mode.layer = "mode";
  mode.scale = mode_scale(m, cp.phi);
  mode.caption = fmt::format("buckling mode, largest nodal translation {:g} of the structure's size (grey: undeformed)",
                             kModeDrawingFraction);
  write_file_atomically(dir / "drawings" / (cp.id + "_mode.svg"), svg_text(m, mode));
}

}  // namespace senda::output
