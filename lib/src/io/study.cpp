#include "senda/io/study.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <sstream>

#include "senda/io/design.hpp"
#include "senda/io/results.hpp"
#include "senda/io/trace.hpp"

namespace senda::io {

namespace fs = std::filesystem;

ConfigFamily::ConfigFamily(const Config& config, std::string parameter, const Setup& reference)
    : config_(config), parameter_(std::move(parameter)), reference_(reference) {}

std::shared_ptr<const Problem> ConfigFamily::at(double mu) const {
  Setup s = build(config_, std::map<std::string, double>{{parameter_, mu}}, reference_);
  return std::shared_ptr<const Problem>(std::move(s.model));
}

std::vector<ParameterSensitivity> parameter_sensitivities(const Config& config, const Setup& reference,
                                                          const critical::CriticalPoint& cp) {
  std::vector<ParameterSensitivity> out;
  for (const auto& [name, value] : parameters(config)) {
    ParameterSensitivity ps;
    ps.parameter = name;
    ps.value = value;
    try {
      const ConfigFamily family(config, name, reference);
      ps.sensitivity = critical::sensitivity(family, value, cp);
    } catch (const ConfigError& e) {
      ps.sensitivity.valid = false;
      ps.sensitivity.message = std::string("the model cannot be built near ") + name + " = " +
                               format_value(value) + ": " + e.what();
    }
    out.push_back(std::move(ps));
  }
  return out;
}

critical::CurveOptions curve_options(const Config& config, const Setup& setup) {
  critical::CurveOptions o;
  if (auto v = config.real("design.mu_min")) o.mu_min = *v;
  if (auto v = config.real("design.mu_max")) o.mu_max = *v;
  if (auto v = config.real("design.step")) o.step = *v;
  if (auto v = config.integer("design.max_points")) o.max_points = static_cast<int>(*v);
  o.max_step = std::max(o.max_step, 4.0 * o.step);
  o.lambda_min = setup.options.lambda_min;
  o.lambda_max = setup.options.lambda_max;
  o.locate.tolerance = setup.critical.tolerance;
  o.locate.max_iterations = setup.critical.max_iterations;
  o.locate.bifurcation_tolerance = setup.critical.bifurcation_tolerance;
  o.sensitivity.bifurcation_tolerance = setup.critical.bifurcation_tolerance;
  o.sensitivity.symmetric_tolerance = setup.branches.symmetric_tolerance;
  return o;
}

CurveResult follow_curve(const Config& config, const Setup& reference, const critical::CriticalPoint& cp,
                         const std::string& parameter, const critical::CurveOptions& options, int direction) {
  CurveResult r;
  r.point = cp.id;
  r.parameter = parameter;
  r.direction = direction >= 0 ? +1 : -1;
  double mu0 = 0.0;
  bool found = false;
  for (const auto& [name, value] : parameters(config))
    if (name == parameter) {
      mu0 = value;
      found = true;
    }
  if (!found) {
    r.curve.termination = critical::CurveTermination::BadStart;
    r.curve.message = "'" + parameter + "' is not a parameter of [parameters]";
    return r;
  }
  critical::CurveOptions o = options;
  o.direction = r.direction;
  const ConfigFamily family(config, parameter, reference);
  try {
    r.curve = critical::follow_critical_curve(family, mu0, cp, o);
  } catch (const std::exception& e) {
    // The builder refused a value next to the start (μ₀ ± δ of the first
    // derivatives); later failures cut the step inside follow_critical_curve.
    r.curve.termination = critical::CurveTermination::InvalidModel;
    r.curve.message = e.what();
  }
  return r;
}

namespace {

std::string real(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string curve_csv(const CurveResult& c, const Setup& setup) {
  std::ostringstream out;
  out << "point," << c.parameter << ",lambda,kind,iterations,residual,arclength";
  for (const TrackedDof& t : setup.track) out << "," << t.column;
  out << "\n";
  int k = 0;
  for (const critical::CurvePoint& p : c.curve.points) {
    out << k++ << "," << real(p.mu) << "," << real(p.lambda) << ","
        << (p.kind == critical::CriticalKind::Limit ? "limit" : "bifurcation") << "," << p.iterations << ","
        << real(p.residual) << "," << real(p.arclength);
    for (const TrackedDof& t : setup.track)
      out << "," << real(t.equation >= 0 && t.equation < p.q.size() ? p.q[t.equation] : 0.0);
    out << "\n";
  }
  return out.str();
}

void write_curve(const fs::path& dir, CurveResult& c, const Setup& setup) {
  const fs::path rel = fs::path("curves") / (c.point + "-" + c.parameter + (c.direction > 0 ? "-up" : "-down") + ".csv");
  const fs::path file = dir / rel;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw OutputError(file.parent_path().string() + ": cannot create: " + ec.message());
  write_file_atomically(file, curve_csv(c, setup));
  c.file = rel;
}

std::string curves_plot_script(const std::vector<CurveResult>& curves, int width_px, int height_px) {
  std::ostringstream g;
  std::string parameter;
  for (const CurveResult& c : curves)
    if (!c.file.empty()) parameter = c.parameter;
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
  for (const CurveResult& c : curves) {
    if (c.file.empty()) continue;
    if (!plots.empty()) plots += ", \\\n     ";
    plots += "'" + c.file.generic_string() + "' skip 1 using 2:3 with lines lw 2 lc " + std::to_string(color) +
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

ImperfectionRun imperfection_study(const Config& config, const Setup& reference, const std::string& parameter,
                                   const std::vector<double>& amplitudes) {
  ImperfectionRun r;
  r.parameter = parameter;
  r.amplitudes = amplitudes;
  const ConfigFamily family(config, parameter, reference);
  const TraceRun driver(reference);
  const critical::FinderOptions finder = driver.explorer_options().finder;
  const continuation::Options& path = reference.options;
  std::shared_ptr<const Problem> perfect;
  try {
    perfect = family.at(0.0);
  } catch (const std::exception& e) {
    r.message = std::string("the perfect structure (") + parameter + " = 0) cannot be built: " + e.what();
    return r;
  }
  std::string why;
  const std::optional<critical::CriticalPoint> cp =
      critical::first_critical_point(*perfect, Vector::Zero(perfect->size()), 0.0, path, finder, &why);
  if (!cp) {
    r.message = "the perfect structure (" + parameter + " = 0) has no located critical point: " + why;
    return r;
  }
  r.perfect_id = cp->id;
  r.perfect_kind = critical::to_string(cp->kind);
  r.study = critical::imperfection_sensitivity(family, amplitudes, cp->lambda, path, finder);
  r.study.lambda_perfect = cp->lambda;
  return r;
}

std::string imperfection_csv(const ImperfectionRun& r) {
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

std::string imperfection_json(const ImperfectionRun& r) {
  nlohmann::ordered_json j;
  j["parameter"] = r.parameter;
  j["perfect"] = {{"id", r.perfect_id}, {"kind", r.perfect_kind}, {"lambda", r.study.lambda_perfect}};
  j["message"] = r.message;
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

}  // namespace senda::io
