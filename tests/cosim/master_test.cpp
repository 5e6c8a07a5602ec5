// The master's signals (docs/theory.md eqs. C.5, C.6) seen by a probe unit: what
// ZOH, FOH and second-order extrapolation give in Jacobi and Gauss–Seidel, the held
// value before a step, the input value a feedthrough output uses; and a .cfg that
// builds the same co-simulation as the seed's units made in code.
#include <catch2/catch.hpp>

#include <cmath>
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
