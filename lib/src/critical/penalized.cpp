#include "penalized.hpp"

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

}  // namespace senda::critical::penalized
