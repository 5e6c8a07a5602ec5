#pragma once
// Factorization of a sparse symmetric (possibly indefinite or singular) matrix.
//
//   P K Pᵀ = L D Lᵀ     (fill-reducing ordering P chosen once)
//
// Two backends behind one interface (Solver below):
//   Cholmod — CHOLMOD simplicial LDLᵀ, no pivoting beyond P: D is diagonal.
//   Mumps   — MUMPS multifrontal LDLᵀ (sequential, or MPI with SENDA_MPI), SYM = 2, threshold pivoting
//             with 1×1 and 2×2 pivots: D is block diagonal; the inertia is MUMPS's
//             INFOG(12) (negative pivots) and INFOG(28) (exactly zero pivots).
//
// By Sylvester's law of inertia the number of negative entries of D equals the
// number of negative eigenvalues of K, and sign(det K) = Π sign(Dⱼⱼ). Both are
// read from D, never from a logarithm of a determinant (docs/theory.md §3).
//
// The symbolic analysis is done once for a pattern; factorize() is numeric only.
// Several right-hand sides are solved with one factorization.
#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string_view>

#include "senda/core/problem.hpp"

namespace senda::linalg {

enum class FactorStatus {
  Ok,          // every pivot nonzero and finite
  Singular,    // an exactly zero pivot: K is singular (solves are not available)
  NotFinite,   // K holds NaN or Inf, or a pivot overflowed
  Failed,      // the backend reported an error (out of memory, ...)
};
const char* to_string(FactorStatus s);

// Which sparse factorization does the work. Auto: MUMPS when the pattern's
// factorization is dense work, CHOLMOD otherwise (and always when Senda is built
// without MUMPS). The measure is CHOLMOD's own symbolic analysis (AMD), done first:
// its predicted flops per unknown. MUMPS's multifrontal fronts run dense BLAS
// kernels (3–10× CHOLMOD's simplicial LDLᵀ on the space grids with OpenBLAS) but
// cost ~5 µs per unknown and per call on patterns with no fill (the tridiagonal
// Bratu matrix: 5.5 s against CHOLMOD's 0.05 s at 10⁶ unknowns), so the choice is by
// work, not by size (docs/performance.md, "CHOLMOD against MUMPS"). Under
// mpirun -np P > 1, MUMPS at every size (distributed.hpp).
enum class Solver { Auto, Cholmod, Mumps };
const char* to_string(Solver s);
std::optional<Solver> solver_from_string(std::string_view s);
// True when this build has the MUMPS backend.
bool mumps_available();
inline constexpr int kMumpsAutoMinUnknowns = 1000;
inline constexpr double kMumpsAutoFlopsPerUnknown = 5000.0;
// The backend Auto stands for at n unknowns whose CHOLMOD analysis predicts
// `flops` floating-point operations per factorization (Cholmod and Mumps stand for
// themselves).
Solver resolve(Solver s, int n, double flops);

// Work counters; kept per factorization object (no global state).
struct FactorStats {
  long factorizations = 0;
  long solves = 0;  // right-hand sides solved
  double analyze_seconds = 0.0;    // symbolic analysis (ordering, elimination tree) or its copy
  double factorize_seconds = 0.0;  // numeric factorizations
  double solve_seconds = 0.0;
};
inline FactorStats& operator+=(FactorStats& a, const FactorStats& b) {
  a.factorizations += b.factorizations;
  a.solves += b.solves;
  a.analyze_seconds += b.analyze_seconds;
  a.factorize_seconds += b.factorize_seconds;
  a.solve_seconds += b.solve_seconds;
  return a;
}
inline FactorStats& operator-=(FactorStats& a, const FactorStats& b) {
  a.factorizations -= b.factorizations;
  a.solves -= b.solves;
  a.analyze_seconds -= b.analyze_seconds;
  a.factorize_seconds -= b.factorize_seconds;
  a.solve_seconds -= b.solve_seconds;
  return a;
}

// MUMPS's own statistics of a factorization (MUMPS 5.5 user guide, §6.2): the
// entries of the factors summed over the processes, INFOG(29); the flops of the
// elimination, RINFOG(3); the memory (MB) that the factorization used on the
// process that used most, INFOG(21), and on all processes, INFOG(22). Zero for
// CHOLMOD and before the first factorization.
struct MumpsFigures {
  double factor_entries = 0.0, flops = 0.0;
  int memory_max_mb = 0, memory_total_mb = 0;
};

class SymmetricFactorization {
 public:
  // Symbolic analysis of the pattern of K (both triangles or the lower one) by
  // the backend resolve(solver, n, flops). Solver::Mumps in a build without MUMPS throws
  // std::logic_error.
  explicit SymmetricFactorization(const SparseMatrix& pattern, Solver solver = Solver::Auto);
  ~SymmetricFactorization();
  SymmetricFactorization(const SymmetricFactorization&) = delete;
  SymmetricFactorization& operator=(const SymmetricFactorization&) = delete;

