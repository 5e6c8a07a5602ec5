// SymmetricFactorization (CHOLMOD LDLᵀ) on matrices of known inertia; det sign
// cross-checked against the independent LU (UMFPACK) sign.
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>

#include "senda/linalg/factorization.hpp"

using namespace senda;
using namespace senda::linalg;

namespace {

// Dense → sparse keeping every entry (also zeros) so the pattern is fixed.
SparseMatrix to_sparse(const Eigen::MatrixXd& A) {
  std::vector<Eigen::Triplet<double>> t;
  for (int j = 0; j < A.cols(); ++j)
    for (int i = 0; i < A.rows(); ++i)
      if (A(i, j) != 0.0 || i == j) t.emplace_back(i, j, A(i, j));
  SparseMatrix S(A.rows(), A.cols());
  S.setFromTriplets(t.begin(), t.end());
  S.makeCompressed();
  return S;
}

// Qᵀ diag(d) Q with Q a random orthogonal matrix: eigenvalues exactly d, so the
// inertia is the sign pattern of d. |d| ∈ [0.5, 2] keeps the condition number ≤ 4.
Eigen::MatrixXd with_eigenvalues(const Eigen::VectorXd& d, std::mt19937& rng) {
  const int n = static_cast<int>(d.size());
  std::normal_distribution<double> N01;
  Eigen::MatrixXd G = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return N01(rng); });
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ();
  Eigen::MatrixXd A = Q.transpose() * d.asDiagonal() * Q;
  return 0.5 * (A + A.transpose());  // exactly symmetric
}

// Tridiagonal 1D Laplacian, free at both ends: singular, null space the constants.
SparseMatrix free_free_chain(int n) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i + 1 < n; ++i) {
    A(i, i) += 1;
    A(i + 1, i + 1) += 1;
    A(i, i + 1) -= 1;
    A(i + 1, i) -= 1;
  }
  return to_sparse(A);
}

}  // namespace

TEST_CASE("factorization: inertia and det sign of matrices with known eigenvalues", "[linalg]") {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  const int n = 30;
  for (int negatives : {0, 1, 2, 7, 15, 30}) {
    SECTION("Q^T diag(d) Q with " + std::to_string(negatives) + " negative eigenvalues") {
      Eigen::VectorXd d(n);
      for (int i = 0; i < n; ++i) d[i] = mag(rng);
      // Spread the negative ones over the spectrum's positions, not only the first.
      std::vector<int> idx(n);
      for (int i = 0; i < n; ++i) idx[i] = i;
      std::shuffle(idx.begin(), idx.end(), rng);
      for (int k = 0; k < negatives; ++k) d[idx[k]] = -d[idx[k]];
      const SparseMatrix K = to_sparse(with_eigenvalues(d, rng));
      SymmetricFactorization f(K);
      REQUIRE(f.factorize(K) == FactorStatus::Ok);
      CHECK(f.status() == FactorStatus::Ok);
      CHECK(f.negative_pivots() == negatives);
      CHECK(f.zero_pivots() == 0);
      CHECK(f.first_zero_pivot() == -1);
      const int expected_sign = negatives % 2 == 0 ? 1 : -1;
      CHECK(f.det_sign() == expected_sign);
      CHECK(det_sign_lu(K) == expected_sign);
      CHECK(f.pivot_ratio() > 0.0);
      CHECK(f.pivot_ratio() <= 1.0);
    }
  }
  SECTION("diagonal with known signs") {
    const Eigen::VectorXd d = (Eigen::VectorXd(6) << 3.0, -1.0, 2.0, -0.5, -4.0, 1e-3).finished();
    const SparseMatrix K = to_sparse(Eigen::MatrixXd(d.asDiagonal()));
    SymmetricFactorization f(K);
    REQUIRE(f.factorize(K) == FactorStatus::Ok);
    CHECK(f.negative_pivots() == 3);
    CHECK(f.det_sign() == -1);
    CHECK(det_sign_lu(K) == -1);
    // The pivots are the diagonal itself: ratio min|d|/max|d| exactly.
    CHECK(f.pivot_ratio() == Approx(1e-3 / 4.0).epsilon(1e-14));
  }
}

