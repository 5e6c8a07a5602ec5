// The path's scaling, docs/theory.md eq. 2.10: the kinds of unknowns compared as
// lengths (Problem::kind_length), and a kind whose block of the first tangent is
// below 1e-6 of the largest, so measured, weighted as a length instead of by its
// own (round-off) size. Also Model::kind_length, the structure's size.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/model/model.hpp"

using namespace senda;
using namespace senda::continuation;

namespace {

// g = K q − λ r with K = diag(k), two translations and one rotation; the structure's
// size L (kind_length of a rotation). v = K⁻¹ r = r / k.
class LinearKinds final : public Problem {
 public:
  LinearKinds(Vector k, Vector r, double L) : k_(std::move(k)), r_(std::move(r)), L_(L) {
    pattern_.resize(3, 3);
    std::vector<Eigen::Triplet<double>> t{{0, 0, 1.0}, {1, 1, 1.0}, {2, 2, 1.0}};
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }
  int size() const override { return 3; }
  void residual(const Vector& q, double l, Vector& g) const override { g = k_.cwiseProduct(q) - l * r_; }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector&, double, SparseMatrix& K) const override {
    for (int i = 0; i < 3; ++i) K.coeffRef(i, i) = k_[i];
  }
  void dg_dlambda(const Vector&, double, Vector& out) const override { out = -r_; }
  bool is_proportional() const override { return true; }
  DofKind dof_kind(int i) const override { return i < 2 ? DofKind::Translation : DofKind::Rotation; }
  double kind_length(DofKind kind) const override { return kind == DofKind::Rotation ? L_ : 1.0; }

 private:
  Vector k_, r_;
  double L_;
  SparseMatrix pattern_;
};

Scaling first_scaling(const LinearKinds& p) {
  Options o;
  PathFollower f(p, o);
  REQUIRE(f.start(Vector::Zero(3), 0.0));
  return f.scaling();
}

}  // namespace

TEST_CASE("scaling: kinds compared as lengths, a kind the load does not move weighted as a length",
          "[continuation][scaling]") {
  // Translations 3e-5 and 4e-5 per unit load (block 5e-5), L = 10.
  const Vector k = (Vector(3) << 1.0 / 3e-5, 1.0 / 4e-5, 1.0).finished();
  const double s_t = 5e-5, L = 10.0, root2 = std::sqrt(2.0);
  SECTION("a rotation the load moves: equal shares, w = 1/(|v_kind| sqrt m)") {
    // |v_rot| = 2e-6 rad: 2e-5 as a length, 0.4 of the translations' block.
    const LinearKinds p(k, (Vector(3) << 1.0, 1.0, 2e-6).finished(), L);
    const Scaling s = first_scaling(p);
    CHECK(s.w[0] == Approx(1.0 / (s_t * root2)).epsilon(1e-12));
    CHECK(s.w[1] == s.w[0]);
    CHECK(s.w[2] == Approx(1.0 / (2e-6 * root2)).epsilon(1e-12));
  }
  SECTION("a rotation at round-off (a straight column's axis through cos(pi/2)): measured as a length") {
    // |v_rot| = 1e-16 rad: 1e-15 as a length, 2e-11 of the translations' block. The
    // old rule (its block above 1e-12 of the largest, units mixed) gave it 7e15.
    const LinearKinds p(k, (Vector(3) << 1.0, 1.0, 1e-16).finished(), L);
    const Scaling s = first_scaling(p);
    CHECK(s.w[0] == Approx(1.0 / (s_t * root2)).epsilon(1e-12));
    CHECK(s.w[2] == Approx(L / (s_t * root2)).epsilon(1e-12));
  }
  SECTION("the bound is 1e-6 of the largest block, measured as lengths") {
    // 2e-7 of the translations' block as a length (|v_rot| L = 1e-11): below it.
    const LinearKinds below(k, (Vector(3) << 1.0, 1.0, 1e-12).finished(), L);
    CHECK(first_scaling(below).w[2] == Approx(L / (s_t * root2)).epsilon(1e-12));
    // 2e-6 of it: above, its own weight. Without L (kind_length 1) the same block
    // would be 2e-7 of the largest and measured as a length.
    const LinearKinds above(k, (Vector(3) << 1.0, 1.0, 1e-11).finished(), L);
    CHECK(first_scaling(above).w[2] == Approx(1.0 / (1e-11 * root2)).epsilon(1e-12));
    const LinearKinds unit_length(k, (Vector(3) << 1.0, 1.0, 1e-11).finished(), 1.0);
    CHECK(first_scaling(unit_length).w[2] == Approx(1.0 / (s_t * root2)).epsilon(1e-12));
  }
  SECTION("a rotation that dominates: the translations keep their own weight") {
    // |v_rot| L = 1e-2 ≫ 5e-5: the translations are 5e-3 of the largest, above 1e-6.
    const LinearKinds p(k, (Vector(3) << 1.0, 1.0, 1e-3).finished(), L);
    const Scaling s = first_scaling(p);
    CHECK(s.w[0] == Approx(1.0 / (s_t * root2)).epsilon(1e-12));
    CHECK(s.w[2] == Approx(1.0 / (1e-3 * root2)).epsilon(1e-12));
  }
}

TEST_CASE("Model::kind_length: 1 for translations, the largest side of the nodes' box for rotations, its square "
          "for warping", "[continuation][scaling][model]") {
  model::Model m(3);
  m.add_node(1, {0.0, 0.0, 0.0});
  m.add_node(2, {240.0, -3.0, 0.0});
  m.add_node(3, {240.0, 200.0, 5.0});
  CHECK(m.kind_length(DofKind::Translation) == 1.0);
  CHECK(m.kind_length(DofKind::Rotation) == 240.0);
  CHECK(m.kind_length(DofKind::Generic) == 240.0 * 240.0);
  model::Model point(2);
  point.add_node(1, {1.0, 2.0, 0.0});
  CHECK(point.kind_length(DofKind::Rotation) == 1.0);  // no extent: 1
}