  // A second, independent factorization object for the same pattern that copies
  // this one's symbolic analysis (ordering, elimination tree) instead of redoing
  // it: the analysis costs as much as several numeric factorizations of a sparse K.
  // (MUMPS cannot copy an analysis between instances: its clone analyses again,
  // with the ordering of this one given, so that no ordering is computed.)
  std::unique_ptr<SymmetricFactorization> clone_analysis() const;
  // The live objects that share this one's analysis: itself, the objects cloned
  // from it, from the object it was cloned from, and so on (e.g. a path follower's
  // two objects and the critical-point finder's copies): what the factors of one
  // structure hold at once (docs/performance.md).
  long analysis_copies() const { return lineage_.use_count(); }

  // Numeric factorization of K (same pattern as at construction; only the lower
  // triangle is read).
  FactorStatus factorize(const SparseMatrix& K);

  FactorStatus status() const { return status_; }
  int size() const { return n_; }
  Solver backend() const { return backend_; }  // Cholmod or Mumps, never Auto
  // Inertia of the last factorized matrix: counts of negative / zero pivots.
  int negative_pivots() const { return negative_; }
  int zero_pivots() const { return zero_; }
  // sign(det K) ∈ {−1, 0, +1}.
  int det_sign() const;
  // The smallest |Dⱼⱼ| relative to the largest (a cheap conditioning hint).
  // CHOLMOD only: MUMPS does not report its pivots, and this is NaN.
  double pivot_ratio() const { return pivot_ratio_; }
  // Position (equation number, unpermuted) of the first exactly zero pivot, or −1
  // (MUMPS: the first row of its PIVNUL_LIST).
  int first_zero_pivot() const { return first_zero_; }

  // X = K⁻¹ B for every column of B. Requires status() == Ok.
  void solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const;
  // x = K⁻¹ b; x keeps its storage when it already has the size (no allocation).
  void solve(const Vector& b, Vector& x) const;
  // x1 = K⁻¹ b1 and x2 = K⁻¹ b2 in one sweep of the factor (outputs may alias inputs).
  void solve(const Vector& b1, const Vector& b2, Vector& x1, Vector& x2) const;
  Vector solve(const Vector& b) const;

  const FactorStats& stats() const { return stats_; }
  // Puts the counters back to s: for a caller that lends this object out for work
  // that is not its own (the path follower's idle Newton factorization to the
  // critical-point locator), so that the owner's counts stay its own.
  void restore_stats(const FactorStats& s) { stats_ = s; }
  // Of the last factorization (MUMPS only).
  MumpsFigures mumps_figures() const;

 private:
  struct CloneTag {};
  SymmetricFactorization(const SymmetricFactorization& analysed, CloneTag);
  // ncol contiguous columns solved by the backend; returns the result columns
  // (storage owned by the backend, valid until the next solve), or, for more than
  // two columns, writes them to out (n × ncol) and keeps no workspace for them.
  const double* solve_columns(const double* B, int ncol, double* out = nullptr) const;
  FactorStatus factorize_cholmod(const SparseMatrix& K);
  FactorStatus factorize_mumps(const SparseMatrix& K);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int n_ = 0;
  Solver backend_ = Solver::Cholmod;
  FactorStatus status_ = FactorStatus::Failed;
  int negative_ = 0, zero_ = 0, first_zero_ = -1;
  double pivot_ratio_ = 0.0;
  mutable FactorStats stats_;
  std::shared_ptr<const int> lineage_ = std::make_shared<const int>(0);  // shared by the clones
};

// Sign of det K from an LU factorization with partial pivoting (UMFPACK):
// independent of the LDLᵀ above and used to cross-check it in tests.
int det_sign_lu(const SparseMatrix& K);

}  // namespace senda::linalg
