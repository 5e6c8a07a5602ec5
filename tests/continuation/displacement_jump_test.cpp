// Displacement control along a branch whose tangent hardly moves the controlled dof
// (docs/theory.md §2, the step's checks, (c'')): the star dome of the catalogue with
// its apex's uz controlled. The asymmetric branches from BP1 (λ = 18.4237) move the
// apex only to second order: its share of their tangent is ~8e-4 at the branch
// point, so a prescribed step of the apex is a long way along the branch. The second step of each branch
// went from λ = 18.42 to −4.37 (the predictor alone moved λ by −13.3, the branch's
// first step by 0.005), across a fold and a bifurcation of another path, and the
// branch crawled on there with nothing said. The step is now cut: the branches follow
// their path down to where the apex's uz turns (the arc-length branch of the same
// file has its largest uz, −9.936, between λ = 0.69 and −1.65), and end there,
// saying so.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <string>
#include <vector>

#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "support/trace_run.hpp"

using namespace senda;

namespace {
struct BranchLambdas : analysis::Observer {
  std::map<int, std::vector<double>> lambda;
  void on_point(int branch, const continuation::PathPoint& p) override { lambda[branch].push_back(p.lambda); }
};
}  // namespace

TEST_CASE("displacement control: a branch step that jumps in lambda is cut", "[continuation][displacement]") {
  input::Config c = input::Config::read_file(std::string(SENDA_SOURCE_DIR) + "/problems/star-dome.cfg");
  c.apply_override("continuation.constraint=displacement");
  c.apply_override("continuation.control=1 uz");
  const input::Spec spec = input::build(c);
  BranchLambdas seen;
  const analysis::TraceResult r = senda::testing::run_into(
      spec, std::filesystem::path(SENDA_BINARY_DIR) / "test-results" / "displacement-jump-star-dome", &c, &seen);
  const analysis::CriticalRecord* bp1 = r.find("BP1");
  REQUIRE(bp1);
  CHECK(bp1->point.lambda == Approx(18.4237243237).epsilon(1e-9));
  int branches_from_bp1 = 0;
  for (const critical::Branch& b : r.branches) {
    if (b.parent != 0 || b.start_point != "BP1") continue;
    ++branches_from_bp1;
    const std::vector<double>& l = seen.lambda[b.id];
    INFO("branch " << b.id << ": " << b.message);
    REQUIRE(l.size() >= 10);
    // Every step a small move of λ (the largest on the branch is 1.3, near its end;
    // the jump was 22.8), and the branch ends near the apex's turning point.
    for (std::size_t k = 1; k < l.size(); ++k) CHECK(std::abs(l[k] - l[k - 1]) < 2.0);
    CHECK(l.back() < 0.69);
    CHECK(l.back() > -1.65);
    // Both say so: the share of the apex in the branch's tangent is judged against the
    // most it reached (1.5e-2), not its 8e-4 at the branch's start (one of the two
    // ended "no convergence in 15 iterations", nothing more).
    CHECK(b.message.find("node 1 uz reaches a turning point") != std::string::npos);
  }
  CHECK(branches_from_bp1 == 2);
  // The multiple points the jumping steps bracketed (λ in [−4.37, 18.42]) are gone.
  for (const analysis::CriticalRecord& p : r.critical_points) {
    INFO(p.point.id << ": " << p.point.message);
    CHECK(!(p.point.lambda_before > 18.0 && p.point.lambda_after < -4.0));
  }
}

TEST_CASE("displacement control: a stiffening path from rest is not taken for a jump", "[continuation][displacement]") {
  // The von Mises truss almost flat (rise 0.001 for 0.5): from rest λ ~ w³, and a step
  // grows |Δλ| twentyfold while the apex's share of the tangent falls. A first version
  // of the jump check cut such a step; it applies to secondary branches.
  std::ifstream in(std::string(SENDA_SOURCE_DIR) + "/problems/von-mises.cfg");
  std::stringstream text;
  text << in.rdbuf();
  std::string cfg = text.str();
  const std::string rise = "node = 2  0.0 0.5";
  REQUIRE(cfg.find(rise) != std::string::npos);
  cfg.replace(cfg.find(rise), rise.size(), "node = 2  0.0 0.001");
  input::Config c = input::Config::parse(cfg, "von-mises-flat.cfg");
  for (const char* o : {"continuation.constraint=displacement", "continuation.control=2 uy",
                        "continuation.initial_step=1e-8", "continuation.max_step_ratio=1e6", "stop.displacement=2 uy 3"})
    c.apply_override(o);
  const input::Spec spec = input::build(c);
  const analysis::TraceResult r = senda::testing::run_into(
      spec, std::filesystem::path(SENDA_BINARY_DIR) / "test-results" / "displacement-jump-stiffening", &c);
  INFO(r.message);
  CHECK(r.termination == continuation::Termination::Completed);
  CHECK(r.stats.failed_steps == 0);
}
