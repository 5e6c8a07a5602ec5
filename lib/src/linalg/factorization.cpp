#include "senda/linalg/factorization.hpp"

#include <cholmod.h>
#include <umfpack.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace senda::linalg {

const char* to_string(FactorStatus s) {
  switch (s) {
    case FactorStatus::Ok: return "ok";
    case FactorStatus::Singular: return "singular";
    case FactorStatus::NotFinite: return "not-finite";
    case FactorStatus::Failed: return "failed";
  }
  return "?";
}

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A view (no copy) of an Eigen column-major sparse matrix as a CHOLMOD matrix
// whose lower triangle holds the symmetric K.
cholmod_sparse view_lower(const SparseMatrix& K) {
  if (!K.isCompressed()) throw std::logic_error("SymmetricFactorization: matrix must be compressed");
  cholmod_sparse A{};
  A.nrow = static_cast<size_t>(K.rows());
  A.ncol = static_cast<size_t>(K.cols());
  A.nzmax = static_cast<size_t>(K.nonZeros());
  A.p = const_cast<int*>(K.outerIndexPtr());
  A.i = const_cast<int*>(K.innerIndexPtr());
  A.x = const_cast<double*>(K.valuePtr());
  A.stype = -1;
  A.itype = CHOLMOD_INT;
  A.xtype = CHOLMOD_REAL;
  A.dtype = CHOLMOD_DOUBLE;
  A.sorted = 1;
  A.packed = 1;
  return A;
}
}  // namespace

struct SymmetricFactorization::Impl {
  cholmod_common c{};
  cholmod_factor* L = nullptr;
  // Reusable solve workspace of cholmod_solve2, one set for one right-hand side
  // and one for several: the follower alternates 1 and 2 columns, and a set sized
  // for the other count would be freed and reallocated (page faults at large n) on
  // every solve.
  struct Workspace {
    cholmod_dense* X = nullptr;
    cholmod_dense* Y = nullptr;
    cholmod_dense* E = nullptr;
  };
  Workspace ws[2];
  Eigen::MatrixXd pair;  // the two right-hand sides of solve(b1, b2, x1, x2), side by side

  Impl() {
    cholmod_start(&c);
    c.print = 0;
    c.supernodal = CHOLMOD_SIMPLICIAL;  // LDLᵀ needs the simplicial method
    c.final_ll = 0;
    c.final_asis = 1;
    c.nmethods = 1;  // AMD only: deterministic and cheap
    c.method[0].ordering = CHOLMOD_AMD;
    c.postorder = 1;
  }
  ~Impl() {
    for (Workspace& w : ws) {
      if (w.X) cholmod_free_dense(&w.X, &c);
      if (w.Y) cholmod_free_dense(&w.Y, &c);
      if (w.E) cholmod_free_dense(&w.E, &c);
    }
    if (L) cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
  }
};

SymmetricFactorization::SymmetricFactorization(const SparseMatrix& pattern) : impl_(std::make_unique<Impl>()) {
  if (pattern.rows() != pattern.cols()) throw std::logic_error("SymmetricFactorization: matrix is not square");
  n_ = static_cast<int>(pattern.rows());
  const auto t0 = Clock::now();
  cholmod_sparse A = view_lower(pattern);
  impl_->L = cholmod_analyze(&A, &impl_->c);
  if (!impl_->L || impl_->c.status < CHOLMOD_OK)
    throw std::runtime_error("SymmetricFactorization: CHOLMOD symbolic analysis failed");
  stats_.analyze_seconds = seconds_since(t0);
}

