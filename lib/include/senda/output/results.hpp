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
#include <string>
#include <vector>

#include "senda/analysis/result.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/output/files.hpp"

namespace senda::output {

// What the files say about the run besides the result: names and columns.
struct RunInfo {
  std::string problem;  // name
  std::string title;
  std::string config;   // the input file as given
  std::vector<std::string> track_columns;  // "u_3_uy", ... in the order of the tracked values
  std::vector<int> track;                  // their unknowns
};

class PathWriter {
 public:
  // Creates the file and writes the header. Throws OutputError.
  PathWriter(const std::filesystem::path& file, const RunInfo& info);
  PathWriter(const PathWriter&) = delete;
  PathWriter& operator=(const PathWriter&) = delete;
  // One row, handed to the operating system whole before returning. Throws
  // OutputError (naming the file, with the system's error text); a row that could
  // not be written whole (a full disk) is truncated away: the file ends in whole
  // rows (issue 20).
  void write(const continuation::PathPoint& p, int branch);
  const std::filesystem::path& file() const { return rows_.file(); }

 private:
  RowFile rows_;
  std::vector<int> track_;
};

// summary.json text (pretty-printed, keys in a fixed order).
std::string summary_json(const RunInfo& info, const analysis::TraceResult& r);
// Writes file + ".tmp", then renames it to file. Throws OutputError.
void write_summary(const std::filesystem::path& file, const RunInfo& info, const analysis::TraceResult& r);
// DIR/modes/<id>.csv: equation, dof name, φ scaled to max |φ_j| = 1 (a point
// without a mode writes nothing). Throws OutputError.
void write_mode(const std::filesystem::path& dir, const core::Problem& problem, const critical::CriticalPoint& cp);

}  // namespace senda::output
