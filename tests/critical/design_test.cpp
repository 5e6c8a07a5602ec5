// Design studies (lib/critical/design, docs/theory.md §8): sensitivities dλ_cr/dμ,
// curves of critical points λ_cr(μ), imperfection sensitivity.
//
// References (closed forms derived in tests/problems/rigid_bar_models.hpp):
//   von Mises truss, a = 1, EA = 1:  λ_L(h) = (2/(3√3)) h³/(1 + h²)^{3/2},
//                                    λ_B(h) = ±2√(h² − 2)/(1 + h²)^{3/2}, h ≥ √2,
//                                    λ_L = λ_B at h = √3.
//   Bratu with boundary value μ: u = μ + w turns λe^u into (λe^μ)e^w, so the fold
//   is λ_c(μ) = λ_c(0) e^{−μ} exactly, for the discrete problem too.
//   Koiter's imperfection laws (Koiter 1945; Thompson & Hunt 1973, ch. 2):
//   1 − P_max/P_cr ∝ ε^{1/2} for an asymmetric bifurcation, ∝ ε^{2/3} for a
//   symmetric unstable one; model (b) with a horizontal tip force εkL:
//   P_max/P_cr ≈ 1 − 1.5 ε^{2/3}; model (c) with a tip force −εkL (towards the
//   falling side): 1 − P_max/P_cr ≈ 1.5 √(ε/(¾P_cr)) (k = L = 1).
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

#include "benchmarks/bratu.hpp"
#include "senda/critical/design.hpp"
#include "tests/problems/rigid_bar_models.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;

namespace {

const double kC = 2.0 / (3.0 * std::sqrt(3.0));
double limit_load(double h) { return kC * std::pow(h, 3) / std::pow(1 + h * h, 1.5); }
double limit_slope(double h) { return 3 * kC * h * h / std::pow(1 + h * h, 2.5); }
double bifurcation_load(double h) { return 2 * std::sqrt(h * h - 2) / std::pow(1 + h * h, 1.5); }
double bifurcation_slope(double h) {
  return 2 * (h / std::sqrt(h * h - 2) / std::pow(1 + h * h, 1.5) -
              3 * h * std::sqrt(h * h - 2) / std::pow(1 + h * h, 2.5));
}

FunctionFamily von_mises_family() {
  return FunctionFamily([](double h) -> std::shared_ptr<const Problem> {
    problems::VonMisesTruss t;
    t.h = h;
    return t.build();
  });
}

Options truss_path() {
  Options o;
  o.initial_load_increment = 0.01;
  o.max_steps = 400;
  return o;
}

CriticalPoint first_point(const Problem& p, const Options& o) {
  std::string why;
  const auto cp = first_critical_point(p, Vector::Zero(p.size()), 0.0, o, FinderOptions{}, &why);
  INFO(why);
  REQUIRE(cp.has_value());
  return *cp;
}

// A rigid-bar model with a dead horizontal force H at the top of the bar:
// V = V₀ − H L sin θ, so g = g₀ − H L cos θ (the imperfection).
class TipForce final : public Problem {
 public:
  TipForce(std::shared_ptr<const problems::RigidBarModel> base, double H) : base_(std::move(base)), H_(H) {}
  int size() const override { return 1; }
  void residual(const Vector& q, double l, Vector& g) const override {
    base_->residual(q, l, g);
    g[0] -= H_ * base_->length() * std::cos(q[0]);
  }
  const SparseMatrix& tangent_pattern() const override { return base_->tangent_pattern(); }
  void tangent(const Vector& q, double l, SparseMatrix& K) const override {
    base_->tangent(q, l, K);
    K.valuePtr()[0] += H_ * base_->length() * std::sin(q[0]);
  }
  void dg_dlambda(const Vector& q, double l, Vector& out) const override { base_->dg_dlambda(q, l, out); }
  bool tangent_derivative(const Vector& q, double l, const Vector& a, const Vector& b, Vector& out) const override {
    base_->tangent_derivative(q, l, a, b, out);
    out[0] += H_ * base_->length() * std::cos(q[0]) * a[0] * b[0];
    return true;
  }
  DofKind dof_kind(int) const override { return DofKind::Rotation; }

