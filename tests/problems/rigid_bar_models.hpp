#pragma once
// Rigid-bar stability models and the steep von Mises truss, for the problem
// catalogue tests (docs/validation.md, docs/notes/three-bar.md).
//
// Each rigid-bar model is a senda::Problem with the chain angles as unknowns and
// λ = P, a dead vertical load (downward, so it does work P·L(1 − cos θ) when the
// bar tilts). Every model derives from its total potential energy
//
//   V(θ, P) = U(θ) − P · L · Σ (1 − cos θᵢ)
//
// so g = ∂V/∂θ, K = ∂²V/∂θ² is symmetric and ∂g/∂λ = −L sin θ. The load enters
// through the geometry (g is not f(q) − λ r with r fixed), so is_proportional()
// is false and K depends on λ. tangent_derivative() returns the exact
// ∇_q(K a)·b = Σᵢⱼₖ V,ᵢⱼₖ aⱼ bₖ.
//
// Notation                         code
//   L, ℓ   bar / link length          length_
//   c      rotational spring          c_
//   k      translational spring       k_
//   θ      bar angle from the vertical q[0] (chains: q[i] the absolute angle of link i+1)
//   P      dead load = λ              lambda
//
// Closed forms (sources in docs/validation.md; all derived from V above):
//   (a) base rotational spring:  U = ½cθ²
//       g = cθ − PL sin θ,  P_cr = c/L,  secondary branch P = cθ/(L sin θ)   (stable symmetric)
//   (b) top spring kept horizontal: U = ½k(L sin θ)²
//       g = kL² sin θ cos θ − PL sin θ,  P_cr = kL,  branch P = kL cos θ     (unstable symmetric)
//   (c) spring from the top to the ground point (L, 0), at 45° when θ = 0; θ > 0 tilts
//       the top towards that point: l = L√2·√(1 − sin θ), l₀ = L√2, U = ½k(l − l₀)²
//       g = kL²·cos θ·(1/√(1 − sin θ) − 1) − PL sin θ,  P_cr = kL/2,
//       branch P = kL cos θ (1/√(1 − sin θ) − 1)/sin θ ≈ (kL/2)(1 + ¾θ)     (asymmetric)
//   (d) N-link clamped–free chain, links ℓ, spring c at every joint (base included):
//       U = ½c Σᵢ (θᵢ − θᵢ₋₁)², θ₀ = 0;  K(0, P) = c T − Pℓ I with
//       T = tridiag(−1, 2, −1) except T_NN = 1, whose eigenvalues are
//       4 sin²((2j − 1)π / (2(2N + 1))), j = 1…N, so
//       P_cr = (c/ℓ) · 4 sin²(π / (2(2N + 1)))
//   steep von Mises truss (Green–Lagrange, supports (±a, 0), apex (0, h), EA):
//       P(w) = EA (h − w) w (2h − w) / L₀³ on the symmetric path (w apex drop),
//       sway bifurcation where w(2h − w) = 2a²: w_b = h − √(h² − 2a²),
//       P_b = 2EA a² √(h² − 2a²)/L₀³; limit point w = h(1 − 1/√3),
//       P_max = (2/(3√3)) EA h³/L₀³.
#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <Eigen/SparseCore>

#include "senda/model/model.hpp"
#include "senda/core/problem.hpp"
#include "senda/model/truss.hpp"

namespace senda::problems {

// Common part of the one-angle models: V = U(θ) − P L (1 − cos θ).
class RigidBarModel : public Problem {
 public:
  explicit RigidBarModel(double length) : length_(length) {
    if (!(length > 0.0)) throw std::logic_error("RigidBarModel: length must be positive");
    std::vector<Eigen::Triplet<double>> t{{0, 0, 0.0}};
    pattern_.resize(1, 1);
    pattern_.setFromTriplets(t.begin(), t.end());
  }
  int size() const override { return 1; }
  void residual(const Vector& q, double lambda, Vector& g) const override {
    g.resize(1);
    g[0] = dU(q[0]) - lambda * length_ * std::sin(q[0]);
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector& q, double lambda, SparseMatrix& K) const override {
    K.valuePtr()[0] = d2U(q[0]) - lambda * length_ * std::cos(q[0]);
  }
  void dg_dlambda(const Vector& q, double /*lambda*/, Vector& out) const override {
    out.resize(1);
    out[0] = -length_ * std::sin(q[0]);
  }
  bool tangent_derivative(const Vector& q, double lambda, const Vector& a, const Vector& b,
                          Vector& out) const override {
    out.resize(1);
    out[0] = (d3U(q[0]) + lambda * length_ * std::sin(q[0])) * a[0] * b[0];
    return true;
  }
  DofKind dof_kind(int) const override { return DofKind::Rotation; }
  std::string dof_name(int) const override { return "theta"; }

