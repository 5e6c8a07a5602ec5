#include "senda/linalg/factorization.hpp"

#include "senda/linalg/distributed.hpp"

#include <cholmod.h>
#include <umfpack.h>

#ifdef SENDA_HAVE_MUMPS
#include "mumps_call.hpp"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

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

const char* to_string(Solver s) {
  switch (s) {
    case Solver::Auto: return "auto";
    case Solver::Cholmod: return "cholmod";
    case Solver::Mumps: return "mumps";
  }
  return "?";
}

std::optional<Solver> solver_from_string(std::string_view s) {
  if (s == "auto") return Solver::Auto;
  if (s == "cholmod") return Solver::Cholmod;
  if (s == "mumps") return Solver::Mumps;
  return std::nullopt;
}

bool mumps_available() {
#ifdef SENDA_HAVE_MUMPS
  return true;
#else
  return false;
#endif
}

Solver resolve(Solver s, int n, double flops) {
  if (s != Solver::Auto) return s;
  const bool dense_work = n >= kMumpsAutoMinUnknowns && flops >= kMumpsAutoFlopsPerUnknown * n;
  // Under mpirun -np P > 1 only MUMPS uses the other processes (distributed.hpp).
  return mumps_available() && (dense_work || mpi_processes() > 1) ? Solver::Mumps : Solver::Cholmod;
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

#ifdef SENDA_HAVE_MUMPS
// One MUMPS instance (sequential library: the dummy MPI of libmpiseq needs no
// MPI_Init, and separate instances share no state; SENDA_MPI: the instance spans
// MPI_COMM_WORLD, rank 0 is the host and works too (PAR = 1), and every call goes
// through detail::mumps_call, which has the other ranks make it with us). Settings, by MUMPS 5.5's
// user guide numbering (ICNTL(k) is icntl[k−1]):
//   SYM = 2       general symmetric: LDLᵀ with 1×1 and 2×2 threshold pivots; the
//                 lower triangle is given, 1-based (irn, jcn), assembled (ICNTL(5) = 0)
//   ICNTL(1-4)    no output (the library prints nothing)
//   ICNTL(7)      the ordering: of AMF (2), SCOTCH (3) and, in the SENDA_MPI build, METIS
//                 (5) (Debian's sequential MUMPS has no METIS; PORD calls exit() on some
//                 small patterns, "no valid number of stages in multisector", and is
//                 never used), the one whose analysis predicts the fewest flops
//                 for the factorization (RINFOG(1)); its permutation (SYM_PERM) is
//                 kept and given back (ICNTL(7) = 1) to the clones' analysis. Measured
//                 (docs/performance.md, with ICNTL(12) = 1): on the 60 × 60 space grid AMF
//                 predicts 3.5·10⁸ flops and SCOTCH 6.2·10⁸, on the 10⁵ lattice dome
//                 3.0·10⁹ and 3.6·10⁹; which wins depends on the pattern.
//   ICNTL(12) = 1 the usual ordering of the pattern, not MUMPS's automatic choice (0),
//                 which for SYM = 2 may order a graph compressed by 2×2 pivot
//                 candidates (ICNTL(12) = 2), a strategy for matrices with zero
//                 diagonals (saddle-point systems). A stiffness matrix has a full
//                 diagonal, and there the compression cost fill and delayed pivots:
//                 measured (docs/performance.md), on the 10⁵ dome the predicted flops of
//                 AMF fell from 5.7·10⁹ to 3.0·10⁹ and of SCOTCH from 4.3·10⁹ to 3.6·10⁹,
//                 the analysis with SCOTCH had 3 478 delayed pivots at every
//                 factorization and now none; on the 60 × 60 space grid AMF fell from
//                 5.8·10⁸ to 3.5·10⁸. A given permutation (ICNTL(7) = 1, the clones) was
//                 never compressed, so the two objects of one path were analysed
//                 differently (with SCOTCH one had the delayed pivots, the other not)
//   ICNTL(13) = 1 no ScaLAPACK on the root front: the root is factorized by MUMPS's
//                 own LDLᵀ, so INFOG(12) counts its negative pivots too. With P > 1
//                 this matters: ScaLAPACK would factorize the root by LU, whose pivots
//                 say nothing of the inertia; the other fronts are still distributed
//   ICNTL(18) = 0 the matrix is given on the host (rank 0) only, as are the
//                 right-hand sides and solutions (ICNTL(20) = ICNTL(21) = 0)
//   ICNTL(24) = 1 null pivot detection with CNTL(3) = −DBL_MIN: a pivot is null when
//                 |pivot| ≤ DBL_MIN, i.e. exactly zero as CHOLMOD's; INFOG(28) counts
//                 them and PIVNUL_LIST names their rows; the other pivots are exact
//   CNTL(4) < 0   (default) no static pivoting: no pivot is perturbed, so INFOG(12)
//                 is the inertia (Sylvester) and not that of a nearby matrix
//   ICNTL(35) = 0 no block low-rank compression (approximate factors)
//   ICNTL(33) = 1 determinant: sign(RINFOG(12)) is checked against the parity of
//                 INFOG(12) after every factorization
struct MumpsState {
  DMUMPS_STRUC_C id{};
  std::vector<MUMPS_INT> irn, jcn;  // 1-based lower-triangle pattern
  std::vector<int> slot;            // position of entry k in K.valuePtr()
  std::vector<double> a;            // values, in the order of irn/jcn
  std::vector<double> rhs;          // right-hand sides in, solutions out (JOB = 3)
  bool initialized = false;

  explicit MumpsState(int n) {
    id.job = -1;  // initialize the instance
    id.par = 1;
    id.sym = 2;
    id.comm_fortran = detail::mumps_comm();
    detail::mumps_call(id);
    if (id.infog[0] < 0) throw std::runtime_error("SymmetricFactorization: MUMPS initialization failed");
    initialized = true;
    id.icntl[0] = -1;
    id.icntl[1] = -1;
    id.icntl[2] = -1;
    id.icntl[3] = 0;
    id.icntl[4] = 0;
    id.icntl[6] = 2;
    id.icntl[12] = 1;
    id.icntl[11] = 1;
    id.icntl[17] = 0;
    id.icntl[23] = 1;
    id.cntl[2] = -std::numeric_limits<double>::min();
    id.icntl[32] = 1;
    id.icntl[34] = 0;
    id.n = n;
  }
  ~MumpsState() {
    if (!initialized) return;
    id.job = -2;
    try {
      detail::mumps_call(id);
    } catch (const std::exception&) {  // MPI already ended: nothing left to free
    }
  }
  MumpsState(const MumpsState&) = delete;
  MumpsState& operator=(const MumpsState&) = delete;

  void set_pattern(const SparseMatrix& K) {
    irn.clear();
    jcn.clear();
    slot.clear();
    const int* p = K.outerIndexPtr();
    const int* i = K.innerIndexPtr();
    for (int j = 0; j < K.outerSize(); ++j)
      for (int k = p[j]; k < p[j + 1]; ++k)
        if (i[k] >= j) {
          irn.push_back(i[k] + 1);
          jcn.push_back(j + 1);
          slot.push_back(k);
        }
    a.assign(slot.size(), 0.0);
  }
  void point_at_arrays() {
    id.nnz = static_cast<MUMPS_INT8>(irn.size());
    id.irn = irn.data();
    id.jcn = jcn.data();
    id.a = a.data();
  }
  // Symbolic analysis: each candidate ordering is tried and the one with the fewest
  // predicted flops kept (its permutation in perm); with a permutation given (a
  // clone), that one alone. Returns INFOG(1) of the analysis that stays.
  int analyse(const std::vector<MUMPS_INT>* given = nullptr) {
    if (given) return analyse_with(*given);
    double best_flops = INFINITY;
    int last = -1;
#ifdef SENDA_MPI
    constexpr int kOrderings[] = {2, 3, 5};  // the MPI MUMPS of Debian has METIS (5)
#else
    constexpr int kOrderings[] = {2, 3};
#endif
    for (const int ordering : kOrderings) {
      id.icntl[6] = ordering;
      if (run(1) < 0) {
        last = -1;  // this instance now holds a failed analysis
        continue;
      }
      if (id.rinfog[0] < best_flops) {
        best_flops = id.rinfog[0];
        perm.assign(id.sym_perm, id.sym_perm + id.n);
        last = ordering;
      } else {
        last = -1;
      }
    }
    if (perm.empty()) return id.infog[0];
    if (last > 0) return id.infog[0];  // the best was the last analysed: it stands
    return analyse_with(std::vector<MUMPS_INT>(perm));
  }
  int analyse_with(const std::vector<MUMPS_INT>& given) {
    perm = given;
    id.icntl[6] = 1;
    id.perm_in = perm.data();
    return run(1);
  }
  std::vector<MUMPS_INT> perm;  // the symmetric permutation of the analysis (1-based)

  // JOB = job; a workspace too small (INFO(1) = −8, −9) is retried with ICNTL(14)
  // doubled (the estimate of the analysis can be short with delayed pivots).
  int run(int job) {
    point_at_arrays();
    for (int attempt = 0;; ++attempt) {
      id.job = job;
      detail::mumps_call(id);
      const int info = id.infog[0];
      if ((info == -8 || info == -9) && attempt < 4 && job == 2) {
        id.icntl[13] = std::max(id.icntl[13], 20) * 2;
        continue;
      }
      return info;
    }
  }
};
#endif

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
  Workspace ws[2];        // one column, two
  Eigen::MatrixXd pair;   // the two right-hand sides of solve(b1, b2, x1, x2), side by side
  void release(Workspace& w) {
    if (w.X) cholmod_free_dense(&w.X, &c);
    if (w.Y) cholmod_free_dense(&w.Y, &c);
    if (w.E) cholmod_free_dense(&w.E, &c);
  }
#ifdef SENDA_HAVE_MUMPS
  std::unique_ptr<MumpsState> mumps;  // set when the backend is MUMPS (then L stays null)
#endif

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
    for (Workspace& w : ws) release(w);
    if (L) cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
  }
};

