// A secondary branch that does not leave its bifurcation point ends "stalled" with
// the reason (BranchExplorer::trace_branch, kCrawlSteps), instead of "rejoining" its
// own start point or reporting the round-off of a singular K as critical points.
//
// The case: a nearly inextensible column (EA = 10⁸ EI/L²) in 3D, pinned at its base
// (ry free), clamped at the top. The primary path is pure shortening, du/dλ = 1e-8,
// so the per-kind weights of continuation.auto_scale are 1e8 on every translation
// and rotation, and in that metric each step on the elastica branch moves the column
// by about 1e-9. Before the crawl check, the (+) branch walked 60 steps at λ
// constant to 1e-15, reported 22 "critical points" (none located), and ended
// "rejoined the path of branch 0 at BP1". Since the branch's own metric (docs/theory.md
// eq. 5.5) the default settings trace the elastica; a crawl is still possible where
// that metric does not apply: auto_scale = false with a tiny ψ (every step Δλ₀ ψ
// long, in the model's units).
#include <catch2/catch.hpp>
#include <memory>
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

// The column with `extra` in [continuation], traced: its one critical point is BP1 at
// the pinned–clamped load (L = 2, EI = 1: 20.1907/4 = 5.0477, +1.4 % for 8 elements
// per half), and it has two secondary branches.
struct ColumnRun {
  input::Spec spec;
  std::unique_ptr<BranchExplorer> ex;
  Ends events;
  explicit ColumnRun(const std::string& extra)
      : spec(input::build(input::Config::parse(column_cfg(extra), "column.cfg"))),
        ex(std::make_unique<BranchExplorer>(*spec.model, spec.analysis.explorer)) {
    REQUIRE(ex->run(Vector::Zero(spec.model->size()), 0.0, events));
    REQUIRE(ex->critical_points().size() == 1);
    CHECK(bp().id == "BP1");
    CHECK(bp().converged);
    CHECK(bp().lambda == Approx(5.118164).epsilon(1e-6));
    REQUIRE(ex->branches().size() == 3);
  }
  const CriticalPoint& bp() const { return ex->critical_points()[0]; }
  const Branch& branch(int k) const { return ex->branches()[static_cast<std::size_t>(k)]; }
  const continuation::PathPoint& last(int k) const { return events.last[static_cast<std::size_t>(k)]; }
};

}  // namespace

TEST_CASE("a secondary branch that does not leave its bifurcation point ends stalled, saying why",
          "[branch][crawl]") {
  const ColumnRun crawl("auto_scale = false\npsi = 1e-8\n");
  for (int k = 1; k <= 2; ++k) {
    const Branch& b = crawl.branch(k);
    INFO("branch " << k << ": " << b.message);
    CHECK(b.start_point == "BP1");
    CHECK(b.termination == BranchEnd::Stalled);
    CHECK(b.points == 5);
    CHECK(b.end_point.empty());
    CHECK(b.message.find("the branch did not leave BP1: after 5 steps") == 0);
    CHECK(b.message.find("its state is within 1e-06 (1 + |q_BP1|) of BP1") != std::string::npos);
    CHECK(!b.own_metric);
    CHECK(b.message.find("raise continuation.psi") != std::string::npos);
  }

  // The remedy the message names: a larger ψ (here 1). The branches leave BP1 and rise.
  const ColumnRun unit("auto_scale = false\n");
  CHECK(unit.bp().lambda == Approx(crawl.bp().lambda).epsilon(1e-7));
  for (int k = 1; k <= 2; ++k) {
    const Branch& b = unit.branch(k);
    INFO("branch " << k << ": " << b.message);
    CHECK(b.termination == BranchEnd::MaxSteps);
    CHECK(b.points == 20);
    // Left BP1 by far more than the crawl bound, λ above it (the elastica rises);
    // measured: |q − q_BP1| = 0.169, λ − λ_BP1 = 1.18e-3 after 20 steps.
    CHECK((unit.last(k).q - unit.bp().q).norm() > 0.05);
    CHECK(unit.last(k).lambda > unit.bp().lambda + 1e-4);
  }
}

TEST_CASE("the nearly inextensible column at the default settings: its branches are traced in their own metric "
          "and rise as the elastica does",
          "[branch][crawl][metric]") {
  const ColumnRun run("");
  CHECK(!run.branch(0).own_metric);
  for (int k = 1; k <= 2; ++k) {
    const Branch& b = run.branch(k);
    INFO("branch " << k << ": " << b.message);
    CHECK(b.own_metric);
    CHECK(b.termination == BranchEnd::MaxSteps);
    CHECK(b.points == 20);
    CHECK(b.neutral.empty());
    // Away from BP1 and above it. The first step moves the column by Δλ₀/λ_c of its
    // length L = 2 (0.05/5.118 × 2 ≈ 0.02), and the elastica's λ rises with the
    // square of the amplitude. Measured after 20 steps: |q − q_BP1| = 0.128,
    // λ/λ_BP1 − 1 = 1.3e-4 (in the crawling metric: 1e-9 and 1e-15).
    CHECK((run.last(k).q - run.bp().q).norm() > 0.1);
    CHECK(run.last(k).lambda > run.bp().lambda * (1.0 + 1e-4));
  }
}