  double length() const { return length_; }
  // Load on the secondary branch through θ ≠ 0: P = U'(θ)/(L sin θ).
  double branch_load(double theta) const { return dU(theta) / (length_ * std::sin(theta)); }
  virtual double critical_load() const = 0;

 protected:
  virtual double dU(double theta) const = 0;
  virtual double d2U(double theta) const = 0;
  virtual double d3U(double theta) const = 0;
  double length_;

 private:
  SparseMatrix pattern_;
};

// (a) Rotational spring c at the base.
class RotationalSpringBar final : public RigidBarModel {
 public:
  RotationalSpringBar(double length, double c) : RigidBarModel(length), c_(c) {}
  double critical_load() const override { return c_ / length_; }

 private:
  double dU(double t) const override { return c_ * t; }
  double d2U(double) const override { return c_; }
  double d3U(double) const override { return 0.0; }
  double c_;
};

// (b) Translational spring k at the top whose line of action stays horizontal
// (its far end rides on a vertical guide): extension L sin θ.
class HorizontalSpringBar final : public RigidBarModel {
 public:
  HorizontalSpringBar(double length, double k) : RigidBarModel(length), k_(k) {}
  double critical_load() const override { return k_ * length_; }

 private:
  // U = ½ k L² sin²θ
  double dU(double t) const override { return 0.5 * k_ * length_ * length_ * std::sin(2 * t); }
  double d2U(double t) const override { return k_ * length_ * length_ * std::cos(2 * t); }
  double d3U(double t) const override { return -2.0 * k_ * length_ * length_ * std::sin(2 * t); }
  double k_;
};

// (c) Linear spring from the top of the bar to the ground point (L, 0).
// With s = sin θ, F(θ) = cos θ (1/√(1 − s) − 1) = U'/(kL²):
//   F'  = s + ½√(1 − s)
//   F'' = cos θ (1 − 1/(4√(1 − s)))
// (valid for sin θ < 1, i.e. before the top reaches the anchor's line).
class InclinedSpringBar final : public RigidBarModel {
 public:
  InclinedSpringBar(double length, double k) : RigidBarModel(length), k_(k) {}
  double critical_load() const override { return 0.5 * k_ * length_; }
  // Spring length and its natural length, for checks of the energy.
  double spring_length(double t) const { return length_ * std::sqrt(2.0 * (1.0 - std::sin(t))); }
  double natural_length() const { return length_ * std::sqrt(2.0); }
  double energy(double theta, double P) const {
    const double e = spring_length(theta) - natural_length();
    return 0.5 * k_ * e * e - P * length_ * (1.0 - std::cos(theta));
  }

 private:
  double kl2() const { return k_ * length_ * length_; }
  double dU(double t) const override { return kl2() * std::cos(t) * (1.0 / std::sqrt(1.0 - std::sin(t)) - 1.0); }
  double d2U(double t) const override { return kl2() * (std::sin(t) + 0.5 * std::sqrt(1.0 - std::sin(t))); }
  double d3U(double t) const override {
    return kl2() * std::cos(t) * (1.0 - 0.25 / std::sqrt(1.0 - std::sin(t)));
  }
  double k_;
};

// (d) N-link clamped–free chain. Unknowns: absolute angles θ₁…θ_N of the links
// from the vertical, link 1 at the clamped base. Spring c at joint i (i = 1 the
// base) resists θᵢ − θᵢ₋₁. Pattern: tridiagonal, both triangles stored.
class LinkChain final : public Problem {
 public:
  LinkChain(int links, double link_length, double c) : n_(links), ell_(link_length), c_(c) {
    if (links < 1) throw std::logic_error("LinkChain: at least one link");
    std::vector<Eigen::Triplet<double>> t;
    for (int i = 0; i < n_; ++i) {
      t.emplace_back(i, i, 0.0);
      if (i + 1 < n_) {
        t.emplace_back(i, i + 1, 0.0);
        t.emplace_back(i + 1, i, 0.0);
      }
    }
    pattern_.resize(n_, n_);
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }
  int size() const override { return n_; }
  void residual(const Vector& q, double lambda, Vector& g) const override {
    g.resize(n_);
    for (int i = 0; i < n_; ++i) {
      const double below = i > 0 ? q[i] - q[i - 1] : q[i];
      const double above = i + 1 < n_ ? q[i + 1] - q[i] : 0.0;
      g[i] = c_ * (below - above) - lambda * ell_ * std::sin(q[i]);
    }
  }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector& q, double lambda, SparseMatrix& K) const override {
    for (int j = 0; j < K.outerSize(); ++j)
      for (SparseMatrix::InnerIterator it(K, j); it; ++it) {
        const int i = static_cast<int>(it.row());
        if (i == j)
          it.valueRef() = c_ * spring_matrix(i, i) - lambda * ell_ * std::cos(q[i]);
        else
          it.valueRef() = c_ * spring_matrix(i, j);
      }
  }
  void dg_dlambda(const Vector& q, double /*lambda*/, Vector& out) const override {
    out.resize(n_);
    for (int i = 0; i < n_; ++i) out[i] = -ell_ * std::sin(q[i]);
  }
  bool tangent_derivative(const Vector& q, double lambda, const Vector& a, const Vector& b,
                          Vector& out) const override {
    out.resize(n_);
    for (int i = 0; i < n_; ++i) out[i] = lambda * ell_ * std::sin(q[i]) * a[i] * b[i];
    return true;
  }
  DofKind dof_kind(int) const override { return DofKind::Rotation; }
  std::string dof_name(int i) const override { return "theta" + std::to_string(i + 1); }

