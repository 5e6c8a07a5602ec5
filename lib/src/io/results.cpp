#include "senda/io/results.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

namespace senda::io {

namespace fs = std::filesystem;

namespace {
const char* kOwnFiles[] = {"path.csv",   "summary.json", "summary.json.tmp", "plot.gp",          "critical.csv",
                           "plot.log",   "curves.gp",    "curves.png",       "curves.svg",       "curves.log",
                           "imperfection.csv", "imperfection.json"};
}

void check_output_dir(const fs::path& dir, bool overwrite) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st)) throw ConfigError(dir.string(), 0, "", "exists and is not a directory");
    if (!overwrite)
      throw ConfigError(dir.string(), 0, "",
                        "the results directory exists; pass --overwrite to replace its results, or choose --out");
  }
}

void prepare_output_dir(const fs::path& dir, bool overwrite) {
  check_output_dir(dir, overwrite);
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    for (const char* f : kOwnFiles) {
      fs::remove(dir / f, ec);
      if (ec) throw ConfigError((dir / f).string(), 0, "", "cannot remove the old result: " + ec.message());
    }
    // The figures of the old run, lambda_<column>.png/.svg.
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (name.rfind("lambda_", 0) == 0 && (ext == ".png" || ext == ".svg")) fs::remove(e.path(), ec);
    }
    // The mode, state, VTK, drawing and curve files of the old run (Senda's own directories).
    for (const char* sub : {"modes", "states", "vtk", "drawings", "curves"}) {
      fs::remove_all(dir / sub, ec);
      if (ec) throw ConfigError((dir / sub).string(), 0, "", "cannot remove the old results: " + ec.message());
    }
    return;
  }
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError(dir.string(), 0, "", "cannot create the results directory: " + ec.message());
}

PathWriter::PathWriter(const fs::path& file, const std::vector<TrackedDof>& track) : file_(file), track_(track) {
  out_ = std::fopen(file.c_str(), "wx");
  if (!out_) throw OutputError(file.string() + ": cannot create: " + std::strerror(errno));
  std::string header = "point,branch,lambda";
  for (const TrackedDof& t : track_) header += "," + t.column;
  header += ",iterations,residual,step_length,det_sign,negative_pivots\n";
  if (std::fputs(header.c_str(), out_) < 0 || std::fflush(out_) != 0)
    throw OutputError(file.string() + ": write failed: " + std::strerror(errno));
}

PathWriter::~PathWriter() {
  if (out_) std::fclose(out_);
}

void PathWriter::write(const continuation::PathPoint& p, int branch) {
  int rc = std::fprintf(out_, "%d,%d,%.17g", p.index, branch, p.lambda);
  for (const TrackedDof& t : track_) {
    const double u = t.equation >= 0 && t.equation < p.q.size() ? p.q[t.equation] : 0.0;
    if (rc >= 0) rc = std::fprintf(out_, ",%.17g", u);
  }
  if (rc >= 0)
    rc = std::fprintf(out_, ",%d,%.17g,%.17g,%d,%d\n", p.iterations, p.residual, p.step_length, p.det_sign,
                      p.negative_pivots);
  // Flushed per row: after a kill every converged point is on disk.
  if (rc < 0 || std::fflush(out_) != 0) throw OutputError(file_.string() + ": write failed: " + std::strerror(errno));
}

