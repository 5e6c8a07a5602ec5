#pragma once
// What an analysis does, every default in one place (docs/config.md lists the
// .cfg key that sets each field; tests/input/defaults_test.cpp checks that the
// key table's defaults are these).
//
//   AnalysisOptions o;                        // the defaults
//   o.explorer.path.initial_load_increment = 0.02;
//   o.design.follow = {"LP1"};
//   if (std::string why = o.validate(); !why.empty()) ...   // the reason a value is bad
//
// Nothing here knows a .cfg, a file or an exit code: the input layer fills these
// structs from a .cfg file, a C++ user fills them in code.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "senda/continuation/constraint.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/critical/design.hpp"

namespace senda::analysis {

// A located bifurcation point to start from instead of the primary path
// (branches.from, trace --from): its branches are traced with the scaling and
// the first step of the path that found it.
struct SavedState {
  std::string problem;  // the name of the problem that wrote it
  critical::CriticalPoint point;
  continuation::Scaling scaling;
  double initial_step = 0.0;
  std::string source;   // where it came from, for the run's message (a file name)
};

// An equilibrium state to start the primary path from instead of the unloaded
// state (continuation.start_state): a located point of trace, simulate's final
// state at rest. The path starts with Newton at fixed λ from q (PathFollower::start),
// then its first tangent, as from q = 0 at λ = 0. A located limit point (mode
// given) starts along ±mode instead (PathFollower::start_at_limit): there K is
// singular and the tangent from K t = r does not exist.
struct StartState {
  Vector q;
  double lambda = 0.0;
  std::string source;  // where it came from, for the run's message (a file name)
  Vector mode;         // a located limit point's null vector φ (empty: not one)
  std::optional<continuation::Scaling> scaling;  // with mode: the scales of the run that located it
};

// Which way a curve of critical points leaves its start point in μ.
enum class CurveDirections { Both, Up, Down };
const char* to_string(CurveDirections d);
std::optional<CurveDirections> curve_directions_from_string(std::string_view s);

// Design studies after the path ([design] keys): the sensitivities dλ_cr/dμ of
// every located point to every design parameter (always, when the analysis has
// design parameters), and the curves λ_cr(μ) of the points in `follow`, in the
// first design parameter.
struct DesignOptions {
  std::vector<std::string> follow;                       // ids (LP1, BP1, ...)
  CurveDirections directions = CurveDirections::Both;
  // The curve's own settings (step, max_step, max_points, mu_min, mu_max). Its
  // locate, sensitivity and λ-range settings are not read: a curve uses the
  // finder's location options and the path's λ range (Analysis sets them).
  critical::CurveOptions curve;
  std::string validate() const;  // "" when valid, else the reason
};

struct AnalysisOptions {
  // The path (continuation::Options), detection and location (FinderOptions) and
  // branch switching, for every branch.
  critical::ExplorerOptions explorer;
  DesignOptions design;
  // Unknowns whose values the records keep (CriticalRecord::tracked): the
  // displacements a user watches (output.track).
  std::vector<int> track;
  // Start from a saved bifurcation point: only its secondary branches are traced.
  std::optional<SavedState> from;
  // Start the primary path from this state instead of q = 0 at λ = 0 (not with `from`).
  std::optional<StartState> start;

  // "" when every field is within its range, else the reason naming the field
  // (e.g. "explorer.path.initial_load_increment must be > 0").
  std::string validate() const;
};

// The reasons of the parts (also used by AnalysisOptions::validate).
std::string validate(const continuation::Options& o);
std::string validate(const critical::FinderOptions& o);
std::string validate(const critical::ExplorerOptions& o);

}  // namespace senda::analysis
