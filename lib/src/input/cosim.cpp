#include "senda/input/cosim.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include <fmt/core.h>

#include "senda/core/number.hpp"
#include "senda/cosim/structure.hpp"
#include "senda/input/builder.hpp"

namespace senda::input {

namespace fs = std::filesystem;

std::vector<cosim::Unit*> CosimSpec::pointers() const {
  std::vector<cosim::Unit*> p;
  for (const CosimUnit& u : units) p.push_back(u.unit.get());
  return p;
}

bool is_cosim(const Config& config) {
  for (const Entry& e : config.entries())
    if (e.key.rfind("cosim.", 0) == 0) return true;
  return false;
}

namespace {

// "name=value" fields of a record after its leading positional fields.
class Fields {
 public:
  Fields(const Entry& e, std::vector<std::string> tokens, std::size_t positional, std::string what,
         std::vector<std::string> allowed)
      : e_(e), what_(std::move(what)), allowed_(std::move(allowed)) {
    for (std::size_t i = positional; i < tokens.size(); ++i) {
      const auto eq = tokens[i].find('=');
      if (eq == std::string::npos || eq == 0)
        fail(fmt::format("'{}' is not a field name=value", tokens[i]), join(allowed_));
      const std::string name = tokens[i].substr(0, eq);
      if (std::find(allowed_.begin(), allowed_.end(), name) == allowed_.end())
        fail(fmt::format("unknown field '{}'", name), join(allowed_));
      if (!values_.emplace(name, tokens[i].substr(eq + 1)).second) fail(fmt::format("field '{}' given twice", name));
    }
  }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::optional<std::string> text(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  // A real in the interval (lo, inf) or [lo, inf).
  std::optional<double> real(const std::string& name, double lo, bool open, const char* valid) const {
    const auto t = text(name);
    if (!t) return std::nullopt;
    const double v = parse_real(e_, *t, what_ + ": field '" + name + "'", valid);
    if (!std::isfinite(v) || (open ? !(v > lo) : !(v >= lo))) fail(fmt::format("field '{}' = {} is out of range", name, *t), valid);
    return v;
  }
  double required(const std::string& name, double lo, bool open, const char* valid) const {
    const auto v = real(name, lo, open, valid);
    if (!v) fail(fmt::format("field '{}' is required", name), valid);
    return *v;
  }
  [[noreturn]] void fail(const std::string& message, const std::string& valid = {}) const {
    throw ConfigError(e_.file, e_.line, e_.key, what_ + ": " + message, valid);
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  }

 private:
  const Entry& e_;
  std::string what_;
  std::vector<std::string> allowed_;
  std::map<std::string, std::string> values_;
};

int order_from(const Fields& f, const std::string& name) {
  const auto t = f.text(name);
  // zoh|foh|soh, or the order itself (0|1|2, so that a [parameters] entry can choose it).
  if (!t || *t == "zoh" || *t == "0") return 0;
  if (*t == "foh" || *t == "1") return 1;
  if (*t == "soh" || *t == "2") return 2;
  f.fail(fmt::format("field '{}' = '{}' is not an extrapolation", name, *t), "zoh|foh|soh or 0|1|2");
}

class CosimBuilder {
 public:
  explicit CosimBuilder(const Config& c) : c_(c) {}