 private:
  std::shared_ptr<const problems::RigidBarModel> base_;
  double H_;
};

}  // namespace

TEST_CASE("sensitivity dlambda/dh of the von Mises limit and bifurcation loads", "[design][sensitivity]") {
  const FunctionFamily fam = von_mises_family();
  SECTION("limit point, h = 1 (eq. 8.2)") {
    const double h = 1.0;
    const CriticalPoint lp = first_point(*fam.at(h), truss_path());
    REQUIRE(lp.kind == CriticalKind::Limit);
    const Sensitivity s = sensitivity(fam, h, lp);
    INFO(s.message);
    REQUIRE(s.valid);
    CHECK(std::abs(s.dlambda_dmu - limit_slope(h)) <= 1e-7 * limit_slope(h));
    // Against central differences of located loads at h ± δ.
    const double d = 1e-3;
    const double fd = (first_point(*fam.at(h + d), truss_path()).lambda -
                       first_point(*fam.at(h - d), truss_path()).lambda) / (2 * d);
    CHECK(std::abs(s.dlambda_dmu - fd) <= 1e-5 * std::abs(fd));
  }
  SECTION("bifurcation point, h = 2 (eq. 8.3)") {
    const double h = 2.0;
    const CriticalPoint bp = first_point(*fam.at(h), truss_path());
    REQUIRE(bp.kind == CriticalKind::Bifurcation);
    const Sensitivity s = sensitivity(fam, h, bp);
    INFO(s.message);
    REQUIRE(s.valid);
    CHECK(s.phi_dot_gmu < 1e-8);
    CHECK(std::abs(s.dlambda_dmu - bifurcation_slope(h)) <= 1e-6 * std::abs(bifurcation_slope(h)));
    const double d = 1e-3;
    const double fd = (first_point(*fam.at(h + d), truss_path()).lambda -
                       first_point(*fam.at(h - d), truss_path()).lambda) / (2 * d);
    CHECK(std::abs(s.dlambda_dmu - fd) <= 1e-5 * std::abs(fd));
  }
  SECTION("an imperfection parameter breaks the bifurcation: no sensitivity") {
    const FunctionFamily imperfect([](double e) -> std::shared_ptr<const Problem> {
      problems::VonMisesTruss t;
      t.horizontal_dead_load = e;
      return t.build();
    });
    const CriticalPoint bp = first_point(*imperfect.at(0.0), truss_path());
    REQUIRE(bp.kind == CriticalKind::Bifurcation);
    const Sensitivity s = sensitivity(imperfect, 0.0, bp);
    CHECK_FALSE(s.valid);
    CHECK(s.phi_dot_gmu > 0.5);
    CHECK(s.message.find("breaks the bifurcation") != std::string::npos);
  }
}

TEST_CASE("sensitivity at the rigid-bar bifurcations: dP_cr/dk, symmetric and asymmetric", "[design][sensitivity]") {
  // P_cr = kL (b, symmetric) and kL/2 (c, asymmetric): dP/dk = L and L/2.
  const double L = 2.0;
  const FunctionFamily b([L](double k) -> std::shared_ptr<const Problem> {
    return std::make_shared<problems::HorizontalSpringBar>(L, k);
  });
  const FunctionFamily c([L](double k) -> std::shared_ptr<const Problem> {
    return std::make_shared<problems::InclinedSpringBar>(L, k);
  });
  Options o;
  o.initial_load_increment = 0.1;
  for (auto [fam, slope] : {std::pair{&b, L}, std::pair{&c, L / 2}}) {
    // The trivial path θ = 0 meets the bifurcation; perturb the start to get the det change.
    const CriticalPoint bp = first_point(*fam->at(1.5), o);
    REQUIRE(bp.kind == CriticalKind::Bifurcation);
    const Sensitivity s = sensitivity(*fam, 1.5, bp);
    INFO(s.message);
    REQUIRE(s.valid);
    CHECK(std::abs(s.dlambda_dmu - slope) <= 1e-7 * slope);
  }
}

