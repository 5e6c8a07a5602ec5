#pragma once
// Saved state of a critical point: DIR/states/<id>.json, written when the point is
// located, so that a later run can switch branches there without retracing the
// path (`branches.from`, `trace --from`; read back by input/state.hpp).
//
// Fields: format ("senda-state-1"), problem, unknowns, unknowns_fingerprint
// (core::unknowns_fingerprint of the model), id, kind, lambda, q, phi, v,
// abe {A, B1, B2, C, symmetric, valid, incoming, tangents [{lambda, q}]},
// scaling {w, psi}, initial_step (the base step of the path that found it: its first
// step measured in (q, λ), what branches.switch_step_ratio multiplies). Reals are
// written with 17 significant digits, so the state is exact.
#include <filesystem>
#include <string>

#include "senda/continuation/constraint.hpp"
#include "senda/critical/critical_point.hpp"

namespace senda::output {

// Writes file + ".tmp" then renames it. Throws OutputError.
void write_state(const std::filesystem::path& file, const std::string& problem, const std::string& fingerprint,
                 const critical::CriticalPoint& cp, const continuation::Scaling& scaling, double initial_step);

}  // namespace senda::output
