// Displacement control along a branch whose tangent hardly moves the controlled dof
// (docs/theory.md §2, the step's checks, (c'')): the star dome of the catalogue with
// its apex's uz controlled. The asymmetric branches from BP1 (λ = 18.4237) move the
// apex only to second order: its share of their tangent is ~8e-4 at the branch point,
// so a prescribed step of the apex is a long way along the branch. The second step of
// each branch went from λ = 18.42 to −4.37 (the predictor alone moved λ by −13.3, the
// branch's first step by 0.005), across a fold and a bifurcation of another path, and
// the branch crawled on there with nothing said. The step is now cut: the branches
// follow their path down to where the apex's uz turns, as the same file's arc-length
// branches show it (their largest uz, −9.936, between λ = 0.69 and −1.65), and end
// there, saying so.
#include <catch2/catch.hpp>
#include <algorithm>
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
// λ and the apex's uz (the first tracked dof of star-dome.cfg) at every point, by branch.
struct BranchPoints : analysis::Observer {
  int apex = -1;
  std::map<int, std::vector<double>> lambda, uz;
  void on_point(int branch, const continuation::PathPoint& p) override {
    lambda[branch].push_back(p.lambda);
    uz[branch].push_back(p.q[apex]);
  }
};

struct StarDome {
  analysis::TraceResult result;
  BranchPoints points;
};

StarDome star_dome(const std::vector<std::string>& overrides, const std::string& name) {
  input::Config c = input::Config::read_file(std::string(SENDA_SOURCE_DIR) + "/problems/star-dome.cfg");
  for (const std::string& o : overrides) c.apply_override(o);
  const input::Spec spec = input::build(c);
  StarDome d;
  REQUIRE(!spec.analysis.track.empty());
  d.points.apex = spec.analysis.track.front();
  REQUIRE(spec.model->dof_name(d.points.apex) == "node 1 uz");
  d.result = senda::testing::run_into(spec, std::filesystem::path(SENDA_BINARY_DIR) / "test-results" / name, &c,
                                      &d.points);
  return d;
}

// The branch from BP1 in direction `direction` (+1, -1), or nullptr.
const critical::Branch* from_bp1(const analysis::TraceResult& r, int direction) {
  for (const critical::Branch& b : r.branches)
    if (b.parent == 0 && b.start_point == "BP1" && b.direction == direction) return &b;
  return nullptr;
}
}  // namespace

TEST_CASE("displacement control: a branch step that jumps in lambda is cut", "[continuation][displacement]") {
  // The reference: the file as it is (arc-length), its BP1 and, along each branch from
  // it, where the apex's uz turns (its largest value): λ between that point's two
  // neighbours.
  const StarDome arc = star_dome({}, "displacement-jump-star-dome-arc");
  const analysis::CriticalRecord* bp1_arc = arc.result.find("BP1");
  REQUIRE(bp1_arc);
  const StarDome d = star_dome({"continuation.constraint=displacement", "continuation.control=1 uz"},
                               "displacement-jump-star-dome");
  const analysis::CriticalRecord* bp1 = d.result.find("BP1");
  REQUIRE(bp1);
  CHECK(bp1->point.lambda == Approx(bp1_arc->point.lambda).epsilon(1e-9));
  for (int direction : {1, -1}) {
    const critical::Branch* b_arc = from_bp1(arc.result, direction);
    const critical::Branch* b = from_bp1(d.result, direction);
    REQUIRE(b_arc);
    REQUIRE(b);
    const std::vector<double>& la = arc.points.lambda.at(b_arc->id);
    const std::vector<double>& ua = arc.points.uz.at(b_arc->id);
    const auto top = static_cast<std::size_t>(std::max_element(ua.begin(), ua.end()) - ua.begin());
    REQUIRE(top > 0);
    REQUIRE(top + 1 < ua.size());
    const double lo = std::min(la[top - 1], la[top + 1]), hi = std::max(la[top - 1], la[top + 1]);
    const std::vector<double>& l = d.points.lambda.at(b->id);
    INFO("branch " << b->id << ": " << b->message << "; the arc-length branch's uz turns at lambda in [" << lo << ", "
                   << hi << "]");
    REQUIRE(l.size() >= 10);
    // Every step a small move of λ (the largest on the branch is 1.3, near its end;
    // the jump was 22.8), and the branch ends at the apex's turning point.
    for (std::size_t k = 1; k < l.size(); ++k) CHECK(std::abs(l[k] - l[k - 1]) < 2.0);
    CHECK(l.back() <= hi);
    CHECK(l.back() >= lo);
    // Both say so: the share of the apex in the branch's tangent is judged against the
    // most it reached (1.5e-2), not its 8e-4 at the branch's start (one of the two
    // ended "no convergence in 15 iterations", nothing more).
    CHECK(b->message.find("node 1 uz reaches a turning point") != std::string::npos);
  }
  // The multiple points the jumping steps bracketed (λ in [−4.37, 18.42]) are gone.
  for (const analysis::CriticalRecord& p : d.result.critical_points) {
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
