// Runs that must end (issue 20): a step below what the model resolves is refused,
// step cutting ends at a floor, every loop polls the stop request, and max-steps
// reached without the path moving is not a quiet success.
#include <catch2/catch.hpp>
#include <chrono>
#include <tuple>
#include <cmath>
#include <limits>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;

namespace {

// Symmetric shallow von Mises truss (h = 0.5, EA = 1): one unknown, the apex uy.
Model von_mises() {
  Model m(2);
  const int n1 = m.add_node(1, {-1, 0, 0});
  const int n2 = m.add_node(2, {0, 0.5, 0});
  const int n3 = m.add_node(3, {1, 0, 0});
  for (auto [id, a, b] : {std::tuple{1, n1, n2}, std::tuple{2, n2, n3}})
    m.add_element(std::make_unique<TrussBar>(id, 2, a, b, m.node_position(a), m.node_position(b), 1.0,
                                             StrainMeasure::GreenLagrange));
  for (int n : {n1, n3}) {
    m.fix(n, Component::Ux);
    m.fix(n, Component::Uy);
  }
  m.fix(n2, Component::Ux);
  m.add_load(n2, Component::Uy, -1.0);
  m.finalize();
  return m;
}

// g(q, λ) = (q + 1)² + (λ − 1)² − 2: the path is a circle of radius √2 through the
// origin (K = 2(q + 1) = 2, r = −∂g/∂λ = 2 there), traced round and round.
class Circle : public Problem {
 public:
  Circle() {
    pattern_.resize(1, 1);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}};
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }
  int size() const override { return 1; }
  void residual(const Vector& q, double l, Vector& g) const override {
    g.resize(1);
    g[0] = (q[0] + 1) * (q[0] + 1) + (l - 1) * (l - 1) - 2;
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector& q, double, SparseMatrix& K) const override { K.coeffRef(0, 0) = 2 * (q[0] + 1); }
  void dg_dlambda(const Vector&, double l, Vector& out) const override {
    out.resize(1);
    out[0] = 2 * (l - 1);
  }

 private:
  SparseMatrix pattern_;
};

// g = 2q − λ, finite only at λ = 0: every step fails ("residual not finite").
class FailsAway : public Problem {
 public:
  FailsAway() {
    pattern_.resize(1, 1);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}};
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }
  int size() const override { return 1; }
  void residual(const Vector& q, double l, Vector& g) const override {
    g.resize(1);
    g[0] = l == 0.0 ? 2 * q[0] - l : std::numeric_limits<double>::quiet_NaN();
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector&, double, SparseMatrix& K) const override { K.coeffRef(0, 0) = 2; }
  void dg_dlambda(const Vector&, double, Vector& out) const override { out = Vector::Constant(1, -1.0); }
  bool is_proportional() const override { return true; }

 private:
  SparseMatrix pattern_;
};

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("a first step below what the model resolves is refused", "[continuation][hostile]") {
  // Issue 20: Δλ = 1e-200 on the von Mises truss gave 355 "limit points" with λ at
  // ±1e-200 and exit 0; 1e-320 (subnormal) halved the step forever.
  const Model model = von_mises();
  for (double step : {1e-320, 1e-200, 1e-20, 1e-11}) {
    INFO("initial_load_increment = " << step);
    Options o;
    o.initial_load_increment = step;
    PathFollower f(model, o);
    CHECK_FALSE(f.start(Vector::Zero(1), 0.0));
    CHECK(f.termination() == Termination::StepTooSmall);
    CHECK(f.message().find("below what the model resolves") != std::string::npos);
    // ‖r‖ = 1, F = ‖r‖ max(1, |λ|) = 1: the smallest increment is tol_r.
    CHECK(f.smallest_load_increment() == Approx(o.residual_tolerance));
  }
  Options o;
  o.initial_load_increment = 1e-9;  // above tol_r: a path
  o.max_steps = 20;
  PathFollower f(model, o);
  REQUIRE(f.start(Vector::Zero(1), 0.0));
  while (f.advance()) {
  }
  CHECK(f.termination() == Termination::MaxSteps);
}

