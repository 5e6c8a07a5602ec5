#pragma once
// Bifurcation diagrams of a trace, rendered by gnuplot from the results.
//
//   PlotFiles f = write_plot_files(dir, summary);  // DIR/critical.csv, DIR/plot.gp
//   RenderResult r = render_plot(f);               // runs `gnuplot plot.gp` in DIR
//
// plot.gp draws one figure per tracked displacement u (output.track): the load
// factor λ against u, from DIR/path.csv and DIR/critical.csv, written as
// DIR/lambda_<column>.png and .svg (e.g. lambda_u_2_uy.png). Every branch has its
// own colour; a segment of a branch is solid where the point it starts from is
// stable (negative_pivots == 0: K positive definite) and dashed where it is
// unstable; critical points are marked by kind and labelled with their ids.
// The script uses only relative names and is meant to be edited: a user
// restyles the figures by changing it and running `gnuplot plot.gp` in DIR.
//
// Nothing here prints or exits. render_plot is the one function that starts a
// process; a missing or failing gnuplot is a status, never an exception.
#include <filesystem>
#include <string>
#include <vector>

#include "senda/output/results.hpp"

namespace senda::output {

struct PlotOptions {
  // Size of the PNG in pixels; the SVG gets the same size in its own units.
  int width_px = 800;
  int height_px = 600;
};

// What plot.gp needs to know of path.csv: which branches hold stable and
// unstable points (a curve is drawn only for a class that has points, so that
// gnuplot warns about nothing) and the ranges of λ and of the tracked columns
// (ids of critical points closer than a few per cent of them share one label).
struct PathClasses {
  std::vector<int> branches;       // branch ids present, ascending
  std::vector<bool> has_stable;    // per entry of branches: a point with negative_pivots == 0
  std::vector<bool> has_unstable;  // per entry of branches: a point with negative_pivots > 0
  double lambda_min = 0.0, lambda_max = 0.0;
  std::vector<double> column_min, column_max;  // per tracked column (after lambda, in order)
};

// Reads the branch, lambda, tracked and negative_pivots columns of a path.csv.
// Throws OutputError when the file cannot be read or is not Senda's.
PathClasses read_path_classes(const std::filesystem::path& path_csv);

// critical.csv: id,kind,branch,lambda,<tracked columns>,converged — one row per
// critical point of the summary (branch: the one it was located on; converged
// 1 or 0). Reals with %.17g.
std::string critical_csv(const RunInfo& info, const analysis::TraceResult& s);

// The text of plot.gp for these results (deterministic: the same input gives
// the same script).
std::string plot_script(const RunInfo& info, const analysis::TraceResult& s, const PathClasses& classes, const PlotOptions& options = {});

// The names of the figures plot.gp renders, in the order it renders them.
std::vector<std::string> figure_names(const RunInfo& info);

struct PlotFiles {
  std::filesystem::path dir;
  std::filesystem::path script;                // DIR/plot.gp
  std::filesystem::path critical;              // DIR/critical.csv
  std::vector<std::filesystem::path> figures;  // DIR/lambda_<column>.png and .svg
  // gnuplot's stdout and stderr, truncated by each render_plot; empty: DIR/plot.log.
  // A second script rendered into the same DIR names its own log (trace's
  // curves.gp: DIR/curves.log) so that it does not overwrite plot.gp's messages.
  std::filesystem::path log;
};

// Writes DIR/critical.csv and DIR/plot.gp for the results already in DIR
// (path.csv is read for its branches). Throws OutputError.
PlotFiles write_plot_files(const std::filesystem::path& dir, const RunInfo& info, const analysis::TraceResult& s,
                           const PlotOptions& options = {});

// A figure of curves y(x) read by column name from CSV files with a header row
// (cosim: the total energy against time of one run or of several schemes, as seed
// 002 draws them). The script renders BASENAME.png and BASENAME.svg in its directory.
struct SeriesCurve {
  std::string file;      // relative to the script's directory
  std::string x_column, y_column;
  std::string title;
};
struct SeriesFigure {
  std::string basename, title, x_label, y_label;
  std::vector<SeriesCurve> curves;
};
std::string series_plot_script(const SeriesFigure& figure, const PlotOptions& options = {});

enum class RenderStatus {
  Rendered,         // gnuplot exited 0 and wrote every figure
  GnuplotNotFound,  // the program could not be started (not installed, not on PATH)
  GnuplotFailed,    // it exited with a nonzero status or was killed (see the log)
  MissingFigures,   // it exited 0 but a figure is missing or empty
};
const char* to_string(RenderStatus s);

struct RenderResult {
  RenderStatus status = RenderStatus::GnuplotFailed;
  int exit_status = -1;       // gnuplot's exit status (-1 when not started or killed)
  std::string message;        // one line for the user: what happened and what to do
  std::filesystem::path log;  // PlotFiles::log (default DIR/plot.log): gnuplot's stdout and stderr
};

// Runs `<gnuplot> plot.gp` with DIR as its working directory (posix_spawnp, so
// `gnuplot` is looked up on PATH; an absolute path also works), its output to
// files.log (default DIR/plot.log, truncated first), and waits for it.
RenderResult render_plot(const PlotFiles& files, const std::string& gnuplot = "gnuplot");

}  // namespace senda::output
