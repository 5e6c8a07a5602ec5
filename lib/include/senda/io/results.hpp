#pragma once
// Results of a trace: DIR/path.csv (one row per converged point, flushed as it is
// computed) and DIR/summary.json (written to a temporary name, then renamed).
//
// path.csv columns: point,branch,lambda,<tracked dofs u_ID_COMP…>,iterations,
// residual,step_length,det_sign,negative_pivots. Reals with %.17g, so that a
// rerun is byte-identical. summary.json fields: docs/config.md "Output files";
// every timing field is in "timing" plus the top-level "wall_time_s".
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/io/builder.hpp"
#include "senda/io/study.hpp"

namespace senda::io {

// Writing results failed (disk full, permissions) after the run started.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Refuses an existing results directory unless overwrite, or a path that is not
// a directory. No side effects. Throws ConfigError naming the directory.
void check_output_dir(const std::filesystem::path& dir, bool overwrite);
// Creates the directory (and parents); with overwrite, removes Senda's own files
// from an existing one (never anything else). Throws ConfigError.
void prepare_output_dir(const std::filesystem::path& dir, bool overwrite);

class PathWriter {
 public:
  // Creates the file and writes the header. Throws OutputError.
  PathWriter(const std::filesystem::path& file, const std::vector<TrackedDof>& track);
  ~PathWriter();
  PathWriter(const PathWriter&) = delete;
  PathWriter& operator=(const PathWriter&) = delete;
  // One row, flushed to the operating system before returning. Throws OutputError.
  void write(const continuation::PathPoint& p, int branch);
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::vector<TrackedDof> track_;
  std::FILE* out_ = nullptr;
};

struct TraceSummary {
  std::string problem;
  std::string title;
  std::string config;  // the cfg file as given
  int unknowns = 0;
  continuation::Termination termination = continuation::Termination::Running;
  std::string message;
  int points = 0;  // rows of path.csv, the start point included
  std::vector<continuation::Crossing> crossings;
  std::vector<int> crossing_branches;  // branch of each crossing
  std::vector<std::string> track_columns;  // "u_3_uy", ... in the order of the tracked values
  std::vector<critical::CriticalPoint> critical_points;
  std::vector<std::vector<double>> critical_tracked;  // tracked displacements of each critical point
  std::vector<std::vector<std::vector<double>>> tangent_tracked;  // of each ABE tangent (2 per point, or none)
  std::vector<critical::Branch> branches;
  // Design studies (study.hpp): dλ_cr/dμ of each critical point for every
  // [design] parameter (parallel to critical_points; empty without parameters),
  // and the curves of critical points followed ([design] follow).
  std::vector<std::vector<ParameterSensitivity>> sensitivities;
  std::vector<CurveResult> curves;
  long locate_factorizations = 0;  // spent locating critical points
  double lambda_max = 0.0, lambda_min = 0.0;  // over the points
  long newton_iterations = 0, failed_steps = 0, factorizations = 0;
  // Timing (excluded from determinism checks).
  double wall_time_s = 0.0, assembly_s = 0.0, analyze_s = 0.0, factorize_s = 0.0, solve_s = 0.0;
};

// summary.json text (pretty-printed, keys in a fixed order).
std::string summary_json(const TraceSummary& s);
// Writes text to file + ".tmp", then renames it to file: a reader never sees a
// half-written file. Throws OutputError.
void write_file_atomically(const std::filesystem::path& file, const std::string& text);
// Writes file + ".tmp", then renames it to file. Throws OutputError.
void write_summary(const std::filesystem::path& file, const TraceSummary& s);

}  // namespace senda::io
