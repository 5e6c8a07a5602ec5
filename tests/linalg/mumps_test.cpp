// The MUMPS backend of SymmetricFactorization against CHOLMOD and against dense
// eigenvalues: inertia, det sign, zero pivots, solves, clone_analysis; random
// sparse indefinite matrices and the tangents of the catalogue (shifted to make
// them indefinite).
#include <catch2/catch.hpp>
#include <Eigen/Dense>
#include <algorithm>
#include <filesystem>
#include <limits>
#include <random>

#include "senda/input/builder.hpp"
#include "senda/linalg/factorization.hpp"

using namespace senda;
using namespace senda::linalg;

namespace {

// Random sparse symmetric matrix: diagonal of both signs plus `per_column`
// off-diagonal entries per column (both triangles stored).
SparseMatrix random_indefinite(int n, int per_column, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> row(0, n - 1);
  std::vector<Eigen::Triplet<double>> t;
  for (int j = 0; j < n; ++j) {
    t.emplace_back(j, j, 2.0 * u(rng));
    for (int k = 0; k < per_column; ++k) {
      const int i = row(rng);
      if (i == j) continue;
      const double v = u(rng);
      t.emplace_back(i, j, v);
      t.emplace_back(j, i, v);
    }
  }
  SparseMatrix K(n, n);
  K.setFromTriplets(t.begin(), t.end());
  K.makeCompressed();
  return K;
}

struct Spectrum {
  int negative = 0;
  double min_abs = 0.0, max_abs = 0.0;
};
Spectrum spectrum(const SparseMatrix& K) {
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(K)).eigenvalues();
  return {static_cast<int>((ev.array() < 0).count()), ev.cwiseAbs().minCoeff(), ev.cwiseAbs().maxCoeff()};
}

// Both backends on K: same status, inertia and det sign (and those of the dense
// eigenvalues and of the LU when K is not near singular); solves to 1e-10.
void compare_backends(const SparseMatrix& K) {
  SymmetricFactorization c(K, Solver::Cholmod), m(K, Solver::Mumps);
  REQUIRE(c.backend() == Solver::Cholmod);
  REQUIRE(m.backend() == Solver::Mumps);
  const FactorStatus sc = c.factorize(K), sm = m.factorize(K);
  const Spectrum s = spectrum(K);
  INFO("n = " << K.rows() << ", negative eigenvalues " << s.negative << ", |eig| in [" << s.min_abs << ", "
              << s.max_abs << "]");
  // 1e-8 relative keeps the sign of every eigenvalue far above round-off.
  REQUIRE(s.min_abs > 1e-8 * s.max_abs);
  REQUIRE(sm == FactorStatus::Ok);
  CHECK(m.negative_pivots() == s.negative);
  CHECK(m.zero_pivots() == 0);
  CHECK(m.det_sign() == det_sign_lu(K));
  if (sc == FactorStatus::Ok) {  // CHOLMOD does not pivot: may lose accuracy, never inertia
    CHECK(c.negative_pivots() == m.negative_pivots());
    CHECK(c.det_sign() == m.det_sign());
  }
  std::mt19937 rng(7);
  std::normal_distribution<double> N01;
  const Vector b = Vector::NullaryExpr(K.rows(), [&] { return N01(rng); });
  const Vector x = m.solve(b);
  const double cond = s.max_abs / s.min_abs;
  CHECK((K * x - b).norm() <= 1e-10 * (K.norm() * x.norm() + b.norm()));
  if (sc == FactorStatus::Ok && cond < 1e4) CHECK((c.solve(b) - x).norm() <= 1e-10 * x.norm());
  Vector x1, x2;
  m.solve(b, Vector(2.0 * b), x1, x2);
  CHECK((x1 - x).norm() <= 1e-12 * x.norm());
  CHECK((x2 - 2.0 * x).norm() <= 1e-12 * x.norm());
}

}  // namespace

