#pragma once
// The named parameters of a .cfg ([parameters], [design]) and the models at
// other values of them (design studies, trace --sweep NAME=START:STOP:COUNT[:log]).
//
//   for (auto [name, value] : parameters(config)) ...
//   Spec s = build(config, {{"H", 40.0}});          // same DOF layout, checked
//   analysis::SweepSpec spec = parse_sweep("H=30:45:16", config);
//
// A parameter must not change the topology of the model: the same nodes,
// elements and unknowns for every value (it may move nodes, change stiffnesses,
// loads, tolerances). build(config, values) checks it against the model of the
// file's values and throws a ConfigError naming the parameter if it differs.
// Nothing here prints, exits or holds global state.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "senda/analysis/studies.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"

namespace senda::input {

// The named parameters ([parameters] NAME = value) and their values, in file order.
std::vector<std::pair<std::string, double>> parameters(const Config& config);
// The design parameters ([design] parameter = NAME), in file order, without repeats.
std::vector<std::string> design_parameters(const Config& config);

// A copy of the config with parameter `name` set to `value` and every ${...}
// substituted again. Throws ConfigError when `name` is not a parameter or a
// value becomes invalid (the message names the line and key).
Config with_parameter(const Config& config, const std::string& name, double value);
Config with_parameters(const Config& config, const std::map<std::string, double>& values);

// The spec with the parameters changed. Throws ConfigError (bad values, or a
// different number of nodes, elements or unknowns than with the file's values).
Spec build(const Config& config, const std::map<std::string, double>& parameter_values);
// The same, checked against a reference spec built from `config` (saves a build).
Spec build(const Config& config, const std::map<std::string, double>& parameter_values, const Spec& reference);

// What a parameter must not change: the numbers of unknowns, nodes, elements and
// tracked displacements of the reference model.
struct Topology {
  int unknowns = 0, nodes = 0, elements = 0;
  std::size_t tracked = 0;
};
Topology topology(const Spec& spec);
Spec build(const Config& config, const std::map<std::string, double>& parameter_values, const Topology& reference);

// "NAME=START:STOP:COUNT" or "NAME=START:STOP:COUNT:log". Throws ConfigError
// (file kCommandLine, key "--sweep") for bad syntax or a NAME that is not a
// parameter of the config. COUNT in [1, 100000].
analysis::SweepSpec parse_sweep(std::string_view text, const Config& config);
// A parameter value as text, exactly as substituted (format_number: integers as
// integers, else the shortest text that reads back as the same double).
std::string format_value(double v);

}  // namespace senda::input