SymmetricFactorization::SymmetricFactorization(const SparseMatrix& pattern, Solver solver)
    : impl_(std::make_unique<Impl>()) {
  if (pattern.rows() != pattern.cols()) throw std::logic_error("SymmetricFactorization: matrix is not square");
  n_ = static_cast<int>(pattern.rows());
  const auto t0 = Clock::now();
  if (solver != Solver::Mumps) {
    // CHOLMOD's analysis: the backend when it is chosen, and the measure of Auto.
    cholmod_sparse A = view_lower(pattern);
    impl_->L = cholmod_analyze(&A, &impl_->c);
    if (!impl_->L || impl_->c.status < CHOLMOD_OK)
      throw std::runtime_error("SymmetricFactorization: CHOLMOD symbolic analysis failed");
    backend_ = resolve(solver, n_, impl_->c.fl);
    // The analysis's workspace (about 6n integers and n doubles) is more than a
    // numeric factorization needs: released here, factorize() allocates its own.
    cholmod_free_work(&impl_->c);
    if (backend_ == Solver::Cholmod) {
      stats_.analyze_seconds = seconds_since(t0);
      return;
    }
    cholmod_free_factor(&impl_->L, &impl_->c);
  } else {
    backend_ = Solver::Mumps;
  }
  {
#ifdef SENDA_HAVE_MUMPS
    if (!pattern.isCompressed()) throw std::logic_error("SymmetricFactorization: matrix must be compressed");
    impl_->mumps = std::make_unique<MumpsState>(n_);
    impl_->mumps->set_pattern(pattern);
    if (impl_->mumps->analyse() < 0)
      throw std::runtime_error("SymmetricFactorization: MUMPS analysis failed (INFOG(1) = " +
                               std::to_string(impl_->mumps->id.infog[0]) + ")");
    stats_.analyze_seconds = seconds_since(t0);
    return;
#else
    throw std::logic_error("SymmetricFactorization: this build of Senda has no MUMPS backend");
#endif
  }
}

