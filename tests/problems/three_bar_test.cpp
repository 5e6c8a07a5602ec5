// The three-bar structure of Cardona & Huespe's first example, as reconstructed
// in docs/notes/three-bar.md (the original geometry was lost): node 3 held by two
// equal collinear bars 1-3, 2-3 (k = EA/a = 1, engineering strain) and a spring
// 3-4 in y (k₃₄ = 0.4), load P along the bars.
//
//   fundamental path  u = P/(2k), v = 0
//   K_uu = 2k,  K_uv = 0,  K_vv = k₃₄ − 2k u²/(a² − u²)
//   bifurcations      P_c = ±2k a √(k₃₄/(2k + k₃₄)) = ±1/3 for a = 1/√6
//
// Tolerances: the path is exact in closed form (the bars are collinear and
// linear in the engineering measure), so converged points agree to the
// corrector's tolerance: 1e-10 relative residual → 1e-9 on u, v exactly 0.
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/input/builder.hpp"
#include "senda/model/model.hpp"
#include "senda/model/spring.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;
using namespace senda::continuation;

namespace {

const double kA = 1.0 / std::sqrt(6.0);  // half-span a
const double kBar = 1.0;                 // k = EA/a of bars 1-3 and 2-3
const double kSpring = 0.4;              // k₃₄
const double kPc = 1.0 / 3.0;            // published ±0.3333

double u_of(double P) { return P / (2 * kBar); }
double kvv_of(double u) { return kSpring - 2 * kBar * u * u / (kA * kA - u * u); }

std::unique_ptr<Model> three_bar(double imperfection = 0.0) {
  auto m = std::make_unique<Model>(2);
  const int n1 = m->add_node(1, {-kA, 0, 0});
  const int n2 = m->add_node(2, {kA, 0, 0});
  const int n3 = m->add_node(3, {0, 0, 0});
  const int n4 = m->add_node(4, {0, -kA, 0});
  const double EA = kBar * kA;
  m->add_element(std::make_unique<TrussBar>(1, 2, n1, n3, m->node_position(n1), m->node_position(n3), EA,
                                            StrainMeasure::Engineering));
  m->add_element(std::make_unique<TrussBar>(2, 2, n3, n2, m->node_position(n3), m->node_position(n2), EA,
                                            StrainMeasure::Engineering));
  m->add_element(std::make_unique<LinearSpring>(3, n3, n4, Component::Uy, kSpring));
  for (int n : {n1, n2, n4}) {
    m->fix(n, Component::Ux);
    m->fix(n, Component::Uy);
  }
  m->add_load(n3, Component::Ux, 1.0);
  if (imperfection != 0.0) m->add_dead_load(n3, Component::Uy, imperfection);
  m->finalize();
  return m;
}

Options trace_options(int direction) {
  Options o;
  o.initial_load_increment = 0.02;
  o.max_step_ratio = 2.0;
  o.lambda_min = -0.5;
  o.lambda_max = 0.5;
  o.max_steps = 200;
  o.direction = direction;
  return o;
}

Eigen::MatrixXd dense_tangent(const Problem& p, const Vector& q) {
  SparseMatrix K = p.tangent_pattern();
  p.tangent(q, 0.0, K);
  return Eigen::MatrixXd(K);
}

}  // namespace

TEST_CASE("three-bar (reconstruction): closed-form critical load", "[problems][three-bar]") {
  // u_c = a √(k₃₄/(2k + k₃₄)) = (1/√6)(1/√6) = 1/6, P_c = 2k u_c = 1/3.
  const double uc = kA * std::sqrt(kSpring / (2 * kBar + kSpring));
  CHECK(uc == Approx(1.0 / 6).epsilon(1e-15));
  CHECK(2 * kBar * uc == Approx(kPc).epsilon(1e-15));
  CHECK(std::abs(kvv_of(u_of(kPc))) <= 1e-15);
  CHECK(std::abs(kvv_of(u_of(-kPc))) <= 1e-15);
  // The assembled tangent at the critical state is singular in v and diagonal.
  const auto m = three_bar();
  REQUIRE(m->size() == 2);
  for (double P : {kPc, -kPc}) {
    Vector q(2);
    q << u_of(P), 0.0;
    const Eigen::MatrixXd K = dense_tangent(*m, q);
    INFO("P = " << P << "\nK =\n" << K);
    CHECK(K(0, 0) == Approx(2 * kBar).epsilon(1e-14));
    CHECK(K(0, 1) == 0.0);
    CHECK(std::abs(K(1, 1)) <= 1e-14);
    Vector g(2);
    m->residual(q, P, g);
    CHECK(g.norm() <= 1e-15);
  }
}

TEST_CASE("three-bar (reconstruction): trace through P = +1/3 and, with direction -1, P = -1/3",
          "[problems][three-bar]") {
  const auto m = three_bar();
  for (int direction : {+1, -1}) {
    SECTION("direction " + std::to_string(direction)) {
      PathFollower f(*m, trace_options(direction));
      REQUIRE(f.start(Vector::Zero(2), 0.0));
      std::vector<Crossing> crossings;
      int points = 0;
      while (f.advance()) {
        const PathPoint& p = f.current();
        INFO("point " << p.index << " lambda = " << p.lambda << " u = " << p.q[0] << " v = " << p.q[1]);
        CHECK(p.q[0] == Approx(u_of(p.lambda)).epsilon(1e-9).margin(1e-12));
        CHECK(p.q[1] == 0.0);  // mirror symmetry about the x axis is exact
        const Eigen::MatrixXd K = dense_tangent(*m, p.q);
        CHECK(K(0, 0) == Approx(2 * kBar).epsilon(1e-12));
        CHECK(K(1, 1) == Approx(kvv_of(p.q[0])).epsilon(1e-10).margin(1e-13));
        CHECK(p.negative_pivots == (std::abs(p.lambda) < kPc ? 0 : 1));
        CHECK(direction * p.lambda > 0.0);
        if (f.last_crossing()) crossings.push_back(*f.last_crossing());
        ++points;
      }
      CHECK(f.termination() == Termination::Completed);
      CHECK(points > 10);
      REQUIRE(crossings.size() == 1);
      const Crossing& c = crossings[0];
      const double lo = std::min(c.lambda_before, c.lambda_after), hi = std::max(c.lambda_before, c.lambda_after);
      CHECK(lo < direction * kPc);
      CHECK(hi > direction * kPc);
      CHECK(c.negative_pivots_before == 0);
      CHECK(c.negative_pivots_after == 1);
      CHECK(c.det_sign_changed);
    }
  }
}

