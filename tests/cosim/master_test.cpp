// The master's signals (docs/theory.md eqs. C.5, C.6) seen by a probe unit: what
// ZOH, FOH and second-order extrapolation give in Jacobi and Gauss–Seidel, the held
// value before a step, the input value a feedthrough output uses; and a .cfg that
// builds the same co-simulation as the seed's units made in code.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cosim/seed.hpp"
#include "senda/input/cosim.hpp"

using namespace senda::cosim;

namespace {

double f(double t) { return 1.0 + 2.0 * t + 3.0 * t * t; }  // a quadratic in time

// No inputs; outputs f(t) at its current time.
class Clock final : public Unit {
 public:
  int input_count() const override { return 0; }
  int output_count() const override { return 1; }
  std::string input_name(int) const override { return {}; }
  std::string output_name(int) const override { return "y"; }
  bool feedthrough(int, int) const override { return false; }
  double micro_step() const override { return 0.1; }
  void step(double t, double H, std::span<const Signal>) override { t_ = t + H; }
  void outputs(std::span<const double>, std::span<double> y) const override { y[0] = f(t_); }
  double energy(std::span<const double>) const override { return 0.0; }
  double input_work() const override { return 0.0; }
  State save() const override { return {t_}; }
  void restore(const State& s) override { t_ = s.at(0); }

 private:
  double t_ = 0.0;
};

// One input; records every signal it gets; its output echoes the input value it is asked with.
class Probe final : public Unit {
 public:
  std::vector<Signal> signals;
  int input_count() const override { return 1; }
  int output_count() const override { return 1; }
  std::string input_name(int) const override { return "u"; }
  std::string output_name(int) const override { return "echo"; }
  bool feedthrough(int, int) const override { return true; }
  double micro_step() const override { return 0.1; }
  void step(double, double, std::span<const Signal> in) override { signals.push_back(in[0]); }
  void outputs(std::span<const double> u, std::span<double> y) const override { y[0] = u[0]; }
  double energy(std::span<const double>) const override { return 0.0; }
  double input_work() const override { return 0.0; }
  State save() const override { return {}; }
  void restore(const State&) override {}
};


std::vector<Signal> probe(Scheme scheme, int input_order, int output_order, std::vector<double>* ends = nullptr) {
  Clock clock;
  Probe p;
  MasterOptions o;
  o.end_time = 0.4;
  o.macro_step = 0.1;
  o.scheme = scheme;
  std::vector<Connection> c = {{1, 0, 0, 0, input_order, output_order}};
  REQUIRE(validate({&clock, &p}, c, o).empty());
  run({&clock, &p}, c, o, [&](const MacroRecord& r) {
    if (ends && r.step > 0) ends->push_back(r.outputs[1][0]);  // the probe's echo: the value it was given at t_n+1
  });
  return p.signals;
}

}  // namespace

TEST_CASE("cosim master: the signals of ZOH, FOH and second order, Jacobi and Gauss-Seidel", "[cosim][master]") {
  const double H = 0.1;
  SECTION("Jacobi extrapolates from t_n back: exact for a polynomial of the order once there are enough samples") {
    for (int order : {0, 1, 2}) {
      std::vector<double> ends;
      const std::vector<Signal> s = probe(Scheme::Jacobi, order, order, &ends);
      REQUIRE(s.size() == 4);
      for (int n = 0; n < 4; ++n) {
        const double t = n * H;
        INFO("order " << order << ", step " << n);
        CHECK(s[n].value(0.0) == Approx(f(t)).epsilon(1e-14));  // every hold starts at the sample y(t_n)
        CHECK(s[n].before == Approx(n == 0 ? f(0.0) : s[n - 1].value(H)).epsilon(1e-14));
        // The output value at t_n+1 is the same polynomial at τ = H.
        CHECK(ends[n] == Approx(s[n].value(H)).epsilon(1e-14));
        const int used = std::min(order, n);  // samples at t_n, ..., t_n−used
        if (used == 0) CHECK((s[n].c1 == 0.0 && s[n].c2 == 0.0));
        if (used == 1) CHECK(s[n].value(H) == Approx(2.0 * f(t) - f(t - H)).epsilon(1e-14));
        if (used == 2) CHECK(s[n].value(0.05) == Approx(f(t + 0.05)).epsilon(1e-13));  // quadratic: exact
      }
    }
  }
  SECTION("Gauss-Seidel after its source: ZOH holds y(t_n+1), FOH interpolates, second order is exact") {
    for (int order : {0, 1, 2}) {
      const std::vector<Signal> s = probe(Scheme::GaussSeidel, order, 0);
      for (int n = 0; n < 4; ++n) {
        const double t = n * H;
        INFO("order " << order << ", step " << n);
        CHECK(s[n].value(H) == Approx(f(t + H)).epsilon(1e-14));
        if (order == 0) CHECK(s[n].value(0.0) == Approx(f(t + H)).epsilon(1e-14));
        if (order == 1) CHECK(s[n].value(0.0) == Approx(f(t)).epsilon(1e-14));
        if (order == 2 && n >= 1) CHECK(s[n].value(0.03) == Approx(f(t + 0.03)).epsilon(1e-13));
      }
    }
  }
}

