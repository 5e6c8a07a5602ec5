// SymmetricFactorization::mumps_figures(): MUMPS's own statistics of the last
// factorization (INFOG(29), RINFOG(3), INFOG(21), INFOG(22)), which bench_dome
// reports (docs/performance.md "Distributed runs").
#include <catch2/catch.hpp>

#include <vector>

#include "senda/linalg/factorization.hpp"

using namespace senda;
using namespace senda::linalg;

namespace {
// The 2D Laplacian of an m×m grid (5-point stencil): SPD, n = m², both triangles.
SparseMatrix grid_laplacian(int m) {
  std::vector<Eigen::Triplet<double>> t;
  const auto id = [m](int i, int j) { return i * m + j; };
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      t.emplace_back(id(i, j), id(i, j), 4.0);
      if (i + 1 < m) {
        t.emplace_back(id(i, j), id(i + 1, j), -1.0);
        t.emplace_back(id(i + 1, j), id(i, j), -1.0);
      }
      if (j + 1 < m) {
        t.emplace_back(id(i, j), id(i, j + 1), -1.0);
        t.emplace_back(id(i, j + 1), id(i, j), -1.0);
      }
    }
  SparseMatrix K(m * m, m * m);
  K.setFromTriplets(t.begin(), t.end());
  K.makeCompressed();
  return K;
}
}  // namespace

TEST_CASE("mumps_figures: factor entries between K's triangle and the dense one, flops and memory reported") {
  if (!mumps_available()) return;
  const SparseMatrix K = grid_laplacian(30);  // n = 900
  const double n = 900.0;
  SymmetricFactorization f(K, Solver::Mumps);
  CHECK(f.mumps_figures().factor_entries == 0.0);  // nothing factorized yet
  REQUIRE(f.factorize(K) == FactorStatus::Ok);
  const MumpsFigures m = f.mumps_figures();
  // The factor holds at least the lower triangle of K (no cancellation is
  // assumed by a symbolic count) and at most the dense lower triangle; for a
  // planar grid with a nested-dissection-like ordering it is O(n log n), far
  // below the dense n(n+1)/2 = 405 450.
  const double lower_of_k = (static_cast<double>(K.nonZeros()) + n) / 2.0;
  CHECK(m.factor_entries >= lower_of_k);
  CHECK(m.factor_entries <= n * (n + 1) / 2 / 4);
  // Flops: at least one operation per off-diagonal factor entry, at most the
  // dense LDLᵀ's n³/3 (1 + o(1)) taken with a factor 2 of slack.
  CHECK(m.flops >= m.factor_entries - n);
  CHECK(m.flops <= 2.0 * n * n * n / 3.0);
  CHECK(m.memory_max_mb >= 0);
  CHECK(m.memory_total_mb >= m.memory_max_mb);  // all processes against the largest one

  SymmetricFactorization c(K, Solver::Cholmod);
  REQUIRE(c.factorize(K) == FactorStatus::Ok);
  CHECK(c.mumps_figures().factor_entries == 0.0);  // CHOLMOD: nothing to report
  CHECK(c.mumps_figures().flops == 0.0);
}