TEST_CASE("step cutting ends at the floor the model resolves", "[continuation][hostile]") {
  SECTION("a ratio that makes the smallest step zero") {
    // Δs_min = 1e-321 Δs₀ rounds to 0: the halving never ended (issue 20); now it
    // ends at tol_r Δλ_F L₁ = 1e-10 L₁ (‖r‖ = F = 1), log₂(0.05 / 1e-10) ≈ 29 cuts.
    const FailsAway problem;
    Options o;
    o.min_step_ratio = 1e-321;
    PathFollower f(problem, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(f.advance());
    CHECK(seconds(t0) < 1.0);
    CHECK(f.termination() == Termination::StepTooSmall);
    CHECK(f.stats().failed_steps >= 28);
    CHECK(f.stats().failed_steps <= 31);
    CHECK(f.message().find("residual not finite") != std::string::npos);
    CHECK(f.message().find("the smallest the model resolves here is") != std::string::npos);
  }
}

TEST_CASE("a step below what the model resolves is not tried", "[continuation][hostile]") {
  // A subnormal first step on a branch (start_along: a saved state, a switch) made
  // Δs_min = ratio Δs₀ zero, and a failing step was halved forever.
  const Model model = von_mises();
  Options o;
  o.max_iterations = 1;  // every step fails: one iteration cannot meet the increment test
  PathFollower f(model, o);
  const Vector q0 = Vector::Zero(1), t = Vector::Constant(1, -1.0);
  REQUIRE(f.start_along(q0, 0.0, t, 1.0, 1e-320));
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(f.advance());
  CHECK(seconds(t0) < 1.0);
  CHECK(f.termination() == Termination::StepTooSmall);
  CHECK(f.stats().failed_steps < 100);
  CHECK(f.message().find("smallest the model resolves") != std::string::npos);
  CHECK(f.current().index == 0);
  CHECK(f.resolvable_step() > 0.0);
}

TEST_CASE("the stop request is polled inside a step", "[continuation][hostile][stop]") {
  const Model model = von_mises();
  SECTION("between the cuts of a failing step") {
    Options o;
    o.max_iterations = 1;
    o.min_step_ratio = 1e-12;  // forty cuts before Δs_min
    int polls = 0;
    o.stop_requested = [&polls] { return ++polls > 6; };
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    CHECK_FALSE(f.advance());
    CHECK(f.termination() == Termination::Interrupted);
    CHECK(f.stats().failed_steps < 6);
    CHECK(f.current().index == 0);
  }
  SECTION("between the Newton iterations of a step") {
    Options o;
    o.max_iterations = 1000;
    o.residual_tolerance = 1e-300;  // never met: Newton runs to max_iterations
    o.increment_tolerance = 1e-300;
    PathFollower f(model, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    const long before = f.stats().newton_iterations;
    int polls = 0;
    f.set_stop_requested([&polls] { return ++polls > 5; });
    CHECK_FALSE(f.advance());
    CHECK(f.termination() == Termination::Interrupted);
    CHECK(f.stats().newton_iterations - before < 10);
    CHECK(f.stats().failed_steps == 0);
  }
}

TEST_CASE("max-steps reached without the path moving ends as stalled", "[continuation][hostile]") {
  // The circle through the origin, steps ≤ Δs₀ ≈ 0.07: 1000 steps walk an arc of ~70,
  // eight times round, and end within the diameter 2.8 < 0.1 × arc of the start.
  const Circle circle;
  Options o;
  o.max_step_ratio = 1.0;
  o.auto_scale = false;
  SECTION("round and round") {
    o.max_steps = 1000;
    PathFollower f(circle, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) {
    }
    CHECK(f.termination() == Termination::Stalled);
    CHECK(std::string(to_string(f.termination())) == "stalled");
    CHECK(f.message().find("did not move") != std::string::npos);
  }
  SECTION("a path that went somewhere ends as max-steps") {
    o.max_steps = 20;
    PathFollower f(circle, o);
    REQUIRE(f.start(Vector::Zero(1), 0.0));
    while (f.advance()) {
    }
    CHECK(f.termination() == Termination::MaxSteps);
  }
}

TEST_CASE("a scaled norm that overflows is said to, not 'the load does not move'", "[continuation][hostile]") {
  // Issue 20: psi = 1e300 (ψ² overflows) was reported as a load that does not move
  // the structure.
  const Model model = von_mises();
  Options o;
  o.psi = 1e300;
  PathFollower f(model, o);
  CHECK_FALSE(f.start(Vector::Zero(1), 0.0));
  CHECK(f.termination() == Termination::Diverged);
  INFO(f.message());
  CHECK(f.message().find("overflows") != std::string::npos);
  CHECK(f.message().find("psi = 1e+300") != std::string::npos);
  CHECK(f.message().find("does not move") == std::string::npos);
}

TEST_CASE("the location of a critical point polls the stop request", "[continuation][critical][hostile][stop]") {
  // refine() (SPL/SPB Newton) ends at the first poll that asks, not converged.
  const Model model = von_mises();
  // The symmetric truss's limit point: w = h (1 − 1/√3), near where Newton starts.
  const Vector q = Vector::Constant(1, -0.5 * (1 - 1 / std::sqrt(3.0)) * 0.9);
  const Vector phi = Vector::Ones(1);
  critical::LocateOptions lo;
  int polls = 0;
  lo.stop_requested = [&polls] { return ++polls > 1; };
  const critical::CriticalPoint cp = critical::refine(model, q, 0.19, phi, 0.1, critical::AugmentedSystem::Auto, lo);
  CHECK_FALSE(cp.converged);
  CHECK(cp.message == "interrupted");
  CHECK(cp.newton_iterations <= 1);
  // Without the request it converges from there.
  lo.stop_requested = nullptr;
  const critical::CriticalPoint ok = critical::refine(model, q, 0.19, phi, 0.1, critical::AugmentedSystem::Auto, lo);
  CHECK(ok.converged);
}