  CosimSpec run() {
    for (const Entry& e : c_.entries()) {
      const std::string section = e.key.substr(0, e.key.find('.'));
      if (section != "cosim" && section != kParameterSection && section != "problem" && e.key != "output.name")
        c_.fail(&e, e.key, "a co-simulation file ([cosim]) does not use this key; a structure unit names its own .cfg (file=...)",
                "[cosim], [parameters], [problem], output.name");
    }
    CosimSpec s;
    s.config_file = c_.file();
    s.title = c_.text("problem.title").value_or("");
    s.problem_name = c_.text("output.name").value_or(fs::path(c_.file()).stem().string());
    // Keys with a default: Config gives the table's, which tests/input/defaults_test.cpp
    // checks against MasterOptions and CosimSpec.
    s.plot = *c_.boolean("cosim.plot");
    cosim::MasterOptions& o = s.options;
    o.end_time = required_real("cosim.end_time");
    o.macro_step = required_real("cosim.macro_step");
    const double steps = o.end_time / o.macro_step;
    if (std::abs(steps - std::round(steps)) > 1e-9 * steps || steps < 0.5)
      c_.fail(c_.find("cosim.end_time"), "cosim.end_time",
              fmt::format("{} is not a whole multiple of the macro step {}", core::format_number(o.end_time), core::format_number(o.macro_step)));
    if (steps > 1e8) c_.fail(c_.find("cosim.end_time"), "cosim.end_time", "more than 1e8 macro steps", "[H, 1e8 H]");
    o.scheme = *c_.text("cosim.scheme") == "gauss-seidel" ? cosim::Scheme::GaussSeidel : cosim::Scheme::Jacobi;
    o.max_iterations = static_cast<int>(*c_.integer("cosim.max_iterations"));
    o.tolerance = *c_.real("cosim.tolerance");

    for (const Entry* e : c_.all("cosim.unit")) read_unit(*e, s);
    if (s.units.empty()) c_.fail(nullptr, "cosim.unit", "no units: a co-simulation needs at least one", "unit = NAME TYPE ...");
    for (const Entry* e : c_.all("cosim.connect")) read_connection(*e, s);
    // Every input connected once.
    for (std::size_t k = 0; k < s.units.size(); ++k)
      for (int i = 0; i < s.units[k].unit->input_count(); ++i)
        if (!fed_.count({static_cast<int>(k), i}))
          c_.fail(unit_entries_[k], "cosim.unit",
                  fmt::format("input '{}' of unit '{}' is not connected", s.units[k].unit->input_name(i), s.units[k].name),
                  fmt::format("connect = {}.{} UNIT.OUTPUT", s.units[k].name, s.units[k].unit->input_name(i)));
    if (const auto order = c_.text("cosim.order")) {
      if (o.scheme != cosim::Scheme::GaussSeidel)
        c_.fail(c_.find("cosim.order"), "cosim.order",
                "an order of the units goes with scheme = gauss-seidel (jacobi steps every unit from the outputs at t_n)");
      read_order(*order, s);
    }
    if (const std::string why = cosim::validate(s.pointers(), s.connections, o); !why.empty())
      c_.fail(c_.all("cosim.connect").empty() ? nullptr : c_.all("cosim.connect").front(), "cosim.connect", why);
    return s;
  }

 private:
  double required_real(const char* key) {
    const auto v = c_.real(key);
    if (!v) c_.fail(nullptr, key, "is required in a co-simulation file", "(0, inf)");
    return *v;
  }

