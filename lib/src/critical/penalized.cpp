#include "penalized.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace senda::critical::penalized {

int diagonal_slot(const SparseMatrix& K, int i) {
  const int* inner = K.innerIndexPtr();
  const int* first = inner + K.outerIndexPtr()[i];
  const int* last = inner + K.outerIndexPtr()[i + 1];
  const int* pos = std::lower_bound(first, last, i);
  if (pos == last || *pos != i) return -1;
  return static_cast<int>(pos - inner);
}

namespace {
double mean_abs_diagonal(const SparseMatrix& K) {
  double s = 0.0;
  for (int j = 0; j < K.cols(); ++j) s += std::abs(K.coeff(j, j));
  return s / std::max<Eigen::Index>(1, K.cols());
}
}  // namespace

double rho(const SparseMatrix& K, int slot, double given, double floor) {
  return given > 0.0 ? given : std::max(floor, mean_abs_diagonal(K) + std::abs(K.valuePtr()[slot]));
}

linalg::FactorStatus factorize(const SparseMatrix& K, int slot, double rho, SparseMatrix& work,
                               linalg::SymmetricFactorization& fac) {
  work = K;
  work.valuePtr()[slot] += rho;
  return fac.factorize(work);
}

Eigen::Vector2d solve_equilibrated(Eigen::Matrix2d A, const Eigen::Vector2d& b) {
  Eigen::Vector2d c;
  for (int k = 0; k < 2; ++k) {
    c[k] = A.col(k).cwiseAbs().maxCoeff();
    if (!(c[k] > 0.0) || !std::isfinite(c[k])) c[k] = 1.0;
    A.col(k) /= c[k];
  }
  return A.fullPivLu().solve(b).cwiseQuotient(c);
}

}  // namespace senda::critical::penalized
