#pragma once
// The files of the design studies (docs/config.md "Output files"):
//   curves/<point>-<μ>-<up|down>.csv   a curve of critical points (trace --follow)
//   curves.gp                          λ_cr against μ for every written curve
//   imperfection.csv / .json           trace --imperfection
//   sweep.csv / sweep.json / sweep.gp  trace --sweep, and sweep/NNN/ per value
// Nothing here prints or exits.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "senda/analysis/result.hpp"
#include "senda/analysis/studies.hpp"
#include "senda/output/plot.hpp"

namespace senda::output {

// curves/<point>-<parameter>-<up|down>.csv, relative to the results directory;
// empty for a curve that was not followed (nothing is written for it).
std::filesystem::path curve_file(const analysis::CurveRecord& c);
// point, <parameter>, lambda, kind, iterations, residual, arclength, then the
// tracked unknowns (their columns, their equations). Reals %.17g.
std::string curve_csv(const analysis::CurveRecord& c, const std::vector<std::string>& track_columns,
                      const std::vector<int>& track);
// Writes dir / curve_file(c) (a followed curve). Throws OutputError.
void write_curve(const std::filesystem::path& dir, const analysis::CurveRecord& c,
                 const std::vector<std::string>& track_columns, const std::vector<int>& track);
// curves.gp: λ_cr against μ for every followed curve (one line per file, its
// turns and coincidences marked), rendered as curves.png and curves.svg.
std::string curves_plot_script(const std::vector<analysis::CurveRecord>& curves, int width_px = 800,
                               int height_px = 600);

// imperfection.csv (amplitude,lambda_max,drop,found,message) and imperfection.json.
std::string imperfection_csv(const analysis::ImperfectionRun& r);
std::string imperfection_json(const analysis::ImperfectionRun& r);

// The sub-directory of sweep value k: "sweep/000" (at least three digits).
std::string sweep_subdir(int index);
// sweep.csv: index,mu,status,id,kind,branch,lambda,<tracked>,converged — one row
// per (value, critical point); a value without critical points (or not traced)
// is one row with empty id..converged. Values not run are left out. Reals %.17g.
std::string sweep_csv(const analysis::SweepResult& r);
// sweep.json: parameter, spec, per value index, mu, status, message, dir,
// "exit_code" (the caller's exit status of that value; null for a value not run),
// critical_points.
std::string sweep_json(const analysis::SweepResult& r,
                       const std::function<int(const analysis::SweepValue&)>& exit_status);
// sweep.gp: λ of every located critical point against mu as points, one series
// per kind (limit, bifurcation, ...) and per primary path / secondary branches,
// written to sweep.png and sweep.svg (data inline, so that the script stands alone).
std::string sweep_plot_script(const analysis::SweepResult& r, const PlotOptions& options = {});
// Writes DIR/sweep.csv, DIR/sweep.json and DIR/sweep.gp (figures: DIR/sweep.png,
// .svg, drawn by render_plot). Throws OutputError.
PlotFiles write_sweep_files(const std::filesystem::path& dir, const analysis::SweepResult& r,
                            const std::function<int(const analysis::SweepValue&)>& exit_status,
                            const PlotOptions& options = {});

}  // namespace senda::output
