// Lagrange-multiplier constraints, index-1 dynamics, Baumgarte and projections
// (seed 000 eqs. 33–43); notation and equations in constraint.hpp.
#include "senda/dynamics/constraint.hpp"

#include <Eigen/SparseLU>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace senda::dynamics {

namespace {

[[noreturn]] void misuse(const std::string& what) {
  throw std::logic_error("senda::dynamics: " + what + " (" __FILE__ ")");
}

// The bordered matrix [A Gᵀ; G 0] (A = M or W), factorized once for one or two
// right-hand sides. SparseLU: the matrix is indefinite (m negative eigenvalues).
class Bordered {
 public:
  Bordered(const SparseMatrix& A, const SparseMatrix& G) : n_(A.rows()), m_(G.rows()) {
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(A.nonZeros() + 2 * G.nonZeros());
    for (int k = 0; k < A.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(A, k); it; ++it) t.emplace_back(it.row(), it.col(), it.value());
    for (int k = 0; k < G.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(G, k); it; ++it) {
        t.emplace_back(n_ + it.row(), it.col(), it.value());
        t.emplace_back(it.col(), n_ + it.row(), it.value());
      }
    SparseMatrix K(n_ + m_, n_ + m_);
    K.setFromTriplets(t.begin(), t.end());
    lu_.compute(K);
    ok_ = lu_.info() == Eigen::Success;
  }
  bool ok() const { return ok_; }
  // Solves for (x, y) with [A Gᵀ; G 0][x; y] = [r; s].
  bool solve(const Vector& r, const Vector& s, Vector& x, Vector& y) {
    Vector rhs(n_ + m_);
    rhs << r, s;
    const Vector z = lu_.solve(rhs);
    if (lu_.info() != Eigen::Success || !z.allFinite()) return false;
    x = z.head(n_);
    y = z.tail(m_);
    return true;
  }

 private:
  Eigen::Index n_, m_;
  Eigen::SparseLU<SparseMatrix> lu_;
  bool ok_ = false;
};

}  // namespace

ConstraintPoint model_point(const model::Model& m, int node) {
  if (!m.finalized()) misuse("model_point needs a finalized model");
  ConstraintPoint p;
  p.X = m.node_position(node);
  const model::Component c[3] = {model::Component::Ux, model::Component::Uy, model::Component::Uz};
  for (int k = 0; k < m.dim(); ++k) p.eq[k] = m.equation(node, c[k]);
  return p;
}

ConstraintSet::ConstraintSet(int unknowns) : n_(unknowns) {
  if (unknowns < 0) misuse("a negative number of unknowns");
}

void ConstraintSet::check_point(const ConstraintPoint& p) const {
  for (int e : p.eq)
    if (e < -1 || e >= n_) misuse("a constraint point refers to equation " + std::to_string(e));
}

int ConstraintSet::add_distance(const ConstraintPoint& a, const ConstraintPoint& b, double length) {
  check_point(a);
  check_point(b);
  if (!(length > 0.0) || !std::isfinite(length)) misuse("a rigid link needs a positive length");
  rows_.push_back(Row{true, a, b, length, -1, 0.0});
  return size() - 1;
}

int ConstraintSet::add_distance(const ConstraintPoint& a, const ConstraintPoint& b) {
  return add_distance(a, b, (b.X - a.X).norm());
}

int ConstraintSet::add_coordinate(int equation, double value) {
  if (equation < 0 || equation >= n_) misuse("a fixed coordinate on equation " + std::to_string(equation));
  rows_.push_back(Row{false, {}, {}, 0.0, equation, value});
  return size() - 1;
}

Eigen::Vector3d ConstraintSet::position(const ConstraintPoint& p, const Vector& q) const {
  Eigen::Vector3d x = p.X;
  for (int k = 0; k < 3; ++k)
    if (p.eq[k] >= 0) x[k] += q[p.eq[k]];
  return x;
}

Eigen::Vector3d ConstraintSet::rate(const ConstraintPoint& p, const Vector& v) const {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (int k = 0; k < 3; ++k)
    if (p.eq[k] >= 0) x[k] = v[p.eq[k]];
  return x;
}

Vector ConstraintSet::phi(const Vector& q) const {
  Vector out(size());
  for (int i = 0; i < size(); ++i) {
    const Row& r = rows_[i];
    if (r.distance) {
      const Eigen::Vector3d d = position(r.b, q) - position(r.a, q);
      out[i] = (d.squaredNorm() - r.length * r.length) / (2.0 * r.length);
    } else {
      out[i] = q[r.equation] - r.value;
    }
  }
  return out;
}