TEST_CASE("factorization: singular and non-finite matrices are statuses, not exceptions", "[linalg]") {
  SECTION("diagonal with an exact zero") {
    const Eigen::VectorXd d = (Eigen::VectorXd(5) << 1.0, -2.0, 0.0, 3.0, 4.0).finished();
    const SparseMatrix K = to_sparse(Eigen::MatrixXd(d.asDiagonal()));
    SymmetricFactorization f(K);
    CHECK(f.factorize(K) == FactorStatus::Singular);
    CHECK(f.det_sign() == 0);
    CHECK(f.zero_pivots() >= 1);
    CHECK(f.first_zero_pivot() == 2);  // reported in the unpermuted numbering
    CHECK(det_sign_lu(K) == 0);
    CHECK_THROWS_AS(f.solve(Vector::Ones(5)), std::logic_error);
  }
  SECTION("free-free chain (rank n − 1)") {
    const int n = 12;
    const SparseMatrix K = free_free_chain(n);
    SymmetricFactorization f(K);
    // Integer entries: every pivot of the elimination is an exact small integer or
    // ratio; the last one cancels to exactly 0 whatever the ordering.
    CHECK(f.factorize(K) == FactorStatus::Singular);
    CHECK(f.det_sign() == 0);
    CHECK(f.first_zero_pivot() >= 0);
    CHECK(f.first_zero_pivot() < n);
    CHECK(f.negative_pivots() == 0);
  }
  SECTION("NaN entry") {
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(4, 4);
    A(2, 1) = A(1, 2) = 0.5;
    SparseMatrix K = to_sparse(A);
    SymmetricFactorization f(K);
    REQUIRE(f.factorize(K) == FactorStatus::Ok);
    K.coeffRef(2, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK(f.factorize(K) == FactorStatus::NotFinite);
    CHECK(f.det_sign() == 0);
    K.coeffRef(2, 1) = 0.5;
    K.coeffRef(3, 3) = std::numeric_limits<double>::infinity();
    CHECK(f.factorize(K) == FactorStatus::NotFinite);
  }
}

TEST_CASE("factorization: several right-hand sides at once, refactorization, stats", "[linalg]") {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  std::normal_distribution<double> N01;
  const int n = 25;
  Eigen::VectorXd d(n);
  for (int i = 0; i < n; ++i) d[i] = (i % 3 == 0 ? -1.0 : 1.0) * mag(rng);  // 9 negative
  const Eigen::MatrixXd A = with_eigenvalues(d, rng);
  const SparseMatrix K = to_sparse(A);
  SymmetricFactorization f(K);
  REQUIRE(f.factorize(K) == FactorStatus::Ok);
  CHECK(f.negative_pivots() == 9);

  const Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, 4, [&] { return N01(rng); });
  Eigen::MatrixXd X;
  f.solve(B, X);
  REQUIRE(X.rows() == n);
  REQUIRE(X.cols() == 4);
  // Backward error of a stable LDLᵀ on a matrix with cond ≤ 4: a few hundred ulps.
  CHECK((A * X - B).norm() <= 1e-12 * (A.norm() * X.norm() + B.norm()));
  for (int j = 0; j < 4; ++j) {
    const Vector xj = f.solve(Vector(B.col(j)));
    // Same factor, same arithmetic per column: agreement to round-off.
    CHECK((xj - X.col(j)).norm() <= 1e-14 * X.col(j).norm());
  }
  CHECK(f.stats().factorizations == 1);
  CHECK(f.stats().solves == 8);  // 4 at once + 4 one by one, counted per right-hand side

  // The allocation-free forms: into the caller's vectors, one or two columns,
  // alternating (each count has its own CHOLMOD workspace), outputs aliasing inputs.
  Vector x0, x1, x2, b1 = B.col(1), b2 = B.col(2);
  f.solve(Vector(B.col(0)), x0);
  f.solve(b1, b2, x1, x2);
  CHECK((x0 - X.col(0)).norm() <= 1e-14 * X.col(0).norm());
  CHECK((x1 - X.col(1)).norm() <= 1e-14 * X.col(1).norm());
  CHECK((x2 - X.col(2)).norm() <= 1e-14 * X.col(2).norm());
  f.solve(b1, b1);
  f.solve(b2, Vector(B.col(3)), b2, x2);
  CHECK((b1 - X.col(1)).norm() <= 1e-14 * X.col(1).norm());
  CHECK((b2 - X.col(2)).norm() <= 1e-14 * X.col(2).norm());
  CHECK((x2 - X.col(3)).norm() <= 1e-14 * X.col(3).norm());
  CHECK(f.stats().solves == 14);
  CHECK_THROWS_AS(f.solve(Vector(Vector::Zero(n + 1)), x0), std::logic_error);
  CHECK_THROWS_AS(f.solve(b1, Vector(Vector::Zero(n - 1)), x1, x2), std::logic_error);

  // New values in the same pattern: shift every eigenvalue by +3 (all positive now).
  const Eigen::MatrixXd A2 = A + 3.0 * Eigen::MatrixXd::Identity(n, n);
  const SparseMatrix K2 = to_sparse(A2);
  REQUIRE(K2.nonZeros() == K.nonZeros());
  REQUIRE(f.factorize(K2) == FactorStatus::Ok);
  CHECK(f.negative_pivots() == 0);
  CHECK(f.det_sign() == 1);
  CHECK(det_sign_lu(K2) == 1);
  f.solve(B, X);
  CHECK((A2 * X - B).norm() <= 1e-12 * (A2.norm() * X.norm() + B.norm()));
  CHECK(f.stats().factorizations == 2);
  CHECK(f.stats().solves == 18);
  CHECK(f.stats().factorize_seconds >= 0.0);
  CHECK(f.stats().solve_seconds >= 0.0);

  // Back to the indefinite values: inertia follows the values, not the history.
  REQUIRE(f.factorize(K) == FactorStatus::Ok);
  CHECK(f.negative_pivots() == 9);
  CHECK(f.det_sign() == det_sign_lu(K));
}

