// The factorization kept at a converged point (docs/theory.md eq. 2.12,
// `continuation.reuse_factorization`): the inertia reported at every point is that
// of K at the point, also where K changes sign over the corrector's last update.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "continuation/traced_run.hpp"
#include "problems/rigid_bar_models.hpp"
#include "senda/continuation/path_follower.hpp"

using namespace senda;
using namespace senda::continuation;

namespace {

// g₁ = q₁ + q₁³ − λ carries the path (a few Newton updates per step); g₂ = k(q₁) q₂
// with k(q₁) = cos(q₁/w) keeps q₂ = 0 and K = diag(1 + 3q₁², k(q₁)). With w = 1e-13
// k changes by O(1) over an update of 1e-13 in q₁, below the increment tolerance:
// K at the last factorized iterate and K at the point may differ in sign, and only
// a factorization at the point (or a certificate that none is needed) reports the
// inertia of K there.
class FineTangent : public Problem {
 public:
  static constexpr double kW = 1e-13;
  FineTangent() {
    pattern_.resize(2, 2);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}, {1, 1, 1.0}};
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }
  static double k(double q1) { return std::cos(q1 / kW); }
  int size() const override { return 2; }
  void residual(const Vector& q, double l, Vector& g) const override {
    g.resize(2);
    g[0] = q[0] + q[0] * q[0] * q[0] - l;
    g[1] = k(q[0]) * q[1];
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector& q, double, SparseMatrix& K) const override {
    K.coeffRef(0, 0) = 1.0 + 3.0 * q[0] * q[0];
    K.coeffRef(1, 1) = k(q[0]);  // ∂g₂/∂q₁ = k′ q₂ = 0 on the path
  }
  void dg_dlambda(const Vector&, double, Vector& out) const override { out = Vector::Unit(2, 0) * -1.0; }
  bool is_proportional() const override { return true; }

 private:
  SparseMatrix pattern_;
};

using testing::Run;

// Traced to the step limit.
Run trace(const Problem& p, const Options& o) {
  Run r = testing::trace(p, o);
  REQUIRE(r.end == Termination::MaxSteps);
  return r;
}

}  // namespace

TEST_CASE("reuse: the inertia at every point is K's there, also where K changes sign over the last update",
          "[continuation][reuse]") {
  const FineTangent p;
  Options o;
  o.initial_load_increment = 0.05;
  o.max_steps = 60;
  for (bool chord : {true, false}) {
    INFO("final_chord " << chord);
    o.final_chord = chord;
    o.reuse_factorization = true;
    const Run a = trace(p, o);
    o.reuse_factorization = false;
    const Run b = trace(p, o);
    REQUIRE(a.points.size() == 60);
    REQUIRE(b.points.size() == 60);
    int negative = 0;
    for (std::size_t j = 0; j < a.points.size(); ++j) {
      INFO("point " << j + 1 << ", q1 = " << a.points[j].q[0]);
      const int truth = FineTangent::k(a.points[j].q[0]) < 0.0 ? 1 : 0;
      CHECK(a.points[j].q[1] == 0.0);
      CHECK(a.points[j].negative_pivots == truth);
      CHECK(a.points[j].det_sign == (truth ? -1 : 1));
      CHECK(b.points[j].negative_pivots == (FineTangent::k(b.points[j].q[0]) < 0.0 ? 1 : 0));
      negative += truth;
    }
    // Both signs occur at the points, and the certificate both kept factorizations
    // (where the last update did not move k enough to matter) and refused them.
    CHECK(negative > 0);
    CHECK(negative < 60);
    CHECK(a.stats.refused_reuses > 0);
    CHECK(b.stats.reused_factorizations == 0);
    CHECK(b.stats.refused_reuses == 0);
    // Each refusal costs the factorization that reuse_factorization = false makes at
    // every point; each kept factorization saves one.
    CHECK(a.stats.reused_factorizations + a.stats.refused_reuses == 60);
  }
}

TEST_CASE("reuse: on the von Mises truss the points and their inertia are those of a factorization at every point",
          "[continuation][reuse]") {
  senda::problems::VonMisesTruss t;
  t.h = 0.5;
  t.sway = false;
  t.measure = model::StrainMeasure::GreenLagrange;
  const auto model = t.build();
  Options o;
  o.initial_load_increment = 0.005;
  o.max_steps = 120;
  o.max_step_ratio = 2.0;
  const Run a = trace(*model, o);
  o.reuse_factorization = false;
  const Run b = trace(*model, o);
  REQUIRE(a.points.size() == b.points.size());
  int changes = 0;
  for (std::size_t j = 0; j < a.points.size(); ++j) {
    INFO("point " << j + 1);
    CHECK(a.points[j].negative_pivots == b.points[j].negative_pivots);
    CHECK(a.points[j].det_sign == b.points[j].det_sign);
    CHECK(a.points[j].iterations == b.points[j].iterations);
    // The predictor solves with K one update away from the point: round-off-sized changes.
    CHECK(std::abs(a.points[j].lambda - b.points[j].lambda) <= 1e-10 * t.limit_load());
    if (j > 0 && a.points[j].negative_pivots != a.points[j - 1].negative_pivots) ++changes;
  }
  CHECK(changes >= 2);  // through both limit points: 0 → 1 → 0
  CHECK(a.stats.reused_factorizations > 0);
  CHECK(b.factorizations - a.factorizations == a.stats.reused_factorizations);
}
