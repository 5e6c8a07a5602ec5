#pragma once
// The co-simulation file (docs/config.md "Co-simulation"): a validated Config with a
// [cosim] section → the units, their connections and the master's options.
//
//   [cosim]
//   end_time = 10
//   macro_step = 1e-3
//   scheme = jacobi
//   unit = ss1 oscillator mass=1 k=10 v0=100
//   unit = ss2 oscillator mass=1 k=1000 kc=100 v0=-100 h=1e-4
//   connect = ss2.u ss1.x input=foh output=foh
//   connect = ss1.u ss2.f
//
// Every mistake is a ConfigError at the line that causes it: an unknown unit type,
// field, unit, input or output, an input not connected or connected twice, a macro
// step that is not a whole multiple of a unit's micro step, an algebraic loop.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "senda/cosim/linear_unit.hpp"
#include "senda/cosim/master.hpp"
#include "senda/input/config.hpp"

namespace senda::input {

struct CosimUnit {
  std::string name;  // the file's name of the unit
  std::string type;  // "oscillator" or "structure"
  std::unique_ptr<cosim::LinearUnit> unit;
};

struct CosimSpec {
  std::string problem_name, title;
  std::filesystem::path config_file;
  std::vector<CosimUnit> units;
  std::vector<cosim::Connection> connections;
  cosim::MasterOptions options;  // stop_requested is the caller's
  bool plot = false;             // cosim.plot
  std::vector<cosim::Unit*> pointers() const;
};

// True when the file is a co-simulation file (it has a [cosim] key).
bool is_cosim(const Config& config);

// Builds the co-simulation. Throws ConfigError.
CosimSpec build_cosim(const Config& config);

}  // namespace senda::input
