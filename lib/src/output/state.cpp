#include "senda/output/state.hpp"

#include <nlohmann/json.hpp>

#include "senda/output/files.hpp"

namespace senda::output {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
json vec(const Vector& v) { return json(std::vector<double>(v.data(), v.data() + v.size())); }
}  // namespace

void write_state(const fs::path& file, const std::string& problem, const std::string& fingerprint,
                 const critical::CriticalPoint& cp, const continuation::Scaling& scaling, double initial_step) {
  json j;
  j["format"] = "senda-state-1";
  j["problem"] = problem;
  j["unknowns"] = cp.q.size();
  j["unknowns_fingerprint"] = fingerprint;
  j["id"] = cp.id;
  j["kind"] = critical::to_string(cp.kind);
  j["lambda"] = cp.lambda;
  j["q"] = vec(cp.q);
  j["phi"] = vec(cp.phi);
  j["v"] = vec(cp.v);
  if (cp.abe) {
    const critical::BifurcationEquation& a = *cp.abe;
    json abe = {{"A", a.A}, {"B1", a.B1}, {"B2", a.B2}, {"C", a.C}, {"symmetric", a.symmetric},
                {"valid", a.valid}, {"incoming", a.incoming}, {"message", a.message}};
    abe["tangents"] = json::array();
    for (const critical::BranchTangent& t : a.tangents) abe["tangents"].push_back({{"lambda", t.lambda}, {"q", vec(t.q)}});
    j["abe"] = abe;
  }
  j["scaling"] = {{"w", vec(scaling.w)}, {"psi", scaling.psi}};
  j["initial_step"] = initial_step;
  write_file_atomically(file, j.dump() + "\n");
}

}  // namespace senda::output