SymmetricFactorization::SymmetricFactorization(const SymmetricFactorization& analysed, CloneTag)
    : impl_(std::make_unique<Impl>()), n_(analysed.n_), backend_(analysed.backend_), lineage_(analysed.lineage_) {
  const auto t0 = Clock::now();
#ifdef SENDA_HAVE_MUMPS
  if (backend_ == Solver::Mumps) {
    // MUMPS keeps its analysis inside the instance: analyse the same pattern again.
    const MumpsState& from = *analysed.impl_->mumps;
    impl_->mumps = std::make_unique<MumpsState>(n_);
    impl_->mumps->irn = from.irn;
    impl_->mumps->jcn = from.jcn;
    impl_->mumps->slot = from.slot;
    impl_->mumps->a.assign(from.slot.size(), 0.0);
    if (impl_->mumps->analyse(&from.perm) < 0) throw std::runtime_error("SymmetricFactorization: MUMPS analysis failed");
    stats_.analyze_seconds = seconds_since(t0);
    return;
  }
#endif
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
  const FactorStatus st = backend_ == Solver::Mumps ? factorize_mumps(K) : factorize_cholmod(K);
  stats_.factorize_seconds += seconds_since(t0);
  return status_ = st;
}

FactorStatus SymmetricFactorization::factorize_mumps([[maybe_unused]] const SparseMatrix& K) {
#ifdef SENDA_HAVE_MUMPS
  MumpsState& m = *impl_->mumps;
  if (!K.isCompressed() || K.nonZeros() <= (m.slot.empty() ? -1 : m.slot.back()))
    throw std::logic_error("SymmetricFactorization: pattern changed");
  const double* v = K.valuePtr();
  for (size_t k = 0; k < m.slot.size(); ++k) m.a[k] = v[m.slot[k]];
  pivot_ratio_ = std::numeric_limits<double>::quiet_NaN();
  const int info = m.run(2);
  if (info == -10) {  // numerically singular (not expected with ICNTL(24) = 1)
    zero_ = 1;
    return FactorStatus::Singular;
  }
  if (info < 0) return FactorStatus::Failed;
  negative_ = m.id.infog[11];
  zero_ = m.id.infog[27];
  if (zero_ > 0) {
    first_zero_ = n_;
    for (int k = 0; k < zero_; ++k) first_zero_ = std::min(first_zero_, m.id.pivnul_list[k] - 1);
    return FactorStatus::Singular;
  }
  // The determinant's sign against the inertia's parity: a disagreement would
  // mean the inertia is not exact, and is reported rather than used.
  const double mantissa = m.id.rinfog[11];
  if (!std::isfinite(mantissa)) return FactorStatus::NotFinite;
  if ((mantissa < 0) != (negative_ % 2 == 1)) return FactorStatus::Failed;
  return FactorStatus::Ok;
#else
  return FactorStatus::Failed;
#endif
}