TEST_CASE("von Mises truss: limit-point curve lambda_L(h) through the coincidence at h = sqrt 3",
          "[design][curve]") {
  const FunctionFamily fam = von_mises_family();
  const CriticalPoint lp = first_point(*fam.at(1.0), truss_path());
  REQUIRE(lp.kind == CriticalKind::Limit);
  CurveOptions co;
  co.mu_max = 2.5;
  const CriticalCurve curve = follow_critical_curve(fam, 1.0, lp, co);
  INFO(curve.message);
  CHECK(curve.termination == CurveTermination::MuRange);
  REQUIRE(curve.points.size() >= 10);
  for (const CurvePoint& p : curve.points) {
    INFO("h = " << p.mu);
    CHECK(p.kind == CriticalKind::Limit);
    CHECK(std::abs(p.lambda - limit_load(p.mu)) <= 1e-9 * limit_load(p.mu));
  }
  REQUIRE(curve.events.size() == 1);
  const CurveEvent& ev = curve.events[0];
  CHECK(ev.kind == CurveEventKind::Coincidence);
  CHECK(ev.located);
  CHECK(std::abs(ev.mu - std::sqrt(3.0)) <= 1e-7);
  CHECK(std::abs(ev.lambda - 0.25) <= 1e-8);
}

TEST_CASE("limit-point curve of a one-unknown problem (apex held in x): rho stays positive",
          "[design][curve]") {
  // At a critical point of a one-unknown problem K = 0, so the penalty formula
  // mean |diag K| + |K_ii| vanishes; the curve keeps the previous point's ρ.
  const FunctionFamily fam([](double h) -> std::shared_ptr<const Problem> {
    problems::VonMisesTruss t;
    t.h = h;
    t.sway = false;
    return t.build();
  });
  const CriticalPoint lp = first_point(*fam.at(0.5), truss_path());
  REQUIRE(lp.kind == CriticalKind::Limit);
  CurveOptions co;
  co.mu_min = 0.3;
  co.mu_max = 1.2;
  const CriticalCurve curve = follow_critical_curve(fam, 0.5, lp, co);
  INFO(curve.message);
  CHECK(curve.termination == CurveTermination::MuRange);
  REQUIRE(curve.points.size() >= 10);
  CHECK(curve.points.back().mu >= 1.2);
  for (const CurvePoint& p : curve.points) CHECK(std::abs(p.lambda - limit_load(p.mu)) <= 1e-9 * limit_load(p.mu));
}

TEST_CASE("curve of critical points: a stop request ends it within the current point, the points kept",
          "[design][curve][interrupt]") {
  const FunctionFamily fam = von_mises_family();
  const CriticalPoint lp = first_point(*fam.at(1.0), truss_path());
  REQUIRE(lp.kind == CriticalKind::Limit);
  // The flag is polled before each point and by the locator in every iteration of a
  // point (a point of a large model takes seconds): it turns true at poll k + 1.
  for (int k : {0, 1, 5}) {
    CurveOptions co;
    co.mu_max = 2.5;
    int polls = 0;
    co.stop_requested = [&] { return ++polls > k; };
    const CriticalCurve curve = follow_critical_curve(fam, 1.0, lp, co);
    INFO("k = " << k << ": " << curve.message);
    CHECK(curve.termination == CurveTermination::Interrupted);
    CHECK(polls >= k + 1);
    REQUIRE(!curve.points.empty());  // the start point
    if (k == 0) CHECK(curve.points.size() == 1);  // stopped before the first new point
    // More polls than points: the locator polled inside the points.
    CHECK(curve.points.size() <= static_cast<std::size_t>(k + 1));
    if (k == 5) CHECK(curve.points.size() < 6);
    CHECK(curve.message == "interrupted after " + std::to_string(curve.points.size()) + " points");
    for (const CurvePoint& p : curve.points) CHECK(std::abs(p.lambda - limit_load(p.mu)) <= 1e-9 * limit_load(p.mu));
  }
  // Without a stop request the same curve runs on to mu_max (the flag, not a
  // failure, ended the ones above).
  CurveOptions co;
  co.mu_max = 2.5;
  co.stop_requested = [] { return false; };
  const CriticalCurve full = follow_critical_curve(fam, 1.0, lp, co);
  CHECK(full.termination == CurveTermination::MuRange);
  CHECK(full.points.size() > 6);
}