SymmetricFactorization::SymmetricFactorization(const SymmetricFactorization& analysed, CloneTag)
    : impl_(std::make_unique<Impl>()), n_(analysed.n_) {
  const auto t0 = Clock::now();
  // Copies the factor (symbolic part, and numeric values if any; status_ stays
  // Failed so nothing is solved before this object's own factorize()).
  impl_->L = cholmod_copy_factor(analysed.impl_->L, &impl_->c);
  if (!impl_->L || impl_->c.status < CHOLMOD_OK)
    throw std::runtime_error("SymmetricFactorization: CHOLMOD could not copy the symbolic analysis");
  stats_.analyze_seconds = seconds_since(t0);
}

std::unique_ptr<SymmetricFactorization> SymmetricFactorization::clone_analysis() const {
  return std::unique_ptr<SymmetricFactorization>(new SymmetricFactorization(*this, CloneTag{}));
}

SymmetricFactorization::~SymmetricFactorization() = default;

FactorStatus SymmetricFactorization::factorize(const SparseMatrix& K) {
  const auto t0 = Clock::now();
  ++stats_.factorizations;
  negative_ = zero_ = 0;
  first_zero_ = -1;
  pivot_ratio_ = 0.0;
  if (K.rows() != n_ || K.cols() != n_) throw std::logic_error("SymmetricFactorization: size changed");
  const double* v = K.valuePtr();
  for (Eigen::Index k = 0; k < K.nonZeros(); ++k)
    if (!std::isfinite(v[k])) {
      stats_.factorize_seconds += seconds_since(t0);
      return status_ = FactorStatus::NotFinite;
    }
  cholmod_sparse A = view_lower(K);
  impl_->c.status = CHOLMOD_OK;
  const int ok = cholmod_factorize(&A, impl_->L, &impl_->c);
  stats_.factorize_seconds += seconds_since(t0);
  if (!ok || impl_->c.status < CHOLMOD_OK) return status_ = FactorStatus::Failed;

  const cholmod_factor* L = impl_->L;
  if (L->is_super || L->is_ll) throw std::logic_error("SymmetricFactorization: expected a simplicial LDLᵀ");
  const int* Lp = static_cast<const int*>(L->p);
  const double* Lx = static_cast<const double*>(L->x);
  const int* perm = static_cast<const int*>(L->Perm);
  // CHOLMOD stops at the first zero pivot (L->minor); columns after it are not factorized.
  const int stop = static_cast<int>(std::min<size_t>(L->minor, static_cast<size_t>(n_)));
  double dmin = INFINITY, dmax = 0.0;
  bool finite = true;
  for (int j = 0; j < stop; ++j) {
    const double d = Lx[Lp[j]];  // the diagonal entry comes first in each column
    if (!std::isfinite(d)) finite = false;
    if (d < 0) ++negative_;
    if (d == 0) {
      ++zero_;
      if (first_zero_ < 0) first_zero_ = perm ? perm[j] : j;
    }
    dmin = std::min(dmin, std::abs(d));
    dmax = std::max(dmax, std::abs(d));
  }
  if (stop < n_) {
    ++zero_;
    if (first_zero_ < 0) first_zero_ = perm ? perm[stop] : stop;
  }
  if (!finite) return status_ = FactorStatus::NotFinite;
  pivot_ratio_ = dmax > 0 ? dmin / dmax : 0.0;
  return status_ = (zero_ > 0 ? FactorStatus::Singular : FactorStatus::Ok);
}

int SymmetricFactorization::det_sign() const {
  if (status_ != FactorStatus::Ok) return 0;
  return (negative_ % 2 == 0) ? 1 : -1;
}

const double* SymmetricFactorization::solve_columns(const double* B, int ncol) const {
  cholmod_dense b{};
  b.nrow = static_cast<size_t>(n_);
  b.ncol = static_cast<size_t>(ncol);
  b.nzmax = b.nrow * b.ncol;
  b.d = b.nrow;
  b.x = const_cast<double*>(B);
  b.xtype = CHOLMOD_REAL;
  b.dtype = CHOLMOD_DOUBLE;
  Impl& m = *impl_;
  Impl::Workspace& w = m.ws[ncol > 1 ? 1 : 0];
  if (!cholmod_solve2(CHOLMOD_A, m.L, &b, nullptr, &w.X, nullptr, &w.Y, &w.E, &m.c))
    throw std::runtime_error("SymmetricFactorization: CHOLMOD solve failed");
  return static_cast<const double*>(w.X->x);
}

