#include "senda/input/state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <system_error>
#include <nlohmann/json.hpp>
#include <sstream>

#include "senda/input/config.hpp"

namespace senda::input {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
Vector to_vector(const json& j, std::size_t n, const std::string& file, const char* what,
                 const std::string& key = "branches.from") {
  if (!j.is_array() || j.size() != n)
    throw ConfigError(file, 0, key,
                      std::string("the saved state's '") + what + "' does not have " + std::to_string(n) +
                          " entries (is it from another model?)");
  Vector v(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (!j[i].is_number()) throw ConfigError(file, 0, key, std::string("non-numeric entry in '") + what + "'");
    v[static_cast<Eigen::Index>(i)] = j[i].get<double>();
  }
  return v;
}

// The scales w, ψ of the run that wrote the state: positive w, finite ψ ≥ 0.
continuation::Scaling read_scaling(const json& j, std::size_t n, const std::string& file, const std::string& key) {
  continuation::Scaling sc;
  sc.w = to_vector(j.at("scaling").at("w"), n, file, "scaling.w", key);
  sc.psi = j.at("scaling").at("psi").get<double>();
  if (!std::isfinite(sc.psi) || sc.psi < 0.0) throw ConfigError(file, 0, key, "scaling.psi must be a finite number >= 0");
  for (int i = 0; i < sc.w.size(); ++i)
    if (!std::isfinite(sc.w[i]) || !(sc.w[i] > 0.0))
      throw ConfigError(file, 0, key, "scaling.w[" + std::to_string(i) + "] must be a positive number");
  return sc;
}

// The JSON of a saved state file, read like the .cfg (a regular file of bounded size),
// its format and number of unknowns checked. Errors name the file and key.
json open_state(const fs::path& file, int unknowns, const std::string& fingerprint, const std::string& key) {
  const std::string name = file.string();
  // Read like the .cfg: a regular file of bounded size (a FIFO or /dev/zero is refused, not read).
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw ConfigError(name, 0, key, "cannot read the saved state: " + ec.message());
  if (ec || !fs::exists(st)) throw ConfigError(name, 0, key, "no such saved state");
  if (!fs::is_regular_file(st)) throw ConfigError(name, 0, key, "the saved state is not a regular file");
  // A state holds a few vectors of n reals (17 digits each): bound it by that, generously.
  const std::uintmax_t bound = 4096u + 64u * 8u * static_cast<std::uintmax_t>(std::max(unknowns, 1));
  if (fs::file_size(file, ec) > bound || ec)
    throw ConfigError(name, 0, key,
                      "the saved state is larger than a state of this model (" + std::to_string(unknowns) +
                          " unknowns) can be: it is from another, larger model, or not a state");
  std::ifstream in(file);
  if (!in) throw ConfigError(name, 0, key, "cannot open the saved state");
  json j;
  try {
    j = json::parse(in);
  } catch (const std::exception& e) {
    throw ConfigError(name, 0, key, std::string("not a saved state (JSON): ") + e.what());
  }
  try {
    if (j.value("format", "") != "senda-state-1")
      throw ConfigError(name, 0, key, "not a Senda saved state (format senda-state-1)");
    if (j.at("unknowns").get<long>() != unknowns)
      throw ConfigError(name, 0, key,
                        "the saved state has " + std::to_string(j.at("unknowns").get<long>()) +
                            " unknowns, the model " + std::to_string(unknowns) + ": it is from another model");
    // As many unknowns, other ones (von Mises' node 2 uy against an oscillator's
    // node 2 ux): their names differ.
    if (!fingerprint.empty() && j.contains("unknowns_fingerprint") &&
        j.at("unknowns_fingerprint").get<std::string>() != fingerprint)
      throw ConfigError(name, 0, key,
                        "the saved state is from another model: it has as many unknowns, but not the same ones "
                        "(other nodes or components, or in another order)");
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(name, 0, key, std::string("incomplete saved state: ") + e.what());
  }
  return j;
}

}  // namespace

