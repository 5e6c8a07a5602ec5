#include "senda/output/studies.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "senda/output/files.hpp"

namespace senda::output {

namespace fs = std::filesystem;

namespace {

std::string real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string curve_csv(const analysis::CurveRecord& c, const std::vector<std::string>& track_columns,
                      const std::vector<int>& track) {
  std::ostringstream out;
  out << "point," << c.parameter << ",lambda,kind,iterations,residual,arclength";
  for (const std::string& t : track_columns) out << "," << t;
  out << "\n";
  int k = 0;
  for (const critical::CurvePoint& p : c.curve.points) {
    out << k++ << "," << real(p.mu) << "," << real(p.lambda) << ","
        << (p.kind == critical::CriticalKind::Limit ? "limit" : "bifurcation") << "," << p.iterations << ","
        << real(p.residual) << "," << real(p.arclength);
    for (double u : analysis::tracked_values(p.q, track)) out << "," << real(u);
    out << "\n";
  }
  return out.str();
}

fs::path curve_file(const analysis::CurveRecord& c) {
  if (!c.followed) return {};
  return fs::path("curves") / (c.point + "-" + c.parameter + (c.direction > 0 ? "-up" : "-down") + ".csv");
}

void write_curve(const fs::path& dir, const analysis::CurveRecord& c, const std::vector<std::string>& track_columns,
                 const std::vector<int>& track) {
  const fs::path file = dir / curve_file(c);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw OutputError(file.parent_path().string() + ": cannot create: " + ec.message());
  write_file_atomically(file, curve_csv(c, track_columns, track));
}

std::string curves_plot_script(const std::vector<analysis::CurveRecord>& curves, int width_px, int height_px) {
  std::ostringstream g;
  std::string parameter;
  for (const analysis::CurveRecord& c : curves)
    if (c.followed) parameter = c.parameter;
  g << "# Critical load factor against the design parameter, from the files in curves/\n"
    << "# (written by trace; edit and run 'gnuplot curves.gp' in this directory).\n"
    << "set datafile separator ','\n"
    << "set key outside right\n"
    << "set grid\n"
    << "set xlabel '" << parameter << "' noenhanced\n"
    << "set ylabel 'critical load factor'\n"
    << "set title 'critical points against " << parameter << "' noenhanced\n";
  std::string plots;
  int color = 1;
  for (const analysis::CurveRecord& c : curves) {
    if (!c.followed) continue;
    if (!plots.empty()) plots += ", \\\n     ";
    plots += "'" + curve_file(c).generic_string() + "' skip 1 using 2:3 with lines lw 2 lc " + std::to_string(color) +
             " title '" + c.point + " (" + (c.direction > 0 ? "up" : "down") + ")' noenhanced";
    for (const critical::CurveEvent& e : c.curve.events) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ", \\\n     '+' every ::0::0 using (%.17g):(%.17g) with points pt %d ps 1.5 lc %d notitle",
                    e.mu, e.lambda, e.kind == critical::CurveEventKind::TurnInMu ? 9 : 7, color);
      plots += buf;
    }
    ++color;
  }
  for (const char* term : {"png", "svg"}) {
    g << (std::string(term) == "png" ? "set terminal pngcairo size " : "set terminal svg size ") << width_px << ","
      << height_px << "\n"
      << "set output 'curves." << term << "'\n";
    if (plots.empty())
      g << "plot 0 notitle\n";
    else
      g << "plot " << plots << "\n";
  }
  g << "set output\n";
  return g.str();
}

std::string imperfection_csv(const analysis::ImperfectionRun& r) {
  std::ostringstream out;
  out << "amplitude,lambda_max,drop,found,message\n";
  for (const critical::ImperfectionPoint& p : r.study.points) {
    std::string m = p.message;
    for (char& c : m)
      if (c == ',' || c == '\n') c = ';';
    out << real(p.amplitude) << "," << (p.found ? real(p.lambda_max) : "") << ","
        << (p.found ? real(1.0 - p.lambda_max / r.study.lambda_perfect) : "") << "," << (p.found ? 1 : 0) << ","
        << m << "\n";
  }
  return out.str();
}

std::string imperfection_json(const analysis::ImperfectionRun& r) {
  nlohmann::ordered_json j;
  j["parameter"] = r.parameter;
  j["perfect"] = {{"id", r.perfect_id}, {"kind", r.perfect_id.empty() ? "" : critical::to_string(r.perfect_kind)}, {"lambda", r.study.lambda_perfect}};
  j["message"] = r.message;
  if (r.study.interrupted) j["interrupted"] = true;  // only then: the key is new
  nlohmann::ordered_json pts = nlohmann::ordered_json::array();
  for (const critical::ImperfectionPoint& p : r.study.points) {
    nlohmann::ordered_json pj;
    pj["amplitude"] = p.amplitude;
    pj["found"] = p.found;
    if (p.found) {
      pj["lambda_max"] = p.lambda_max;
      pj["drop"] = 1.0 - p.lambda_max / r.study.lambda_perfect;
    }
    pj["message"] = p.message;
    pts.push_back(pj);
  }
  j["points"] = pts;
  const critical::PowerLaw& f = r.study.fit;
  j["fit"] = {{"law", "1 - lambda_max/lambda_perfect = coefficient * amplitude^exponent"},
              {"valid", f.valid},
              {"exponent", f.valid ? nlohmann::ordered_json(f.exponent) : nlohmann::ordered_json()},
              {"coefficient", f.valid ? nlohmann::ordered_json(f.coefficient) : nlohmann::ordered_json()},
              {"max_log_residual", f.max_log_residual},
              {"points", f.points},
              {"message", f.message}};
  return j.dump(2) + "\n";
}


// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------

std::string sweep_subdir(int index) { return fmt::format("sweep/{:03d}", index); }

namespace {
std::string g17(double x) { return fmt::format("{:.17g}", x); }
}  // namespace

std::string sweep_csv(const analysis::SweepResult& r) {
  std::string out = "index,mu,status,id,kind,branch,lambda";
  for (const std::string& c : r.track_columns) {
    out += ',';
    out += c;
  }
  out += ",converged\n";
  for (const analysis::SweepValue& v : r.values) {
    if (v.status == analysis::SweepStatus::NotRun) continue;
    const std::string head = fmt::format("{},{},{}", v.index, g17(v.mu), analysis::status_name(v));
    if (v.points.empty()) {
      out += head + ",,,,";
      for (std::size_t i = 0; i < r.track_columns.size(); ++i) out += ",";
      out += ",\n";
      continue;
    }
    for (const analysis::SweepPoint& p : v.points) {
      // A point not located has no lambda nor displacements (empty fields).
      out += fmt::format("{},{},{},{},{}", head, p.id, critical::to_string(p.kind), p.branch,
                         p.converged ? g17(p.lambda) : std::string());
      for (std::size_t i = 0; i < r.track_columns.size(); ++i) {
        out += ',';
        if (p.converged && i < p.tracked.size()) out += g17(p.tracked[i]);
      }
      out += p.converged ? ",1\n" : ",0\n";
    }
  }
  return out;
}

std::string sweep_json(const analysis::SweepResult& r, const std::function<int(const analysis::SweepValue&)>& exit_status) {
  nlohmann::ordered_json j;
  j["parameter"] = r.spec.parameter;
  j["start"] = r.spec.start;
  j["stop"] = r.spec.stop;
  j["count"] = r.spec.count;
  j["spacing"] = r.spec.log ? "log" : "lin";
  j["interrupted"] = r.interrupted;
  j["track_columns"] = r.track_columns;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const analysis::SweepValue& v : r.values) {
    nlohmann::ordered_json x;
    x["index"] = v.index;
    x["mu"] = v.mu;
    x["status"] = analysis::status_name(v);
    x["message"] = v.message;
    x["dir"] = v.dir;
    // None for a value that never started (a stop request first): 0 read as success.
    if (v.status == analysis::SweepStatus::NotRun)
      x["exit_code"] = nullptr;
    else
      x["exit_code"] = exit_status(v);
    nlohmann::ordered_json cps = nlohmann::ordered_json::array();
    for (const analysis::SweepPoint& p : v.points) {
      nlohmann::ordered_json c;
      c["id"] = p.id;
      c["kind"] = critical::to_string(p.kind);
      c["branch"] = p.branch;
      nlohmann::ordered_json u;
      for (std::size_t i = 0; i < r.track_columns.size() && i < p.tracked.size(); ++i) u[r.track_columns[i]] = p.tracked[i];
      if (p.converged) {
        c["lambda"] = p.lambda;
        c["tracked"] = u.is_null() ? nlohmann::ordered_json::object() : u;
      } else {  // not located: no lambda nor displacements
        c["lambda"] = nullptr;
        c["tracked"] = nullptr;
      }
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

std::string sweep_plot_script(const analysis::SweepResult& r, const PlotOptions& options) {
  // Series: one per kind of located point, those on the primary path (filled
  // markers) apart from those on secondary branches (open markers). Points, no
  // lines: the ids (LP1, BP2, ...) number the points in the order a run meets
  // them, so one id is not one critical point across values when the set of
  // points changes with the parameter (Eriksson's frame: a new bifurcation).
  struct Series {
    critical::CriticalKind kind;
    bool secondary;
  };
  std::vector<Series> series;
  for (const analysis::SweepValue& v : r.values)
    for (const analysis::SweepPoint& p : v.points) {
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
    for (const analysis::SweepValue& v : r.values)
      for (const analysis::SweepPoint& p : v.points)
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
      const std::string kind = critical::to_string(series[k].kind);
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


PlotFiles write_sweep_files(const fs::path& dir, const analysis::SweepResult& r,
                            const std::function<int(const analysis::SweepValue&)>& exit_status,
                            const PlotOptions& options) {
  PlotFiles f;
  f.dir = dir;
  f.critical = dir / "sweep.csv";
  f.script = dir / "sweep.gp";
  write_file_atomically(f.critical, sweep_csv(r));
  write_file_atomically(dir / "sweep.json", sweep_json(r, exit_status));
  write_file_atomically(f.script, sweep_plot_script(r, options));
  f.figures = {dir / "sweep.png", dir / "sweep.svg"};
  return f;
}

}  // namespace senda::output