  void read_unit(const Entry& e, CosimSpec& s) {
    const std::vector<std::string> t = split_fields(e.value);
    if (t.size() < 2) c_.fail(&e, e.key, "a unit needs a name and a type", "NAME oscillator|structure FIELD=VALUE ...");
    const std::string& name = t[0];
    static const std::regex id("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(name, id)) c_.fail(&e, e.key, fmt::format("'{}' is not a unit name", name), "[A-Za-z_][A-Za-z0-9_]*");
    for (const CosimUnit& u : s.units)
      if (u.name == name) c_.fail(&e, e.key, fmt::format("unit '{}' is defined twice", name));
    const std::string what = "unit '" + name + "'";
    const std::string& type = t[1];
    std::vector<std::string> allowed = {"kc", "share", "integrator", "h", "v0"};
    if (type == "oscillator") allowed.insert(allowed.end(), {"mass", "k", "x0"});
    else if (type == "structure") allowed.insert(allowed.end(), {"file", "node", "comp", "mass", "inertia"});
    else c_.fail(&e, e.key, fmt::format("{}: unknown unit type '{}'", what, type), "oscillator|structure");
    const Fields f(e, t, 2, what, allowed);

    const double macro = s.options.macro_step;
    const double h = f.real("h", 0.0, true, "(0, macro_step]").value_or(macro);
    if (h > macro * (1 + 1e-12)) f.fail("field 'h' is larger than the macro step", "(0, macro_step]");
    const double n = macro / h;
    if (std::abs(n - std::round(n)) > 1e-9 * n)
      f.fail(fmt::format("the macro step {} is not a whole multiple of h = {}", core::format_number(macro), core::format_number(h)),
             "h = macro_step / N, N = 1, 2, ...");
    cosim::Integrator integ = cosim::Integrator::SymplecticEuler;
    if (const auto i = f.text("integrator")) {
      if (*i == "exact") integ = cosim::Integrator::Exact;
      else if (*i != "symplectic-euler") f.fail(fmt::format("unknown integrator '{}'", *i), "symplectic-euler|exact");
    }
    cosim::Port port;
    if (const auto kc = f.real("kc", 0.0, true, "(0, inf)")) {
      port.kind = cosim::PortKind::Spring;
      port.stiffness = *kc;
      port.share = f.real("share", 0.0, true, "(0, 1]").value_or(1.0);
      if (port.share > 1.0) f.fail("field 'share' is out of range", "(0, 1]");
    } else if (f.has("share")) {
      f.fail("field 'share' needs a coupling spring (kc=...)");
    }
    cosim::LinearSystem sys;
    if (type == "oscillator") {
      sys.mass = Eigen::VectorXd::Constant(1, f.required("mass", 0.0, true, "(0, inf)"));
      sys.stiffness = Eigen::MatrixXd::Constant(1, 1, f.real("k", 0.0, false, "[0, inf)").value_or(0.0));
      sys.x0 = Eigen::VectorXd::Constant(1, f.real("x0", -INFINITY, true, "any finite").value_or(0.0));
      sys.v0 = Eigen::VectorXd::Constant(1, f.real("v0", -INFINITY, true, "any finite").value_or(0.0));
    } else {
      const auto file = f.text("file");
      if (!file) f.fail("field 'file' is required", "a .cfg of the structure");
      fs::path path = *file;
      if (path.is_relative() && e.file != kCommandLine) path = fs::path(e.file).parent_path() / path;
      // The structure file's own errors name its line and key; one that cannot be
      // read at all (missing, a directory, empty) is this field's error.
      const Spec structure = [&] {
        Config sc = [&] {
          try {
            return Config::read_file(path);
          } catch (const ConfigError& ex) {
            if (ex.file() != path.string() || ex.line() != 0 || !ex.key().empty()) throw;
            f.fail(fmt::format("field 'file' = '{}': {}: {}", *file, path.string(), ex.message()),
                   "a .cfg of the structure");
          }
        }();
        // The unit takes the structure's stiffness at rest and nothing else: what
        // would change its motion and is not used is refused, not dropped (a
        // rigid-link pendulum ran as a free mass, its bob 1.35 m from the pivot; a
        // dead load left the motion byte-identical).
        for (const Entry& x : sc.entries()) {
          const bool dynamics = x.key.rfind("dynamics.", 0) == 0;
          if (!dynamics && x.key != "model.dead_load") continue;
          f.fail(fmt::format("{} line {}: {} is not used by a structure unit, which takes the structure's stiffness "
                             "at rest (K at q = 0, lambda = 0) and the unit's own fields: {}",
                             path.string(), x.line, x.key,
                             dynamics ? "its mass is 'mass' (and 'inertia'), its start 'v0'; the [dynamics] section "
                                        "(masses, rigid links, loads in time) belongs to simulate"
                                      : "a dead load would move its rest state, which a linearised unit does not "
                                        "have; remove it (or couple the load as another unit's output)"),
                 "a trace file without [dynamics] or model.dead_load");
        }
        return build(sc);
      }();
      const auto node_label = f.text("node");
      if (!node_label) f.fail("field 'node' is required", "a node id of " + path.string());
      const long label = parse_integer(e, *node_label, what + ": field 'node'");
      int node = -1;
      for (int i = 0; i < structure.model->node_count(); ++i)
        if (structure.model->node_id(i) == label) node = i;
      if (node < 0) f.fail(fmt::format("node {} does not exist in {}", label, path.string()));
      const std::string comp = f.text("comp").value_or("");
      const model::Component c = comp == "ux" ? model::Component::Ux : comp == "uy" ? model::Component::Uy
                                 : comp == "uz"   ? model::Component::Uz
                                                  : (f.fail(fmt::format("field 'comp' = '{}' is not a translation", comp),
                                                            "ux|uy|uz"),
                                                     model::Component::Ux);
      port.dof = structure.model->equation(node, c);
      if (port.dof < 0) f.fail(fmt::format("node {} {} is fixed or not a degree of freedom", label, comp));
      cosim::LumpedMass lm;
      lm.translation = f.required("mass", 0.0, true, "(0, inf)");
      lm.rotation = f.real("inertia", 0.0, true, "(0, inf)").value_or(0.0);
      bool rotations = false;
      for (int i = 0; i < structure.model->size(); ++i)
        rotations = rotations || structure.model->dof_kind(i) == core::DofKind::Rotation;
      if (rotations && lm.rotation <= 0.0) f.fail("the structure has rotations: field 'inertia' is required", "(0, inf)");
      // A truss has no rotational unknown to give it to: the value was accepted and
      // had no effect.
      if (!rotations && f.has("inertia"))
        f.fail(fmt::format("field 'inertia': {} has no rotational unknowns, so a rotary inertia has no effect",
                           path.string()),
               "no 'inertia' for a structure without rotations (a truss)");
      sys = cosim::linearise(*structure.model, lm, core::Vector::Zero(structure.model->size()));
      sys.v0(port.dof) = f.real("v0", -INFINITY, true, "any finite").value_or(0.0);
    }
    try {
      s.units.push_back({name, type, std::make_unique<cosim::LinearUnit>(sys, std::vector<cosim::Port>{port}, integ, h)});
    } catch (const std::invalid_argument& ex) {
      f.fail(ex.what());
    }
    // An explicit unit beyond its own stability limit grows without bound whatever the
    // coupling (energy 0.5 J -> 6.6e34 J in 2 s, and the run "completed"): known from
    // K_eff and the masses before the run.
    if (const double limit = s.units.back().unit->stable_step_limit(); !(h < limit)) {
      const double omega_max = 2.0 / limit;
      // The largest whole division of the macro step below the limit.
      const double divisions = std::floor(macro / limit) + 1.0;
      f.fail(fmt::format("symplectic Euler is unstable at this micro step: omega_max h = {} >= 2 (omega_max = {} rad/s, "
                         "the highest natural frequency of its stiffness with the coupling spring and its masses; "
                         "h = {} s); the largest stable step is below 2/omega_max = {} s, e.g. h = {} (macro_step/{})",
                         core::format_g(omega_max * h, 6), core::format_g(omega_max, 6), core::format_number(h),
                         core::format_g(limit, 6), core::format_g(macro / divisions, 6), core::format_g(divisions, 15)),
             "h < 2/omega_max, or integrator=exact (stable for any step)");
    }
    // A start whose energy overflows (v0 = 1e200: ½ m v0² = inf) ran one macro step and
    // ended "diverged" with E = inf and a NaN energy error: refused here, as simulate's
    // dynamics.velocity is. The inputs are taken as zero (the connections come later).
    {
      const cosim::Unit& u = *s.units.back().unit;
      const std::vector<double> zero(static_cast<std::size_t>(u.input_count()), 0.0);
      if (const double e0 = u.energy(zero); !std::isfinite(e0))
        f.fail(fmt::format("its initial energy (1/2 v0^T M v0 + 1/2 x0^T K x0, with the coupling spring at zero "
                           "input) is {}: not finite (v0 = {}, x0 = {})",
                           core::format_g(e0, 6), core::format_g(sys.v0.cwiseAbs().maxCoeff(), 6),
                           core::format_g(sys.x0.size() ? sys.x0.cwiseAbs().maxCoeff() : 0.0, 6)),
               "a start whose energy is finite");
    }
    unit_entries_.push_back(&e);
  }

  // "UNIT.PORT" → (unit index, rest).
  std::pair<int, std::string> split_ref(const Entry& e, const std::string& ref, const CosimSpec& s, const char* what) {
    const auto dot = ref.find('.');
    const std::string unit = ref.substr(0, dot);
    std::string names;
    for (std::size_t k = 0; k < s.units.size(); ++k) {
      names += (k ? ", " : "") + s.units[k].name;
      if (s.units[k].name == unit) {
        if (dot == std::string::npos) c_.fail(&e, e.key, fmt::format("'{}' names no {} (UNIT.NAME)", ref, what));
        return {static_cast<int>(k), ref.substr(dot + 1)};
      }
    }
    c_.fail(&e, e.key, fmt::format("unknown unit '{}'", unit), names);
  }

  void read_connection(const Entry& e, CosimSpec& s) {
    const std::vector<std::string> t = split_fields(e.value);
    if (t.size() < 2) c_.fail(&e, e.key, "a connection needs an input and an output", "UNIT.INPUT UNIT.OUTPUT [input=zoh|foh|soh] [output=zoh|foh|soh]");
    const auto [to, input] = split_ref(e, t[0], s, "input");
    const auto [from, output] = split_ref(e, t[1], s, "output");
    const cosim::Unit& tu = *s.units[to].unit;
    const cosim::Unit& fu = *s.units[from].unit;
    cosim::Connection c;
    c.to_unit = to;
    c.from_unit = from;
    c.to_input = c.from_output = -1;
    std::string valid;
    for (int i = 0; i < tu.input_count(); ++i) {
      valid += (i ? ", " : "") + tu.input_name(i);
      if (tu.input_name(i) == input) c.to_input = i;
    }
    if (c.to_input < 0) c_.fail(&e, e.key, fmt::format("unit '{}' has no input '{}'", s.units[to].name, input), valid);
    valid.clear();
    for (int j = 0; j < fu.output_count(); ++j) {
      valid += (j ? ", " : "") + fu.output_name(j);
      if (fu.output_name(j) == output) c.from_output = j;
    }
    if (c.from_output < 0) c_.fail(&e, e.key, fmt::format("unit '{}' has no output '{}'", s.units[from].name, output), valid);
    if (to == from) c_.fail(&e, e.key, fmt::format("unit '{}' is connected to itself", s.units[to].name));
    if (!fed_.insert({to, c.to_input}).second)
      c_.fail(&e, e.key, fmt::format("input '{}' of unit '{}' is connected twice", input, s.units[to].name));
    const Fields f(e, t, 2, "connection " + t[0], {"input", "output"});
    c.input_order = order_from(f, "input");
    c.output_order = order_from(f, "output");
    // output= is the value of this input that the receiving unit's feedthrough outputs
    // use at t_n+1 (eq. C.6): without such an output it was accepted and changed nothing.
    bool feedthrough = false;
    for (int j = 0; j < tu.output_count(); ++j) feedthrough = feedthrough || tu.feedthrough(j, c.to_input);
    if (f.has("output") && !feedthrough)
      f.fail(fmt::format("field 'output': no output of unit '{}' depends on its input '{}' at once (no feedthrough: "
                         "it has no coupling spring kc), so the extrapolation of the value they use at t_n+1 changes "
                         "nothing",
                         s.units[to].name, input),
             "output= only on a connection into a unit with kc=...");
    s.connections.push_back(c);
  }

  void read_order(const std::string& text, CosimSpec& s) {
    const Entry* e = c_.find("cosim.order");
    std::string names;
    for (std::size_t k = 0; k < s.units.size(); ++k) names += (k ? " " : "") + s.units[k].name;
    std::vector<int> order;
    for (const std::string& n : split_fields(text)) {
      int k = -1;
      for (std::size_t i = 0; i < s.units.size(); ++i)
        if (s.units[i].name == n) k = static_cast<int>(i);
      if (k < 0) c_.fail(e, "cosim.order", fmt::format("unknown unit '{}'", n), names);
      if (std::find(order.begin(), order.end(), k) != order.end())
        c_.fail(e, "cosim.order", fmt::format("unit '{}' is listed twice", n), names);
      order.push_back(k);
    }
    if (order.size() != s.units.size()) c_.fail(e, "cosim.order", "every unit must be listed once", names);
    s.options.order = order;
  }

  const Config& c_;
  std::vector<const Entry*> unit_entries_;
  std::set<std::pair<int, int>> fed_;
};

}  // namespace

CosimSpec build_cosim(const Config& config) { return CosimBuilder(config).run(); }

}  // namespace senda::input