TEST_CASE("mumps: available in this build, auto picks it by the work of the factorization", "[linalg][mumps]") {
  REQUIRE(mumps_available());
  // Small models, and large ones without fill (a band), stay with CHOLMOD; large
  // ones whose factorization is dense work go to MUMPS.
  CHECK(resolve(Solver::Auto, 100, 1e9) == Solver::Cholmod);
  CHECK(resolve(Solver::Auto, 1000000, 4e6) == Solver::Cholmod);
  CHECK(resolve(Solver::Auto, 20000, kMumpsAutoFlopsPerUnknown * 20000) == Solver::Mumps);
  CHECK(resolve(Solver::Cholmod, 1 << 24, 1e15) == Solver::Cholmod);
  CHECK(resolve(Solver::Mumps, 10, 0.0) == Solver::Mumps);
  // The same through the constructor: the tridiagonal matrix of 2000 unknowns (4
  // flops per unknown) and a 40 × 40 grid Laplacian with a dense coupling block
  // (fill) above the threshold.
  {
    std::vector<Eigen::Triplet<double>> t;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      t.emplace_back(i, i, 2.0);
      if (i + 1 < n) {
        t.emplace_back(i, i + 1, -1.0);
        t.emplace_back(i + 1, i, -1.0);
      }
    }
    SparseMatrix K(n, n);
    K.setFromTriplets(t.begin(), t.end());
    K.makeCompressed();
    CHECK(SymmetricFactorization(K).backend() == Solver::Cholmod);
    // Every unknown coupled to the first 200: the factor fills a dense 200-column
    // block, ~n · 200² flops, far above the threshold.
    for (int i = 200; i < n; ++i)
      for (int j = 0; j < 200; ++j) {
        t.emplace_back(i, j, 1e-3);
        t.emplace_back(j, i, 1e-3);
      }
    for (int i = 0; i < n; ++i) t.emplace_back(i, i, 1000.0);
    SparseMatrix D(n, n);
    D.setFromTriplets(t.begin(), t.end());
    D.makeCompressed();
    CHECK(SymmetricFactorization(D).backend() == Solver::Mumps);
  }
  CHECK(solver_from_string("mumps") == Solver::Mumps);
  CHECK(!solver_from_string("MUMPS"));
  CHECK(std::string(to_string(Solver::Auto)) == "auto");
}

TEST_CASE("mumps: random sparse symmetric indefinite matrices, same inertia and solves as cholmod",
          "[linalg][mumps]") {
  std::mt19937 rng(2024);
  int tried = 0;
  for (int n : {5, 40, 300}) {
    for (int per_column : {1, 3}) {
      for (int trial = 0; trial < 3; ++trial) {
        const SparseMatrix K = random_indefinite(n, per_column, rng);
        const Spectrum s = spectrum(K);
        if (!(s.min_abs > 1e-8 * s.max_abs)) continue;  // nearly singular draw: no exact sign to compare
        ++tried;
        INFO("n " << n << " per column " << per_column << " trial " << trial);
        compare_backends(K);
      }
    }
  }
  CHECK(tried >= 12);  // most draws are well away from singular
}

TEST_CASE("mumps: the catalogue's tangents and shifted tangents", "[linalg][mumps]") {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& e : fs::directory_iterator(fs::path(SENDA_SOURCE_DIR) / "problems")) {
    if (e.path().extension() != ".cfg") continue;
    const input::Spec spec = input::build(input::Config::read_file(e.path().string()));
    const core::Problem& p = *spec.model;
    SparseMatrix K = p.tangent_pattern();
    p.tangent(Vector::Zero(p.size()), 0.0, K);
    // K − σ I for σ between its eigenvalues: 0, 1/3, 2/3 of the spectrum.
    const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(K)).eigenvalues();
    for (double f : {0.0, 0.34, 0.67}) {
      const int k = static_cast<int>(f * (ev.size() - 1));
      const double sigma = k == 0 ? 0.0 : 0.5 * (ev[k] + ev[k - 1]);
      if (k > 0 && !(ev[k] - ev[k - 1] > 1e-6 * ev.cwiseAbs().maxCoeff())) continue;  // a cluster
      SparseMatrix Ks = K;
      for (int i = 0; i < Ks.rows(); ++i) Ks.coeffRef(i, i) -= sigma;
      INFO(e.path().filename().string() << " sigma " << sigma);
      // A tangent too ill-conditioned for the dense eigenvalues to give exact signs
      // (the 3D LTB beam: |eig| in [0.5, 6e10]) is not a comparison of inertia.
      const Spectrum sp = spectrum(Ks);
      if (!(sp.min_abs > 1e-8 * sp.max_abs)) continue;
      compare_backends(Ks);
      ++count;
    }
  }
  CHECK(count >= 20);
}

