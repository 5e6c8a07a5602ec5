#pragma once
// Critical points: detection between two path points, classification, and exact
// location with the augmented systems SPL and SPB (docs/theory.md §3–§4).
//
// Notation               code
//   φ                     phi        null vector of K, normalised φᵢ = 1
//   i                     pivot      index of the largest |φⱼ| at the start
//   ρ                     penalty    K̃ = K + ρ eᵢeᵢᵀ
//   γ                     gamma      unfolding parameter of SPB
//   r = −∂g/∂λ            r
//   B h = ∇_q(Kφ) h       directional derivative of the tangent (eq. 6.1)
//
//   SPL  G1 = g(q,λ) = 0,        G2 = K(q)φ = 0,  G3 = eᵢᵀφ − 1 = 0                (eq. 4.1)
//   SPB  G1 = g(q,λ) + γeᵢ = 0,  G2, G3 as SPL,   G4 = φᵀr = 0                    (eq. 4.2)
// Penalized bordering, one factorization of K̃ and six solves per iteration:
//   K̃h0 = −G1   K̃h1 = r   K̃h2 = eᵢ                                             (eq. 4.3)
//   K̃j0 = −G2 − Bh0 − ρeᵢG3   K̃j1 = −Bh1 − K_λφ   K̃j2 = −Bh2                    (eq. 4.4)
//   δq = h0 + δλ h1 + s h2,   δφ = j0 + δλ j1 + s j2                             (eq. 4.5)
//   SPL: s = ρμ, μ = eᵢᵀδq:  μ(1 − ρeᵢᵀh2) − δλ eᵢᵀh1 = eᵢᵀh0,
//                            eᵢᵀj0 + δλ eᵢᵀj1 + ρμ eᵢᵀj2 = −G3                   (eq. 4.6)
//   SPB: eᵢᵀj0 + δλ eᵢᵀj1 + s eᵢᵀj2 = −G3,
//        rᵀj0 + δλ rᵀj1 + s rᵀj2 − (K_λφ)ᵀ(h0 + δλh1 + sh2) − φᵀg_λλ δλ = −G4,
//        μ = eᵢᵀ(h0 + δλh1 + sh2),  δγ = ρμ − s                                  (eq. 4.7)
// K_λ = ∂K/∂λ and g_λλ vanish for proportional loading and are taken by finite
// differences in λ otherwise.
#include <functional>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/linalg/factorization.hpp"
#include "senda/core/problem.hpp"

