// Catalogue problems with closed-form critical points, located exactly with the
// augmented systems (lib/critical) from the crossing the path follower brackets:
// the three-bar reconstruction (±1/3), rigid-bar models (a)–(d) and the steep von
// Mises truss. docs/validation.md reports these values.
//
// Tolerance 1e-9 relative: SPL/SPB are solved to a scaled residual of 1e-10
// (LocateOptions default) and converge quadratically; the located loads agree
// with the closed forms to ~1e-12 (observed), so 1e-9 leaves margin for the
// finite-difference directional derivatives (√eps ≈ 1e-8 in φ, squared in λ).
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "problems/rigid_bar_models.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"
#include "senda/input/builder.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;

namespace {

std::vector<CriticalPoint> locate_along(const Problem& p, Options o, int max_points) {
  PathFollower f(p, o);
  REQUIRE(f.start(Vector::Zero(p.size()), 0.0));
  CriticalPointFinder finder(FinderOptions{});
  while (f.advance()) {
    finder.check(f, 0);
    if (static_cast<int>(finder.points().size()) >= max_points) break;
  }
  return finder.points();
}

void check_point(const CriticalPoint& c, CriticalKind kind, double lambda_exact) {
  INFO(c.id << " " << to_string(c.kind) << " lambda = " << c.lambda << " exact " << lambda_exact << " ("
            << c.message << ")");
  CHECK(c.converged);
  CHECK(c.kind == kind);
  CHECK(c.lambda == Approx(lambda_exact).epsilon(1e-9));
}

Options rigid_options(double P_cr) {
  Options o;
  o.initial_load_increment = 0.07 * P_cr;
  o.lambda_max = 1.6 * P_cr;
  o.max_steps = 500;
  return o;
}

}  // namespace

TEST_CASE("catalogue: three-bar reconstruction bifurcations located at -1/3 and +1/3",
          "[problems][three-bar][critical]") {
  const std::string src = SENDA_SOURCE_DIR;
  for (int direction : {+1, -1}) {
    INFO("direction " << direction);
    const senda::input::Spec s = senda::input::load(src + "/problems/three-bar.cfg");
    Options o = s.analysis.explorer.path;
    o.direction = direction;
    const auto pts = locate_along(*s.model, o, 1);
    REQUIRE(pts.size() == 1);
    check_point(pts[0], CriticalKind::Bifurcation, direction / 3.0);
    // On the fundamental path: u₃ = P/2, v₃ = 0; the mode is transverse (v).
    CHECK(pts[0].q[0] == Approx(direction / 6.0).epsilon(1e-9));
    CHECK(std::abs(pts[0].q[1]) <= 1e-12);
    CHECK(std::abs(pts[0].phi[0]) <= 1e-8 * std::abs(pts[0].phi[1]));
  }
}

TEST_CASE("catalogue: rigid-bar critical loads located", "[problems][rigid-bar][critical]") {
  SECTION("(a) c/L") {
    problems::RotationalSpringBar m(1.5, 2.0);
    const auto pts = locate_along(m, rigid_options(m.critical_load()), 1);
    REQUIRE(pts.size() == 1);
    check_point(pts[0], CriticalKind::Bifurcation, 2.0 / 1.5);
  }
  SECTION("(b) kL") {
    problems::HorizontalSpringBar m(2.0, 0.75);
    const auto pts = locate_along(m, rigid_options(m.critical_load()), 1);
    REQUIRE(pts.size() == 1);
    check_point(pts[0], CriticalKind::Bifurcation, 0.75 * 2.0);
  }
  SECTION("(c) kL/2") {
    problems::InclinedSpringBar m(1.0, 3.0);
    const auto pts = locate_along(m, rigid_options(m.critical_load()), 1);
    REQUIRE(pts.size() == 1);
    check_point(pts[0], CriticalKind::Bifurcation, 3.0 / 2);
  }
  SECTION("(d) N-link chain, N = 1…20") {
    for (int N = 1; N <= 20; ++N) {
      INFO("N = " << N);
      problems::LinkChain m(N, 0.8, 1.7);
      const auto pts = locate_along(m, rigid_options(m.critical_load()), 1);
      REQUIRE(pts.size() == 1);
      check_point(pts[0], CriticalKind::Bifurcation, problems::LinkChain::critical_load(N, 0.8, 1.7));
    }
  }
}

TEST_CASE("catalogue: steep von Mises truss, bifurcation 0.252982 then limit point 0.275412",
          "[problems][von-mises][critical]") {
  const problems::VonMisesTruss vm;
  const auto model = vm.build();
  Options o;
  o.initial_load_increment = 0.01;
  o.monitor_dof = 1;
  o.max_displacement = 1.2;
  const auto pts = locate_along(*model, o, 2);
  REQUIRE(pts.size() == 2);
  check_point(pts[0], CriticalKind::Bifurcation, vm.bifurcation_load());
  CHECK(-pts[0].q[1] == Approx(vm.bifurcation_drop()).epsilon(1e-9));
  check_point(pts[1], CriticalKind::Limit, vm.limit_load());
  CHECK(-pts[1].q[1] == Approx(vm.limit_drop()).epsilon(1e-8));
}