TEST_CASE("von Mises truss: bifurcation curve turns in h at sqrt 2 onto the mirror bifurcation",
          "[design][curve]") {
  const FunctionFamily fam = von_mises_family();
  const CriticalPoint bp = first_point(*fam.at(2.0), truss_path());
  REQUIRE(bp.kind == CriticalKind::Bifurcation);
  CurveOptions co;
  co.direction = -1;
  co.mu_max = 2.0;
  const CriticalCurve curve = follow_critical_curve(fam, 2.0, bp, co);
  INFO(curve.message);
  CHECK(curve.termination == CurveTermination::MuRange);
  REQUIRE(curve.points.size() >= 10);
  bool negative = false;
  for (const CurvePoint& p : curve.points) {
    INFO("h = " << p.mu << " lambda = " << p.lambda);
    CHECK(p.kind == CriticalKind::Bifurcation);
    REQUIRE(p.mu >= std::sqrt(2.0) - 1e-12);
    negative = negative || p.lambda < 0;
    CHECK(std::abs(std::abs(p.lambda) - bifurcation_load(p.mu)) <= 1e-9);
  }
  CHECK(negative);  // the mirror bifurcation (λ < 0) after the turn
  int turns = 0, coincidences = 0;
  for (const CurveEvent& ev : curve.events) {
    INFO(to_string(ev.kind) << " at h = " << ev.mu << ": " << ev.message);
    if (ev.kind == CurveEventKind::TurnInMu) {
      ++turns;
      CHECK(std::abs(ev.mu - std::sqrt(2.0)) <= 1e-4);
      CHECK(std::abs(ev.lambda) <= 1e-2);
    } else {
      ++coincidences;
      CHECK(ev.located);
      CHECK(std::abs(ev.mu - std::sqrt(3.0)) <= 1e-7);
      CHECK(std::abs(std::abs(ev.lambda) - 0.25) <= 1e-8);
    }
  }
  CHECK(turns == 1);
  CHECK(coincidences == 2);  // λ = 0.25 on the way down, −0.25 on the way back
}

TEST_CASE("Bratu with boundary value mu: fold curve lambda_c(0) e^-mu", "[design][curve][bratu]") {
  for (int n : {10, 1000}) {
    const FunctionFamily fam([n](double mu) -> std::shared_ptr<const Problem> {
      return std::make_shared<benchmarks::Bratu>(n, mu);
    });
    Options o;
    o.initial_load_increment = 0.2;
    o.lambda_min = 1.0;
    const CriticalPoint lp = first_point(*fam.at(0.0), o);
    REQUIRE(lp.kind == CriticalKind::Limit);
    const double lc0 = lp.lambda;
    const Sensitivity s = sensitivity(fam, 0.0, lp);
    REQUIRE(s.valid);
    CHECK(std::abs(s.dlambda_dmu + lc0) <= 1e-7 * lc0);
    CurveOptions co;
    co.mu_max = 2.0;
    const CriticalCurve curve = follow_critical_curve(fam, 0.0, lp, co);
    INFO("N = " << n << ": " << curve.message);
    CHECK(curve.termination == CurveTermination::MuRange);
    REQUIRE(curve.points.size() >= 5);
    CHECK(curve.events.empty());
    for (const CurvePoint& p : curve.points) {
      INFO("mu = " << p.mu);
      CHECK(std::abs(p.lambda - lc0 * std::exp(-p.mu)) <= 1e-9 * lc0 * std::exp(-p.mu));
    }
  }
}

