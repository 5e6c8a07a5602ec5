// The exact (modal) integrator against closed forms, and the order of the coupling
// error in H measured (docs/validation.md "Co-simulation").
#include <catch2/catch.hpp>

#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <vector>

#include "cosim/seed.hpp"

using namespace senda::cosim;
using namespace seed002;

namespace {

// x(t) of the seed's system from its two modes, written out: K φ = ω² φ (M = I),
// x(t) = Σ φ (φ·v0) sin(ω t)/ω since x0 = 0.
Eigen::Vector2d closed_form(double t) {
  const double a = k1 + kc, d = k2 + kc, b = -kc;
  const double mean = 0.5 * (a + d), radius = std::sqrt(0.25 * (a - d) * (a - d) + b * b);
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  // The larger root directly, the smaller from the determinant (no cancellation:
  // mean − radius would lose 2 digits of the low frequency, a phase error of 1e-12 at 10 s).
  const double high = mean + radius, low = (a * d - b * b) / high;
  for (double w2 : {low, high}) {
    Eigen::Vector2d phi(b, w2 - a);  // (K − ω² I) φ = 0, first row
    phi.normalize();
    const double w = std::sqrt(w2);
    x += phi * (phi.dot(Eigen::Vector2d(v10, v20)) * std::sin(w * t) / w);
  }
  return x;
}

// |x(T) − x_exact(T)| of a co-simulated run.
double error_from(const Coupled& r, const Eigen::Vector2d& exact) {
  return std::hypot(r.units[0]->x()(0) - exact(0), r.units[1]->x()(0) - exact(1));
}

}  // namespace

TEST_CASE("cosim exact integrator: the monolithic run against the modal closed form", "[cosim][exact]") {
  LinearUnit mono = monolithic(Integrator::Exact, 1e-3);
  MasterOptions o;
  o.end_time = 10.0;
  o.macro_step = 1e-3;
  const Summary s = run({&mono}, {}, o);
  const Eigen::Vector2d x = closed_form(10.0);
  INFO("x(10) - closed form = " << std::scientific << (mono.x() - x).transpose());
  // 10 000 steps of rounding on modal amplitudes of ~30 m (|v0|/ω1 = 100/3.2):
  // measured 1.8e-13 m; 1e-12 is the bound.
  CHECK((mono.x() - x).cwiseAbs().maxCoeff() < 1e-12 * (1.0 + x.cwiseAbs().maxCoeff()));
  // Exact integration conserves the energy to rounding (a symplectic Euler run
  // drifts by ±121 J, seed002 test).
  CHECK(std::abs(s.max_energy_deviation) < 1e-9 * E0);
}

TEST_CASE("cosim exact integrator: polynomial inputs against the matrix exponential", "[cosim][exact]") {
  // One mass on a spring, a force input f(τ) = c0 + c1 τ + c2 τ² over a step H made
  // of 7 micro steps; the reference is exp(A H) of the augmented system
  // (x, v, f, f', f'') with ẋ = v, v̇ = (f − k x)/m, ḟ = f', ḟ' = f'', ḟ'' = 0.
  const double m = 2.0, k = 50.0, H = 0.07;
  LinearSystem sys;
  sys.mass = Eigen::VectorXd::Constant(1, m);
  sys.stiffness = Eigen::MatrixXd::Constant(1, 1, k);
  sys.x0 = Eigen::VectorXd::Constant(1, 0.3);
  sys.v0 = Eigen::VectorXd::Constant(1, -1.1);
  for (PortKind kind : {PortKind::Force, PortKind::Spring}) {
    const double kc = kind == PortKind::Spring ? 30.0 : 0.0;
    LinearUnit u(sys, {{"", 0, kind, kc, 1.0}}, Integrator::Exact, H / 7);
    Signal sig{0.7, -4.0, 25.0, 0.7};
    u.step(0.0, H, std::span<const Signal>(&sig, 1));
    Eigen::Matrix<double, 5, 5> A = Eigen::Matrix<double, 5, 5>::Zero();
    const double gain = kind == PortKind::Force ? 1.0 : kc;  // a spring port forces k_c u
    A(0, 1) = 1.0;
    A(1, 0) = -(k + kc) / m;
    A(1, 2) = gain / m;
    A(2, 3) = 1.0;
    A(3, 4) = 1.0;
    Eigen::Matrix<double, 5, 1> w0;
    w0 << 0.3, -1.1, sig.c0, sig.c1, 2.0 * sig.c2;
    const Eigen::Matrix<double, 5, 1> w = (A * H).exp() * w0;
    CHECK(u.x()(0) == Approx(w(0)).epsilon(1e-12));
    CHECK(u.v()(0) == Approx(w(1)).epsilon(1e-12));
    // With an exact solution the input work is the change of the unit's energy.
    const double e1 = u.energy(std::vector<double>{sig.value(H)});
    const double e0 = 0.5 * m * 1.1 * 1.1 + 0.5 * k * 0.09 + (kind == PortKind::Spring ? 0.5 * kc * 0.16 : 0.0);
    CHECK(u.input_work() == Approx(e1 - e0).epsilon(1e-12));
  }
}

