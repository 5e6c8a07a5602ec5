// Numerical failure never crashes and never loops (issue 8): NaN or Inf in the
// residual or the tangent, a factorization that fails, a Newton iteration that
// cannot converge, a critical point that will not converge. Each one ends the step
// (the step is cut) or the run (PathFollower::termination() and message()), or
// gives a CriticalPoint with converged = false and a message; the points before it
// stay as they were.
//
// The test problem is linear, g(q, λ) = K q − λ r with K = diag(2, 3) coupled by
// 0.5, r = (1, 0.5), so the exact path is q(λ) = λ K⁻¹ r and every point before the
// failure can be checked against it. A failure is switched on beyond λ = λ_bad.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;

namespace {

enum class Failure {
  None,
  NanResidual,    // g = NaN beyond λ_bad
  InfTangent,     // K holds +Inf beyond λ_bad
  NanTangent,     // K holds NaN beyond λ_bad
  SingularAfter,  // K = 0 (singular everywhere) beyond λ_bad
  WrongTangent,   // K = −K beyond λ_bad: Newton moves away from the solution (q ← 2q)
  NoisyResidual,  // g has noise of amplitude 1e-3 beyond λ_bad: no equilibrium to any
                  // tolerance, however small the step, so Newton cannot converge
};

class Failing : public Problem {
 public:
  Failing(Failure f, double lambda_bad) : failure_(f), lambda_bad_(lambda_bad) {
    pattern_.resize(2, 2);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}, {0, 1, 1.0}, {1, 0, 1.0}, {1, 1, 1.0}};
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
    K_ << 2.0, 0.5, 0.5, 3.0;
    r_ << 1.0, 0.5;
  }
  int size() const override { return 2; }
  void residual(const Vector& q, double lambda, Vector& g) const override {
    g = K_ * q - lambda * r_;
    if (failure_ == Failure::NanResidual && lambda > lambda_bad_) g[1] = std::numeric_limits<double>::quiet_NaN();
    if (failure_ == Failure::NoisyResidual && lambda > lambda_bad_) g[0] += 1e-3 * std::sin(1e6 * (q[0] + q[1] + lambda));
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector&, double lambda, SparseMatrix& K) const override {
    Eigen::Matrix2d k = K_;
    if (lambda > lambda_bad_) {
      if (failure_ == Failure::InfTangent) k(1, 1) = std::numeric_limits<double>::infinity();
      if (failure_ == Failure::NanTangent) k(0, 1) = k(1, 0) = std::numeric_limits<double>::quiet_NaN();
      if (failure_ == Failure::SingularAfter) k.setZero();
      if (failure_ == Failure::WrongTangent) k = -K_;
    }
    for (int j = 0; j < 2; ++j)
      for (SparseMatrix::InnerIterator it(K, j); it; ++it) it.valueRef() = k(it.row(), j);
  }
  void dg_dlambda(const Vector&, double, Vector& out) const override { out = -r_; }
  bool is_proportional() const override { return true; }
  // The exact path.
  Vector exact(double lambda) const { return lambda * K_.ldlt().solve(r_); }

  Failure failure_;
  double lambda_bad_;

 private:
  SparseMatrix pattern_;
  Eigen::Matrix2d K_;
  Eigen::Vector2d r_;
};

struct Run {
  std::vector<PathPoint> points;
  Termination termination = Termination::Running;
  std::string message;
  long advances = 0;
};

// Drives the follower with a hard bound on calls, so that a follower that looped
// would fail the test instead of hanging it.
Run trace(const Problem& p, Options o, long max_calls = 10000) {
  Run run;
  PathFollower f(p, o);
  if (f.start(Vector::Zero(p.size()), 0.0)) {
    run.points.push_back(f.current());
    while (!f.done() && run.advances < max_calls) {
      ++run.advances;
      if (f.advance()) run.points.push_back(f.current());
    }
  }
  run.termination = f.termination();
  run.message = f.message();
  return run;
}

