// Seed 002 (co-simulation of the two-degree-of-freedom oscillator): every configuration
// of its Tables 3 and 4 runs, and its findings (§ on Figures 17–28) hold with numbers.
// docs/validation.md "Co-simulation" lists these tests and the measured values.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cosim/seed.hpp"

using namespace senda::cosim;
using namespace seed002;

namespace {

struct Run {
  Summary summary;
  std::vector<double> energy;  // E(t_n), n = 0..N
};

Run run_case(const Case& c) {
  Coupled r = coupled(c);
  REQUIRE(validate(r.pointers(), r.connections, r.options).empty());
  Run out;
  out.summary = run(r.pointers(), r.connections, r.options, [&](const MacroRecord& m) { out.energy.push_back(m.total_energy); });
  return out;
}

Run run_monolithic(Integrator integ) {
  LinearUnit mono = monolithic(integ, 1e-3);
  MasterOptions o;
  o.end_time = 10.0;
  o.macro_step = 1e-3;
  Run out;
  out.summary = run({&mono}, {}, o, [&](const MacroRecord& m) { out.energy.push_back(m.total_energy); });
  return out;
}

Case table3(Scheme s, Causality c, int first = 0) {
  Case k;
  k.scheme = s;
  k.causality = c;
  k.first = first;
  return k;
}

Case table4(Scheme s, Causality c, int first, int y1, int u2) {
  Case k = table3(s, c, first);
  k.y1_order = y1;
  k.u2_order = u2;
  k.h2 = 1e-4;  // Table 4: H = h1 = 1 ms, h2 = 0.1 ms
  return k;
}

// The interface residual accounts for the energy the coupling created: its sum
// differs from E(T) − E0 only by the integrators' own energy error, which for the
// symplectic Euler step of this system stays inside the monolithic band (±125 J,
// seed Figure 17). 130 J: that band and a margin of 5 J.
void check_residual(const Run& r) {
  INFO("E(T) - E0 = " << r.summary.final_energy - E0 << ", sum of residuals = " << r.summary.residual_sum);
  CHECK(std::abs(r.summary.residual_sum - (r.summary.final_energy - E0)) < 130.0);
}

}  // namespace

TEST_CASE("seed 002 Figure 17: the monolithic symplectic Euler run oscillates within about +-125 J", "[cosim][seed002]") {
  const Run mono = run_monolithic(Integrator::SymplecticEuler);
  CHECK(mono.summary.initial_energy == Approx(E0).epsilon(1e-15));
  CHECK(mono.summary.steps == 10000);
  // Measured: +121.4 / -118.0 J. It oscillates (more than 100 J) without drifting.
  CHECK(mono.summary.max_energy - E0 < 125.0);
  CHECK(E0 - mono.summary.min_energy < 125.0);
  CHECK(mono.summary.max_energy_deviation > 100.0);
  CHECK(std::abs(mono.summary.final_energy - E0) < 125.0);
}

TEST_CASE("seed 002 Table 3 (single rate, H = h1 = h2 = 1 ms): every configuration, the seed's findings", "[cosim][seed002]") {
  const Run mono = run_monolithic(Integrator::SymplecticEuler);
  const Run j_fd = run_case(table3(Scheme::Jacobi, Causality::ForceDisplacement));
  const Run j_dd = run_case(table3(Scheme::Jacobi, Causality::DisplacementDisplacement));
  const Run gs_fd1 = run_case(table3(Scheme::GaussSeidel, Causality::ForceDisplacement, 0));
  const Run gs_fd2 = run_case(table3(Scheme::GaussSeidel, Causality::ForceDisplacement, 1));
  const Run gs_dd1 = run_case(table3(Scheme::GaussSeidel, Causality::DisplacementDisplacement, 0));
  const Run gs_dd2 = run_case(table3(Scheme::GaussSeidel, Causality::DisplacementDisplacement, 1));
  for (const Run* r : {&j_fd, &j_dd, &gs_fd1, &gs_fd2, &gs_dd1, &gs_dd2}) {
    CHECK(r->summary.steps == 10000);
    check_residual(*r);
  }

  SECTION("Figure 20: Jacobi f-d with ZOH gains energy, the worst of the table") {
    // Measured: E(10 s) = 16 784 J (+68 %); the residual sum, +6 810 J, says the coupling made it.
    CHECK(j_fd.summary.final_energy > 1.5 * E0);
    CHECK(j_fd.summary.residual_sum > 0.5 * E0);
    for (const Run* r : {&j_dd, &gs_fd1, &gs_fd2, &gs_dd1, &gs_dd2})
      CHECK(r->summary.max_energy_deviation < 0.1 * j_fd.summary.max_energy_deviation);
  }
  SECTION("Figure 21: Jacobi d-d is much better; single rate it is the monolithic step itself") {
    // Both units' explicit steps read the other's position at t_n, as the
    // monolithic step does: the two runs agree to rounding.
    REQUIRE(j_dd.energy.size() == mono.energy.size());
    double worst = 0.0;
    for (std::size_t n = 0; n < mono.energy.size(); ++n) worst = std::max(worst, std::abs(j_dd.energy[n] - mono.energy[n]));
    CHECK(worst < 1e-8 * E0);
    CHECK(j_dd.summary.max_energy_deviation < 125.0);
    CHECK(std::abs(j_dd.summary.residual_sum) < 1.0);  // measured 0.44 J: no energy from the coupling
  }
  SECTION("Figures 18, 19, 22: Gauss-Seidel dissipates, f-d and d-d alike, less than Jacobi f-d gains") {
    // Measured: E(10 s) = 9 852.40 J (SS1 first), 9 852.51 J (SS2 first); residual sums -160 to -193 J.
    for (const Run* r : {&gs_fd1, &gs_fd2, &gs_dd1, &gs_dd2}) {
      CHECK(r->summary.final_energy < E0 - 100.0);
      CHECK(r->summary.residual_sum < -100.0);
      CHECK(E0 - r->summary.final_energy < 0.1 * (j_fd.summary.final_energy - E0));
    }
    // The curves of f-d and d-d overlap (Figures 18 and 19): the same numbers to rounding.
    for (std::size_t n = 0; n < gs_fd1.energy.size(); n += 100) {
      CHECK(std::abs(gs_fd1.energy[n] - gs_dd1.energy[n]) < 1e-8 * E0);
      CHECK(std::abs(gs_fd2.energy[n] - gs_dd2.energy[n]) < 1e-8 * E0);
    }
  }
}

