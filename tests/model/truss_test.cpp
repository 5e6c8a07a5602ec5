// TrussBar: energy / force / tangent triad for every strain measure, 2D and 3D,
// at seeded random large deformations; rigid motions; axial force closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <Eigen/Geometry>
#include <random>

#include "model/derivative_checks.hpp"
#include "senda/model/truss.hpp"

using namespace senda::model;
using senda::testing::taylor_remainder;
using senda::testing::element_force;
using senda::testing::element_tangent;
using senda::testing::check_element_triad;

namespace {

const StrainMeasure kMeasures[] = {StrainMeasure::GreenLagrange, StrainMeasure::Engineering,
                                   StrainMeasure::Logarithmic};


// A bar with a skew reference direction (no axis alignment hides a wrong term).
Eigen::Vector3d end_a() { return {0.3, -0.2, 0.0}; }
Eigen::Vector3d end_b(int dim) { return {1.1, 0.5, dim == 3 ? -0.7 : 0.0}; }
TrussBar make_bar(int dim, StrainMeasure m, double EA = 2.5) { return TrussBar(1, dim, 0, 1, end_a(), end_b(dim), EA, m); }

// Random displacement of both nodes of up to 40 % of l₀ per component, so the
// stretch covers compression and tension well outside the linear range; stretches
// below 0.4 are rejected (the logarithmic measure is singular at l = 0).
Eigen::VectorXd random_large_displacement(const TrussBar& bar, int dim, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-0.4, 0.4);
  for (;;) {
    Eigen::VectorXd u(2 * dim);
    for (int i = 0; i < 2 * dim; ++i) u[i] = U(rng) * bar.reference_length();
    Eigen::Vector3d d = end_b(dim) - end_a();
    for (int c = 0; c < dim; ++c) d[c] += u[dim + c] - u[c];
    const double stretch = d.norm() / bar.reference_length();
    if (stretch > 0.4) return u;
  }
}

}  // namespace

TEST_CASE("truss bar: force and tangent are the derivatives of the energy", "[model][truss]") {
  std::mt19937 rng(20261201);
  for (int dim : {2, 3}) {
    for (StrainMeasure m : kMeasures) {
      SECTION(std::string(to_string(m)) + " " + std::to_string(dim) + "D") {
        const TrussBar bar = make_bar(dim, m);
        const double l0 = bar.reference_length();
        for (int sample = 0; sample < 20; ++sample) {
          const Eigen::VectorXd u = random_large_displacement(bar, dim, rng);
          INFO("sample " << sample << " u = " << u.transpose());
          // Taylor remainder of f along a random direction of size 0.1 l₀: ε from 1e-1
          // down to at least 1e-4 is above round-off (r(1e-4) ≈ 1e-10·‖f''‖).
          Eigen::VectorXd h = Eigen::VectorXd::NullaryExpr(2 * dim, [&] { return std::normal_distribution<>()(rng); });
          h *= 0.1 * l0 / h.norm();
          // f = ∂W/∂u, K = ∂f/∂u by central differences with ε = 6e-6·l₀ (EA = 2.5);
          // K symmetric up to the order of products.
          check_element_triad(bar, u, h, l0, 2.5, 1e-15);
        }
      }
    }
  }
}

TEST_CASE("truss bar: a wrong tangent is caught by the Taylor test", "[model][truss]") {
  // Guard on the test itself: perturbing K by 1 % makes r(ε) = O(ε), slope ≈ 1.
  std::mt19937 rng(7);
  const TrussBar bar = make_bar(3, StrainMeasure::Logarithmic);
  const Eigen::VectorXd u = random_large_displacement(bar, 3, rng);
  Eigen::MatrixXd K = element_tangent(bar, u);
  K(0, 0) *= 1.01;
  Eigen::VectorXd h = Eigen::VectorXd::Constant(6, 0.05);
  h[2] = -0.07;
  const auto t = taylor_remainder([&](const Eigen::VectorXd& v) { return element_force(bar, v); }, K, u, h);
  CHECK(t.slope.back() < 1.1);
}