// Every point converged before the failure is on the exact path, below λ_bad.
void check_intact(const Failing& p, const Run& run) {
  for (const PathPoint& pt : run.points) {
    INFO("point " << pt.index << " lambda " << pt.lambda);
    REQUIRE(pt.q.allFinite());
    REQUIRE(std::isfinite(pt.lambda));
    CHECK(pt.lambda <= p.lambda_bad_);
    CHECK((pt.q - p.exact(pt.lambda)).norm() <= 1e-12 * (1.0 + std::abs(pt.lambda)));
  }
}

Options options() {
  Options o;
  o.initial_load_increment = 0.05;
  o.max_steps = 100000;  // the failure, not the step count, must end the run
  return o;
}

}  // namespace

TEST_CASE("the failing test problem traces its exact path when nothing fails", "[robustness]") {
  // Guards the other cases: their failures come from the switch, not the problem.
  Failing p(Failure::None, 0.0);
  Options o = options();
  o.lambda_max = 2.0;
  const Run run = trace(p, o);
  CHECK(run.termination == Termination::Completed);
  REQUIRE(run.points.size() > 5);
  for (const PathPoint& pt : run.points) CHECK((pt.q - p.exact(pt.lambda)).norm() <= 1e-12 * (1 + pt.lambda));
}