TEST_CASE("seed 002 Table 4 (multirate, H = h1 = 1 ms, h2 = 0.1 ms): every configuration, the seed's findings",
          "[cosim][seed002]") {
  using S = Scheme;
  using C = Causality;
  const Run mono = run_monolithic(Integrator::SymplecticEuler);
  const Run sr_fd = run_case(table3(S::Jacobi, C::ForceDisplacement));
  const Run zz = run_case(table4(S::Jacobi, C::ForceDisplacement, 0, 0, 0));
  const Run zf = run_case(table4(S::Jacobi, C::ForceDisplacement, 0, 0, 1));
  const Run fz = run_case(table4(S::Jacobi, C::ForceDisplacement, 0, 1, 0));
  const Run ff = run_case(table4(S::Jacobi, C::ForceDisplacement, 0, 1, 1));
  const Run dd = run_case(table4(S::Jacobi, C::DisplacementDisplacement, 0, 0, 1));
  const Run gs_fd1 = run_case(table4(S::GaussSeidel, C::ForceDisplacement, 0, 0, 1));
  const Run gs_fd2 = run_case(table4(S::GaussSeidel, C::ForceDisplacement, 1, 0, 1));
  const Run gs_dd1 = run_case(table4(S::GaussSeidel, C::DisplacementDisplacement, 0, 0, 1));
  const Run gs_dd2 = run_case(table4(S::GaussSeidel, C::DisplacementDisplacement, 1, 0, 1));
  for (const Run* r : {&zz, &zf, &fz, &ff, &dd, &gs_fd1, &gs_fd2, &gs_dd1, &gs_dd2}) {
    CHECK(r->summary.steps == 10000);
    check_residual(*r);
  }
  const double mono_band = mono.summary.max_energy_deviation;  // 121.4 J

  // Figure 24: multirate Jacobi f-d is no worse than single rate, still very inaccurate
  // (measured 16 571 J against 16 784 J).
  CHECK(zz.summary.final_energy > 1.5 * E0);
  CHECK(zz.summary.final_energy <= sr_fd.summary.final_energy);
  // Figure 25: FOH y1 (SS1's position extrapolated to t_{n+1} for SS2's force) improves
  // it a lot, but energy still accumulates (measured E(10 s) = 10 091 J, max 10 140 J).
  CHECK(fz.summary.max_energy_deviation < 0.05 * E0);
  CHECK(fz.summary.final_energy - E0 > 50.0);
  CHECK(fz.summary.residual_sum > 50.0);
  // Figure 26: FOH u2 alone is no better than ZOH (measured 16 753 J).
  CHECK(zf.summary.final_energy > 1.5 * E0);
  // Figure 27: both FOH: accurate, better than the monolithic run (measured band
  // -38.6 / +42.4 J against -118 / +121 J).
  CHECK(ff.summary.max_energy_deviation < 0.5 * mono_band);
  CHECK(std::abs(ff.summary.residual_sum) < 50.0);
  // Figure 28: Jacobi d-d with FOH u2: better than monolithic, tending to dissipate
  // (measured band -39.4 / +41.2 J, E(10 s) = 9 986.5 J).
  CHECK(dd.summary.max_energy_deviation < 0.5 * mono_band);
  CHECK(dd.summary.final_energy < E0);
  // Figure 23: Gauss-Seidel dissipates in multirate too (measured 9 985.9 J SS1 first,
  // 9 825.7 J SS2 first; f-d and d-d the same).
  for (const Run* r : {&gs_fd1, &gs_fd2, &gs_dd1, &gs_dd2}) CHECK(r->summary.final_energy < E0);
  CHECK(gs_fd2.summary.final_energy < E0 - 100.0);
  CHECK(gs_fd1.summary.final_energy == Approx(gs_dd1.summary.final_energy).epsilon(1e-10));
  CHECK(gs_fd2.summary.final_energy == Approx(gs_dd2.summary.final_energy).epsilon(1e-10));
}
