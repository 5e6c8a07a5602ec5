#include "senda/io/design.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include <fmt/core.h>

#include "senda/critical/critical_point.hpp"
#include "senda/io/expression.hpp"
#include "senda/io/results.hpp"
#include "senda/io/trace.hpp"

namespace senda::io {

namespace fs = std::filesystem;

namespace {
bool is_parameter_key(const std::string& key) {
  const OptionSpec* o = find_option(key);
  return o && std::string_view(o->key) == kParameterRow;
}
std::string name_of(const std::string& key) { return key.substr(key.find('.') + 1); }
}  // namespace

std::vector<std::pair<std::string, double>> parameters(const Config& config) {
  std::vector<std::pair<std::string, double>> out;
  for (const Entry& e : config.entries())
    if (is_parameter_key(e.key)) {
      const std::string name = name_of(e.key);
      // An override replaces the entry in place, so each name appears once.
      out.emplace_back(name, *config.parameter(name));
    }
  return out;
}

std::vector<std::string> design_parameters(const Config& config) {
  std::vector<std::string> out;
  for (const Entry* e : config.all("design.parameter"))
    if (std::find(out.begin(), out.end(), e->value) == out.end()) out.push_back(e->value);
  return out;
}

std::string format_value(double v) { return format_number(v); }

Config with_parameter(const Config& config, const std::string& name, double value) {
  Config c = config;
  c.apply_override(std::string(kParameterSection) + "." + name + "=" + format_value(value));
  return c;
}

Config with_parameters(const Config& config, const std::map<std::string, double>& values) {
  Config c = config;
  for (const auto& [name, value] : values)
    c.apply_override(std::string(kParameterSection) + "." + name + "=" + format_value(value));
  return c;
}

Setup build(const Config& config, const std::map<std::string, double>& parameter_values) {
  const Setup reference = build(config);
  return build(config, parameter_values, reference);
}

Setup build(const Config& config, const std::map<std::string, double>& parameter_values, const Setup& reference) {
  Setup s = build(with_parameters(config, parameter_values));
  const model::Model& a = *reference.model;
  const model::Model& b = *s.model;
  if (a.size() != b.size() || a.node_count() != b.node_count() || a.element_count() != b.element_count() ||
      reference.track.size() != s.track.size()) {
    std::string names, key;
    const Entry* where = nullptr;
    for (const auto& [name, value] : parameter_values) {
      names += (names.empty() ? "" : ", ") + name + " = " + format_value(value);
      if (!where) {
        key = std::string(kParameterSection) + "." + name;
        where = config.find(key);
      }
    }
    config.fail(where, key,
                fmt::format("{} changes the model's topology ({} nodes, {} elements, {} unknowns instead of {}, {}, "
                            "{}); a parameter must not change the number of nodes, elements or unknowns",
                            names, b.node_count(), b.element_count(), b.size(), a.node_count(), a.element_count(),
                            a.size()));
  }
  return s;
}

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------
namespace {
constexpr const char* kSweepSyntax = "NAME=START:STOP:COUNT[:log], e.g. H=30:45:16";

[[noreturn]] void sweep_error(const std::string& message, const std::string& valid = kSweepSyntax) {
  throw ConfigError(kCommandLine, 0, "--sweep", message, valid);
}

double sweep_number(std::string_view t, const char* what) {
  double v = 0.0;
  const char* b = t.data();
  if (!t.empty() && t.front() == '+') ++b;
  const auto r = std::from_chars(b, t.data() + t.size(), v, std::chars_format::general);
  if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v))
    sweep_error(std::string(what) + ": expected a finite number, found '" + std::string(t) + "'");
  return v;
}
}  // namespace

SweepSpec parse_sweep(std::string_view text, const Config& config) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) sweep_error("expected NAME=START:STOP:COUNT, found '" + std::string(text) + "'");
  SweepSpec s;
  s.parameter = std::string(text.substr(0, eq));
  std::vector<std::string_view> f;
  std::string_view rest = text.substr(eq + 1);
  while (true) {
    const auto c = rest.find(':');
    f.push_back(rest.substr(0, c));
    if (c == std::string_view::npos) break;
    rest = rest.substr(c + 1);
  }
  if (f.size() != 3 && f.size() != 4)
    sweep_error("expected START:STOP:COUNT or START:STOP:COUNT:log after '" + s.parameter + "=', found '" +
                std::string(text.substr(eq + 1)) + "'");
  s.start = sweep_number(f[0], "START");
  s.stop = sweep_number(f[1], "STOP");
  int count = 0;
  const auto r = std::from_chars(f[2].data(), f[2].data() + f[2].size(), count);
  if (f[2].empty() || r.ec != std::errc() || r.ptr != f[2].data() + f[2].size() || count < 1 || count > 100000)
    sweep_error("COUNT: expected an integer in [1, 100000], found '" + std::string(f[2]) + "'");
  s.count = count;
  if (f.size() == 4) {
    if (f[3] == "log") s.log = true;
    else if (f[3] != "lin") sweep_error("the spacing is 'lin' or 'log', found '" + std::string(f[3]) + "'");
  }
  if (s.log && !(s.start > 0.0 && s.stop > 0.0)) sweep_error("a log sweep needs START > 0 and STOP > 0");
  if (!config.parameter(s.parameter)) {
    std::string names;
    for (const auto& [n, v] : parameters(config)) names += (names.empty() ? "" : ", ") + n;
    sweep_error("'" + s.parameter + "' is not a parameter of " + config.file(),
                names.empty() ? "the file has no [parameters]" : names);
  }
  return s;
}

