#include "senda/continuation/constraint.hpp"

#include <cmath>
#include <stdexcept>

namespace senda::continuation {

const char* to_string(ConstraintKind k) {
  switch (k) {
    case ConstraintKind::Spherical: return "spherical";
    case ConstraintKind::Cylindrical: return "cylindrical";
    case ConstraintKind::PseudoArclength: return "pseudo-arclength";
    case ConstraintKind::LoadControl: return "load";
    case ConstraintKind::DisplacementControl: return "displacement";
  }
  return "?";
}

std::optional<ConstraintKind> constraint_from_string(const std::string& s) {
  for (ConstraintKind k : {ConstraintKind::Spherical, ConstraintKind::Cylindrical, ConstraintKind::PseudoArclength,
                           ConstraintKind::LoadControl, ConstraintKind::DisplacementControl})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

double Scaling::norm(const Vector& dq, double dl) const { return std::sqrt(dot(dq, dl, dq, dl)); }

double Scaling::dot(const Vector& aq, double al, const Vector& bq, double bl) const {
  return (w.array().square() * aq.array() * bq.array()).sum() + psi * psi * al * bl;
}

std::optional<double> Constraint::correction(const StepFrame& f, const Vector& dq, double dl, const Vector& a,
                                             const Vector& b) const {
  // Linearised constraint: c + c_q·(a + δλ b) + c_λ δλ = 0.
  Vector c_q;
  double c_l;
  gradient(f, dq, dl, c_q, c_l);
  const double c = value(f, dq, dl);
  const double den = c_q.dot(b) + c_l;
  if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
  return -(c + c_q.dot(a)) / den;
}

std::optional<double> Constraint::predictor_length(const StepFrame& f) const {
  // For constraints linear in the increment: c(α t) = c(0) + α ∇c·t = 0.
  Vector c_q;
  double c_l;
  const Vector zero = Vector::Zero(f.tq.size());
  gradient(f, zero, 0.0, c_q, c_l);
  const double den = c_q.dot(f.tq) + c_l * f.tl;
  if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
  const double alpha = -value(f, zero, 0.0) / den;
  if (!(alpha > 0.0)) return std::nullopt;
  return alpha;
}

namespace {

// Spherical (ψ used) and cylindrical (ψ = 0) constraints, eqs. (2.1)–(2.2).
class QuadraticConstraint final : public Constraint {
 public:
  explicit QuadraticConstraint(bool with_load) : with_load_(with_load) {}
  ConstraintKind kind() const override {
    return with_load_ ? ConstraintKind::Spherical : ConstraintKind::Cylindrical;
  }
  double psi2(const StepFrame& f) const { return with_load_ ? f.scaling->psi * f.scaling->psi : 0.0; }

  double value(const StepFrame& f, const Vector& dq, double dl) const override {
    return (f.scaling->w.array() * dq.array()).matrix().squaredNorm() + psi2(f) * dl * dl - f.ds * f.ds;
  }
  void gradient(const StepFrame& f, const Vector& dq, double dl, Vector& c_q, double& c_l) const override {
    c_q = 2.0 * (f.scaling->w.array().square() * dq.array()).matrix();
    c_l = 2.0 * psi2(f) * dl;
  }
  std::optional<double> correction(const StepFrame& f, const Vector& dq, double dl, const Vector& a,
                                   const Vector& b) const override {
    // ‖w⊙(Δq + a + δλ b)‖² + ψ²(Δλ + δλ)² = Δs²  →  a₁ δλ² + a₂ δλ + a₃ = 0.
    // One pass, no temporaries (n may be 10⁶): with u = w⊙(Δq + a), wb = w⊙b,
    // also the two sums that give the alignment of the new increment with Δq.
    const Vector& w = f.scaling->w;
    const double p2 = psi2(f);
    const Vector* s = f.secant_q;
    double bb = 0, ub = 0, uu = 0, ud = 0, bd = 0;
    for (Eigen::Index i = 0; i < w.size(); ++i) {
      const double w2 = w[i] * w[i];
      const double u = dq[i] + a[i];
      const double d = s ? (*s)[i] : dq[i];  // the direction the root is measured against
      bb += w2 * b[i] * b[i];
      ub += w2 * u * b[i];
      uu += w2 * u * u;
      ud += w2 * u * d;
      bd += w2 * b[i] * d;
    }
    const double a1 = bb + p2;
    const double a2 = 2.0 * (ub + p2 * dl);
    const double a3 = uu + p2 * dl * dl - f.ds * f.ds;
    if (a1 <= 0.0) return std::nullopt;
    const double disc = a2 * a2 - 4.0 * a1 * a3;
    if (disc < 0.0 || !std::isfinite(disc)) return std::nullopt;
    const double sq = std::sqrt(disc);
    // Stable roots of the quadratic.
    const double qq = -0.5 * (a2 + std::copysign(sq, a2));
    double r1 = qq / a1;
    double r2 = qq != 0.0 ? a3 / qq : r1;
    // Eq. (2.7a): the root whose new increment (Δq + a + δλ b, Δλ + δλ) is closest in
    // direction to the previous step's secant (Crisfield's criterion: the path goes
    // on the way it came; both new increments have the same length Δs, so the larger
    // inner product is the smaller angle). Measured against the current increment
    // (Δq, Δλ) instead, the choice can follow a corrector that has turned back, and
    // the step returns to the point before (issue 19, the 215° arch). With no
    // previous step (the first one) the current increment, the predictor.
    const double psi_sq = f.scaling->psi * f.scaling->psi;
    const double dl_ref = s ? f.secant_l : dl;
    auto alignment = [&](double dlam) { return ud + dlam * bd + psi_sq * (dl + dlam) * dl_ref; };
    return alignment(r1) >= alignment(r2) ? r1 : r2;
  }
  std::optional<double> predictor_length(const StepFrame& f) const override {
    const double n = with_load_ ? f.scaling->norm(f.tq, f.tl) : f.scaling->norm(f.tq, 0.0);
    if (!(n > 0.0)) return std::nullopt;
    return f.ds / n;
  }

 private:
  bool with_load_;
};

class PseudoArclength final : public Constraint {
 public:
  ConstraintKind kind() const override { return ConstraintKind::PseudoArclength; }
  double value(const StepFrame& f, const Vector& dq, double dl) const override {
    return f.scaling->dot(f.tq, f.tl, dq, dl) - f.ds;
  }
  void gradient(const StepFrame& f, const Vector&, double, Vector& c_q, double& c_l) const override {
    c_q = (f.scaling->w.array().square() * f.tq.array()).matrix();
    c_l = f.scaling->psi * f.scaling->psi * f.tl;
  }
  // The linearised correction of the base class in one pass and without the
  // gradient vector (n may be 10⁶): with c_q = w²⊙t_q,
  //   δλ = −(c + c_q·a) / (c_q·b + ψ² t_λ).
  std::optional<double> correction(const StepFrame& f, const Vector& dq, double dl, const Vector& a,
                                   const Vector& b) const override {
    const Vector& w = f.scaling->w;
    const double p2 = f.scaling->psi * f.scaling->psi;
    double td = 0, ta = 0, tb = 0;
    for (Eigen::Index i = 0; i < w.size(); ++i) {
      const double wt = w[i] * w[i] * f.tq[i];
      td += wt * dq[i];
      ta += wt * a[i];
      tb += wt * b[i];
    }
    const double c = td + p2 * f.tl * dl - f.ds;
    const double den = tb + p2 * f.tl;
    if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
    return -(c + ta) / den;
  }
  // c(α t) = α ‖t‖²_W − Δs: α = Δs / ‖t‖²_W (= Δs for a unit tangent).
  std::optional<double> predictor_length(const StepFrame& f) const override {
    const double tt = f.scaling->dot(f.tq, f.tl, f.tq, f.tl);
    if (!(tt > 0.0) || !std::isfinite(tt)) return std::nullopt;
    const double alpha = f.ds / tt;
    if (!(alpha > 0.0)) return std::nullopt;
    return alpha;
  }
};

class LoadControl final : public Constraint {
 public:
  ConstraintKind kind() const override { return ConstraintKind::LoadControl; }
  double value(const StepFrame& f, const Vector&, double dl) const override {
    return f.scaling->psi * dl - std::copysign(f.ds, f.tl);
  }
  void gradient(const StepFrame& f, const Vector& dq, double, Vector& c_q, double& c_l) const override {
    c_q = Vector::Zero(dq.size());
    c_l = f.scaling->psi;
  }
  // c_q = 0: δλ = −c/ψ, with no n-vector formed.
  std::optional<double> correction(const StepFrame& f, const Vector& dq, double dl, const Vector&,
                                   const Vector&) const override {
    const double psi = f.scaling->psi;
    if (psi == 0.0 || !std::isfinite(psi)) return std::nullopt;
    return -value(f, dq, dl) / psi;
  }
  // ψ α t_λ = sign(t_λ) Δs.
  std::optional<double> predictor_length(const StepFrame& f) const override {
    const double den = f.scaling->psi * f.tl;
    if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
    const double alpha = std::copysign(f.ds, f.tl) / den;
    if (!(alpha > 0.0)) return std::nullopt;
    return alpha;
  }
};

class DisplacementControl final : public Constraint {
 public:
  ConstraintKind kind() const override { return ConstraintKind::DisplacementControl; }
  static int dof(const StepFrame& f) {
    if (f.control_dof < 0 || f.control_dof >= f.tq.size())
      throw std::logic_error("displacement control needs a valid control degree of freedom");
    return f.control_dof;
  }
  // σ: the direction of the whole path (StepFrame::control_sign), not the sign of
  // this step's tangent, which turns with λ past a fold and would send the
  // controlled dof back the way it came (issue 19).
  static double sigma(const StepFrame& f) {
    return f.control_sign != 0 ? static_cast<double>(f.control_sign) : std::copysign(1.0, f.tq[dof(f)]);
  }
  double value(const StepFrame& f, const Vector& dq, double) const override {
    const int j = dof(f);
    return f.scaling->w[j] * dq[j] - sigma(f) * f.ds;
  }
  void gradient(const StepFrame& f, const Vector& dq, double, Vector& c_q, double& c_l) const override {
    c_q = Vector::Zero(dq.size());
    c_q[dof(f)] = f.scaling->w[dof(f)];
    c_l = 0.0;
  }
  // c_q = w_j e_j: δλ = −(c + w_j a_j) / (w_j b_j), with no n-vector formed.
  std::optional<double> correction(const StepFrame& f, const Vector& dq, double dl, const Vector& a,
                                   const Vector& b) const override {
    const int j = dof(f);
    const double den = f.scaling->w[j] * b[j];
    if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
    return -(value(f, dq, dl) + f.scaling->w[j] * a[j]) / den;
  }
  // w_j α t_q,j = σ Δs (α > 0: the follower orients t so that σ t_q,j > 0).
  std::optional<double> predictor_length(const StepFrame& f) const override {
    const int j = dof(f);
    const double den = f.scaling->w[j] * f.tq[j];
    if (den == 0.0 || !std::isfinite(den)) return std::nullopt;
    const double alpha = sigma(f) * f.ds / den;
    if (!(alpha > 0.0)) return std::nullopt;
    return alpha;
  }
};

}  // namespace

std::unique_ptr<Constraint> make_constraint(ConstraintKind k) {
  switch (k) {
    case ConstraintKind::Spherical: return std::make_unique<QuadraticConstraint>(true);
    case ConstraintKind::Cylindrical: return std::make_unique<QuadraticConstraint>(false);
    case ConstraintKind::PseudoArclength: return std::make_unique<PseudoArclength>();
    case ConstraintKind::LoadControl: return std::make_unique<LoadControl>();
    case ConstraintKind::DisplacementControl: return std::make_unique<DisplacementControl>();
  }
  throw std::logic_error("make_constraint: unknown kind");
}

}  // namespace senda::continuation