TEST_CASE("imperfection sensitivity of the rigid-bar models: Koiter's exponents", "[design][imperfection]") {
  const double L = 1.0, k = 1.0;
  const std::vector<double> amplitudes{1e-6, 1e-5, 1e-4, 1e-3};
  // Displacement control on θ, which grows monotonically through the maximum of
  // an imperfect path; with arc-length steps the corrector can jump across to the
  // other side of the nearly perfect structure (θ → −θ). Steps of 2e-4…1e-3 in θ
  // stay below the size of the peak, θ* = ε^{1/3} (b) or ~ε^{1/2} (c).
  Options o;
  o.constraint = ConstraintKind::DisplacementControl;
  o.control_dof = 0;
  o.initial_load_increment = 2e-4;
  o.max_step_ratio = 5.0;
  o.max_steps = 1000;
  // Per-kind scaling from the first tangent would weigh θ by 1/ε (the tangent's θ
  // part is O(ε) on the nearly trivial path); θ and P are both O(1) here.
  o.auto_scale = false;
  SECTION("(b) symmetric unstable: 1 - P_max/P_cr = 1.5 eps^(2/3)") {
    auto base = std::make_shared<problems::HorizontalSpringBar>(L, k);
    const FunctionFamily fam([base, k, L](double e) -> std::shared_ptr<const Problem> {
      return std::make_shared<TipForce>(base, e * k * L);
    });
    const ImperfectionStudy st = imperfection_sensitivity(fam, amplitudes, base->critical_load(), o, {});
    for (const auto& p : st.points) {
      INFO("eps = " << p.amplitude << ": " << p.message);
      CHECK(p.found);
    }
    INFO(st.fit.message);
    REQUIRE(st.fit.valid);
    CHECK(st.fit.points == 4);
    CHECK(std::abs(st.fit.exponent - 2.0 / 3.0) <= 0.05 * 2.0 / 3.0);
    CHECK(std::abs(st.fit.coefficient - 1.5) <= 0.05 * 1.5);
  }
  SECTION("(c) asymmetric: 1 - P_max/P_cr ~ eps^(1/2)") {
    auto base = std::make_shared<problems::InclinedSpringBar>(L, k);
    // The tip force pushes towards θ < 0, the side where the branch falls.
    const FunctionFamily fam([base, k, L](double e) -> std::shared_ptr<const Problem> {
      return std::make_shared<TipForce>(base, -e * k * L);
    });
    const ImperfectionStudy st = imperfection_sensitivity(fam, amplitudes, base->critical_load(), o, {});
    for (const auto& p : st.points) {
      INFO("eps = " << p.amplitude << ": " << p.message);
      CHECK(p.found);
    }
    REQUIRE(st.fit.valid);
    CHECK(st.fit.points == 4);
    CHECK(std::abs(st.fit.exponent - 0.5) <= 0.05 * 0.5);
    // P ≈ P_cr(1 − ¾x) − ε/x (x = −θ): maximum at ¾P_cr x² = ε, drop 1.5 x = 1.5 √(ε/(¾P_cr)).
    const double c = 1.5 / std::sqrt(0.75 * base->critical_load());
    CHECK(std::abs(st.fit.coefficient - c) <= 0.05 * c);
  }
}

TEST_CASE("power-law fit recovers exact data and rejects non-positive values", "[design][fit]") {
  std::vector<double> x{1e-3, 1e-2, 1e-1}, y;
  for (double v : x) y.push_back(0.7 * std::pow(v, 0.4));
  const PowerLaw f = fit_power_law(x, y);
  REQUIRE(f.valid);
  CHECK(std::abs(f.exponent - 0.4) <= 1e-12);
  CHECK(std::abs(f.coefficient - 0.7) <= 1e-12);
  CHECK_FALSE(fit_power_law({1.0, 0.0}, {1.0, 1.0}).valid);
  // One distinct x: no law (it was c = 1, exponent ln y / ln x, "valid").
  CHECK_FALSE(fit_power_law({1e-6, 1e-6, 1e-6}, {2e-4, 2e-4, 2e-4}).valid);
}