  // T of K(0, P) = cT − Pℓ I.
  double spring_matrix(int i, int j) const {
    if (i == j) return i + 1 < n_ ? 2.0 : 1.0;
    return std::abs(i - j) == 1 ? -1.0 : 0.0;
  }
  double critical_load() const { return critical_load(n_, ell_, c_); }
  static double critical_load(int links, double link_length, double c) {
    const double s = std::sin(std::numbers::pi / (2.0 * (2.0 * links + 1.0)));
    return c / link_length * 4.0 * s * s;
  }
  // Every eigenvalue of T: 4 sin²((2j − 1)π/(2(2N + 1))), j = 1…N.
  static double spring_eigenvalue(int links, int j) {
    const double s = std::sin((2.0 * j - 1.0) * std::numbers::pi / (2.0 * (2.0 * links + 1.0)));
    return 4.0 * s * s;
  }

 private:
  int n_;
  double ell_, c_;
  SparseMatrix pattern_;
};

// Steep von Mises truss: supports (−a, 0) and (a, 0) pinned, apex (0, h) free in
// x and y, unit downward reference load at the apex, Green–Lagrange bars of
// axial stiffness EA. Unknowns: apex ux (0), uy (1).
struct VonMisesTruss {
  double a = 1.0, h = 2.0, EA = 1.0;
  bool sway = true;                  // false: apex ux fixed (the symmetric path only)
  double horizontal_dead_load = 0.0; // an imperfection at the apex, not scaled by λ
  double apex_offset = 0.0;          // a geometric imperfection: the apex at (apex_offset, h)
  model::StrainMeasure measure = model::StrainMeasure::GreenLagrange;
  double L0() const { return std::sqrt(a * a + h * h); }
  // Load on the symmetric path for an apex drop w.
  double symmetric_load(double w) const { return EA * (h - w) * w * (2 * h - w) / std::pow(L0(), 3); }
  double bifurcation_drop() const { return h - std::sqrt(h * h - 2 * a * a); }
  double bifurcation_load() const { return 2 * EA * a * a * std::sqrt(h * h - 2 * a * a) / std::pow(L0(), 3); }
  double limit_drop() const { return h * (1 - 1 / std::sqrt(3.0)); }
  double limit_load() const { return 2 / (3 * std::sqrt(3.0)) * EA * std::pow(h / L0(), 3); }

  std::unique_ptr<model::Model> build() const {
    using model::Component;
    auto m = std::make_unique<model::Model>(2);
    const int n1 = m->add_node(1, {-a, 0, 0});
    const int n2 = m->add_node(2, {apex_offset, h, 0});
    const int n3 = m->add_node(3, {a, 0, 0});
    m->add_element(std::make_unique<model::TrussBar>(1, 2, n1, n2, m->node_position(n1), m->node_position(n2), EA,
                                                     measure));
    m->add_element(std::make_unique<model::TrussBar>(2, 2, n2, n3, m->node_position(n2), m->node_position(n3), EA,
                                                     measure));
    for (int n : {n1, n3}) {
      m->fix(n, Component::Ux);
      m->fix(n, Component::Uy);
    }
    if (!sway) m->fix(n2, Component::Ux);
    m->add_load(n2, Component::Uy, -1.0);
    if (horizontal_dead_load != 0.0) m->add_dead_load(n2, Component::Ux, horizontal_dead_load);
    m->finalize();
    return m;
  }
};

}  // namespace senda::problems