TEST_CASE("three-bar (reconstruction): imperfect variant P2 = 0.05 at node 3 in y", "[problems][three-bar]") {
  const auto m = three_bar(0.05);
  for (int direction : {+1, -1}) {
    SECTION("direction " + std::to_string(direction)) {
      PathFollower f(*m, trace_options(direction));
      REQUIRE(f.start(Vector::Zero(2), 0.0));
      // At P = 0 the bars stay unstretched to first order: v ≈ P2/k₃₄ = 0.125, the
      // exact value smaller because the bars stretch as node 3 moves up.
      // Exact start: u = 0 by symmetry, v from v (2k(1 − a/√(a² + v²)) + k₃₄) = P₂.
      double lo = 0.0, hi = 0.05 / kSpring;
      for (int i = 0; i < 200; ++i) {
        const double v = 0.5 * (lo + hi);
        (v * (2 * kBar * (1 - kA / std::hypot(kA, v)) + kSpring) < 0.05 ? lo : hi) = v;
      }
      const double v0 = f.current().q[1];
      CHECK(v0 == Approx(0.5 * (lo + hi)).epsilon(1e-9));
      CHECK(v0 < 0.05 / kSpring);
      double vmax = v0;
      while (f.advance()) {
        const PathPoint& p = f.current();
        INFO("lambda = " << p.lambda << " v = " << p.q[1]);
        CHECK(p.q[1] > 0.0);  // the imperfection picks the branch with v > 0
        vmax = std::max(vmax, p.q[1]);
        Vector g(2);
        m->residual(p.q, p.lambda, g);
        CHECK(g.norm() <= 1e-9);
        CHECK(!f.last_crossing());  // stable symmetric bifurcation: the imperfect path has no critical point
      }
      CHECK(f.termination() != Termination::Diverged);
      CHECK(vmax > v0);  // transverse displacement grows with |P|
    }
  }
}

TEST_CASE("three-bar (reconstruction): problems/three-bar*.cfg build the same model", "[problems][three-bar][input]") {
  const std::string src = SENDA_SOURCE_DIR;
  for (double imperfection : {0.0, 0.05}) {
    const std::string file = src + (imperfection == 0.0 ? "/problems/three-bar.cfg" : "/problems/three-bar-imperfect.cfg");
    INFO(file);
    const senda::input::Spec s = senda::input::load(file);
    const auto ref = three_bar(imperfection);
    REQUIRE(s.model->size() == ref->size());
    CHECK(s.analysis.explorer.path.lambda_max == 0.5);
    CHECK(s.analysis.explorer.path.lambda_min == -0.5);
    for (double P : {0.0, 0.2, -0.35}) {
      Vector q(2);
      q << u_of(P) + 0.01, -0.03;
      Vector g1(2), g2(2);
      s.model->residual(q, P, g1);
      ref->residual(q, P, g2);
      CHECK((g1 - g2).norm() <= 1e-13);
      CHECK((dense_tangent(*s.model, q) - dense_tangent(*ref, q)).norm() <= 1e-13);
    }
  }
}

TEST_CASE("three-bar: the limit points of the secondary branches are located with steps 200 times shorter, "
          "not taken for a neutral path", "[problems][three-bar][neutral]") {
  // With initial_step = 1e-4 the step that crosses LP1 is flat in λ to 6.5e-9 over
  // more than a first step (the fold's λ'' times a short step squared): a neutral
  // stretch needs a second crossing in the flat run (critical::NeutralStretch), and a
  // fold crosses once. The same LP1 and LP2 as at the file's step.
  auto limits = [](senda::input::Spec s) {
    senda::critical::BranchExplorer ex(*s.model, s.analysis.explorer);
    senda::critical::ExplorerEvents none;
    REQUIRE(ex.run(Vector::Zero(s.model->size()), 0.0, none));
    for (const senda::critical::Branch& b : ex.branches()) CHECK(b.neutral.empty());
    std::vector<double> out;
    for (const senda::critical::CriticalPoint& p : ex.critical_points())
      if (p.kind == senda::critical::CriticalKind::Limit) {
        CHECK(p.converged);
        CHECK(p.neutral_branch < 0);
        out.push_back(p.lambda);
      }
    return out;
  };
  const senda::input::Spec file = senda::input::load(std::string(SENDA_SOURCE_DIR) + "/problems/three-bar.cfg");
  const senda::input::Spec fine = senda::input::load(std::string(SENDA_SOURCE_DIR) + "/problems/three-bar.cfg",
                                                     {"continuation.initial_step=1e-4", "stop.max_steps=3000"});
  const std::vector<double> at_file = limits(file), at_fine = limits(fine);
  REQUIRE(at_file.size() == 2);
  REQUIRE(at_fine.size() == 2);
  for (std::size_t k = 0; k < 2; ++k) CHECK(std::abs(at_fine[k] - at_file[k]) <= 1e-10);
}
