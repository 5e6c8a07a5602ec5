#pragma once
// Saved state of a critical point: DIR/states/<id>.json, written when the point is
// located, so that a later run can switch branches there without retracing the
// path (`branches.from`, `trace --from`).
//
// Fields: format ("senda-state-1"), problem, unknowns, id, kind, lambda, q, phi, v,
// abe {A, B1, B2, C, symmetric, valid, incoming, tangents [{lambda, q}]},
// scaling {w, psi}, initial_step (Δs₀ of the path that found it). Reals are
// written with 17 significant digits, so the state is exact.
#include <filesystem>
#include <string>

#include "senda/continuation/constraint.hpp"
#include "senda/critical/critical_point.hpp"

namespace senda::io {

struct SavedState {
  std::string problem;
  critical::CriticalPoint point;
  continuation::Scaling scaling;
  double initial_step = 0.0;
};

// Writes file + ".tmp" then renames it. Throws OutputError.
void write_state(const std::filesystem::path& file, const std::string& problem, const critical::CriticalPoint& cp,
                 const continuation::Scaling& scaling, double initial_step);

// Reads a state written by write_state and checks it against a model of
// `unknowns` unknowns. Throws ConfigError naming the file and key "branches.from".
SavedState read_state(const std::filesystem::path& file, int unknowns);

}  // namespace senda::io
