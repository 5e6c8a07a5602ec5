#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "senda/output/files.hpp"

namespace cosim_app {

History::History(const std::filesystem::path& file, const senda::input::CosimSpec& spec) : rows_(file) {
  // t, step, sweeps, energies, mean powers, residual, then every exchanged output.
  std::string h = "t,step,iterations,converged";
  for (const auto& u : spec.units) h += ",E_" + u.name;
  h += ",E_total";
  for (const auto& u : spec.units) h += ",P_" + u.name;
  h += ",residual,residual_sum";
  for (const auto& u : spec.units)
    for (int j = 0; j < u.unit->output_count(); ++j) h += "," + u.name + "." + u.unit->output_name(j);
  rows_.append(h + "\n");
}

void History::write(const senda::cosim::MacroRecord& r) {
  std::string row = fmt::format("{:.17g},{},{},{}", r.t, r.step, r.iterations, r.converged ? 1 : 0);
  for (double e : r.energy) row += fmt::format(",{:.17g}", e);
  row += fmt::format(",{:.17g}", r.total_energy);
  for (double p : r.power) row += fmt::format(",{:.17g}", p);
  row += fmt::format(",{:.17g},{:.17g}", r.residual, r.residual_sum);
  for (const auto& y : r.outputs)
    for (double v : y) row += fmt::format(",{:.17g}", v);
  // One whole row per macro step: a run that fails or is interrupted keeps every step so far.
  rows_.append(row + "\n");
}

std::string end_message(const senda::input::CosimSpec& spec, const senda::cosim::Summary& s) {
  std::vector<std::string> names;
  for (const auto& u : spec.units) names.push_back(u.name);
  return senda::cosim::termination_message(s, names, spec.options);
}

std::string summary_json(const senda::input::CosimSpec& spec, const senda::cosim::Summary& s) {
  nlohmann::ordered_json j;
  j["problem"] = spec.problem_name;
  j["title"] = spec.title;
  j["config"] = spec.config_file.string();
  j["termination"] = senda::cosim::to_string(s.termination);
  if (const std::string m = end_message(spec, s); !m.empty()) j["message"] = m;
  j["scheme"] = senda::cosim::to_string(spec.options.scheme);
  j["macro_step"] = spec.options.macro_step;
  j["end_time"] = spec.options.end_time;
  j["max_iterations"] = spec.options.max_iterations;
  j["steps"] = s.steps;
  j["t_end"] = s.t_end;
  nlohmann::ordered_json units = nlohmann::ordered_json::array();
  for (const auto& u : spec.units)
    units.push_back({{"name", u.name},
                     {"type", u.type},
                     {"integrator", senda::cosim::to_string(u.unit->integrator())},
                     {"micro_step", u.unit->micro_step()}});
  j["units"] = units;
  j["energy"] = {{"initial", s.initial_energy},
                 {"final", s.final_energy},
                 {"min", s.min_energy},
                 {"max", s.max_energy},
                 {"max_deviation", s.max_energy_deviation}};
  j["residual_sum"] = s.residual_sum;
  j["unconverged_steps"] = s.unconverged_steps;
  return j.dump(2) + "\n";
}

}  // namespace cosim_app