std::vector<double> sweep_values(const SweepSpec& s) {
  std::vector<double> v;
  for (int k = 0; k < s.count; ++k) {
    if (s.count == 1) {
      v.push_back(s.start);
      break;
    }
    const double t = static_cast<double>(k) / (s.count - 1);
    if (k == s.count - 1) v.push_back(s.stop);
    else if (s.log) v.push_back(s.start * std::pow(s.stop / s.start, t));
    else v.push_back(s.start + (s.stop - s.start) * t);
  }
  return v;
}

std::string sweep_subdir(int index) { return fmt::format("sweep/{:03d}", index); }

SweepValue run_sweep_value(const Config& config, const Setup& reference, const std::string& parameter, int index,
                           double mu, const fs::path& out_dir, const std::function<bool()>& stop) {
  SweepValue v;
  v.index = index;
  v.mu = mu;
  v.dir = sweep_subdir(index);
  try {
    const Setup s = build(config, {{parameter, mu}}, reference);
    TraceRun run(s);
    TraceEvents ev;
    ev.stop_requested = stop;
    const TraceSummary sum = run.run(out_dir / v.dir, true, ev);
    v.status = continuation::to_string(sum.termination);
    v.message = sum.message;
    v.exit_code = exit_code(sum.termination);
    for (std::size_t k = 0; k < sum.critical_points.size(); ++k) {
      const critical::CriticalPoint& cp = sum.critical_points[k];
      SweepPoint p;
      p.id = cp.id;
      p.kind = critical::to_string(cp.kind);
      p.branch = cp.branches.empty() ? 0 : cp.branches.front();
      p.lambda = cp.lambda;
      if (k < sum.critical_tracked.size()) p.tracked = sum.critical_tracked[k];
      p.tracked.resize(reference.track.size(), 0.0);
      p.converged = cp.converged;
      v.points.push_back(std::move(p));
    }
  } catch (const ConfigError& e) {
    v.status = "bad-input";
    v.message = e.what();
    v.exit_code = 2;
  } catch (const OutputError& e) {
    v.status = "output-error";
    v.message = e.what();
    v.exit_code = 1;
  } catch (const std::exception& e) {
    v.status = "internal-error";
    v.message = e.what();
    v.exit_code = 3;
  }
  return v;
}

namespace {
std::string g17(double x) { return fmt::format("{:.17g}", x); }
}  // namespace

std::string sweep_csv(const SweepResult& r) {
  std::string out = "index,mu,status,id,kind,branch,lambda";
  for (const std::string& c : r.track_columns) {
    out += ',';
    out += c;
  }
  out += ",converged\n";
  for (const SweepValue& v : r.values) {
    if (v.status == "not-run") continue;
    const std::string head = fmt::format("{},{},{}", v.index, g17(v.mu), v.status);
    if (v.points.empty()) {
      out += head + ",,,,";
      for (std::size_t i = 0; i < r.track_columns.size(); ++i) out += ",";
      out += ",\n";
      continue;
    }
    for (const SweepPoint& p : v.points) {
      out += fmt::format("{},{},{},{},{}", head, p.id, p.kind, p.branch, g17(p.lambda));
      for (std::size_t i = 0; i < r.track_columns.size(); ++i) {
        out += ',';
        if (i < p.tracked.size()) out += g17(p.tracked[i]);
      }
      out += p.converged ? ",1\n" : ",0\n";
    }
  }
  return out;
}

std::string sweep_json(const SweepResult& r) {
  nlohmann::ordered_json j;
  j["parameter"] = r.spec.parameter;
  j["start"] = r.spec.start;
  j["stop"] = r.spec.stop;
  j["count"] = r.spec.count;
  j["spacing"] = r.spec.log ? "log" : "lin";
  j["interrupted"] = r.interrupted;
  j["track_columns"] = r.track_columns;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const SweepValue& v : r.values) {
    nlohmann::ordered_json x;
    x["index"] = v.index;
    x["mu"] = v.mu;
    x["status"] = v.status;
    x["message"] = v.message;
    x["dir"] = v.dir;
    x["exit_code"] = v.exit_code;
    nlohmann::ordered_json cps = nlohmann::ordered_json::array();
    for (const SweepPoint& p : v.points) {
      nlohmann::ordered_json c;
      c["id"] = p.id;
      c["kind"] = p.kind;
      c["branch"] = p.branch;
      c["lambda"] = p.lambda;
      nlohmann::ordered_json u;
      for (std::size_t i = 0; i < r.track_columns.size() && i < p.tracked.size(); ++i) u[r.track_columns[i]] = p.tracked[i];
      c["tracked"] = u.is_null() ? nlohmann::ordered_json::object() : u;
      c["converged"] = p.converged;
      cps.push_back(c);
    }
    x["critical_points"] = cps;
    values.push_back(x);
  }
  j["values"] = values;
  return j.dump(2) + "\n";
}