TEST_CASE("cosim input: seed002-fd.cfg builds the seed's units as made in code", "[cosim][input]") {
  using namespace seed002;
  for (const bool multirate : {false, true}) {
    senda::input::Config c = senda::input::Config::read_file(std::string(SENDA_SOURCE_DIR) + "/problems/cosim/seed002-fd.cfg");
    if (multirate)
      for (const char* o : {"parameters.h2=1e-4", "parameters.y1=1", "parameters.u2=1"}) c.apply_override(o);
    senda::input::CosimSpec spec = senda::input::build_cosim(c);
    REQUIRE(spec.units.size() == 2);
    CHECK(spec.units[1].unit->micro_step() == (multirate ? 1e-4 : 1e-3));
    const Summary from_file = run(spec.pointers(), spec.connections, spec.options);
    Case k;
    if (multirate) {
      k.h2 = 1e-4;
      k.y1_order = k.u2_order = 1;
    }
    Coupled r = coupled(k);
    const Summary in_code = run(r.pointers(), r.connections, r.options);
    CHECK(from_file.final_energy == in_code.final_energy);  // the same numbers, bit for bit
    CHECK(from_file.residual_sum == in_code.residual_sum);
  }
}

TEST_CASE("cosim input: what a [cosim] file may not say, beyond the corpus (tests/bad-input/250-269, 490)", "[cosim][input]") {
  auto error = [](const std::string& text) -> std::string {
    try {
      senda::input::build_cosim(senda::input::Config::parse(text, "c.cfg"));
    } catch (const senda::input::ConfigError& e) {
      return e.what();
    }
    return "";
  };
  const std::string units =
      "unit = ss1 oscillator mass=1 k=10 v0=100\nunit = ss2 oscillator mass=1 k=1000 kc=100 v0=-100\n"
      "connect = ss2.u ss1.x\nconnect = ss1.u ss2.f\n";
  const std::string head = "[cosim]\nend_time = 1\nmacro_step = 1e-3\n";
  CHECK(error(head + units).empty());
  CHECK(error(head + "order = ss2 ss1\n" + units) ==
        "c.cfg:4: key 'cosim.order': an order of the units goes with scheme = gauss-seidel (jacobi steps every unit "
        "from the outputs at t_n)");
  CHECK(error(head + "scheme = gauss-seidel\norder = ss2\n" + units) ==
        "c.cfg:5: key 'cosim.order': every unit must be listed once (valid: ss1 ss2)");
  CHECK(error(head + "unit = ss1 oscillator mass=1 h=2e-3\n") ==
        "c.cfg:4: key 'cosim.unit': unit 'ss1': field 'h' is larger than the macro step (valid: (0, macro_step])");
  CHECK(error(head) == "c.cfg: key 'cosim.unit': no units: a co-simulation needs at least one (valid: unit = NAME TYPE ...)");
  CHECK(error(head + "unit = ss1 oscillator mass=-1\n") ==
        "c.cfg:4: key 'cosim.unit': unit 'ss1': field 'mass' = -1 is out of range (valid: (0, inf))");
  // A structure file that cannot be read is the unit's error (it named the
  // structure file alone); an error inside one names that file's line.
  const std::string dir = std::string(SENDA_SOURCE_DIR) + "/problems/cosim/";
  CHECK(error(head + "unit = t structure file=" + dir + "nope.cfg node=3 comp=uy mass=1\n") ==
        "c.cfg:4: key 'cosim.unit': unit 't': field 'file' = '" + dir + "nope.cfg': " + dir +
            "nope.cfg: no such file (valid: a .cfg of the structure)");
  CHECK(error(head + "unit = t structure file=" + dir + " node=3 comp=uy mass=1\n").find(
            "c.cfg:4: key 'cosim.unit': unit 't': field 'file' = '" + dir + "': " + dir +
            ": is a directory") == 0);
}