TEST_CASE("NaN, Inf, singular or inconsistent tangent beyond a load factor end the run with a status",
          "[robustness]") {
  struct Case {
    Failure failure;
    const char* expected;  // part of the message
    const char* or_expected;
  };
  const Case cases[] = {
      {Failure::NanResidual, "residual not finite", "residual not finite"},
      {Failure::InfTangent, "not-finite", "not-finite"},
      {Failure::NanTangent, "not-finite", "not-finite"},
      {Failure::SingularAfter, "singular", "singular"},
      // Newton wanders: the last attempt ran out of iterations or lost the sphere.
      {Failure::NoisyResidual, "no convergence in 15 iterations", "constraint has no real solution"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("failure " << static_cast<int>(c.failure) << " (" << c.expected << ")") {
      const double lambda_bad = 0.5;
      Failing p(c.failure, lambda_bad);
      const Run run = trace(p, options());
      INFO("termination " << to_string(run.termination) << ": " << run.message << " after " << run.points.size()
                          << " points, " << run.advances << " calls");
      // The step shrinks towards λ_bad until it is below its minimum: the run ends
      // there, with the reason of the last failed attempt.
      CHECK(run.termination == Termination::StepTooSmall);
      CHECK(run.message.find("step length below its minimum") != std::string::npos);
      CHECK((run.message.find(c.expected) != std::string::npos ||
             run.message.find(c.or_expected) != std::string::npos));
      CHECK(run.advances < 1000);  // ended by the failure, far from the call bound
      // The path reached λ_bad closely (cutting steps, not giving up at the first
      // failure), and everything before it is intact.
      REQUIRE(run.points.size() > 5);
      CHECK(run.points.back().lambda > 0.9 * lambda_bad);
      check_intact(p, run);
    }
  }
}

TEST_CASE("failure at the start point ends the run as diverged before any point", "[robustness]") {
  SECTION("NaN residual") {
    Failing p(Failure::NanResidual, -1.0);  // λ = 0 is already beyond λ_bad
    PathFollower f(p, options());
    CHECK_FALSE(f.start(Vector::Zero(2), 0.0));
    CHECK(f.done());
    CHECK(f.termination() == Termination::Diverged);
    CHECK(f.message().find("residual not finite at the start point") != std::string::npos);
    CHECK_FALSE(f.advance());  // a finished follower stays finished
  }
  SECTION("Inf in the tangent") {
    Failing p(Failure::InfTangent, -1.0);
    PathFollower f(p, options());
    // q = 0 is the equilibrium at λ = 0, so Newton needs no factorization; the tangent does.
    CHECK_FALSE(f.start(Vector::Zero(2), 0.0));
    CHECK(f.termination() == Termination::Diverged);
    CHECK(f.message().find("not-finite") != std::string::npos);
  }
  SECTION("singular tangent") {
    Failing p(Failure::SingularAfter, -1.0);
    PathFollower f(p, options());
    CHECK_FALSE(f.start(Vector::Constant(2, 1.0), 0.0));  // off equilibrium: Newton factors K
    CHECK(f.termination() == Termination::Diverged);
    CHECK(f.message().find("singular") != std::string::npos);
  }
  SECTION("Newton cannot converge") {
    Failing p(Failure::WrongTangent, -1.0);
    PathFollower f(p, options());
    CHECK_FALSE(f.start(Vector::Constant(2, 1.0), 0.0));
    CHECK(f.termination() == Termination::Diverged);
    CHECK(f.message().find("no equilibrium found at the start load factor") != std::string::npos);
  }
}

namespace {
// Shallow von Mises truss (a = 1, h = 0.5, Green–Lagrange, EA = 1, apex on its
// symmetry line): one limit point on the way down, at P_L = (2/(3√3)) (h/L₀)³.
model::Model von_mises() {
  using namespace senda::model;
  Model model(2);
  const double a = 1.0, h = 0.5;
  const int n1 = model.add_node(1, {-a, 0, 0});
  const int n2 = model.add_node(2, {0, h, 0});
  const int n3 = model.add_node(3, {a, 0, 0});
  for (auto [e, p, q] : {std::tuple{1, n1, n2}, std::tuple{2, n2, n3}})
    model.add_element(std::make_unique<TrussBar>(e, 2, p, q, model.node_position(p), model.node_position(q), 1.0,
                                                 StrainMeasure::GreenLagrange));
  for (int n : {n1, n3}) {
    model.fix(n, Component::Ux);
    model.fix(n, Component::Uy);
  }
  model.fix(n2, Component::Ux);
  model.add_load(n2, Component::Uy, -1.0);
  model.finalize();
  return model;
}

// Wraps a problem; when `poisoned`, its residual and tangent are NaN.
class Poisonable : public Problem {
 public:
  explicit Poisonable(const Problem& p) : p_(p) {}
  int size() const override { return p_.size(); }
  void residual(const Vector& q, double l, Vector& g) const override {
    p_.residual(q, l, g);
    if (poisoned) g.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  const SparseMatrix& tangent_pattern() const override { return p_.tangent_pattern(); }
  void tangent(const Vector& q, double l, SparseMatrix& K) const override {
    p_.tangent(q, l, K);
    if (poisoned) K.coeffs().setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  void dg_dlambda(const Vector& q, double l, Vector& out) const override { p_.dg_dlambda(q, l, out); }
  bool is_proportional() const override { return p_.is_proportional(); }
  DofKind dof_kind(int i) const override { return p_.dof_kind(i); }
  bool poisoned = false;

 private:
  const Problem& p_;
};
}  // namespace

TEST_CASE("a critical point that will not converge is reported unconverged and the path goes on",
          "[robustness]") {
  const model::Model m = von_mises();
  const double L0 = std::sqrt(1.25), PL = 2.0 / (3.0 * std::sqrt(3.0)) * std::pow(0.5 / L0, 3);
  Options o;
  o.initial_load_increment = 0.01;
  o.max_steps = 300;
  o.monitor_dof = 0;
  o.max_displacement = 0.9;  // past the limit point, before the snap-through completes
  FinderOptions fo;
  fo.locate_options.max_iterations = 1;  // one Newton iteration cannot reach 1e-10 from the bracket
  fo.locate_options.tolerance = 1e-14;

  PathFollower f(m, o);
  REQUIRE(f.start(Vector::Zero(m.size()), 0.0));
  CriticalPointFinder finder(fo);
  std::vector<double> lambdas{f.current().lambda};
  long calls = 0;
  while (!f.done() && ++calls < 10000) {
    if (!f.advance()) continue;
    lambdas.push_back(f.current().lambda);
    finder.check(f, 0);
  }
  INFO(to_string(f.termination()) << ": " << f.message());
  CHECK(f.termination() == Termination::Completed);  // the displacement limit, not a failure
  // Both limit points of the shallow truss (w = h(1 ∓ 1/√3) < 0.9) are bracketed.
  REQUIRE(finder.points().size() == 2);
  for (const CriticalPoint& cp : finder.points()) {
    INFO(cp.id << ": " << cp.message);
    CHECK_FALSE(cp.converged);
    CHECK_FALSE(cp.message.empty());
    CHECK(cp.newton_iterations <= 1);
    CHECK(cp.residual_history.size() <= 2);
  }
  // The brackets are still right (P = ±P_L), and the path went on past them.
  const CriticalPoint& cp = finder.points()[0];
  CHECK(cp.lambda_before <= PL * 1.0000001);
  CHECK(cp.lambda_before >= 0.9 * PL);
  CHECK(std::min(finder.points()[1].lambda_before, finder.points()[1].lambda_after) >= -PL * 1.0000001);
  CHECK(lambdas.size() > static_cast<std::size_t>(cp.point_after) + 3);
}

TEST_CASE("locating a critical point on a problem that turns NaN returns unconverged, never throws",
          "[robustness]") {
  const model::Model m = von_mises();
  Poisonable p(m);
  Options o;
  o.initial_load_increment = 0.01;
  o.max_steps = 300;
  PathFollower f(p, o);
  REQUIRE(f.start(Vector::Zero(p.size()), 0.0));
  PathPoint before, after;
  bool bracketed = false;
  long calls = 0;
  while (!f.done() && ++calls < 10000 && !bracketed) {
    if (f.advance() && f.last_crossing()) {
      before = f.previous();
      after = f.current();
      bracketed = true;
    }
  }
  REQUIRE(bracketed);
  p.poisoned = true;
  CriticalPoint cp;
  REQUIRE_NOTHROW(cp = locate(p, before, after, f.factorization(), LocateOptions{}));
  INFO(cp.message);
  CHECK_FALSE(cp.converged);
  CHECK_FALSE(cp.message.empty());
  // The path itself is untouched: the follower's points are those it had.
  CHECK(f.current().lambda == after.lambda);
  CHECK(f.current().q.allFinite());
}

TEST_CASE("branch explorer with a critical point that will not converge ends with a status", "[robustness]") {
  // Steep von Mises truss, apex free (a = 1, h = 2): bifurcation points on the way
  // down. Unlocated, they cannot be switched at; the explorer traces the primary path only.
  using namespace senda::model;
  Model model(2);
  const int n1 = model.add_node(1, {-1, 0, 0});
  const int n2 = model.add_node(2, {0, 2, 0});
  const int n3 = model.add_node(3, {1, 0, 0});
  for (auto [e, a, b] : {std::tuple{1, n1, n2}, std::tuple{2, n2, n3}})
    model.add_element(std::make_unique<TrussBar>(e, 2, a, b, model.node_position(a), model.node_position(b), 1.0,
                                                 StrainMeasure::GreenLagrange));
  for (int n : {n1, n3}) {
    model.fix(n, Component::Ux);
    model.fix(n, Component::Uy);
  }
  model.add_load(n2, Component::Uy, -1.0);
  model.finalize();
  ExplorerOptions eo;
  eo.path.initial_load_increment = 0.02;
  eo.path.max_steps = 200;
  eo.path.monitor_dof = 1;
  eo.path.max_displacement = 4.5;
  eo.finder.locate_options.max_iterations = 1;
  eo.finder.locate_options.tolerance = 1e-14;
  BranchExplorer ex(model, eo);
  ExplorerEvents events;
  REQUIRE(ex.run(Vector::Zero(model.size()), 0.0, events));
  REQUIRE_FALSE(ex.critical_points().empty());
  for (const CriticalPoint& cp : ex.critical_points()) {
    INFO(cp.id << ": " << cp.message);
    CHECK_FALSE(cp.converged);
    CHECK_FALSE(cp.message.empty());
    CHECK_FALSE(cp.switched);
  }
  REQUIRE(ex.branches().size() == 1);  // no switch at an unlocated point
  CHECK(ex.branches()[0].termination == BranchEnd::Completed);
  CHECK(ex.branches()[0].points > 10);
}