TEST_CASE("cosim: measured order of the coupling error in H (Jacobi d-d, exact subsystems)", "[cosim][order]") {
  // The coupling error alone: both units integrate exactly, so the difference from
  // the closed-form solution at T = 1 s comes from holding (ZOH) or
  // extrapolating linearly (FOH) the other unit's position between exchanges.
  const double T = 1.0;
  const Eigen::Vector2d ref = closed_form(T);
  for (int order : {0, 1}) {
    std::vector<double> err;
    for (double H : {4e-3, 2e-3, 1e-3, 5e-4}) {
      Case c;
      c.causality = Causality::DisplacementDisplacement;
      c.H = c.h1 = c.h2 = H;
      c.T = T;
      c.integrator = Integrator::Exact;
      Coupled r = coupled(c);
      for (Connection& k : r.connections) k.input_order = k.output_order = order;
      run(r.pointers(), r.connections, r.options);
      err.push_back(error_from(r, ref));
    }
    for (std::size_t i = 1; i < err.size(); ++i) {
      const double rate = std::log2(err[i - 1] / err[i]);
      INFO("order " << order << ": error " << err[i - 1] << " -> " << err[i] << ", rate " << rate);
      // Measured rates 0.973, 0.987, 0.993 (ZOH) and 2.021, 2.010, 2.005 (FOH);
      // ±0.05 leaves room for the pre-asymptotic first halving only.
      CHECK(rate == Approx(order + 1.0).margin(0.05));
    }
  }
}

TEST_CASE("cosim: an iterated Jacobi f-d step converges to the coupled solution", "[cosim][iteration]") {
  // Jacobi f-d with FOH both ways and exact subsystems, iterated to 1e-12: the
  // waveform relaxation converges in every step and the error from the monolithic
  // solution is second order in H (the linear interpolation of the converged
  // waveforms); without iteration the same scheme gains energy.
  const double T = 1.0;
  const Eigen::Vector2d ref = closed_form(T);
  std::vector<double> err;
  for (double H : {2e-3, 1e-3}) {
    Case c;
    c.H = c.h1 = c.h2 = H;
    c.T = T;
    c.integrator = Integrator::Exact;
    c.max_iterations = 50;
    Coupled r = coupled(c);
    r.options.tolerance = 1e-12;
    for (Connection& k : r.connections) k.input_order = k.output_order = 1;
    const Summary s = run(r.pointers(), r.connections, r.options);
    CHECK(s.unconverged_steps == 0);
    err.push_back(error_from(r, ref));
  }
  INFO("errors " << err[0] << ", " << err[1]);
  CHECK(std::log2(err[0] / err[1]) == Approx(2.0).margin(0.1));
}