TEST_CASE("cosim master: energy created beyond the energy there was ends the run as unstable", "[cosim][master]") {
  // Seed 002's Jacobi f-d (ZOH) at H = 0.1 s, each unit integrated exactly (stable alone
  // at any step): the delayed coupling force feeds energy in. It went on to its end
  // time, "completed", E 1e4 J -> 2.8e32 J in 10 s; the rule of eq. C.9 stops it at the
  // first macro step where the energy the coupling created, Σδ_n, exceeds E0
  // (measured: the third, Σδ = 14 529 J, E = 29 685 J).
  seed002::Case c;
  c.H = c.h1 = c.h2 = 0.1;
  c.T = 10.0;
  c.integrator = Integrator::Exact;
  seed002::Coupled r = seed002::coupled(c);
  std::vector<double> energy, created;
  const Summary s = run(r.pointers(), r.connections, r.options, [&](const MacroRecord& m) {
    energy.push_back(m.total_energy);
    created.push_back(m.residual_sum);
  });
  INFO("E: " << s.initial_energy << " -> " << s.final_energy << " after " << s.steps << " steps");
  CHECK(s.termination == Termination::Unstable);
  CHECK(std::string(to_string(s.termination)) == "unstable");
  REQUIRE(s.steps >= 1);
  CHECK(s.steps < 100);
  // The step that crosses the limit is recorded and counted, the ones before are below it.
  REQUIRE(energy.size() == static_cast<std::size_t>(s.steps) + 1);
  CHECK(created.back() > kUnstableEnergy * energy.front());
  for (std::size_t n = 0; n + 1 < created.size(); ++n) CHECK(created[n] <= kUnstableEnergy * energy.front());
  CHECK(s.residual_sum == created.back());
  CHECK(energy.back() - energy.front() > created.back());  // and the whole has grown more (the held inputs' jump)
  CHECK(s.final_energy == energy.back());
  CHECK(s.max_energy == energy.back());
  CHECK(s.t_end == Approx(0.1 * s.steps).epsilon(1e-14));
  const std::string m = termination_message(s, {"ss1", "ss2"}, r.options);
  CHECK_THAT(m, Catch::StartsWith("unstable: the coupling created "));
  CHECK_THAT(m, Catch::Contains("more than the 10000 J the run started with; the total energy is now "));

  // Without the limit (unstable_energy = infinity) the same run grows on: the limit
  // changes where it stops, not the numbers before.
  seed002::Coupled free = seed002::coupled(c);
  free.options.unstable_energy = std::numeric_limits<double>::infinity();
  std::vector<double> free_energy;
  const Summary f = run(free.pointers(), free.connections, free.options,
                        [&](const MacroRecord& m) { free_energy.push_back(m.total_energy); });
  INFO("without the limit: E -> " << f.final_energy << " (" << to_string(f.termination) << ")");
  CHECK(f.max_energy > 1e6 * s.initial_energy);
  for (std::size_t n = 0; n < energy.size(); ++n) CHECK(free_energy[n] == energy[n]);
}