SparseMatrix ConstraintSet::jacobian(const Vector& q) const {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < size(); ++i) {
    const Row& r = rows_[i];
    if (!r.distance) {
      t.emplace_back(i, r.equation, 1.0);
      continue;
    }
    const Eigen::Vector3d d = (position(r.b, q) - position(r.a, q)) / r.length;  // ∂Φ/∂x_b = dᵀ/L
    for (int k = 0; k < 3; ++k) {
      if (r.a.eq[k] >= 0) t.emplace_back(i, r.a.eq[k], -d[k]);
      if (r.b.eq[k] >= 0) t.emplace_back(i, r.b.eq[k], d[k]);  // summed with the above if a and b share it
    }
  }
  SparseMatrix G(size(), n_);
  G.setFromTriplets(t.begin(), t.end());
  return G;
}

Vector ConstraintSet::gdot_v(const Vector& /*q*/, const Vector& v) const {
  Vector out = Vector::Zero(size());
  for (int i = 0; i < size(); ++i) {
    const Row& r = rows_[i];
    if (r.distance) out[i] = (rate(r.b, v) - rate(r.a, v)).squaredNorm() / r.length;  // Ġv = ‖ḋ‖²/L
  }
  return out;
}

const char* to_string(Weight w) { return w == Weight::Mass ? "mass" : "identity"; }

const char* to_string(Projection p) {
  switch (p) {
    case Projection::None: return "none";
    case Projection::EveryStep: return "every-step";
    case Projection::WhenViolated: return "when-violated";
  }
  return "?";
}

const char* to_string(Index1Status s) {
  switch (s) {
    case Index1Status::Ok: return "ok";
    case Index1Status::SingularSystem: return "singular-system";
    case Index1Status::ProjectionFailed: return "projection-failed";
    case Index1Status::NotFinite: return "not-finite";
  }
  return "?";
}

ProjectionResult project_positions(const ConstraintSet& c, const SparseMatrix& W, Vector& q, double tolerance,
                                   int max_iterations) {
  ProjectionResult r;
  Vector phi = c.phi(q);
  r.residual = phi.norm();
  const Vector zero = Vector::Zero(c.unknowns());
  while (r.residual > tolerance && r.iterations < max_iterations) {
    Bordered b(W, c.jacobian(q));  // G at the latest iterate (eq. 40 at q*)
    ++r.iterations;
    Vector dq, mu;
    if (!b.ok() || !b.solve(zero, -phi, dq, mu)) return r;
    q += dq;
    phi = c.phi(q);
    r.residual = phi.norm();
  }
  r.converged = r.residual <= tolerance;
  return r;
}

ProjectionResult project_velocities(const ConstraintSet& c, const SparseMatrix& W, const Vector& q, Vector& v) {
  ProjectionResult r;
  const SparseMatrix G = c.jacobian(q);
  Bordered b(W, G);
  r.iterations = 1;
  Vector dv, nu;
  if (!b.ok() || !b.solve(Vector::Zero(c.unknowns()), -(G * v), dv, nu)) {
    r.residual = (G * v).norm();
    return r;
  }
  v += dv;
  r.residual = (G * v).norm();
  r.converged = true;
  return r;
}

std::string Index1Options::validate() const {
  if (!(alpha >= 0.0) || !std::isfinite(alpha)) return "alpha must be finite and >= 0";
  if (!(beta >= 0.0) || !std::isfinite(beta)) return "beta must be finite and >= 0";
  if (!(position_tolerance > 0.0)) return "position_tolerance must be positive";
  if (!(velocity_tolerance > 0.0)) return "velocity_tolerance must be positive";
  if (!(projection_tolerance > 0.0)) return "projection_tolerance must be positive";
  if (projection == Projection::WhenViolated && projection_tolerance >= position_tolerance)
    return "projection_tolerance must be below position_tolerance";
  if (max_projection_iterations < 1) return "max_projection_iterations must be at least 1";
  return "";
}

