#pragma once
// The result of an analysis, in memory: the path's outcome, its crossings and
// critical points, the branches, the design studies. Records, not parallel
// arrays: each critical point carries its tracked displacements and its
// sensitivities. Written to files by senda::output (summary.json).
#include <string>
#include <string_view>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/critical/design.hpp"

namespace senda::analysis {

// The values of the unknowns `track` in q, in that order; 0 for an index out of
// range (the one rule the records, path.csv, the curve files and the console share).
std::vector<double> tracked_values(const Vector& q, const std::vector<int>& track);

struct CrossingRecord {
  int branch = 0;  // the branch the step was on
  continuation::Crossing crossing;
};

// dλ_cr/dμ of a critical point for one design parameter (eqs. 8.2, 8.3).
struct ParameterSensitivity {
  std::string parameter;
  double value = 0.0;  // the parameter's value in the run
  critical::Sensitivity sensitivity;
};

struct CriticalRecord {
  critical::CriticalPoint point;
  std::vector<double> tracked;  // AnalysisOptions::track at the point
  // The tracked components of the two ABE tangents (empty unless point.abe is valid).
  std::vector<std::vector<double>> tangents_tracked;
  // One per design parameter for a located simple point; empty otherwise.
  std::vector<ParameterSensitivity> sensitivities;
};

// A curve λ_cr(μ) of a critical point (DesignOptions::follow).
struct CurveRecord {
  std::string point;      // id of the start point (LP1, BP2, ...)
  std::string parameter;  // μ
  int direction = +1;     // +1: μ increasing at the start, −1 decreasing
  // False when the curve could not start (no such point, not located, a
  // multiple point): curve.termination is then BadStart and nothing was followed.
  bool followed = false;
  critical::CriticalCurve curve;
};

struct RunStats {
  long newton_iterations = 0, failed_steps = 0;
  long factorizations = 0;         // the paths' and the location's
  long locate_factorizations = 0;  // spent locating critical points
  // Timing (excluded from determinism checks). factorize_s is the paths'
  // factorizations only (the location's are in wall_time_s alone); solve_s also has
  // the location's solves with the path's factorizations.
  double wall_time_s = 0.0, assembly_s = 0.0, analyze_s = 0.0, factorize_s = 0.0, solve_s = 0.0;
};

struct TraceResult {
  int unknowns = 0;
  continuation::Termination termination = continuation::Termination::Running;
  std::string message;
  int points = 0;  // converged points of every branch, the start point included
  double lambda_max = 0.0, lambda_min = 0.0;  // over the points
  std::vector<CrossingRecord> crossings;
  std::vector<CriticalRecord> critical_points;  // in the order they were found
  std::vector<critical::Branch> branches;       // the primary path first
  std::vector<CurveRecord> curves;
  RunStats stats;

  // The critical point with this id, or nullptr.
  const CriticalRecord* find(std::string_view id) const;
};

}  // namespace senda::analysis
