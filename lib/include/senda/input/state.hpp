#pragma once
// Reads the saved state of a bifurcation point (DIR/states/<id>.json, written by
// output/state.hpp) for branches.from / trace --from. Format: output/state.hpp.
#include <filesystem>

#include "senda/analysis/options.hpp"

namespace senda::input {

// Reads a saved state and checks it against a model of `unknowns` unknowns.
// Throws ConfigError naming the file and key "branches.from".
analysis::SavedState read_state(const std::filesystem::path& file, int unknowns);

}  // namespace senda::input
