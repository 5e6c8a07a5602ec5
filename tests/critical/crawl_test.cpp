// A secondary branch that does not leave its bifurcation point ends "stalled" with
// the reason (BranchExplorer::trace_branch, kCrawlSteps), instead of "rejoining" its
// own start point or reporting the round-off of a singular K as critical points.
//
// The case: a nearly inextensible column (EA = 10⁸ EI/L²) in 3D, pinned at its base
// (ry free), clamped at the top. The primary path is pure shortening, du/dλ = 1e-8,
// so the per-kind weights of continuation.auto_scale (the default) are 1e8 on every
// translation and rotation, and each step on the elastica branch moves the column
// by about 1e-9: after five steps it is within 3e-8 of BP1. Before the check, the
// (+) branch walked 60 steps at λ constant to 1e-15, reported 22 "critical points"
// (none located), and ended "rejoined the path of branch 0 at BP1"; the (−) branch
// "rejoined" a spurious limit point. With auto_scale = false the same branches rise
// as the elastica does.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "senda/critical/branch.hpp"
#include "senda/input/builder.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::critical;

namespace {

std::string column_cfg(const std::string& extra) {
  return "[model]\ndim = 3\n"
         "node = 1 0 0 0\nnode = 2 0 0 1\nnode = 3 0 0 2\n"
         "beam = 1 1 2 1e8 1e8 1e8 1.0 10.0 1.0 1 0 0 8\n"
         "beam = 101 2 3 1e8 1e8 1e8 1.0 10.0 1.0 1 0 0 8\n"
         "fix = 1 all rx rz\nfix = 3 ux uy rx ry rz\nload = 3 uz -1\n"
         "[continuation]\n" + extra +
         "[stop]\nmax_steps = 20\nlambda_max = 12\n[output]\ntrack = 2 ux\n";
}

// The last point of each branch.
struct Ends : ExplorerEvents {
  std::vector<continuation::PathPoint> last;
  void on_branch_end(const Branch& b, const continuation::PathFollower& f) override {
    if (last.size() <= static_cast<std::size_t>(b.id)) last.resize(static_cast<std::size_t>(b.id) + 1);
    last[static_cast<std::size_t>(b.id)] = f.current();
  }
};

}  // namespace

TEST_CASE("a secondary branch that does not leave its bifurcation point ends stalled, saying why",
          "[branch][crawl]") {
  const input::Spec spec = input::build(input::Config::parse(column_cfg(""), "crawl.cfg"));
  BranchExplorer ex(*spec.model, spec.analysis.explorer);
  Ends events;
  REQUIRE(ex.run(Vector::Zero(spec.model->size()), 0.0, events));
  // Pinned–clamped, L = 2, EI = 1: 20.1907/4 = 5.0477, +1.4 % for 8 elements per half.
  REQUIRE(ex.critical_points().size() == 1);
  const CriticalPoint& bp = ex.critical_points()[0];
  CHECK(bp.id == "BP1");
  CHECK(bp.converged);
  CHECK(bp.lambda == Approx(5.118164).epsilon(1e-6));
  REQUIRE(ex.branches().size() == 3);
  for (int k = 1; k <= 2; ++k) {
    const Branch& b = ex.branches()[static_cast<std::size_t>(k)];
    INFO("branch " << k << ": " << b.message);
    CHECK(b.start_point == "BP1");
    CHECK(b.termination == BranchEnd::Stalled);
    CHECK(b.points == 5);
    CHECK(b.end_point.empty());
    CHECK(b.message.find("the branch did not leave BP1: after 5 steps") == 0);
    CHECK(b.message.find("its state is within 1e-06 (1 + |q_BP1|) of BP1") != std::string::npos);
    CHECK(b.message.find("continuation.auto_scale = false") != std::string::npos);
  }

  // The remedy the message names: unit weights. The branches leave BP1 and rise.
  const input::Spec unit = input::build(input::Config::parse(column_cfg("auto_scale = false\n"), "unit.cfg"));
  BranchExplorer ex2(*unit.model, unit.analysis.explorer);
  Ends unit_events;
  REQUIRE(ex2.run(Vector::Zero(unit.model->size()), 0.0, unit_events));
  REQUIRE(ex2.critical_points().size() == 1);
  CHECK(ex2.critical_points()[0].lambda == Approx(bp.lambda).epsilon(1e-7));
  REQUIRE(ex2.branches().size() == 3);
  for (int k = 1; k <= 2; ++k) {
    const Branch& b = ex2.branches()[static_cast<std::size_t>(k)];
    INFO("branch " << k << ": " << b.message);
    CHECK(b.termination == BranchEnd::MaxSteps);
    CHECK(b.points == 20);
    // Left BP1 by far more than the crawl bound, λ above it (the elastica rises);
    // measured: |q − q_BP1| = 0.169, λ − λ_BP1 = 1.18e-3 after 20 steps.
    const continuation::PathPoint& e = unit_events.last[static_cast<std::size_t>(k)];
    CHECK((e.q - ex2.critical_points()[0].q).norm() > 0.05);
    CHECK(e.lambda > ex2.critical_points()[0].lambda + 1e-4);
  }
}
