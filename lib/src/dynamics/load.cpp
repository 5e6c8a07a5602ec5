#include "senda/dynamics/load.hpp"

#include <algorithm>
#include <cmath>

namespace senda::dynamics {

const char* to_string(LoadKind k) {
  switch (k) {
    case LoadKind::Step: return "step";
    case LoadKind::Ramp: return "ramp";
    case LoadKind::Table: return "table";
  }
  return "?";
}

double LoadHistory::factor(double t) const {
  switch (kind) {
    case LoadKind::Step: return lambda;
    case LoadKind::Ramp: return lambda * std::clamp(t / ramp_time, 0.0, 1.0);
    case LoadKind::Table: {
      if (points.empty()) return 0.0;
      if (t <= points.front().first) return points.front().second;
      if (t >= points.back().first) return points.back().second;
      const auto hi = std::upper_bound(points.begin(), points.end(), t,
                                       [](double x, const std::pair<double, double>& p) { return x < p.first; });
      const auto lo = hi - 1;
      const double s = (t - lo->first) / (hi->first - lo->first);
      return lo->second + s * (hi->second - lo->second);
    }
  }
  return 0.0;
}

std::string LoadHistory::check() const {
  if (!std::isfinite(lambda)) return "the load factor must be finite";
  if (kind == LoadKind::Ramp && !(ramp_time > 0.0 && std::isfinite(ramp_time))) return "the ramp time must be > 0";
  if (kind == LoadKind::Table) {
    if (points.empty()) return "a table load history needs at least one point";
    for (std::size_t k = 1; k < points.size(); ++k)
      if (!(points[k].first > points[k - 1].first)) return "the times of a table load history must increase";
  }
  return {};
}

}  // namespace senda::dynamics
