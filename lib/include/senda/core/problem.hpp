#pragma once
// The problem interface (docs/theory.md, eq. (1)): senda::core, the bottom layer.
// Everything else depends on it; it depends on Eigen only.
//
// Notation          code
//   q ∈ Rⁿ            q            unknowns (free degrees of freedom)
//   λ                 lambda       load factor
//   g(q, λ)           residual()   out-of-balance force, zero at equilibrium
//   K = ∂g/∂q         tangent()    symmetric sparse tangent stiffness
//   ∂g/∂λ             dg_dlambda() equals −r for proportional loading g = f(q) − λ r
//
// Everything Senda does (path following, critical points, branch switching) talks
// to a structure only through this interface, so a user can trace any smooth
// one-parameter system (the Bratu benchmark in benchmarks/ is one) without the
// finite-element model.
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>

namespace senda::core {

using Vector = Eigen::VectorXd;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

// What an unknown measures; increments are scaled per kind (docs/theory.md §2.4).
enum class DofKind { Translation, Rotation, Generic };

class Problem {
 public:
  virtual ~Problem() = default;

  // Number of unknowns n.
  virtual int size() const = 0;

  // g(q, λ).
  virtual void residual(const Vector& q, double lambda, Vector& g) const = 0;

  // The sparsity pattern of K: both triangles stored, fixed for the life of the
  // problem (it is analysed once). Values are irrelevant.
  virtual const SparseMatrix& tangent_pattern() const = 0;

  // K(q, λ) written into K, which has exactly the structure of tangent_pattern().
  virtual void tangent(const Vector& q, double lambda, SparseMatrix& K) const = 0;

  // ∂g/∂λ (q, λ). The default differentiates residual() by central differences;
  // proportional problems override it with the exact −r.
  virtual void dg_dlambda(const Vector& q, double lambda, Vector& out) const;

  // True when g = f(q) − λ r − d with r and d fixed (so ∂g/∂λ is constant and K
  // does not depend on λ). Lets algorithms skip λ-derivatives of K.
  virtual bool is_proportional() const { return false; }

  // Optional exact directional derivative of the tangent, out = ∇_q(K(q) a)·b.
  // Returns false when not provided; callers then use finite differences
  // (docs/theory.md §6), which are the default and the reference for tests.
  virtual bool tangent_derivative(const Vector& /*q*/, double /*lambda*/, const Vector& /*a*/,
                                  const Vector& /*b*/, Vector& /*out*/) const {
    return false;
  }

  virtual DofKind dof_kind(int /*i*/) const { return DofKind::Generic; }

  // The length that one unit of a kind of unknown stands for, so that kinds can be
  // compared (the path's scaling, docs/theory.md eq. 2.10): a rotation θ moves the
  // structure by about θ L, L its size. 1 by default (every kind in its own units).
  virtual double kind_length(DofKind /*kind*/) const { return 1.0; }

  // The size of the terms whose sum is g(q, λ), as a norm over the unknowns; g is
  // computed to about eps times it (docs/theory.md eq. 2.9a). The default, 0, leaves
  // the follower with its own estimate ‖ |K| |q| ‖ (eq. 2.9: q is the whole state,
  // as in the Bratu problem). The finite-element model sums |K_e| |x_e − x̄_e| over
  // its elements (x_e their current coordinates, x̄_e their centre): an element's
  // forces are computed from its own coordinate differences, rounded to eps times
  // its length, whatever its distance from the origin.
  virtual double force_terms(const Vector& /*q*/, double /*lambda*/) const { return 0.0; }

  // Human-readable name of unknown i, used in messages ("node 3 uy").
  // Appended, not "q" + std::to_string(i): GCC 12 warns on that (-Wrestrict, a false
  // positive, GCC PR 105329) wherever this header is included.
  virtual std::string dof_name(int i) const { return std::string("q").append(std::to_string(i)); }

  // Where the unknowns' chart is singular at q, what it is ("node 7 turned by
  // 6.28319, 2π: ..."); empty elsewhere. K is singular there whatever the
  // structure, so a critical point located there is the chart's, not the
  // structure's (docs/notes/beam3d.md S.8: the rotation vector at |ψ| = 2π).
  virtual std::string chart_singularity(const Vector& /*q*/) const { return {}; }

  // Where the model's own kinematics is singular at q, what it is (an element of zero
  // length: "truss 2 is 1.6e-06 of its length at rest ..."); empty elsewhere. A path
  // that cannot go on near such a state says so (PathFollower, step-too-small).
  virtual std::string degenerate_configuration(const Vector& /*q*/) const { return {}; }
};

// The unknowns as fractions of the problem's size L = kind_length(Rotation): unknown i
// in units of L is q_i c_i / L, c_i = kind_length of its kind (a translation over L, a
// rotation θ as it is, since θ L / L). Distances between states taken so do not
// depend on the unit of length, where a raw ‖q‖ next to an absolute 1 does (the
// same-point radius 1e-6 (1 + ‖q‖) is the whole of a dome 1e-6 across). Used by
// CriticalPointFinder::same_point, a branch's test of having left its point, --from's
// nearness, the mechanism check and the branch metric. For a problem without kinds
// (every kind_length 1) it is the identity, and every norm is the raw one.
class UnknownScale {
 public:
  // Asks kind_length once per kind (Model::kind_length scans every node) and
  // dof_kind once per unknown.
  explicit UnknownScale(const Problem& p);
  // ‖diag(s) v‖: v measured in units of L.
  double norm(const Vector& v) const;
  // ‖diag(s)(a − b)‖, with no n-vector temporary.
  double distance(const Vector& a, const Vector& b) const;
  // The per-unknown lengths c_i (kind_length of each unknown's kind, 1 where it is
  // not a positive finite number), and L.
  const Vector& lengths() const { return c_; }
  double size() const { return L_; }

 private:
  Vector c_;
  double L_ = 1.0;
};

// The structure's size L: kind_length(Rotation), 1 where that is not a positive finite
// number (UnknownScale::size() is the same).
double structure_size(const Problem& p);

// The length ℓ₀ in the difference steps of the tangent's derivatives,
// ε = c (ℓ₀ + ‖q‖)/‖d‖ (c = √eps or cbrt(eps)): min(1, L), L = kind_length(Rotation)
// the structure's size. K varies over an element's length, not the structure's, so
// that ℓ₀ = L (a step of c L) was measured worse on slender meshed frames (SPB took 8
// iterations on Argyris's frame of 32 elements, where the absolute 1 takes 6), while
// an absolute 1 is the whole structure in a model less than 1 across (a dome 1e-6
// across lost its limit points). min(1, L) is the 1 that every catalogue problem of
// at least unit size was validated with, and the structure's size below it.
double difference_length(const Problem& p);

// A fingerprint of the problem's unknowns, their number and names in order
// ("n=2;fnv1a64=…" over dof_name(0) … dof_name(n − 1)): written into saved states so
// that a state of another model with as many unknowns (node 2 uy against node 2 ux)
// is told from one of this model. Not a cryptographic hash.
std::string unknowns_fingerprint(const Problem& p);

}  // namespace senda::core

// The bottom layer's names are used throughout Senda; they are also senda::Problem,
// senda::Vector, ... so that a user's problem reads as in docs/api.md.
namespace senda {
using core::DofKind;
using core::Problem;
using core::SparseMatrix;
using core::Vector;
}  // namespace senda
