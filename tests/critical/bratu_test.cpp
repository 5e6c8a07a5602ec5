// Fold of the discrete 1D Bratu problem (benchmarks/bratu.hpp): λ enters the
// nonlinearity (r = h² e^u depends on u, K on λ), so SPL runs with the general
// λ-dependence of docs/theory.md §4.
// Reference: λ_c = 3.4986839366 for N = 10 (the value of the issue; the continuum
// limit is 3.51383071912, Bratu/Gelfand, e.g. Mohsen, Appl. Math. Comput. 2014).
#include <catch2/catch.hpp>
#include <cmath>

#include "benchmarks/bratu.hpp"
#include "senda/critical/critical_point.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;

TEST_CASE("Bratu N = 10: fold located to 1e-9 with quadratic convergence", "[critical][bratu]") {
  senda::benchmarks::Bratu bratu(10);
  Options o;
  o.initial_load_increment = 0.2;
  o.lambda_min = 1.0;
  o.max_steps = 100;
  PathFollower f(bratu, o);
  REQUIRE(f.start(Vector::Zero(10), 0.0));
  CriticalPointFinder finder({});
  while (f.advance() && finder.points().empty()) finder.check(f, 0);
  REQUIRE(finder.points().size() == 1);
  const CriticalPoint& cp = finder.points()[0];
  INFO(cp.message);
  REQUIRE(cp.converged);
  CHECK(cp.kind == CriticalKind::Limit);
  CHECK(std::abs(cp.lambda - 3.4986839366) <= 1e-9 * 3.4986839366);
  CHECK(cp.newton_iterations <= 6);
  CHECK(cp.factorizations <= 8);
  // Observed order from the last three residuals above round-off.
  std::vector<double> h;
  for (double x : cp.residual_history)
    if (x > 1e-12) h.push_back(x);
  REQUIRE(h.size() >= 3);
  const std::size_t k = h.size() - 1;
  CHECK(std::log(h[k] / h[k - 1]) / std::log(h[k - 1] / h[k - 2]) >= 1.8);
}
