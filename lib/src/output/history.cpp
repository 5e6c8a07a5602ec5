#include "senda/output/history.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <system_error>

namespace senda::output {

namespace fs = std::filesystem;

SimulationRecorder::SimulationRecorder(const ResultsDir& dir, const model::Model& model, SimulationInfo info)
    : dir_(dir.path()), model_(model), info_(std::move(info)), history_(dir_ / "history.csv"),
      start_(std::chrono::steady_clock::now()) {
  if (info_.vtk) {
    std::error_code ec;
    fs::create_directories(dir_ / "vtk", ec);
    if (ec) throw OutputError((dir_ / "vtk").string() + ": cannot create: " + ec.message());
  }
}

void SimulationRecorder::on_start(const dynamics::Integrator& in) {
  std::string h = "step,t,lambda";
  for (const std::string& c : info_.track_columns) h += "," + c;
  for (const std::string& c : info_.track_columns) h += ",v" + c.substr(1);  // u_2_uy → v_2_uy
  h += ",kinetic,strain,load_potential,dissipated,total,energy_error,relative_error,iterations,residual";
  for (const std::string& c : info_.hook_columns) h += "," + c;
  history_.append(h + "\n");
  row(0, in, 0, 0.0);
  frame(0, in, true);
}

void SimulationRecorder::row(long k, const dynamics::Integrator& in, int iterations, double residual) {
  const dynamics::State& s = in.state();
  const dynamics::Energies e = in.energies();
  std::string r;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%ld,%.17g,%.17g", k, s.t, in.load_factor(s.t));
  r += buf;
  for (int eq : info_.track) {
    std::snprintf(buf, sizeof buf, ",%.17g", s.q[eq]);
    r += buf;
  }
  for (int eq : info_.track) {
    std::snprintf(buf, sizeof buf, ",%.17g", s.v[eq]);
    r += buf;
  }
  for (double x : {e.kinetic, e.strain, e.load_potential, e.dissipated, e.total, e.error, e.relative}) {
    std::snprintf(buf, sizeof buf, ",%.17g", x);
    r += buf;
  }
  std::snprintf(buf, sizeof buf, ",%d,%.17g", iterations, residual);
  r += buf;
  for (double x : in.hook_values()) {
    std::snprintf(buf, sizeof buf, ",%.17g", x);
    r += buf;
  }
  history_.append(r + "\n");
  last_row_ = k;
}

void SimulationRecorder::frame(long k, const dynamics::Integrator& in, bool force) {
  if (!info_.vtk) return;
  const dynamics::State& s = in.state();
  char name[32];
  std::snprintf(name, sizeof name, "t_%06ld.vtu", k);
  write_file_atomically(dir_ / "vtk" / name, vtu_text(model_, s.q, in.load_factor(s.t), static_cast<int>(k), 0));
  frames_.push_back({s.t, name, ""});
  // The index is rewritten whole (atomically): after each of the first 200 frames, then
  // whenever it has grown by 1 % (linear cost), and at the end.
  if (force || frames_.size() <= 200 || frames_.size() >= frames_written_ + frames_written_ / 100 + 1) {
    write_file_atomically(dir_ / "vtk" / "simulation.pvd", pvd_text(frames_));
    frames_written_ = frames_.size();
  }
}

void SimulationRecorder::on_step(long k, const dynamics::Integrator& in, const dynamics::StepReport& r) {
  if (k % info_.output_every != 0 && k != info_.steps) return;
  row(k, in, r.iterations, r.residual);
  frame(k, in, k == info_.steps);
}

void SimulationRecorder::on_end(const dynamics::Integrator& in, const dynamics::SimulationResult& r) {
  if (last_row_ != r.steps) {
    row(r.steps, in, 0, 0.0);
    frame(r.steps, in, true);
  } else if (info_.vtk && frames_written_ != frames_.size()) {
    write_file_atomically(dir_ / "vtk" / "simulation.pvd", pvd_text(frames_));
    frames_written_ = frames_.size();
  }
  std::error_code ec;
  fs::create_directories(dir_ / "states", ec);
  if (ec) throw OutputError((dir_ / "states").string() + ": cannot create: " + ec.message());
  write_dynamic_state(dir_ / "states" / "final.json", info_.problem, core::unknowns_fingerprint(model_), in);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  write_file_atomically(dir_ / "summary.json", simulation_summary_json(info_, in, r, wall));
}

namespace {
nlohmann::json vec(const Vector& v) { return nlohmann::json(std::vector<double>(v.data(), v.data() + v.size())); }
}  // namespace

std::string simulation_summary_json(const SimulationInfo& info, const dynamics::Integrator& in,
                                    const dynamics::SimulationResult& r, double wall_time_s) {
  using nlohmann::ordered_json;
  const dynamics::IntegratorOptions& o = in.options();
  const dynamics::Energies e = in.energies();
  ordered_json j;
  j["problem"] = info.problem;
  j["title"] = info.title;
  j["config"] = info.config;
  j["integrator"] = dynamics::to_string(o.scheme);
  if (o.scheme == dynamics::Scheme::Newmark || o.scheme == dynamics::Scheme::HHT) {
    j["beta"] = o.beta;
    j["gamma"] = o.gamma;
    if (o.scheme == dynamics::Scheme::HHT) j["alpha"] = o.alpha;
  }
  j["iteration_matrix"] = o.scheme == dynamics::Scheme::Index1RK4 ? "none (explicit; [M G^T; G 0] by SparseLU)"
                          : in.unsymmetric()                       ? "unsymmetric (SparseLU)"
                                                                   : "symmetric (LDLT)";
  j["dt"] = o.dt;
  j["steps_requested"] = info.steps;
  j["steps"] = r.steps;
  j["t"] = in.state().t;
  j["end"] = dynamics::to_string(r.end);
  if (r.end == dynamics::SimulationEnd::StepFailed) j["step_status"] = dynamics::to_string(r.failed_status);
  j["message"] = r.message;
  j["load"] = info.load;
  j["initial_state"] = info.initial_state;
  j["energy"] = {{"kinetic", e.kinetic}, {"strain", e.strain}, {"load_potential", e.load_potential},
                 {"dissipated", e.dissipated}, {"total", e.total}, {"error", e.error},
                 {"relative_error", e.relative}, {"max_relative_error", r.max_relative_error}};
  j["iterations"] = {{"max", r.max_iterations}, {"mean", r.mean_iterations}};
  if (const dynamics::Index1Statistics* c = in.constraint_statistics()) {
    // The rigid links (docs/theory.md §9): max_phi, max_phi_dot are after a step and
    // before its correction; final_phi, final_phi_dot at the last state written.
    const dynamics::Index1Options& x = o.index1;
    const std::vector<double>& h = in.hook_values();
    j["constraints"] = {{"rigid_links", in.constraint_count()},
                        {"baumgarte_alpha", x.alpha},
                        {"baumgarte_beta", x.beta},
                        {"projection", dynamics::to_string(x.projection)},
                        {"projection_weight", dynamics::to_string(x.weight)},
                        {"phi_tolerance", x.position_tolerance},
                        {"phi_dot_tolerance", x.velocity_tolerance},
                        {"projection_tolerance", x.projection_tolerance},
                        {"corrections", c->corrections},
                        {"projection_iterations", c->projection_iterations},
                        {"solves", c->solves},
                        {"initial_phi", in.initial_phi()},
                        {"initial_phi_dot", in.initial_phi_dot()},
                        {"max_phi", c->max_phi},
                        {"max_phi_dot", c->max_phi_dot},
                        {"final_phi", h.size() > 1 ? h[0] : 0.0},
                        {"final_phi_dot", h.size() > 1 ? h[1] : 0.0}};
  }
  ordered_json ev = ordered_json::array();
  for (const dynamics::EventRecord& x : r.events)
    ev.push_back({{"event", x.name}, {"t", x.t}, {"direction", x.direction > 0 ? "rising" : "falling"}});
  j["events"] = ev;
  ordered_json fin;
  for (std::size_t k = 0; k < info.track.size(); ++k) {
    fin[info.track_columns[k]] = in.state().q[info.track[k]];
    // "u_2_ux" -> "v_2_ux" (built in place: GCC 12 warns -Wrestrict, falsely, on
    // "v" + std::string&&)
    std::string velocity = info.track_columns[k];
    if (!velocity.empty()) velocity[0] = 'v';
    fin[velocity] = in.state().v[info.track[k]];
  }
  j["final"] = fin;
  j["wall_time_s"] = wall_time_s;
  return j.dump(2) + "\n";
}

void write_dynamic_state(const fs::path& file, const std::string& problem, const std::string& fingerprint,
                         const dynamics::Integrator& in) {
  nlohmann::ordered_json j;
  const dynamics::State& s = in.state();
  j["format"] = "senda-state-1";
  j["problem"] = problem;
  j["unknowns"] = s.q.size();
  j["unknowns_fingerprint"] = fingerprint;
  j["id"] = "final";
  j["kind"] = "dynamic";
  j["lambda"] = in.load_factor(s.t);
  j["t"] = s.t;
  j["q"] = vec(s.q);
  j["v"] = vec(s.v);
  write_file_atomically(file, j.dump() + "\n");
}

PlotFiles write_history_plot(const fs::path& dir, const SimulationInfo& info, const PlotOptions& options) {
  PlotFiles f;
  f.dir = dir;
  f.script = dir / "history.gp";
  f.log = dir / "history.log";
  std::string s;
  auto add = [&](const std::string& line) { s += line + "\n"; };
  add("# Senda simulate: u(t), E(t) and the phase portrait from history.csv. Edit and run 'gnuplot history.gp'.");
  add("set datafile separator ','");
  add("set key autotitle columnhead noenhanced");
  add("set grid");
  add("width = " + std::to_string(options.width_px) + "; height = " + std::to_string(options.height_px));
  add("do for [format in 'png svg'] {");
  add("  if (format eq 'png') { set terminal pngcairo size width, height noenhanced } else { "
      "set terminal svg size width, height noenhanced background '#ffffff' }");
  std::string u_plot, phase;
  for (std::size_t k = 0; k < info.track_columns.size(); ++k) {
    const std::string& c = info.track_columns[k];
    u_plot += (k ? ", " : "") + std::string("'history.csv' using (column('t')):(column('") + c +
              "')) with lines title '" + c + "'";
  }
  add("  set xlabel 't'; set ylabel 'displacement'");
  add("  set output sprintf('u_t.%s', format)");
  if (!u_plot.empty()) add("  plot " + u_plot);
  add("  set ylabel 'energy'");
  add("  set output sprintf('energy_t.%s', format)");
  add("  plot 'history.csv' using (column('t')):(column('kinetic')) with lines title 'kinetic', "
      "'' using (column('t')):(column('strain')) with lines title 'strain', "
      "'' using (column('t')):(column('load_potential')) with lines title 'load potential', "
      "'' using (column('t')):(column('total')+column('dissipated')) with lines title 'total + dissipated'");
  if (!info.track_columns.empty()) {
    const std::string& c = info.track_columns.front();
    add("  set xlabel '" + c + "'; set ylabel 'v" + c.substr(1) + "'");
    add("  set output sprintf('phase.%s', format)");
    add("  plot 'history.csv' using (column('" + c + "')):(column('v" + c.substr(1) +
        "')) with lines title 'phase portrait'");
  }
  add("  set output");
  add("}");
  write_file_atomically(f.script, s);
  for (const char* ext : {".png", ".svg"})
    for (const char* name : {"u_t", "energy_t", "phase"})
      if (!info.track_columns.empty() || std::string(name) == "energy_t") f.figures.push_back(dir / (std::string(name) + ext));
  return f;
}

}  // namespace senda::output
