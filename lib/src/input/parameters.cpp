#include "senda/input/parameters.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include <fmt/core.h>

#include "senda/input/expression.hpp"

namespace senda::input {

namespace fs = std::filesystem;

namespace {
bool is_parameter_key(const std::string& key) {
  const OptionSpec* o = find_option(key);
  return o && std::string_view(o->key) == kParameterRow;
}
std::string name_of(const std::string& key) { return key.substr(key.find('.') + 1); }
}  // namespace

std::vector<std::pair<std::string, double>> parameters(const Config& config) {
  std::vector<std::pair<std::string, double>> out;
  for (const Entry& e : config.entries())
    if (is_parameter_key(e.key)) {
      const std::string name = name_of(e.key);
      // An override replaces the entry in place, so each name appears once.
      out.emplace_back(name, *config.parameter(name));
    }
  return out;
}

std::vector<std::string> design_parameters(const Config& config) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;  // not a scan of out per line: 200 000 lines (issue 20)
  for (const Entry* e : config.all("design.parameter"))
    if (seen.insert(e->value).second) out.push_back(e->value);
  return out;
}

std::string format_value(double v) { return format_number(v); }

Config with_parameter(const Config& config, const std::string& name, double value) {
  Config c = config;
  c.apply_override(std::string(kParameterSection) + "." + name + "=" + format_value(value));
  return c;
}

Config with_parameters(const Config& config, const std::map<std::string, double>& values) {
  Config c = config;
  for (const auto& [name, value] : values)
    c.apply_override(std::string(kParameterSection) + "." + name + "=" + format_value(value));
  return c;
}

Spec build(const Config& config, const std::map<std::string, double>& parameter_values) {
  const Spec reference = build(config);
  return build(config, parameter_values, reference);
}

Topology topology(const Spec& spec) {
  return {spec.model->size(), spec.model->node_count(), spec.model->element_count(), spec.track.size()};
}

Spec build(const Config& config, const std::map<std::string, double>& parameter_values, const Spec& reference) {
  return build(config, parameter_values, topology(reference));
}

Spec build(const Config& config, const std::map<std::string, double>& parameter_values, const Topology& a) {
  Spec s = build(with_parameters(config, parameter_values));
  const model::Model& b = *s.model;
  if (a.unknowns != b.size() || a.nodes != b.node_count() || a.elements != b.element_count() ||
      a.tracked != s.track.size()) {
    std::string names, key;
    const Entry* where = nullptr;
    for (const auto& [name, value] : parameter_values) {
      names += (names.empty() ? "" : ", ") + name + " = " + format_value(value);
      if (!where) {
        key = std::string(kParameterSection) + "." + name;
        where = config.find(key);
      }
    }
    config.fail(where, key,
                fmt::format("{} changes the model's topology ({} nodes, {} elements, {} unknowns instead of {}, {}, "
                            "{}); a parameter must not change the number of nodes, elements or unknowns",
                            names, b.node_count(), b.element_count(), b.size(), a.nodes, a.elements, a.unknowns));
  }
  return s;
}

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------
namespace {
constexpr const char* kSweepSyntax = "NAME=START:STOP:COUNT[:log], e.g. H=30:45:16";

[[noreturn]] void sweep_error(const std::string& message, const std::string& valid = kSweepSyntax) {
  throw ConfigError(kCommandLine, 0, "--sweep", message, valid);
}

double sweep_number(std::string_view t, const char* what) {
  double v = 0.0;
  const char* b = t.data();
  if (!t.empty() && t.front() == '+') ++b;
  const auto r = std::from_chars(b, t.data() + t.size(), v, std::chars_format::general);
  if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v))
    sweep_error(std::string(what) + ": expected a finite number, found '" + std::string(t) + "'");
  return v;
}
}  // namespace

analysis::SweepSpec parse_sweep(std::string_view text, const Config& config) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) sweep_error("expected NAME=START:STOP:COUNT, found '" + std::string(text) + "'");
  analysis::SweepSpec s;
  s.parameter = std::string(text.substr(0, eq));
  std::vector<std::string_view> f;
  std::string_view rest = text.substr(eq + 1);
  while (true) {
    const auto c = rest.find(':');
    f.push_back(rest.substr(0, c));
    if (c == std::string_view::npos) break;
    rest = rest.substr(c + 1);
  }
  if (f.size() != 3 && f.size() != 4)
    sweep_error("expected START:STOP:COUNT or START:STOP:COUNT:log after '" + s.parameter + "=', found '" +
                std::string(text.substr(eq + 1)) + "'");
  s.start = sweep_number(f[0], "START");
  s.stop = sweep_number(f[1], "STOP");
  int count = 0;
  const auto r = std::from_chars(f[2].data(), f[2].data() + f[2].size(), count);
  if (f[2].empty() || r.ec != std::errc() || r.ptr != f[2].data() + f[2].size() || count < 1 || count > 100000)
    sweep_error("COUNT: expected an integer in [1, 100000], found '" + std::string(f[2]) + "'");
  s.count = count;
  // One value from a range, or several equal ones: STOP went unused, or the same
  // model was traced COUNT times (both ran without a word).
  if (count == 1 && s.start != s.stop)
    sweep_error("COUNT = 1 traces START alone, and STOP (" + std::string(f[1]) + ") would be unused",
                "COUNT >= 2 from START to STOP, or START:START:1 for one value");
  if (count > 1 && s.start == s.stop)
    sweep_error("START = STOP: the " + std::to_string(count) + " values would all be " + std::string(f[0]),
                "START != STOP for COUNT >= 2, or COUNT = 1");
  if (f.size() == 4) {
    if (f[3] == "log") s.log = true;
    else if (f[3] != "lin") sweep_error("the spacing is 'lin' or 'log', found '" + std::string(f[3]) + "'");
  }
  if (s.log && !(s.start > 0.0 && s.stop > 0.0)) sweep_error("a log sweep needs START > 0 and STOP > 0");
  if (!config.parameter(s.parameter)) {
    std::string names;
    for (const auto& [n, v] : parameters(config)) names += (names.empty() ? "" : ", ") + n;
    sweep_error("'" + s.parameter + "' is not a parameter of " + config.file(),
                names.empty() ? "the file has no [parameters]" : names);
  }
  // The study sets the parameter at every value: an override of it would be
  // overwritten (it was, in silence).
  if (const Entry* e = config.find(std::string(kParameterSection) + "." + s.parameter); e && e->file == kCommandLine)
    sweep_error("'" + s.parameter + "' is swept, and given on the command line too (parameters." + s.parameter + "=" +
                e->value + "): the study sets it at every value");
  return s;
}

}  // namespace senda::input
