#pragma once
// Model builder: a validated Config → a finalized senda::model::Model, the path
// follower's Options and what to record (docs/config.md lists every key).
//
// Every inconsistency is reported as a ConfigError at the line that causes it:
// duplicate ids, references to missing nodes, zero-length bars, non-positive
// stiffness, unknown components, a node no element uses, a load on a dof no
// element uses, no load at all, conflicting options.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/io/config.hpp"
#include "senda/model/model.hpp"

namespace senda::io {

// A displacement written to path.csv and shown in progress lines.
struct TrackedDof {
  int node_id = 0;     // user label
  int node = 0;        // model node index
  model::Component component = model::Component::Ux;
  int equation = -1;   // unknown index (always free)
  std::string column;  // "u_3_uy"
};

// The [critical] keys, for lib/critical (which implements them).
struct CriticalSettings {
  std::string detect = "both";  // both | det | inertia
  bool locate = true;
  double tolerance = 1e-10;
  int max_iterations = 20;
  double bifurcation_tolerance = 1e-6;
  double refine_fraction = 1e-3;  // step refinement of multiple crossings (0: off)
};

// The [branches] keys, for lib/critical/branch.
struct BranchSettings {
  bool enabled = true;
  std::vector<std::string> at;  // empty: every bifurcation point
  int max_depth = 2;
  int direction = 0;  // 0 both, +1, −1
  int max_branches = 32;
  double symmetric_tolerance = 1e-5;
  std::string from;  // saved state to start from (branches.from); empty: trace the primary path
};

struct Setup {
  std::string problem_name;  // [output] name, or the file's stem
  std::string title, description;
  std::filesystem::path config_file;
  std::unique_ptr<model::Model> model;
  continuation::Options options;
  std::vector<TrackedDof> track;
  CriticalSettings critical;
  BranchSettings branches;
  // Source line of every node, by model node index (for messages after the build).
  std::vector<Entry> node_entries;
  // The config it was built from (design studies rebuild the model from it).
  std::shared_ptr<const Config> config;
};

// Builds everything from the config. Throws ConfigError.
Setup build(const Config& config);

// Convenience: read_file, apply the overrides in order, build.
Setup load(const std::filesystem::path& file, const std::vector<std::string>& overrides = {});

}  // namespace senda::io
