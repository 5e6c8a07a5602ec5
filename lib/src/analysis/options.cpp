#include "senda/analysis/options.hpp"

#include <cmath>
#include <cstdio>

namespace senda::analysis {

const char* to_string(CurveDirections d) {
  switch (d) {
    case CurveDirections::Both: return "both";
    case CurveDirections::Up: return "up";
    case CurveDirections::Down: return "down";
  }
  return "both";
}

std::optional<CurveDirections> curve_directions_from_string(std::string_view s) {
  if (s == "both") return CurveDirections::Both;
  if (s == "up") return CurveDirections::Up;
  if (s == "down") return CurveDirections::Down;
  return std::nullopt;
}

namespace {
// The reason, or "" when ok; the ranges are those of docs/config.md.
std::string need(bool ok, const char* field, const char* range) {
  return ok ? std::string() : std::string(field) + " must be " + range;
}
bool finite_positive(double x) { return std::isfinite(x) && x > 0.0; }
std::string g17(double x) {  // every digit, as the .cfg builder writes a lambda
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
}  // namespace

std::string validate(const continuation::Options& o) {
  for (const std::string& why : {
           need(finite_positive(o.initial_load_increment), "path.initial_load_increment", "> 0 and finite"),
           need(o.min_step_ratio > 0.0 && o.min_step_ratio <= 1.0, "path.min_step_ratio", "in (0, 1]"),
           need(o.max_step_ratio >= 1.0, "path.max_step_ratio", ">= 1"),
           need(o.max_step_growth >= 1.0, "path.max_step_growth", ">= 1"),
           need(o.max_turn_degrees > 0.0 && o.max_turn_degrees <= 180.0, "path.max_turn_degrees", "in (0, 180]"),
           need(o.target_iterations >= 1 && o.target_iterations <= o.max_iterations, "path.target_iterations",
                "in [1, path.max_iterations]"),
           need(o.residual_tolerance > 0.0 && o.residual_tolerance < 1.0, "path.residual_tolerance", "in (0, 1)"),
           need(o.increment_tolerance > 0.0 && o.increment_tolerance < 1.0, "path.increment_tolerance", "in (0, 1)"),
           need(o.max_steps >= 1, "path.max_steps", ">= 1"),
           need(o.lambda_min < o.lambda_max, "path.lambda_min", "below path.lambda_max"),
           need(o.direction == 1 || o.direction == -1, "path.direction", "+1 or -1"),
           need(std::isfinite(o.psi) && o.psi >= 0.0, "path.psi", ">= 0 and finite"),
           need(o.max_displacement > 0.0, "path.max_displacement", "> 0 (infinity: no bound)"),
           need(o.monitor_dof >= -1, "path.monitor_dof", "an unknown (>= 0), or -1 for none"),
           need(o.constraint != continuation::ConstraintKind::DisplacementControl || o.control_dof >= 0,
                "path.control_dof", "an unknown (>= 0) with displacement control"),
       })
    if (!why.empty()) return why;
  return {};
}

std::string validate(const critical::FinderOptions& o) {
  const critical::LocateOptions& l = o.locate_options;
  for (const std::string& why : {
           need(l.tolerance > 0.0 && l.tolerance < 1.0, "finder.locate_options.tolerance", "in (0, 1)"),
           need(l.max_iterations >= 1, "finder.locate_options.max_iterations", ">= 1"),
           need(l.bifurcation_tolerance > 0.0 && l.bifurcation_tolerance < 1.0,
                "finder.locate_options.bifurcation_tolerance", "in (0, 1)"),
           need(o.refine_fraction >= 0.0 && o.refine_fraction < 1.0, "finder.refine_fraction", "in [0, 1)"),
       })
    if (!why.empty()) return why;
  return {};
}

std::string validate(const critical::ExplorerOptions& o) {
  if (std::string why = validate(o.path); !why.empty()) return "explorer." + why;
  if (std::string why = validate(o.finder); !why.empty()) return "explorer." + why;
  for (const std::string& why : {
           need(o.max_depth >= 0, "explorer.max_depth", ">= 0"),
           need(o.direction >= -1 && o.direction <= 1, "explorer.direction", "0, +1 or -1"),
           need(finite_positive(o.switch_step_ratio), "explorer.switch_step_ratio", "> 0"),
           need(o.symmetric_tolerance > 0.0 && o.symmetric_tolerance < 1.0, "explorer.symmetric_tolerance",
                "in (0, 1)"),
           need(o.max_branches >= 1, "explorer.max_branches", ">= 1"),
       })
    if (!why.empty()) return why;
  return {};
}

std::string DesignOptions::validate() const {
  const critical::CurveOptions& c = curve;
  for (const std::string& why : {
           need(finite_positive(c.step), "design.curve.step", "> 0"),
           need(c.min_step > 0.0 && c.min_step <= c.step, "design.curve.min_step", "in (0, design.curve.step]"),
           need(c.max_step >= c.step, "design.curve.max_step", ">= design.curve.step"),
           need(c.max_points >= 1, "design.curve.max_points", ">= 1"),
           need(c.target_iterations >= 1, "design.curve.target_iterations", ">= 1"),
           need(!(c.mu_min >= c.mu_max), "design.curve.mu_min", "below design.curve.mu_max"),
       })
    if (!why.empty()) return why;
  return {};
}

std::string AnalysisOptions::validate() const {
  if (std::string why = analysis::validate(explorer); !why.empty()) return why;
  if (std::string why = design.validate(); !why.empty()) return why;
  if (from && from->point.q.size() == 0) return "from: the saved state has no point";
  if (start && from)
    return "start and from: a run starts either its primary path from a state or the branches of a saved point";
  if (start && (start->q.size() == 0 || !start->q.allFinite() || !std::isfinite(start->lambda)))
    return "start: the state must have finite q and lambda";
  // The path stops where λ crosses a bound, so a start outside [lambda_min,
  // lambda_max] would never stop there: it would run on past the bound. The same
  // test as the .cfg builder's (stop.lambda_min, stop.lambda_max), which says it
  // first with the file and line; λ of the start: the saved state's, the saved
  // point's with `from` (its branches start there), else 0.
  const continuation::Options& p = explorer.path;
  const double lambda0 = start ? start->lambda : from ? from->point.lambda : 0.0;
  const std::string at = "the trace starts at lambda = " + g17(lambda0) +
                         (start  ? " (start: " + start->source + ")"
                          : from ? " (from: " + from->source + ")"
                                 : std::string());
  if (p.lambda_min > lambda0)
    return "explorer.path.lambda_min must be <= the start's lambda: " + at + ", below lambda_min = " +
           g17(p.lambda_min);
  if (p.lambda_max < lambda0)
    return "explorer.path.lambda_max must be >= the start's lambda: " + at + ", above lambda_max = " +
           g17(p.lambda_max);
  return {};
}

}  // namespace senda::analysis