namespace senda::critical {

enum class DetectTest { Det, Inertia, Both };
const char* to_string(DetectTest t);
std::optional<DetectTest> detect_test_from_string(const std::string& s);

enum class CriticalKind { Limit, Bifurcation, Multiple };
const char* to_string(CriticalKind k);

// What the signs at the ends of a bracket say (bracket_evidence() below).
enum class BracketEvidence { None, Limit, Bifurcation };
const char* to_string(BracketEvidence e);

// Whether the crossing counts under the chosen test.
bool detected(const continuation::Crossing& c, DetectTest test);

struct LocateOptions {
  double tolerance = 1e-10;              // on the scaled augmented residual (eq. 4.8)
  int max_iterations = 20;               // Newton iterations on SPL/SPB (re-joining points may need 10+)
  double bifurcation_tolerance = 1e-6;   // ε_b on |φᵀr| / (‖φ‖ r_s), see CriticalPoint::phi_dot_r;
                                         // not used for a bracket that is a limit point by its signs
  double penalty = 0.0;                  // ρ; 0 = mean |diag K| + |K_ii| at the start
  double penalty_floor = 0.0;            // lower bound of that ρ: a start at a critical point of a
                                         // one-unknown problem has K ≈ 0 (curves of critical points)
  bool use_exact_derivative = false;     // use Problem::tangent_derivative when provided (Beam3D has it)
  int inverse_iterations = 4;            // block inverse iterations for the start mode φ
  int subspace_size = 4;                 // eigenpairs nearest zero matched across the bracket
  double force_scale = 0.0;              // floor of the force scale of G1 (the path's, eq. 2.9)
  linalg::Solver linear_solver = linalg::Solver::Auto;  // backend of its factorizations of K
  std::function<bool()> stop_requested;  // polled every iteration: true ends it, not converged
};

struct BranchTangent {
  Vector q;
  double lambda = 0.0;  // unit in the scaled norm
};

// The algebraic bifurcation equation at a simple bifurcation point (branch.hpp).
struct BifurcationEquation {
  double A = 0.0, B1 = 0.0, B2 = 0.0, C = 0.0;
  bool symmetric = false;
  bool valid = false;  // false when B² − AC ≤ 0 (no two distinct real tangents)
  std::string message;
  BranchTangent tangents[2];
  int incoming = 0;                 // index of the tangent of the path that reached the point
  double incoming_alignment = 0.0;  // |cos| between that tangent and the incoming secant
};

struct CriticalPoint {
  std::string id;  // LP1, BP1, MP1, ...
  CriticalKind kind = CriticalKind::Limit;
  bool converged = false;
  std::string message;    // why not converged, or how it was located
  std::string system;     // "SPL" or "SPB": the system that converged
  // The located point and its mode. When converged is false they are the last
  // Newton iterate (or a bracket end) and mean nothing: the outputs give no λ,
  // displacements nor mode for such a point, only its bracket below.
  Vector q, phi;
  double lambda = 0.0;
  double gamma = 0.0;     // SPB unfolding parameter at the solution (≈ 0)
  double residual = 0.0;  // final scaled residual
  int newton_iterations = 0;
  std::vector<double> residual_history;  // scaled residual at the start and after each iteration
  double phi_dot_r = 0.0;                // |φᵀr| / (‖φ‖ r_s), r_s = max(‖r‖, force scale / max(1,|λ|))
  // ≥ 0: converged at the residual's round-off floor, not at the tolerance (docs/theory.md
  // §4): λ's relative spread over the last iterates, what λ holds to (up to √tol).
  // −1: converged at the tolerance, or not converged.
  double floor_lambda_spread = -1.0;
  BracketEvidence evidence = BracketEvidence::None;  // what the bracket's signs said (locate() only)
  int point_before = 0, point_after = 0;  // bracket on the path
  double lambda_before = 0.0, lambda_after = 0.0;
  int negative_pivots_change = 0;  // after − before
  int multiplicity = 1;
  int start_point = 0;   // the bracket point Newton started from (−1: a sub-point of a refined step)
  long factorizations = 0;
  int pivot = -1;        // i of eᵢ
  double penalty = 0.0;  // ρ used
  Vector v;              // K̃⁻¹ r at the solution (h1), a particular solution of K v = r with vᵢ = 0
  std::vector<int> branches;  // branches on which it was found (the first one located it)
  std::optional<BifurcationEquation> abe;
  bool switched = false;      // a secondary branch was started (or arrived) here
  int neutral_branch = -1;    // ≥ 0: it lies on a neutral stretch of that branch that λ did
                              // not leave (branch.hpp, NeutralStretch), located before the
                              // stretch was recognised; no branch is switched at it
};

// What the signs at the two ends of a bracket say of the point crossed
// (docs/theory.md §4, classification), with sign t_λ = bordered_sign · det_sign (eq. 3.2):
//   det K changes, bordered determinant does not (t_λ changes: λ extremal)  → Limit
//   bordered determinant changes (det K with t_λ fixed: a bifurcation crossed along
//   the path; or t_λ with det K fixed: one reached where λ is extremal)   → Bifurcation
//   a sign unknown (0) at either end, or neither changes                     → None
// Limit is conclusive (a simple bifurcation always changes the bordered sign);
// Bifurcation only says that the point may be one: φᵀr decides.
BracketEvidence bracket_evidence(const continuation::PathPoint& before, const continuation::PathPoint& after);

// Locates the critical point bracketed by `before` and `after` (consecutive path
// points), given the factorization of K at `after`. Never throws for a numerical
// outcome: a failure is a CriticalPoint with converged = false and a message.
// Classification: a Limit bracket (bracket_evidence) is located with SPL alone and is
// a limit point whatever φᵀr (an imperfect structure near its bifurcation has a small
// one); otherwise Newton starts on SPL, may switch to SPB, and |φᵀr| < ε_b at the
// solution makes a bifurcation (so it does for points whose bracket signs are unknown).
// scratch: a factorization object for the problem's tangent pattern that the
// location may factorize its own matrices over (the start mode's other end, SPL/SPB's
// penalized K) instead of creating its own: the path follower's idle_factorization(),
// so that locating holds one factor less (docs/performance.md). Its counters are put
// back; the location's factorizations are counted in the CriticalPoint. Not
// factor_after. nullptr: the location creates its own.
CriticalPoint locate(const Problem& problem, const continuation::PathPoint& before,
                     const continuation::PathPoint& after, const linalg::SymmetricFactorization& factor_after,
                     const LocateOptions& options, linalg::SymmetricFactorization* scratch = nullptr);

// Which augmented system refine() solves: SPL switching to SPB when φᵀr vanishes
// (as locate() does), or one of them throughout.
enum class AugmentedSystem { Auto, Limit, Bifurcation };

// Newton on SPL/SPB from a state (q, λ) near a critical point and a guess φ of its
// mode (the pivot i is the largest |φⱼ|). lambda_span is the scale of λ-updates
// for the convergence test (the bracket width in locate()). Used by locate() after
// it has chosen the start mode, and by the critical-point curves of design.hpp.
// No bracket fields are set; kind is classified by φᵀr as in locate().
// scratch as for locate().
CriticalPoint refine(const Problem& problem, const Vector& q, double lambda, const Vector& phi, double lambda_span,
                     AugmentedSystem system, const LocateOptions& options,
                     linalg::SymmetricFactorization* scratch = nullptr);

}  // namespace senda::critical