TEST_CASE("cosim validate: what the master refuses", "[cosim]") {
  Case c;
  Coupled r = coupled(c);
  CHECK(validate(r.pointers(), r.connections, r.options).empty());
  SECTION("an input not connected") {
    r.connections.pop_back();
    CHECK(validate(r.pointers(), r.connections, r.options) == "input 'u' of unit 0 is not connected");
  }
  SECTION("an input connected twice") {
    r.connections.push_back(r.connections.back());
    CHECK(validate(r.pointers(), r.connections, r.options) == "input 'u' of unit 0 is connected twice");
  }
  SECTION("a macro step that is not a whole multiple of a micro step") {
    r.options.macro_step = 1.5e-3;
    r.options.end_time = 1.5;
    CHECK(validate(r.pointers(), r.connections, r.options) ==
          "unit 0: the macro step is not a whole multiple of its micro step");
  }
  SECTION("an algebraic loop") {
    // Two force-displacement SS2 units (spring ports: f depends on u at once) feeding each other's force.
    Case d;
    d.causality = Causality::DisplacementDisplacement;
    Coupled loop = coupled(d);
    for (Connection& k : loop.connections) k.from_output = 2;  // f instead of x
    CHECK(validate(loop.pointers(), loop.connections, loop.options) ==
          "an algebraic loop: feedthrough outputs depend on each other");
  }
}

TEST_CASE("cosim symplectic Euler: the input work closes the step's energy balance (eq. C.3)", "[cosim][energy]") {
  // One micro step of a mass on k with a coupling spring k_c (share s) whose far end
  // follows u(τ) = c0 + c1 τ + c2 τ² after a jump from u⁻: by hand, E(end) − E(start)
  // = W + D with D = −h v̄ k x0 + x̄ k Δx, the step's own error on k alone
  // (docs/theory.md §10.1).
  const double m = 1.5, k = 40.0, kc = 25.0, s = 0.5, h = 0.01, x0 = 0.2, v0 = -0.7;
  LinearSystem sys;
  sys.mass = Eigen::VectorXd::Constant(1, m);
  sys.stiffness = Eigen::MatrixXd::Constant(1, 1, k);
  sys.x0 = Eigen::VectorXd::Constant(1, x0);
  sys.v0 = Eigen::VectorXd::Constant(1, v0);
  LinearUnit u(sys, {{"", 0, PortKind::Spring, kc, s}}, Integrator::SymplecticEuler, h);
  const Signal sig{0.3, 2.0, -5.0, 0.1};
  const double e0 = u.energy(std::vector<double>{sig.before});
  u.step(0.0, h, std::span<const Signal>(&sig, 1));
  const double v1 = v0 + h * (kc * sig.c0 - (k + kc) * x0) / m, x1 = x0 + h * v1;
  CHECK(u.x()(0) == Approx(x1).epsilon(1e-15));
  CHECK(u.v()(0) == Approx(v1).epsilon(1e-15));
  const double e1 = u.energy(std::vector<double>{sig.value(h)});
  const double D = -h * 0.5 * (v0 + v1) * k * x0 + 0.5 * (x0 + x1) * k * (x1 - x0);
  CHECK(e1 - e0 - u.input_work() == Approx(D).epsilon(1e-12));
  // And the same balance for a force port.
  LinearUnit f(sys, {{"", 0, PortKind::Force, 0.0, 1.0}}, Integrator::SymplecticEuler, h);
  const double ef0 = f.energy(std::vector<double>{0.0});
  f.step(0.0, h, std::span<const Signal>(&sig, 1));
  const double w1 = v0 + h * (sig.c0 - k * x0) / m, y1 = x0 + h * w1;
  const double Df = -h * 0.5 * (v0 + w1) * k * x0 + 0.5 * (x0 + y1) * k * (y1 - x0);
  CHECK(f.energy(std::vector<double>{0.0}) - ef0 - f.input_work() == Approx(Df).epsilon(1e-12));
}
