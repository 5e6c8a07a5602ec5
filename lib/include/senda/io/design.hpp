#pragma once
// Design studies: the named parameters of a .cfg ([parameters], [design]) and
// sweeps of one parameter (trace --sweep NAME=START:STOP:COUNT[:log]).
//
//   for (auto [name, value] : parameters(config)) ...
//   Setup s = build(config, {{"H", 40.0}});         // same DOF layout, checked
//   SweepSpec spec = parse_sweep("H=30:45:16", config);
//   SweepValue v = run_sweep_value(config, reference, spec.parameter, k, mu, dir, stop);
//   write_sweep_files(dir, result);                 // sweep.csv, sweep.json, sweep.gp
//
// A parameter must not change the topology of the model: the same nodes,
// elements and unknowns for every value (it may move nodes, change stiffnesses,
// loads, tolerances). build(config, values) checks it against the model of the
// file's values and throws a ConfigError naming the parameter if it differs.
//
// Nothing here prints, exits or holds global state: run_sweep_value may run in
// several threads at once, each on its own values and directory.
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"
#include "senda/io/plot.hpp"

namespace senda::io {

// The named parameters ([parameters] NAME = value) and their values, in file order.
std::vector<std::pair<std::string, double>> parameters(const Config& config);
// The design parameters ([design] parameter = NAME), in file order, without repeats.
std::vector<std::string> design_parameters(const Config& config);

// A copy of the config with parameter `name` set to `value` and every ${...}
// substituted again. Throws ConfigError when `name` is not a parameter or a
// value becomes invalid (the message names the line and key).
Config with_parameter(const Config& config, const std::string& name, double value);
Config with_parameters(const Config& config, const std::map<std::string, double>& values);

// The setup with the parameters changed. Throws ConfigError (bad values, or a
// different number of nodes, elements or unknowns than with the file's values).
Setup build(const Config& config, const std::map<std::string, double>& parameter_values);
// The same, checked against a reference setup built from `config` (saves a build).
Setup build(const Config& config, const std::map<std::string, double>& parameter_values, const Setup& reference);

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------
struct SweepSpec {
  std::string parameter;
  double start = 0.0, stop = 0.0;
  int count = 0;     // values, start and stop included (count 1: start only)
  bool log = false;  // geometric spacing (start, stop > 0)
};

// "NAME=START:STOP:COUNT" or "NAME=START:STOP:COUNT:log". Throws ConfigError
// (file kCommandLine, key "--sweep") for bad syntax or a NAME that is not a
// parameter of the config. COUNT in [1, 100000].
SweepSpec parse_sweep(std::string_view text, const Config& config);
// The values of the sweep, start first.
std::vector<double> sweep_values(const SweepSpec& spec);
// A parameter value as text, exactly as substituted (format_number: integers as
// integers, else the shortest text that reads back as the same double).
std::string format_value(double v);

// One critical point of one value.
struct SweepPoint {
  std::string id;    // LP1, BP1, ...
  std::string kind;  // critical::to_string(kind)
  int branch = 0;    // the branch it was located on
  double lambda = 0.0;
  std::vector<double> tracked;  // in the order of SweepResult::track_columns
  bool converged = false;
};

struct SweepValue {
  int index = 0;
  double mu = 0.0;
  // not-run (interrupted before it started), a Termination name (completed,
  // max-steps, step-too-small, diverged, interrupted), bad-input (ConfigError:
  // message), output-error, internal-error.
  std::string status = "not-run";
  std::string message;
  std::string dir;    // relative to the sweep directory: "sweep/000"
  int exit_code = 0;  // as trace would have returned for this value
  std::vector<SweepPoint> points;
};

struct SweepResult {
  SweepSpec spec;
  std::vector<std::string> track_columns;
  std::vector<SweepValue> values;  // one per sweep value, in order
  bool interrupted = false;
};

// The sub-directory of value k: "sweep/000" (at least three digits).
std::string sweep_subdir(int index);

// Traces the model with parameter = mu into out_dir / sweep_subdir(index)
// (created; its own old results replaced). Never throws: a failure is the
// status of the value. `stop` is polled before every step.
SweepValue run_sweep_value(const Config& config, const Setup& reference, const std::string& parameter, int index,
                           double mu, const std::filesystem::path& out_dir, const std::function<bool()>& stop);

// sweep.csv: index,mu,status,id,kind,branch,lambda,<tracked>,converged — one row
// per (value, critical point); a value without critical points (or not traced)
// is one row with empty id..converged. Values not run are left out. Reals %.17g.
std::string sweep_csv(const SweepResult& r);
// sweep.json: parameter, spec, per value index, mu, status, message, dir, exit_code, critical_points.
std::string sweep_json(const SweepResult& r);
// sweep.gp: λ of every located critical point against mu as points, one series
// per kind (limit, bifurcation, ...) and per primary path / secondary branches,
// written to sweep.png and sweep.svg (data inline, so that the script stands alone).
std::string sweep_plot_script(const SweepResult& r, const PlotOptions& options = {});

// Writes DIR/sweep.csv, DIR/sweep.json and DIR/sweep.gp (figures: DIR/sweep.png,
// .svg, drawn by render_plot). Throws OutputError.
PlotFiles write_sweep_files(const std::filesystem::path& dir, const SweepResult& r,
                            const PlotOptions& options = {});

// Exit code of a sweep: 130 interrupted, 1 when some value failed (a trace exit
// code 1, bad-input, output-error, internal-error), else 0.
int sweep_exit_code(const SweepResult& r);

}  // namespace senda::io