StatePoint read_state_point(const fs::path& file, int unknowns, const std::string& fingerprint,
                            const std::string& key) {
  const json j = open_state(file, unknowns, fingerprint, key);
  const std::string name = file.string();
  try {
    StatePoint p;
    p.id = j.value("id", "");
    p.kind = j.value("kind", "");
    p.lambda = j.at("lambda").get<double>();
    p.q = to_vector(j.at("q"), static_cast<std::size_t>(unknowns), name, "q", key);
    if (!std::isfinite(p.lambda) || !p.q.allFinite()) throw ConfigError(name, 0, key, "lambda and q must be finite numbers");
    if (p.kind == "limit") {
      // A path started at a limit point goes along its mode, in the scaled norm of
      // the run that located it (PathFollower::start_at_limit).
      p.phi = to_vector(j.at("phi"), static_cast<std::size_t>(unknowns), name, "phi", key);
      if (!p.phi.allFinite() || !(p.phi.norm() > 0.0))
        throw ConfigError(name, 0, key, "the limit point's mode phi must be finite and nonzero");
      p.scaling = read_scaling(j, static_cast<std::size_t>(unknowns), name, key);
    }
    return p;
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(name, 0, key, std::string("incomplete saved state: ") + e.what());
  }
}

analysis::SavedState read_state(const fs::path& file, int unknowns, const std::string& fingerprint) {
  const std::string name = file.string();
  const json j = open_state(file, unknowns, fingerprint, "branches.from");
  try {
    const std::size_t n = static_cast<std::size_t>(unknowns);
    analysis::SavedState s;
    s.problem = j.value("problem", "");
    critical::CriticalPoint& cp = s.point;
    cp.id = j.at("id").get<std::string>();
    // Branches start at a bifurcation point only: a state of another kind (edited,
    // or a limit point's with an abe) was taken as one, and the run reported two
    // points named BP1, the files of one overwriting the other's.
    const std::string kind = j.at("kind").get<std::string>();
    if (kind != "bifurcation")
      throw ConfigError(name, 0, "branches.from",
                        cp.id + " is a state of kind '" + kind +
                            "': branches start only at a bifurcation point (kind 'bifurcation', a DIR/states/BPn.json)");
    cp.kind = critical::CriticalKind::Bifurcation;
    cp.converged = true;
    cp.message = "read from " + name;
    cp.lambda = j.at("lambda").get<double>();
    cp.q = to_vector(j.at("q"), n, name, "q");
    cp.phi = to_vector(j.at("phi"), n, name, "phi");
    cp.v = to_vector(j.at("v"), n, name, "v");
    if (j.contains("abe")) {
      const json& a = j["abe"];
      critical::BifurcationEquation abe;
      abe.A = a.at("A").get<double>();
      abe.B1 = a.at("B1").get<double>();
      abe.B2 = a.at("B2").get<double>();
      abe.C = a.at("C").get<double>();
      abe.symmetric = a.at("symmetric").get<bool>();
      abe.valid = a.at("valid").get<bool>();
      abe.incoming = a.at("incoming").get<int>();
      abe.message = a.value("message", "");
      const json& ts = a.at("tangents");
      for (std::size_t k = 0; k < 2 && k < ts.size(); ++k) {
        abe.tangents[k].lambda = ts[k].at("lambda").get<double>();
        abe.tangents[k].q = to_vector(ts[k].at("q"), n, name, "abe.tangents.q");
      }
      cp.abe = abe;
    }
    s.scaling.w = to_vector(j.at("scaling").at("w"), n, name, "scaling.w");
    s.scaling.psi = j.at("scaling").at("psi").get<double>();
    s.initial_step = j.at("initial_step").get<double>();
    if (!cp.abe || !cp.abe->valid)
      throw ConfigError(name, 0, "branches.from",
                        cp.id + " has no valid bifurcation equation: branches start only at simple bifurcation points");
    // What the branches are started from must be usable: a positive first step,
    // positive scales, finite numbers, two tangents.
    if (!std::isfinite(s.initial_step) || !(s.initial_step > 0.0))
      throw ConfigError(name, 0, "branches.from", "initial_step must be a positive number (the first step on a branch)");
    if (!std::isfinite(s.scaling.psi) || s.scaling.psi < 0.0)
      throw ConfigError(name, 0, "branches.from", "scaling.psi must be a finite number >= 0");
    for (int i = 0; i < s.scaling.w.size(); ++i)
      if (!std::isfinite(s.scaling.w[i]) || !(s.scaling.w[i] > 0.0))
        throw ConfigError(name, 0, "branches.from", "scaling.w[" + std::to_string(i) + "] must be a positive number");
    if (j["abe"].at("tangents").size() != 2)
      throw ConfigError(name, 0, "branches.from", "abe.tangents must hold the two branch tangents");
    if (!std::isfinite(cp.lambda) || !cp.q.allFinite() || !cp.phi.allFinite() || !cp.v.allFinite())
      throw ConfigError(name, 0, "branches.from", "lambda, q, phi and v must be finite numbers");
    return s;
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(name, 0, "branches.from", std::string("incomplete saved state: ") + e.what());
  }
}

}  // namespace senda::input