Index1Integrator::Index1Integrator(SparseMatrix M, ConstraintSet c, ForceFunction f, Index1Options options)
    : M_(std::move(M)), c_(std::move(c)), f_(std::move(f)), options_(options) {
  if (const std::string why = options_.validate(); !why.empty()) misuse("Index1Options: " + why);
  if (M_.rows() != c_.unknowns() || M_.cols() != c_.unknowns()) misuse("M and the constraints differ in size");
  if (!f_) misuse("no force function");
  if (options_.weight == Weight::Mass) {
    W_ = M_;
  } else {
    W_.resize(M_.rows(), M_.cols());
    W_.setIdentity();
  }
  q_ = v_ = Vector::Zero(c_.unknowns());
}

void Index1Integrator::set_state(double t, const Vector& q, const Vector& v) {
  if (q.size() != c_.unknowns() || v.size() != c_.unknowns()) misuse("set_state: wrong size");
  t_ = t;
  q_ = q;
  v_ = v;
}

double Index1Integrator::violation() const { return c_.phi(q_).norm(); }
double Index1Integrator::violation_rate() const { return (c_.jacobian(q_) * v_).norm(); }

Index1Status Index1Integrator::acceleration(double t, const Vector& q, const Vector& v, Vector& a, Vector& mu) {
  if (!q.allFinite() || !v.allFinite()) return Index1Status::NotFinite;
  Vector f = Vector::Zero(c_.unknowns());
  f_(t, q, v, f);
  if (!f.allFinite()) return Index1Status::NotFinite;
  const SparseMatrix G = c_.jacobian(q);
  // The constraint rows: G a = −Ġv − 2α Φ̇ − β² Φ (eq. 35 with Φ̈ = G a + Ġ v, eq. 33).
  Vector s = -c_.gdot_v(q, v);
  if (options_.alpha != 0.0) s -= 2.0 * options_.alpha * (G * v);
  if (options_.beta != 0.0) s -= options_.beta * options_.beta * c_.phi(q);
  if (!s.allFinite() || !G.coeffs().allFinite()) return Index1Status::NotFinite;
  Bordered b(M_, G);
  ++stats_.solves;
  return b.ok() && b.solve(f, s, a, mu) ? Index1Status::Ok : Index1Status::SingularSystem;
}

bool Index1Integrator::correct() {
  const ProjectionResult p =
      project_positions(c_, W_, q_, options_.projection_tolerance, options_.max_projection_iterations);
  stats_.projection_iterations += p.iterations;
  if (!p.converged) return false;
  return project_velocities(c_, W_, q_, v_).converged;
}

Index1Status Index1Integrator::step(double dt) {
  if (!(dt > 0.0) || !std::isfinite(dt)) misuse("step: dt must be positive and finite");
  // Classical RK4 on (q̇, v̇) = (v, a(t, q, v)).
  Vector a1, a2, a3, a4, mu;
  const double h = dt;
  if (const Index1Status st = acceleration(t_, q_, v_, a1, mu); st != Index1Status::Ok) return st;
  const Vector q2 = q_ + 0.5 * h * v_, v2 = v_ + 0.5 * h * a1;
  if (const Index1Status st = acceleration(t_ + 0.5 * h, q2, v2, a2, mu); st != Index1Status::Ok) return st;
  const Vector q3 = q_ + 0.5 * h * v2, v3 = v_ + 0.5 * h * a2;
  if (const Index1Status st = acceleration(t_ + 0.5 * h, q3, v3, a3, mu); st != Index1Status::Ok) return st;
  const Vector q4 = q_ + h * v3, v4 = v_ + h * a3;
  if (const Index1Status st = acceleration(t_ + h, q4, v4, a4, mu); st != Index1Status::Ok) return st;
  stages_ = {v_, v2, v3, v4};
  q_ += h / 6.0 * (v_ + 2.0 * v2 + 2.0 * v3 + v4);
  v_ += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  t_ += h;
  ++stats_.steps;
  const double phi = violation(), phi_dot = violation_rate();
  stats_.max_phi = std::max(stats_.max_phi, phi);
  stats_.max_phi_dot = std::max(stats_.max_phi_dot, phi_dot);
  const bool project =
      options_.projection == Projection::EveryStep ||
      (options_.projection == Projection::WhenViolated &&
       (phi > options_.position_tolerance || phi_dot > options_.velocity_tolerance));
  if (!project) return Index1Status::Ok;
  ++stats_.corrections;
  return correct() ? Index1Status::Ok : Index1Status::ProjectionFailed;
}

}  // namespace senda::dynamics
