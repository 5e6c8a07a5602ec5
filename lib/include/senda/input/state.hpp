#pragma once
// Reads the saved state of a bifurcation point (DIR/states/<id>.json, written by
// output/state.hpp) for branches.from / trace --from. Format: output/state.hpp.
#include <filesystem>
#include <string>

#include "senda/analysis/options.hpp"

namespace senda::input {

// The point of any saved state, a limit or a bifurcation point (dynamics.initial_state):
// its id, kind, lambda and q, checked against a model of `unknowns` unknowns; for a
// limit point also its mode φ and the scaling of the run that located it (a
// continuation.start_state there starts along ±φ). Throws ConfigError naming the
// file and `key`.
struct StatePoint {
  std::string id, kind;
  double lambda = 0.0;
  Vector q;
  Vector phi;                                     // kind "limit" only: nonzero, finite
  std::optional<continuation::Scaling> scaling;   // kind "limit" only
};
// fingerprint: core::unknowns_fingerprint of the model; a state that carries another
// is refused (a state written before states carried one is checked by its count).
StatePoint read_state_point(const std::filesystem::path& file, int unknowns, const std::string& fingerprint,
                            const std::string& key);

// Reads a saved state and checks it against a model of `unknowns` unknowns.
// Throws ConfigError naming the file and key "branches.from".
analysis::SavedState read_state(const std::filesystem::path& file, int unknowns, const std::string& fingerprint);

}  // namespace senda::input