TEST_CASE("cosim master: a stable explicit unit whose own energy swings is not unstable", "[cosim][master]") {
  // Symplectic Euler keeps a shadow energy, not E: a stable unit's E swings by up to
  // (1 + ωh/2)/(1 − ωh/2) within a period. A stiff unit (k = 1000, E0 = 500 J) at
  // ωh = 1.42 and 0.71, joined by a weak spring (k_c = 0.001) to a soft exact unit:
  // E(t_n) passed 2 E0 within a macro step or a few, and a rule on E − E0 stopped the
  // run as unstable while its coupling had created ~1e-3 J. The rule reads Σδ_n.
  for (const double h : {0.045, 0.0225})
    for (const double v0 : {31.62, -31.62}) {
      LinearUnit a = seed002::one_mass(1.0, 1000.0, v0, {Port{"", 0, PortKind::Spring, 0.001, 1.0}},
                                       Integrator::SymplecticEuler, h);
      LinearUnit b = seed002::one_mass(1.0, 1.0, 0.0, {Port{"", 0, PortKind::Force, 0.0, 1.0}}, Integrator::Exact, h);
      REQUIRE(h < a.stable_step_limit());
      MasterOptions o;
      o.macro_step = h;
      o.end_time = 40 * h;
      const std::vector<Connection> c = {{0, 0, 1, 0, 0, 0}, {1, 0, 0, 2, 0, 0}};
      const Summary s = run({&a, &b}, c, o);
      INFO("h = " << h << ", v0 = " << v0 << ": E " << s.initial_energy << " J, max " << s.max_energy
                  << " J, created " << s.residual_sum << " J, " << to_string(s.termination));
      CHECK(s.termination == Termination::Completed);
      CHECK(std::abs(s.residual_sum) < 1e-3 * s.initial_energy);
      if (h == 0.045) CHECK(s.max_energy > 2.0 * s.initial_energy);  // what the rule on E misread
    }
}

TEST_CASE("cosim master: the seed's configurations stay below the limit; a unit beyond its own limit diverges",
          "[cosim][master]") {
  // Jacobi f-d with ZOH, the worst of Tables 3 and 4 (+68 % in 10 s, Figure 20): completed.
  const Summary fd = [] {
    seed002::Coupled r = seed002::coupled({});
    return run(r.pointers(), r.connections, r.options);
  }();
  CHECK(fd.termination == Termination::Completed);
  CHECK(fd.max_energy - fd.initial_energy < kUnstableEnergy * fd.initial_energy);
  CHECK(fd.max_energy - fd.initial_energy > 0.6 * fd.initial_energy);
  CHECK(fd.residual_sum < kUnstableEnergy * fd.initial_energy);
  CHECK(fd.residual_sum > 0.6 * fd.initial_energy);  // 6 810 J: the gain is the coupling's

  // A symplectic Euler unit at omega h = 3.16 (the library runs it; the cosim input
  // refuses it): with the energy limit lifted, its state overflows and the run ends as
  // diverged at the first macro step with a non-finite energy, naming the unit.
  const LinearUnit a = seed002::one_mass(1.0, 1000.0, 1.0, {Port{"", 0, PortKind::Force, 0.0, 1.0}},
                                         Integrator::SymplecticEuler, 0.1);
  const LinearUnit b = seed002::one_mass(1.0, 1.0, 0.0, {Port{"", 0, PortKind::Force, 0.0, 1.0}},
                                         Integrator::SymplecticEuler, 0.1);
  CHECK(a.stable_step_limit() == Approx(2.0 / std::sqrt(1000.0)).epsilon(1e-14));
  CHECK(b.stable_step_limit() == Approx(2.0).epsilon(1e-14));
  LinearUnit ua = a, ub = b;
  MasterOptions o;
  o.end_time = 100.0;
  o.macro_step = 0.1;
  o.unstable_energy = std::numeric_limits<double>::infinity();
  const std::vector<Connection> c = {{0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 0, 0}};
  const Summary d = run({&ua, &ub}, c, o);
  CHECK(d.termination == Termination::Diverged);
  CHECK(d.diverged_unit >= 0);
  CHECK(d.steps < 1000);
  CHECK_THAT(termination_message(d, {"a", "b"}, o), Catch::StartsWith("diverged: unit '"));
  // With the default limit the same run stops long before, as unstable.
  LinearUnit va = a, vb = b;
  o.unstable_energy = kUnstableEnergy;
  const Summary u = run({&va, &vb}, c, o);
  CHECK(u.termination == Termination::Unstable);
  CHECK(u.steps < d.steps);
  // The exact integrator is stable at any step.
  const LinearUnit e = seed002::one_mass(1.0, 1000.0, 1.0, {Port{"", 0, PortKind::Spring, 100.0, 1.0}},
                                         Integrator::Exact, 0.1);
  CHECK(std::isinf(e.stable_step_limit()));
  const LinearUnit s = seed002::one_mass(1.0, 1000.0, 1.0, {Port{"", 0, PortKind::Spring, 100.0, 1.0}},
                                         Integrator::SymplecticEuler, 0.01);
  CHECK(s.stable_step_limit() == Approx(2.0 / std::sqrt(1100.0)).epsilon(1e-14));  // K_eff = k + kc
}