std::string summary_json(const TraceSummary& s) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["problem"] = s.problem;
  j["title"] = s.title;
  j["config"] = s.config;
  j["unknowns"] = s.unknowns;
  j["termination"] = continuation::to_string(s.termination);
  j["message"] = s.message;
  j["points"] = s.points;
  j["lambda_max"] = s.lambda_max;
  j["lambda_min"] = s.lambda_min;
  j["newton_iterations"] = s.newton_iterations;
  j["failed_steps"] = s.failed_steps;
  j["factorizations"] = s.factorizations;
  ordered_json crossings = ordered_json::array();
  for (std::size_t k = 0; k < s.crossings.size(); ++k) {
    const continuation::Crossing& c = s.crossings[k];
    ordered_json x;
    x["branch"] = k < s.crossing_branches.size() ? s.crossing_branches[k] : 0;
    x["point_before"] = c.point_before;
    x["point_after"] = c.point_after;
    x["lambda_before"] = c.lambda_before;
    x["lambda_after"] = c.lambda_after;
    x["negative_pivots_before"] = c.negative_pivots_before;
    x["negative_pivots_after"] = c.negative_pivots_after;
    x["det_sign_changed"] = c.det_sign_changed;
    x["bordered_sign_changed"] = c.bordered_sign_changed;
    crossings.push_back(x);
  }
  j["crossings"] = crossings;
  auto displacements = [&](const std::vector<double>& u) {
    ordered_json d = ordered_json::object();
    for (std::size_t k = 0; k < u.size() && k < s.track_columns.size(); ++k) d[s.track_columns[k]] = u[k];
    return d;
  };
  ordered_json cps = ordered_json::array();
  for (std::size_t k = 0; k < s.critical_points.size(); ++k) {
    const critical::CriticalPoint& cp = s.critical_points[k];
    ordered_json x;
    x["id"] = cp.id;
    x["kind"] = critical::to_string(cp.kind);
    x["converged"] = cp.converged;
    x["message"] = cp.message;
    x["system"] = cp.system;
    x["lambda"] = cp.lambda;
    x["displacements"] = displacements(k < s.critical_tracked.size() ? s.critical_tracked[k] : std::vector<double>{});
    x["residual"] = cp.residual;
    x["newton_iterations"] = cp.newton_iterations;
    x["residual_history"] = cp.residual_history;
    x["phi_dot_r"] = cp.phi_dot_r;
    x["gamma"] = cp.gamma;
    x["bracket"] = {{"branch", cp.branches.empty() ? 0 : cp.branches.front()},
                    {"point_before", cp.point_before},
                    {"point_after", cp.point_after},
                    {"lambda_before", cp.lambda_before},
                    {"lambda_after", cp.lambda_after},
                    {"start_point", cp.start_point}};
    x["negative_pivots_change"] = cp.negative_pivots_change;
    x["multiplicity"] = cp.multiplicity;
    x["factorizations"] = cp.factorizations;
    x["branches"] = cp.branches;
    if (cp.phi.size() > 0) x["mode_file"] = "modes/" + cp.id + ".csv";
    if (cp.abe) {
      const critical::BifurcationEquation& a = *cp.abe;
      ordered_json abe;
      abe["A"] = a.A;
      abe["B1"] = a.B1;
      abe["B2"] = a.B2;
      abe["B_difference"] = a.B1 - a.B2;
      abe["C"] = a.C;
      abe["kind"] = a.valid ? (a.symmetric ? "symmetric" : "asymmetric") : "invalid";
      abe["message"] = a.message;
      if (a.valid) {
        ordered_json ts = ordered_json::array();
        for (int t = 0; t < 2; ++t) {
          ordered_json tj;
          tj["role"] = t == a.incoming ? "incoming" : "secondary";
          tj["lambda"] = a.tangents[t].lambda;
          const auto& tt = s.tangent_tracked;
          tj["displacements"] = displacements(k < tt.size() && tt[k].size() == 2 ? tt[k][t] : std::vector<double>{});
          ts.push_back(tj);
        }
        abe["tangents"] = ts;
        abe["incoming_alignment"] = a.incoming_alignment;
      }
      x["abe"] = abe;
    }
    if (k < s.sensitivities.size() && !s.sensitivities[k].empty()) {
      ordered_json sens = ordered_json::array();
      for (const ParameterSensitivity& ps : s.sensitivities[k]) {
        ordered_json sj;
        sj["parameter"] = ps.parameter;
        sj["value"] = ps.value;
        sj["valid"] = ps.sensitivity.valid;
        if (ps.sensitivity.valid)
          sj["dlambda_dmu"] = ps.sensitivity.dlambda_dmu;
        else
          sj["dlambda_dmu"] = nullptr;
        sj["phi_dot_dg_dmu"] = ps.sensitivity.phi_dot_gmu;
        sj["message"] = ps.sensitivity.message;
        sens.push_back(sj);
      }
      x["sensitivities"] = sens;
    }
    cps.push_back(x);
  }
  j["critical_points"] = cps;
  if (!s.curves.empty()) {
    ordered_json curves = ordered_json::array();
    for (const CurveResult& c : s.curves) {
      ordered_json cj;
      cj["point"] = c.point;
      cj["parameter"] = c.parameter;
      cj["direction"] = c.direction > 0 ? "up" : "down";
      cj["file"] = c.file.generic_string();
      cj["points"] = c.curve.points.size();
      cj["termination"] = critical::to_string(c.curve.termination);
      cj["message"] = c.curve.message;
      if (!c.curve.points.empty()) {
        const critical::CurvePoint& last = c.curve.points.back();
        cj["end"] = {{"mu", last.mu}, {"lambda", last.lambda}};
      }
      ordered_json evs = ordered_json::array();
      for (const critical::CurveEvent& e : c.curve.events) {
        ordered_json ej;
        ej["kind"] = critical::to_string(e.kind);
        ej["mu"] = e.mu;
        ej["lambda"] = e.lambda;
        ej["located"] = e.located;
        ej["after_point"] = e.after_point;
        ej["message"] = e.message;
        evs.push_back(ej);
      }
      cj["events"] = evs;
      curves.push_back(cj);
    }
    j["curves"] = curves;
  }
  ordered_json branches = ordered_json::array();
  for (const critical::Branch& b : s.branches) {
    ordered_json x;
    x["id"] = b.id;
    x["parent"] = b.parent;
    x["depth"] = b.depth;
    x["start_point"] = b.start_point;
    x["direction"] = b.direction;
    x["points"] = b.points + 1;  // the start point included
    x["termination"] = critical::to_string(b.termination);
    x["message"] = b.message;
    x["end_point"] = b.end_point;
    branches.push_back(x);
  }
  j["branches"] = branches;
  j["locate_factorizations"] = s.locate_factorizations;
  // Timing last and grouped: determinism tests drop "wall_time_s" and "timing".
  j["wall_time_s"] = s.wall_time_s;
  j["timing"] = {{"assembly_s", s.assembly_s}, {"analyze_s", s.analyze_s}, {"factorize_s", s.factorize_s}, {"solve_s", s.solve_s}};
  return j.dump(2) + "\n";
}

void write_file_atomically(const fs::path& file, const std::string& text) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(tmp.string() + ": cannot create: " + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) throw OutputError(tmp.string() + ": write failed");
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) throw OutputError(file.string() + ": cannot rename from " + tmp.string() + ": " + ec.message());
}

void write_summary(const fs::path& file, const TraceSummary& s) { write_file_atomically(file, summary_json(s)); }

}  // namespace senda::io