TEST_CASE("factorization: pattern given with only the lower triangle", "[linalg]") {
  // The header promises that only the lower triangle is read.
  Eigen::MatrixXd A(3, 3);
  A << 2, -1, 0, -1, -3, 1, 0, 1, 4;  // inertia (2, 1): det = 2(−12−1) + 1(−4) = −30
  const SparseMatrix lower = to_sparse(Eigen::MatrixXd(A.triangularView<Eigen::Lower>()));
  SymmetricFactorization f(lower);
  REQUIRE(f.factorize(lower) == FactorStatus::Ok);
  CHECK(f.negative_pivots() == 1);
  CHECK(f.det_sign() == -1);
  CHECK(det_sign_lu(to_sparse(A)) == -1);
  const Vector x = f.solve(Vector::Ones(3));
  CHECK((A * x - Vector::Ones(3)).norm() <= 1e-14 * 10);
}

TEST_CASE("factorization: a clone of the analysis factorizes independently", "[linalg]") {
  std::mt19937 rng(5);
  const int n = 20;
  Eigen::VectorXd d = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);  // 7 negative (−1 … −0.05)
  d[7] = 0.05;
  const int negatives = static_cast<int>((d.array() < 0).count());
  const Eigen::MatrixXd A = with_eigenvalues(d, rng);
  const SparseMatrix K = to_sparse(A);
  SymmetricFactorization f(K);
  REQUIRE(f.factorize(K) == FactorStatus::Ok);
  const auto g = f.clone_analysis();
  CHECK(f.stats().analyze_seconds > 0.0);  // the symbolic analysis is timed apart
  CHECK(g->stats().factorizations == 0);
  CHECK(g->status() != FactorStatus::Ok);  // nothing factorized by the clone yet
  CHECK_THROWS_AS(g->solve(Vector::Ones(n)), std::logic_error);
  const Eigen::MatrixXd A2 = A + 5.0 * Eigen::MatrixXd::Identity(n, n);
  REQUIRE(g->factorize(to_sparse(A2)) == FactorStatus::Ok);
  CHECK(g->negative_pivots() == 0);
  // The original keeps its own factor.
  CHECK(f.negative_pivots() == negatives);
  const Vector b = Vector::Ones(n);
  CHECK((A * f.solve(b) - b).norm() <= 1e-12 * (A.norm() + 1));
  CHECK((A2 * g->solve(b) - b).norm() <= 1e-12 * (A2.norm() + 1));
  CHECK(g->stats().factorizations == 1);
  CHECK(f.stats().factorizations == 1);
}