namespace senda::critical {

struct FinderOptions {
  DetectTest detect = DetectTest::Both;
  bool locate = true;  // false: report crossings as unlocated critical points
  LocateOptions locate_options;
  // Step refinement (docs/theory.md §4, "Close critical points"): a step whose
  // signs do not describe exactly one simple crossing (its inertia changes by 2 or
  // more, or by 0 with the bordered determinant changed: a fold and a bifurcation
  // point), or whose point is located outside it, is bisected on the path until
  // every piece holds one simple crossing located inside it, or is shorter, in the
  // scaled norm, than refine_fraction × the step; what remains is a multiple point,
  // or a point not located with its bracket. 0 turns the refinement off.
  double refine_fraction = 1e-3;
  // Eigenvalue monitor (docs/theory.md §4, "Crossings that cancel in one step"): at
  // every accepted point the subspace_size eigenvalues of K nearest zero and their
  // derivatives along the path; a step whose signs show nothing but along which a
  // matched eigenvalue's cubic Hermite fit changes sign (two crossings of one
  // eigenvalue that cancel, or two eigenvalues crossing in opposite directions) is
  // split where the fit is extremal and resolved as above. Costs a few solves with
  // the point's factorization and one assembly of K per step; no factorization.
  bool monitor_eigenvalues = true;
};

// The eigenpairs of K nearest zero at a path point and their derivatives along the
// path (FinderOptions::monitor_eigenvalues): μ ascending in |μ|, x orthonormal, dμ/ds
// per unit arc length of the scaled norm in the direction the path goes.
struct PathEigenvalues {
  Vector q;  // the point they belong to
  double lambda = 0.0;
  Eigen::VectorXd mu, dmu;
  Eigen::MatrixXd x;
};

// The largest radius within which two located points are one (relative; also the
// cap of a secondary branch's test of having left its point, BranchExplorer).
inline constexpr double kMaxSameRadius = 1e-2;

// Watches paths: after each accepted step of a follower, call check(); when the
// step crossed a critical point under the chosen test it is located (or reported
// unlocated) and numbered LP1, LP2… / BP1… / MP1… in order of discovery. A point
// located again on another branch is the same point, with a second branch reference.
// A step that crossed several close points is refined and reports each of them,
// in their order along the path (FinderOptions::refine_fraction). A located point
// outside its bracket is never reported as located (issue 19, item 2).
class CriticalPointFinder {
 public:
  struct Found {
    int index = -1;      // into points()
    bool is_new = false; // false: a point located before, reached from another branch
    // Chord of the (sub-)bracket that located it: the direction of the path
    // that reached the point (for the incoming tangent of a bifurcation point).
    Vector secant_q;
    double secant_lambda = 0.0;
  };
  explicit CriticalPointFinder(const FinderOptions& options) : options_(options) {}
  // The points the last step of `follower` crossed, in path order (empty: none).
  std::vector<Found> check(const continuation::PathFollower& follower, int branch = 0);
  // Whether the last step of `follower` shows a crossing by its signs, under the
  // chosen test (not the eigenvalue monitor's dips, which need a split to confirm
  // them), without locating it or
  // recording anything but the monitor's data for the next step. For a stretch of
  // path where every point is critical (a neutral path, BranchExplorer).
  bool crossed(const continuation::PathFollower& follower, int branch = 0);
  const std::vector<CriticalPoint>& points() const { return points_; }
  std::vector<CriticalPoint>& points() { return points_; }
  const FinderOptions& options() const { return options_; }
  long factorizations() const { return factorizations_; }
  // Takes a point located elsewhere (a saved state); later ids continue its numbering.
  int adopt(const CriticalPoint& cp);
  // Two located points are one within what the locations resolve (about 100 times
  // the location tolerance, at least 1e-6 in q and 1e-8 in λ, at most 1e-2, relative).
  // States are compared in units of the structure's size (core::UnknownScale) once
  // the finder knows its problem: from measure_by(), or from the first check().
  bool same_point(const CriticalPoint& a, const CriticalPoint& b) const;
  // The problem whose unknowns same_point measures (their kinds and the size L).
  void measure_by(const Problem& problem);
  // That measure; null until measure_by() or the first check().
  const core::UnknownScale* unknown_scale() const { return scale_ ? &*scale_ : nullptr; }

