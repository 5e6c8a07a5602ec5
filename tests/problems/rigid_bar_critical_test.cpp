// Critical points and secondary branches of the rigid-bar models
// (tests/problems/rigid_bar_models.hpp states each closed form and its source).
// The load enters through the geometry (g = U'(θ) − P L sin θ), so these also
// exercise the general λ-dependence of SPB and of the bifurcation equation
// (K depends on λ, r = −∂g/∂λ = L sin θ vanishes on the trivial path).
#include <catch2/catch.hpp>
#include <cmath>

#include "problems/rigid_bar_models.hpp"
#include "senda/critical/branch.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;
using namespace senda::problems;

namespace {
struct BranchCheck : ExplorerEvents {
  const RigidBarModel* model = nullptr;
  long points = 0;
  double max_slope_error = 0;  // (c): |(P/P_cr − 1)/θ − 3/4| over small θ
  void on_point(const Branch& b, const PathFollower& f) override {
    if (b.id == 0 || f.current().index == 0) return;
    const double theta = f.current().q[0];
    const double P = model->branch_load(theta);
    INFO("branch " << b.id << " theta " << theta << " lambda " << f.current().lambda);
    CHECK(std::abs(f.current().lambda - P) <= 1e-9 * std::abs(P));
    if (std::abs(theta) < 0.02)
      max_slope_error = std::max(
          max_slope_error, std::abs((f.current().lambda / model->critical_load() - 1) / theta - 0.75));
    ++points;
  }
};

ExplorerOptions options() {
  ExplorerOptions eo;
  eo.path.initial_load_increment = 0.07;
  eo.path.max_steps = 60;
  eo.path.lambda_min = 0.05;
  eo.path.lambda_max = 2.5;
  eo.path.max_step_ratio = 2.0;
  eo.max_depth = 1;
  return eo;
}
}  // namespace

TEST_CASE("rigid-bar models: bifurcation located, classified, branches followed", "[branch][rigid-bar]") {
  const double L = 1.0, c = 1.0, k = 1.0;
  RotationalSpringBar a(L, c);
  HorizontalSpringBar b(L, k);
  InclinedSpringBar cc(L, k);
  struct Case {
    const char* name;
    const RigidBarModel* model;
    bool symmetric;
  } cases[] = {{"(a) base rotational spring", &a, true},
               {"(b) horizontal top spring", &b, true},
               {"(c) inclined spring", &cc, false}};
  for (const Case& cs : cases) {
    SECTION(cs.name) {
      BranchExplorer ex(*cs.model, options());
      BranchCheck check;
      check.model = cs.model;
      REQUIRE(ex.run(Vector::Zero(1), 0.0, check));
      const auto& cps = ex.critical_points();
      REQUIRE(!cps.empty());
      const CriticalPoint& bp = cps[0];
      INFO(bp.message);
      REQUIRE(bp.converged);
      CHECK(bp.kind == CriticalKind::Bifurcation);
      CHECK(std::abs(bp.lambda - cs.model->critical_load()) <= 1e-10 * cs.model->critical_load());
      REQUIRE(bp.abe);
      CHECK(bp.abe->valid);
      CHECK(bp.abe->symmetric == cs.symmetric);
      // Primary tangent: pure load (θ̇ = 0); it is the incoming one.
      CHECK(std::abs(bp.abe->tangents[bp.abe->incoming].q[0]) <= 1e-8);
      REQUIRE(ex.branches().size() == 3);
      CHECK(check.points > 20);
      if (!cs.symmetric) CHECK(check.max_slope_error < 0.02);  // slope P/P_cr ≈ 1 + ¾θ
    }
  }
}

TEST_CASE("N-link chain: first critical load (c/l) 4 sin^2(pi/(2(2N+1))), N = 1..20", "[critical][rigid-bar]") {
  for (int N = 1; N <= 20; ++N) {
    LinkChain chain(N, 1.0 / N, 1.0);
    const double Pcr = chain.critical_load();
    Options o;
    o.initial_load_increment = 0.3 * Pcr;
    o.max_steps = 20;
    PathFollower f(chain, o);
    REQUIRE(f.start(Vector::Zero(N), 0.0));
    CriticalPointFinder finder({});
    while (f.advance() && finder.points().empty()) finder.check(f, 0);
    INFO("N = " << N);
    REQUIRE(finder.points().size() == 1);
    const CriticalPoint& cp = finder.points()[0];
    INFO(cp.message);
    REQUIRE(cp.converged);
    CHECK(cp.kind == CriticalKind::Bifurcation);
    CHECK(std::abs(cp.lambda - Pcr) <= 1e-10 * Pcr);
    CHECK(cp.newton_iterations <= 6);
  }
}