TEST_CASE("truss bar: rigid motions are stress-free", "[model][truss]") {
  // x = R X + c keeps every length: N = 0 and f = 0 for every measure. Only the
  // rounding of l (a few ulps of l₀) remains, so |N| ≤ 1e-13 EA.
  const double EA = 3.0;
  const double angle = 0.9;  // a finite rotation, not an infinitesimal one
  for (int dim : {2, 3}) {
    for (StrainMeasure m : kMeasures) {
      INFO(to_string(m) << " " << dim << "D");
      const TrussBar bar = make_bar(dim, m, EA);
      const Eigen::Vector3d xa = end_a(), xb = end_b(dim);
      const Eigen::Matrix3d R =
          dim == 3 ? Eigen::AngleAxisd(angle, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix()
                   : Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
      const Eigen::Vector3d c(0.4, -1.3, dim == 3 ? 0.8 : 0.0);
      Eigen::VectorXd u(2 * dim);
      const Eigen::Vector3d ua = R * xa + c - xa, ub = R * xb + c - xb;
      for (int k = 0; k < dim; ++k) {
        u[k] = ua[k];
        u[dim + k] = ub[k];
      }
      CHECK(std::abs(bar.axial_force(u)) <= 1e-13 * EA);
      CHECK(element_force(bar, u).norm() <= 1e-13 * EA);
      CHECK(std::abs(bar.energy(u)) <= 1e-26 * EA * bar.reference_length());
    }
  }
}

TEST_CASE("truss bar: axial force of each measure against its closed form", "[model][truss]") {
  // Stretch the bar along its axis to λ₁ = l/l₀ and compare N with
  //   Green–Lagrange N = EA ε λ₁, ε = (λ₁² − 1)/2
  //   engineering    N = EA (λ₁ − 1)
  //   Hencky         N = EA ln(λ₁) / λ₁
  // Both sides are a few flops: agreement to 1e-14 relative.
  const double EA = 7.0;
  for (int dim : {2, 3}) {
    for (double stretch : {0.5, 0.9, 1.0, 1.3, 2.0}) {
      for (StrainMeasure m : kMeasures) {
        const TrussBar bar = make_bar(dim, m, EA);
        const Eigen::Vector3d xa = end_a(), xb = end_b(dim);
        const Eigen::Vector3d ub = (stretch - 1.0) * (xb - xa);
        Eigen::VectorXd u = Eigen::VectorXd::Zero(2 * dim);
        for (int k = 0; k < dim; ++k) u[dim + k] = ub[k];
        double expected = 0;
        switch (m) {
          case StrainMeasure::GreenLagrange: expected = EA * 0.5 * (stretch * stretch - 1.0) * stretch; break;
          case StrainMeasure::Engineering: expected = EA * (stretch - 1.0); break;
          case StrainMeasure::Logarithmic: expected = EA * std::log(stretch) / stretch; break;
        }
        INFO(to_string(m) << " " << dim << "D stretch " << stretch);
        CHECK(std::abs(bar.axial_force(u) - expected) <= 1e-14 * EA + 1e-13 * std::abs(expected));
        // The force on node b points along the bar with magnitude N.
        const Eigen::VectorXd f = element_force(bar, u);
        CHECK(std::abs(f.tail(dim).norm() - std::abs(expected)) <= 1e-13 * EA);
        // Bar energy A₀l₀·½E ε² of the measure.
        double eps = 0;
        switch (m) {
          case StrainMeasure::GreenLagrange: eps = 0.5 * (stretch * stretch - 1.0); break;
          case StrainMeasure::Engineering: eps = stretch - 1.0; break;
          case StrainMeasure::Logarithmic: eps = std::log(stretch); break;
        }
        CHECK(std::abs(bar.energy(u) - 0.5 * EA * bar.reference_length() * eps * eps) <=
              1e-13 * EA * bar.reference_length());
      }
    }
  }
}

TEST_CASE("truss bar: small strains keep their digits", "[model][truss]") {
  // The strain comes from δ = Δu·(2ΔX + Δu)/l₀², not from l/l₀ − 1: formed from the
  // rounded l, ε ≈ 1e-9 would keep only eps/ε ≈ 2e-7 of its relative precision (the
  // shallow lattice dome's bars strain by ~1e-6 at their snap, and that round-off
  // was the floor of its SPL residual, docs/performance.md). Closed forms in t
  // without the cancellation: Green–Lagrange N = EA t(1 + t/2)(1 + t), engineering
  // N = EA t, Hencky N = EA log1p(t)/(1 + t), for λ₁ = 1 + t; and for a transverse
  // displacement w of an axis-aligned bar, δ = (w/l₀)² exactly: N = EA δ/2 √(1 + δ),
  // EA δ/(1 + √(1 + δ)), EA ½ log1p(δ)/√(1 + δ). Both sides a few flops apart: 1e-13
  // relative (the old l/l₀ − 1 was off by 1e-7 to 1e-4 here).
  const double EA = 7.0;
  for (int dim : {2, 3}) {
    for (double t : {1e-9, -1e-9, 1e-6}) {
      for (StrainMeasure m : kMeasures) {
        const TrussBar bar = make_bar(dim, m, EA);
        const Eigen::Vector3d ub = t * (end_b(dim) - end_a());
        Eigen::VectorXd u = Eigen::VectorXd::Zero(2 * dim);
        for (int k = 0; k < dim; ++k) u[dim + k] = ub[k];
        double expected = 0;
        switch (m) {
          case StrainMeasure::GreenLagrange: expected = EA * t * (1.0 + 0.5 * t) * (1.0 + t); break;
          case StrainMeasure::Engineering: expected = EA * t; break;
          case StrainMeasure::Logarithmic: expected = EA * std::log1p(t) / (1.0 + t); break;
        }
        INFO(to_string(m) << " " << dim << "D axial t = " << t);
        CHECK(std::abs(bar.axial_force(u) - expected) <= 1e-13 * std::abs(expected));
      }
    }
    for (double w : {1e-6, 1e-4}) {
      for (StrainMeasure m : kMeasures) {
        const double l0 = 2.0;
        const TrussBar bar(1, dim, 0, 1, Eigen::Vector3d(0.5, 0, 0), Eigen::Vector3d(0.5 + l0, 0, 0), EA, m);
        Eigen::VectorXd u = Eigen::VectorXd::Zero(2 * dim);
        u[dim + 1] = w * l0;  // node b moves across the bar
        const double delta = w * w, s = std::sqrt(1.0 + delta);
        double expected = 0;
        switch (m) {
          case StrainMeasure::GreenLagrange: expected = EA * 0.5 * delta * s; break;
          case StrainMeasure::Engineering: expected = EA * delta / (1.0 + s); break;
          case StrainMeasure::Logarithmic: expected = EA * 0.5 * std::log1p(delta) / s; break;
        }
        INFO(to_string(m) << " " << dim << "D transverse w/l0 = " << w);
        CHECK(std::abs(bar.axial_force(u) - expected) <= 1e-13 * std::abs(expected));
        // And the energy ½ EA l₀ ε², ε the measure's strain of δ.
        const double eps = m == StrainMeasure::GreenLagrange ? 0.5 * delta
                           : m == StrainMeasure::Engineering ? delta / (1.0 + s)
                                                             : 0.5 * std::log1p(delta);
        CHECK(std::abs(bar.energy(u) - 0.5 * EA * l0 * eps * eps) <= 1e-13 * 0.5 * EA * l0 * eps * eps);
      }
    }
  }
}

TEST_CASE("truss bar: zero length is rejected", "[model][truss]") {
  const Eigen::Vector3d x(1, 2, 3);
  CHECK_THROWS_AS(TrussBar(1, 3, 0, 1, x, x, 1.0, StrainMeasure::Engineering), std::invalid_argument);
}

TEST_CASE("truss bar: a bar through zero length is named as a degenerate configuration", "[model][truss]") {
  // Three-bar's branch from BP2 (-) crawled to a bar at 8e-7 of its length and ended
  // "no convergence": the path's message now names the bar (PathFollower, step-too-small).
  for (int dim : {2, 3}) {
    const TrussBar bar = make_bar(dim, StrainMeasure::Engineering, 1.0);
    const Eigen::Vector3d xa = end_a(), xb = end_b(dim);
    Eigen::VectorXd u = Eigen::VectorXd::Zero(2 * dim);
    CHECK(bar.degenerate(u).empty());
    // End b moved onto end a, but for 1e-6 of the bar's length along it.
    const Eigen::Vector3d to_a = xa - xb;
    for (int k = 0; k < dim; ++k) u[dim + k] = to_a[k] * (1.0 - 1e-6);
    const std::string d = bar.degenerate(u);
    INFO(d);
    CHECK(d.find(" is 1e-06 of its length at rest") != std::string::npos);
    // At a thousandth of its length it is a short bar, not yet a degenerate one.
    for (int k = 0; k < dim; ++k) u[dim + k] = to_a[k] * (1.0 - 2e-3);
    CHECK(bar.degenerate(u).empty());
    // A Green–Lagrange bar's energy is a polynomial in u: nothing degenerate there.
    for (int k = 0; k < dim; ++k) u[dim + k] = to_a[k] * (1.0 - 1e-6);
    CHECK(make_bar(dim, StrainMeasure::GreenLagrange, 1.0).degenerate(u).empty());
    CHECK(!make_bar(dim, StrainMeasure::Logarithmic, 1.0).degenerate(u).empty());
  }
}