void SymmetricFactorization::solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const {
  if (status_ != FactorStatus::Ok) throw std::logic_error("SymmetricFactorization::solve without a valid factorization");
  if (B.rows() != n_) throw std::logic_error("SymmetricFactorization::solve: wrong right-hand side size");
  const auto t0 = Clock::now();
  const double* x = solve_columns(B.data(), static_cast<int>(B.cols()));
  X.resize(n_, B.cols());
  std::copy(x, x + static_cast<std::ptrdiff_t>(n_) * B.cols(), X.data());
  stats_.solves += B.cols();
  stats_.solve_seconds += seconds_since(t0);
}

void SymmetricFactorization::solve(const Vector& b, Vector& x) const {
  if (status_ != FactorStatus::Ok) throw std::logic_error("SymmetricFactorization::solve without a valid factorization");
  if (b.size() != n_) throw std::logic_error("SymmetricFactorization::solve: wrong right-hand side size");
  const auto t0 = Clock::now();
  const double* out = solve_columns(b.data(), 1);
  x.resize(n_);
  std::copy(out, out + n_, x.data());
  stats_.solves += 1;
  stats_.solve_seconds += seconds_since(t0);
}

void SymmetricFactorization::solve(const Vector& b1, const Vector& b2, Vector& x1, Vector& x2) const {
  if (status_ != FactorStatus::Ok) throw std::logic_error("SymmetricFactorization::solve without a valid factorization");
  if (b1.size() != n_ || b2.size() != n_)
    throw std::logic_error("SymmetricFactorization::solve: wrong right-hand side size");
  const auto t0 = Clock::now();
  Eigen::MatrixXd& B = impl_->pair;
  B.resize(n_, 2);
  B.col(0) = b1;
  B.col(1) = b2;
  const double* x = solve_columns(B.data(), 2);
  x1.resize(n_);
  x2.resize(n_);
  std::copy(x, x + n_, x1.data());
  std::copy(x + n_, x + 2 * static_cast<std::ptrdiff_t>(n_), x2.data());
  stats_.solves += 2;
  stats_.solve_seconds += seconds_since(t0);
}

Vector SymmetricFactorization::solve(const Vector& b) const {
  Vector x;
  solve(b, x);
  return x;
}

int det_sign_lu(const SparseMatrix& K) {
  SparseMatrix A = K;
  A.makeCompressed();
  void* symbolic = nullptr;
  void* numeric = nullptr;
  double control[UMFPACK_CONTROL], info[UMFPACK_INFO];
  umfpack_di_defaults(control);
  const int n = static_cast<int>(A.rows());
  int st = umfpack_di_symbolic(n, n, A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), &symbolic, control, info);
  if (st != UMFPACK_OK) throw std::runtime_error("det_sign_lu: UMFPACK symbolic failed");
  st = umfpack_di_numeric(A.outerIndexPtr(), A.innerIndexPtr(), A.valuePtr(), symbolic, &numeric, control, info);
  umfpack_di_free_symbolic(&symbolic);
  if (st == UMFPACK_WARNING_singular_matrix) {
    umfpack_di_free_numeric(&numeric);
    return 0;
  }
  if (st != UMFPACK_OK) throw std::runtime_error("det_sign_lu: UMFPACK numeric failed");
  double mantissa = 0.0, exponent = 0.0;
  umfpack_di_get_determinant(&mantissa, &exponent, numeric, info);
  umfpack_di_free_numeric(&numeric);
  return mantissa > 0 ? 1 : (mantissa < 0 ? -1 : 0);
}

}  // namespace senda::linalg
