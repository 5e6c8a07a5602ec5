// Star dome (problems/star-dome.cfg): the linear apex deflection under the
// 220.46 lbf apex load, published as −0.20641 in (Papadrakakis; Crisfield 1991),
// re-derived here from the model the builder makes of the cfg file.
#include <catch2/catch.hpp>
#include <cmath>

#include "senda/io/builder.hpp"
#include "senda/linalg/factorization.hpp"

using namespace senda;
using namespace senda::io;

TEST_CASE("star dome: linear apex deflection -0.20641", "[io][problems][star-dome]") {
  const Setup s = load(std::string(SENDA_SOURCE_DIR) + "/problems/star-dome.cfg");
  const model::Model& m = *s.model;
  SparseMatrix K = m.tangent_pattern();
  m.tangent(Vector::Zero(m.size()), 0.0, K);
  linalg::SymmetricFactorization f(K);
  REQUIRE(f.factorize(K) == linalg::FactorStatus::Ok);
  CHECK(f.negative_pivots() == 0);  // the undeformed dome is stable
  const Vector u = f.solve(m.reference_load());  // K(0) u = r, r = the 220.46 lbf load
  const int apex = 0;
  const double w = m.displacement(u, apex, model::Component::Uz);
  INFO("apex uz = " << w);
  // The published value has five significant digits: it is exact to half a unit
  // in the last place, |w − (−0.20641)| ≤ 0.000005.
  CHECK(std::abs(w - (-0.20641)) <= 0.5e-5);
  SECTION("one small load step of the path follower agrees") {
    continuation::Options o = s.options;
    o.constraint = continuation::ConstraintKind::LoadControl;
    o.initial_load_increment = 1e-6;
    o.max_steps = 1;
    continuation::PathFollower pf(m, o);
    REQUIRE(pf.start(Vector::Zero(m.size()), 0.0));
    REQUIRE(pf.advance());
    const double w1 = m.displacement(pf.current().q, apex, model::Component::Uz) / pf.current().lambda;
    INFO("apex uz / lambda after one step = " << w1);
    // Non-linear terms are O(λ) relative: at λ = 1e-6 far below the digit checked.
    CHECK(std::abs(w1 - (-0.20641)) <= 0.5e-5);
  }
}