TEST_CASE("mumps: singular and non-finite matrices", "[linalg][mumps]") {
  SECTION("diagonal with an exact zero") {
    const Eigen::VectorXd d = (Eigen::VectorXd(5) << 1.0, -2.0, 0.0, 3.0, 4.0).finished();
    SparseMatrix K = Eigen::MatrixXd(d.asDiagonal()).sparseView();
    K.makeCompressed();
    for (int i = 0; i < 5; ++i) K.coeffRef(i, i) = d[i];  // the zero kept in the pattern
    K.makeCompressed();
    SymmetricFactorization m(K, Solver::Mumps);
    CHECK(m.factorize(K) == FactorStatus::Singular);
    CHECK(m.det_sign() == 0);
    CHECK(m.zero_pivots() == 1);
    CHECK(m.first_zero_pivot() == 2);
    CHECK_THROWS_AS(m.solve(Vector::Ones(5)), std::logic_error);
  }
  SECTION("an unconnected unknown in a coupled matrix, as a mechanism's") {
    std::mt19937 rng(3);
    SparseMatrix K = random_indefinite(30, 3, rng);
    for (SparseMatrix::InnerIterator it(K, 0); it; ++it) it.valueRef() = 0.0;
    for (int j = 1; j < 30; ++j)
      for (SparseMatrix::InnerIterator it(K, j); it; ++it)
        if (it.row() == 0) it.valueRef() = 0.0;
    SymmetricFactorization c(K, Solver::Cholmod), m(K, Solver::Mumps);
    CHECK(c.factorize(K) == FactorStatus::Singular);
    CHECK(m.factorize(K) == FactorStatus::Singular);
    CHECK(m.zero_pivots() == 1);
    CHECK(m.first_zero_pivot() == 0);
    CHECK(m.det_sign() == 0);
  }
  SECTION("NaN and Inf entries") {
    std::mt19937 rng(4);
    SparseMatrix K = random_indefinite(10, 2, rng);
    SymmetricFactorization m(K, Solver::Mumps);
    K.valuePtr()[3] = std::numeric_limits<double>::quiet_NaN();
    CHECK(m.factorize(K) == FactorStatus::NotFinite);
    K.valuePtr()[3] = std::numeric_limits<double>::infinity();
    CHECK(m.factorize(K) == FactorStatus::NotFinite);
  }
}

TEST_CASE("mumps: a clone of the analysis factorizes independently", "[linalg][mumps]") {
  std::mt19937 rng(11);
  const SparseMatrix K = random_indefinite(60, 3, rng);
  const Spectrum s = spectrum(K);
  REQUIRE(s.min_abs > 1e-8 * s.max_abs);
  SymmetricFactorization f(K, Solver::Mumps);
  REQUIRE(f.factorize(K) == FactorStatus::Ok);
  const auto g = f.clone_analysis();
  CHECK(g->backend() == Solver::Mumps);
  CHECK(g->stats().factorizations == 0);
  CHECK(g->status() != FactorStatus::Ok);
  CHECK_THROWS_AS(g->solve(Vector::Ones(60)), std::logic_error);
  SparseMatrix K2 = K;
  for (int i = 0; i < 60; ++i) K2.coeffRef(i, i) += 100.0;  // positive definite: diagonally dominant
  REQUIRE(g->factorize(K2) == FactorStatus::Ok);
  CHECK(g->negative_pivots() == 0);
  CHECK(f.negative_pivots() == s.negative);  // the original keeps its own factor
  const Vector b = Vector::Ones(60);
  CHECK((K * f.solve(b) - b).norm() <= 1e-10 * b.norm() * K.norm());
  CHECK((K2 * g->solve(b) - b).norm() <= 1e-10 * b.norm() * K2.norm());
  SECTION("refactorization of the same object with other values") {
    REQUIRE(f.factorize(K2) == FactorStatus::Ok);
    CHECK(f.negative_pivots() == 0);
    CHECK(f.stats().factorizations == 2);
    CHECK(f.stats().solves >= 1);
  }
}