FactorStatus SymmetricFactorization::factorize_cholmod(const SparseMatrix& K) {
  cholmod_sparse A = view_lower(K);
  impl_->c.status = CHOLMOD_OK;
  const int ok = cholmod_factorize(&A, impl_->L, &impl_->c);
  if (!ok || impl_->c.status < CHOLMOD_OK) return FactorStatus::Failed;

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
  if (!finite) return FactorStatus::NotFinite;
  pivot_ratio_ = dmax > 0 ? dmin / dmax : 0.0;
  return zero_ > 0 ? FactorStatus::Singular : FactorStatus::Ok;
}

MumpsFigures SymmetricFactorization::mumps_figures() const {
  MumpsFigures f;
#ifdef SENDA_HAVE_MUMPS
  if (!impl_->mumps || stats_.factorizations == 0) return f;
  const DMUMPS_STRUC_C& id = impl_->mumps->id;
  // INFOG(29) < 0 counts millions of entries (MUMPS 5.5 user guide, §6.2).
  f.factor_entries = id.infog[28] >= 0 ? static_cast<double>(id.infog[28]) : -1e6 * static_cast<double>(id.infog[28]);
  f.flops = id.rinfog[2];
  f.memory_max_mb = id.infog[20];
  f.memory_total_mb = id.infog[21];
#endif
  return f;
}