namespace {
std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}
}  // namespace

std::string sweep_plot_script(const SweepResult& r, const PlotOptions& options) {
  // Series: one per kind of located point, those on the primary path (filled
  // markers) apart from those on secondary branches (open markers). Points, no
  // lines: the ids (LP1, BP2, ...) number the points in the order a run meets
  // them, so one id is not one critical point across values when the set of
  // points changes with the parameter (Eriksson's frame: a new bifurcation).
  struct Series {
    std::string kind;
    bool secondary;
  };
  std::vector<Series> series;
  for (const SweepValue& v : r.values)
    for (const SweepPoint& p : v.points) {
      if (!p.converged) continue;
      const bool sec = p.branch > 0;
      if (std::none_of(series.begin(), series.end(), [&](const Series& x) { return x.kind == p.kind && x.secondary == sec; }))
        series.push_back({p.kind, sec});
    }
  std::stable_sort(series.begin(), series.end(), [](const Series& a, const Series& b) { return a.secondary < b.secondary; });
  const std::string& mu = r.spec.parameter;
  std::string s;
  auto add = [&s](const std::string& line) { s += line + "\n"; };
  add("# sweep.gp: critical load factor against " + mu + " (trace --sweep): the located critical points of");
  add("# every value, one series per kind (filled: on the primary path, open: on secondary branches).");
  add("# Data inline (from sweep.csv: mu, lambda); edit and run 'gnuplot sweep.gp' here.");
  for (std::size_t k = 0; k < series.size(); ++k) {
    add(fmt::format("$S{} << EOD", k));
    for (const SweepValue& v : r.values)
      for (const SweepPoint& p : v.points)
        if (p.converged && p.kind == series[k].kind && (p.branch > 0) == series[k].secondary)
          add(g17(v.mu) + " " + g17(p.lambda) + "  # " + p.id);
    add("EOD");
  }
  add(fmt::format("width = {}; height = {}; font = 'sans,11'", options.width_px, options.height_px));
  add("set xlabel " + gp_quote(mu) + " noenhanced");
  add("set ylabel 'critical load factor {/Symbol l}_{cr}'");
  add("set title " + gp_quote("critical points against " + mu) + " noenhanced");
  add("set grid");
  add("set key below center horizontal noenhanced");
  if (r.spec.log) add("set logscale x");
  double lo = r.spec.start, hi = r.spec.stop;
  if (lo > hi) std::swap(lo, hi);
  if (series.empty()) {
    if (!(hi > lo)) {
      lo -= 1.0;
      hi += 1.0;
    }
    if (r.spec.log && lo <= 0.0) lo = hi / 10.0;
    add(fmt::format("set xrange [{}:{}]", g17(lo), g17(hi)));
    add("set yrange [0:1]");
    add("set label 1 'no critical point located' at graph 0.5, 0.5 center");
  }
  add("do for [format in 'png svg'] {");
  add("  if (format eq 'png') {");
  add("    set terminal pngcairo size width, height font font");
  add("  } else {");
  add("    set terminal svg size width, height font font background '#ffffff'");
  add("  }");
  add("  set output 'sweep.'.format");
  if (series.empty()) {
    add("  plot -1 notitle");
  } else {
    std::string plot = "  plot ";
    for (std::size_t k = 0; k < series.size(); ++k) {
      const std::string& kind = series[k].kind;
      // Filled / open: circle for limit points, triangle for bifurcations, square otherwise.
      const int pt = kind == "limit" ? 7 : kind == "bifurcation" ? 9 : 5;
      const std::string title = kind + " points" + (series[k].secondary ? " (secondary branches)" : "");
      plot += fmt::format("{}$S{} using 1:2 with points pt {} ps 1.2 title {}", k ? ", \\\n       " : "", k,
                          series[k].secondary ? pt - 1 : pt, gp_quote(title));
    }
    add(plot);
  }
  add("  set output");
  add("}");
  return s;
}


PlotFiles write_sweep_files(const fs::path& dir, const SweepResult& r, const PlotOptions& options) {
  PlotFiles f;
  f.dir = dir;
  f.critical = dir / "sweep.csv";
  f.script = dir / "sweep.gp";
  write_file_atomically(f.critical, sweep_csv(r));
  write_file_atomically(dir / "sweep.json", sweep_json(r));
  write_file_atomically(f.script, sweep_plot_script(r, options));
  f.figures = {dir / "sweep.png", dir / "sweep.svg"};
  return f;
}

int sweep_exit_code(const SweepResult& r) {
  if (r.interrupted) return 130;
  for (const SweepValue& v : r.values)
    if (v.exit_code != 0) return 1;
  return 0;
}

}  // namespace senda::io
