#include "senda/output/results.hpp"

#include "senda/output/studies.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <system_error>

namespace senda::output {

namespace fs = std::filesystem;

PathWriter::PathWriter(const fs::path& file, const RunInfo& info) : rows_(file), track_(info.track) {
  std::string header = "point,branch,lambda";
  for (const std::string& t : info.track_columns) header += "," + t;
  header += ",iterations,residual,step_length,det_sign,negative_pivots\n";
  rows_.append(header);
}

void PathWriter::write(const continuation::PathPoint& p, int branch) {
  char buf[64];
  std::string row;
  std::snprintf(buf, sizeof buf, "%d,%d,%.17g", p.index, branch, p.lambda);
  row += buf;
  for (double u : analysis::tracked_values(p.q, track_)) {
    std::snprintf(buf, sizeof buf, ",%.17g", u);
    row += buf;
  }
  char tail[160];
  if (p.negative_pivots < 0)  // undetermined: the first point of a branch, a singular point
    std::snprintf(tail, sizeof tail, ",%d,%.17g,%.17g,,\n", p.iterations, p.residual, p.step_length);
  else
    std::snprintf(tail, sizeof tail, ",%d,%.17g,%.17g,%d,%d\n", p.iterations, p.residual, p.step_length, p.det_sign,
                  p.negative_pivots);
  row += tail;
  rows_.append(row);
}

std::string summary_json(const RunInfo& info, const analysis::TraceResult& s) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["problem"] = info.problem;
  j["title"] = info.title;
  j["config"] = info.config;
  j["unknowns"] = s.unknowns;
  j["termination"] = continuation::to_string(s.termination);
  j["message"] = s.message;
  j["points"] = s.points;
  j["lambda_max"] = s.lambda_max;
  j["lambda_min"] = s.lambda_min;
  j["newton_iterations"] = s.stats.newton_iterations;
  j["failed_steps"] = s.stats.failed_steps;
  j["factorizations"] = s.stats.factorizations;
  ordered_json crossings = ordered_json::array();
  for (const analysis::CrossingRecord& rec : s.crossings) {
    const continuation::Crossing& c = rec.crossing;
    ordered_json x;
    x["branch"] = rec.branch;
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
    for (std::size_t k = 0; k < u.size() && k < info.track_columns.size(); ++k) d[info.track_columns[k]] = u[k];
    return d;
  };
  ordered_json cps = ordered_json::array();
  for (const analysis::CriticalRecord& rec : s.critical_points) {
    const critical::CriticalPoint& cp = rec.point;
    ordered_json x;
    x["id"] = cp.id;
    x["kind"] = critical::to_string(cp.kind);
    x["converged"] = cp.converged;
    x["message"] = cp.message;
    x["system"] = cp.system;
    // A point that was not located has no λ nor displacements (its last Newton
    // iterate is meaningless: issue 19, item 3); its bracket says where it is.
    if (cp.converged) {
      x["lambda"] = cp.lambda;
      x["displacements"] = displacements(rec.tracked);
    } else {
      x["lambda"] = nullptr;
      x["displacements"] = nullptr;
    }
    x["residual"] = cp.residual;
    x["newton_iterations"] = cp.newton_iterations;
    x["residual_history"] = cp.residual_history;
    x["phi_dot_r"] = cp.phi_dot_r;
    // null: located to critical.tolerance; a number: accepted at the residual's
    // round-off floor, λ's relative spread over the last iterates (what λ holds to).
    if (cp.floor_lambda_spread >= 0.0)
      x["floor_lambda_spread"] = cp.floor_lambda_spread;
    else
      x["floor_lambda_spread"] = nullptr;
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
    if (cp.converged && cp.phi.size() > 0) x["mode_file"] = "modes/" + cp.id + ".csv";
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
          const auto& tt = rec.tangents_tracked;
          tj["displacements"] = displacements(tt.size() == 2 ? tt[static_cast<std::size_t>(t)] : std::vector<double>{});
          ts.push_back(tj);
        }
        abe["tangents"] = ts;
        abe["incoming_alignment"] = a.incoming_alignment;
      }
      x["abe"] = abe;
    }
    if (!rec.sensitivities.empty()) {
      ordered_json sens = ordered_json::array();
      for (const analysis::ParameterSensitivity& ps : rec.sensitivities) {
        ordered_json sj;
        sj["parameter"] = ps.parameter;
        sj["value"] = ps.value;
        sj["valid"] = ps.sensitivity.valid;
        if (ps.sensitivity.valid)
          sj["dlambda_dmu"] = ps.sensitivity.dlambda_dmu;
        else
          sj["dlambda_dmu"] = nullptr;
        // Estimated from the same quotients with halved steps (null: none).
        if (ps.sensitivity.valid && std::isfinite(ps.sensitivity.error))
          sj["dlambda_dmu_error"] = ps.sensitivity.error;
        else
          sj["dlambda_dmu_error"] = nullptr;
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
    for (const analysis::CurveRecord& c : s.curves) {
      ordered_json cj;
      cj["point"] = c.point;
      cj["parameter"] = c.parameter;
      cj["direction"] = c.direction > 0 ? "up" : "down";
      cj["file"] = curve_file(c).generic_string();
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
    x["points"] = b.rows();  // branch 0 of a --from run listed 1 point and had no row
    x["termination"] = critical::to_string(b.termination);
    x["message"] = b.message;
    x["end_point"] = b.end_point;
    x["metric"] = b.own_metric ? "own" : "path";
    ordered_json neutral = ordered_json::array();
    for (const critical::NeutralStretch& n : b.neutral)
      neutral.push_back({{"first_point", n.first_point}, {"last_point", n.last_point}, {"lambda", n.lambda},
                         {"lambda_spread", n.lambda_spread}, {"arc_length", n.arc_length}, {"crossings", n.crossings},
                         {"lambda_left", n.lambda_left}, {"located", n.located}});
    x["neutral"] = neutral;
    branches.push_back(x);
  }
  j["branches"] = branches;
  j["locate_factorizations"] = s.stats.locate_factorizations;
  // Timing last and grouped: determinism tests drop "wall_time_s" and "timing".
  const analysis::RunStats& t = s.stats;
  j["wall_time_s"] = t.wall_time_s;
  j["timing"] = {{"assembly_s", t.assembly_s}, {"analyze_s", t.analyze_s}, {"factorize_s", t.factorize_s}, {"solve_s", t.solve_s}};
  return j.dump(2) + "\n";
}

void write_summary(const fs::path& file, const RunInfo& info, const analysis::TraceResult& r) {
  write_file_atomically(file, summary_json(info, r));
}

void write_mode(const fs::path& dir, const core::Problem& problem, const critical::CriticalPoint& cp) {
  if (!cp.converged || cp.phi.size() == 0) return;  // not located: no mode
  std::error_code ec;
  fs::create_directories(dir / "modes", ec);
  if (ec) throw OutputError((dir / "modes").string() + ": cannot create: " + ec.message());
  // The mode scaled to max |phi_j| = 1; written whole (temporary file, then
  // rename), so that a killed run leaves no half-written mode.
  const double m = cp.phi.cwiseAbs().maxCoeff();
  std::string text = "equation,dof,phi\n";
  char value[40];
  for (int i = 0; i < cp.phi.size(); ++i) {
    std::snprintf(value, sizeof value, "%.17g", m > 0 ? cp.phi[i] / m : 0.0);
    text += std::to_string(i) + "," + problem.dof_name(i) + "," + value + "\n";
  }
  write_file_atomically(dir / "modes" / (cp.id + ".csv"), text);
}

}  // namespace senda::output