 private:
  // What a step shows before anything is located: the crossing by the signs, the
  // monitor's data at its two ends (before points into monitors_) and the position
  // of a crossing the monitor predicts (−1: none).
  struct StepScan {
    bool seen = false;
    std::optional<PathEigenvalues> after;
    std::pair<int, PathEigenvalues>* slot = nullptr;
    const PathEigenvalues* before = nullptr;
    double predicted = -1.0;
  };
  StepScan scan(const continuation::PathFollower& follower, int branch);
  void keep(StepScan& s, int branch);
  struct Candidate {
    CriticalPoint cp;
    Vector secant_q;
    double secant_lambda = 0.0;
  };
  void resolve_step(const continuation::PathFollower& follower, const LocateOptions& lo,
                    std::vector<Candidate>& out, const PathEigenvalues* before = nullptr,
                    const PathEigenvalues* after = nullptr, double predicted = -1.0);
  Found record(CriticalPoint cp, int branch);

  FinderOptions options_;
  std::optional<core::UnknownScale> scale_;  // same_point's measure; none: raw norms
  std::vector<CriticalPoint> points_;
  std::vector<std::pair<int, PathEigenvalues>> monitors_;  // (branch, its last point's), the 2 latest branches
  int limits_ = 0, bifurcations_ = 0, multiples_ = 0;
  long factorizations_ = 0;
};

}  // namespace senda::critical
