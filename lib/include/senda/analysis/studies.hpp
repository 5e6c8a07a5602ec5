#pragma once
// Studies made of several analyses (docs/user-guide.md "Design studies"):
//
// Sweeps (trace --sweep NAME=START:STOP:COUNT[:log]): one whole analysis per
// value of a parameter; the records here are what each value gave. The caller
// runs the values (apps/trace runs them in threads, each into its directory).
//
// Imperfection sensitivity (trace --imperfection): the parameter is an
// imperfection amplitude ε of a family. The problem at ε = 0 gives λ_cr, its
// first critical point; each ε > 0 its first critical point λ_max (a limit
// point); 1 − λ_max/λ_cr = c ε^β is fitted by least squares on the logarithms.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "senda/analysis/result.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/core/family.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/critical/design.hpp"

namespace senda::analysis {

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------
struct SweepSpec {
  std::string parameter;
  double start = 0.0, stop = 0.0;
  int count = 0;     // values, start and stop included (count 1: start only)
  bool log = false;  // geometric spacing (start, stop > 0)
};
// The values of the sweep, start first.
std::vector<double> sweep_values(const SweepSpec& spec);

// One critical point of one value.
struct SweepPoint {
  std::string id;  // LP1, BP1, ...
  critical::CriticalKind kind = critical::CriticalKind::Limit;
  int branch = 0;  // the branch it was located on
  double lambda = 0.0;
  std::vector<double> tracked;
  bool converged = false;
};

// How a value ended: not run (interrupted before it started), ran (to the
// termination of its analysis), or failed before or while running.
enum class SweepStatus { NotRun, Ran, BadInput, OutputError, InternalError };

struct SweepValue {
  int index = 0;
  double mu = 0.0;
  SweepStatus status = SweepStatus::NotRun;
  continuation::Termination termination = continuation::Termination::Running;  // when Ran
  std::string message;
  std::string dir;  // relative to the sweep directory: "sweep/000"
  std::vector<SweepPoint> points;
};
// "not-run", the termination's name (completed, max-steps, ...), "bad-input",
// "output-error", "internal-error".
std::string status_name(const SweepValue& v);

struct SweepResult {
  SweepSpec spec;
  std::vector<std::string> track_columns;
  std::vector<SweepValue> values;  // one per sweep value, in order
  bool interrupted = false;
};

// The sweep value of an analysis that ran (status Ran, its termination and
// critical points, each with `tracks` tracked values).
SweepValue sweep_value(int index, double mu, const TraceResult& r, std::size_t tracks);

// ---------------------------------------------------------------------------
// Imperfection sensitivity
// ---------------------------------------------------------------------------
struct ImperfectionRun {
  std::string parameter;
  std::vector<double> amplitudes;
  critical::ImperfectionStudy study;
  std::string perfect_id;  // id and kind of the perfect structure's first critical point
  critical::CriticalKind perfect_kind = critical::CriticalKind::Limit;
  std::string message;     // non-empty: the perfect structure gave no critical point
};

// family.at(0) is the perfect structure; every amplitude is traced from q = 0,
// λ = 0 with the path and finder options given. `stop`, polled before the perfect
// structure and before each amplitude, ends the study with what was done
// (study.interrupted).
ImperfectionRun imperfection_study(const core::ProblemFamily& family, const std::string& parameter,
                                   const std::vector<double>& amplitudes, const continuation::Options& path,
                                   const critical::FinderOptions& finder, const std::function<bool()>& stop = nullptr);

}  // namespace senda::analysis