int SymmetricFactorization::det_sign() const {
  if (status_ != FactorStatus::Ok) return 0;
  return (negative_ % 2 == 0) ? 1 : -1;
}

const double* SymmetricFactorization::solve_columns(const double* B, int ncol, double* out) const {
  if (ncol > 2 && !out) throw std::logic_error("SymmetricFactorization: a block solve needs its output");
  cholmod_dense b{};
  b.nrow = static_cast<size_t>(n_);
  b.ncol = static_cast<size_t>(ncol);
  b.nzmax = b.nrow * b.ncol;
  b.d = b.nrow;
  b.x = const_cast<double*>(B);
  b.xtype = CHOLMOD_REAL;
  b.dtype = CHOLMOD_DOUBLE;
  Impl& m = *impl_;
#ifdef SENDA_HAVE_MUMPS
  if (m.mumps) {
    MumpsState& s = *m.mumps;
    s.rhs.assign(B, B + static_cast<std::ptrdiff_t>(n_) * ncol);
    s.id.rhs = s.rhs.data();
    s.id.nrhs = ncol;
    s.id.lrhs = n_;
    s.id.icntl[19] = 0;  // dense right-hand sides
    s.id.icntl[20] = 0;  // centralized solution, written over rhs
    if (s.run(3) < 0) throw std::runtime_error("SymmetricFactorization: MUMPS solve failed");
    if (ncol > 2) {  // a block: its n × m array is not kept (see below)
      std::copy(s.rhs.begin(), s.rhs.end(), out);
      std::vector<double>().swap(s.rhs);
      return out;
    }
    return s.rhs.data();
  }
#endif
  // One and two columns (the path's solves, every Newton iteration) keep their
  // workspace. A block of more (the eigenvalue monitor's and the locator's inverse
  // iterations, the locator's three columns) is solved one column at a time with
  // the one-column workspace: a block workspace is 3 n × m doubles (at n = 10⁶,
  // m = 4: 96 MB) in every factorization object that ever solved a block, or as a
  // transient, and it set the location's peak memory (docs/performance.md).
  if (ncol > 2) {
    Impl::Workspace& w = m.ws[0];
    b.ncol = 1;
    b.nzmax = b.nrow;
    for (int k = 0; k < ncol; ++k) {
      b.x = const_cast<double*>(B + static_cast<std::ptrdiff_t>(n_) * k);
      if (!cholmod_solve2(CHOLMOD_A, m.L, &b, nullptr, &w.X, nullptr, &w.Y, &w.E, &m.c))
        throw std::runtime_error("SymmetricFactorization: CHOLMOD solve failed");
      const double* x = static_cast<const double*>(w.X->x);
      std::copy(x, x + n_, out + static_cast<std::ptrdiff_t>(n_) * k);
    }
    return out;
  }
  Impl::Workspace& w = m.ws[ncol > 1 ? 1 : 0];
  if (!cholmod_solve2(CHOLMOD_A, m.L, &b, nullptr, &w.X, nullptr, &w.Y, &w.E, &m.c))
    throw std::runtime_error("SymmetricFactorization: CHOLMOD solve failed");
  return static_cast<const double*>(w.X->x);
}

void SymmetricFactorization::solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const {
  if (status_ != FactorStatus::Ok) throw std::logic_error("SymmetricFactorization::solve without a valid factorization");
  if (B.rows() != n_) throw std::logic_error("SymmetricFactorization::solve: wrong right-hand side size");
  const auto t0 = Clock::now();
  if (B.cols() > 2) {
    // Written straight into X (B is read before X is written; X may be B).
    if (&X != &B) X.resize(n_, B.cols());
    solve_columns(B.data(), static_cast<int>(B.cols()), X.data());
  } else {
    const double* x = solve_columns(B.data(), static_cast<int>(B.cols()));
    X.resize(n_, B.cols());
    std::copy(x, x + static_cast<std::ptrdiff_t>(n_) * B.cols(), X.data());
  }
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
