#pragma once
// Step constraints c(Δq, Δλ) = 0 of the arc-length method (docs/theory.md §2.1).
//
// Notation            code
//   w ⊙ Δq            scaled displacement increment (w = Scaling::w)
//   ψ Δλ              scaled load increment (ψ = Scaling::psi)
//   Δs                ds, the step length in the scaled norm
//   t = (t_q, t_λ)    unit tangent at the last converged point, ‖(w⊙t_q, ψ t_λ)‖ = 1
//
//   spherical         ‖w⊙Δq‖² + ψ²Δλ² − Δs² = 0                        (eq. 2.1)
//   cylindrical       ‖w⊙Δq‖² − Δs² = 0                                 (eq. 2.2)
//   pseudo-arclength  (w⊙t_q)·(w⊙Δq) + ψ² t_λ Δλ − Δs = 0               (eq. 2.3)
//   load control      ψ Δλ − σ Δs = 0,       σ = sign(t_λ)              (eq. 2.4)
//   displacement      w_j Δq_j − σ Δs = 0,   σ = StepFrame::control_sign  (eq. 2.5)
//                     (fixed for the whole path: the direction the path started in;
//                     0 in a frame built by hand means σ = sign(t_q,j))
//
// The corrector writes the Newton update as δq = a + δλ b (K a = −g, K b = r, eq. 2.7)
// and asks the constraint for δλ: the linearised constraint in general, for the
// spherical and cylindrical ones the root of the quadratic whose increment makes
// the smaller angle with the previous step's secant (Crisfield's criterion, eq.
// 2.7a; with the current increment when there is no previous step), none when
// those roots are complex.
#include <memory>
#include <optional>
#include <string>

#include "senda/core/problem.hpp"

namespace senda::continuation {

enum class ConstraintKind { Spherical, Cylindrical, PseudoArclength, LoadControl, DisplacementControl };
const char* to_string(ConstraintKind k);
std::optional<ConstraintKind> constraint_from_string(const std::string& s);

struct Scaling {
  Vector w;          // weight per unknown
  double psi = 1.0;  // weight of λ
  double norm(const Vector& dq, double dl) const;
  double dot(const Vector& aq, double al, const Vector& bq, double bl) const;
};

// What a constraint needs to know about the current step.
struct StepFrame {
  const Scaling* scaling = nullptr;
  double ds = 0.0;
  Vector tq;  // unit tangent at the step's start point
  double tl = 0.0;
  int control_dof = -1;  // displacement control only
  int control_sign = 0;  // displacement control: σ of eq. (2.5), ±1; 0: sign(t_q,j)
  // The secant (Δq, Δλ) of the previous accepted step, for the root choice of the
  // quadratic constraints (eq. 2.7a); null at the first step of a path.
  const Vector* secant_q = nullptr;
  double secant_l = 0.0;
  // The step's size for the corrector's increment tests, in the scaled norm: ds for
  // spherical and pseudo-arclength steps; for load and displacement control and
  // cylindrical steps the predictor's length along the unit tangent, which is larger
  // than ds where the controlled quantity (λ, a dof, the displacements) is a small
  // share of the tangent (0: ds).
  double step_scale = 0.0;
};

class Constraint {
 public:
  virtual ~Constraint() = default;
  virtual ConstraintKind kind() const = 0;
  // c(Δq, Δλ) for the frame.
  virtual double value(const StepFrame& f, const Vector& dq, double dl) const = 0;
  // ∂c/∂Δq, ∂c/∂Δλ.
  virtual void gradient(const StepFrame& f, const Vector& dq, double dl, Vector& c_q, double& c_l) const = 0;
  // δλ for the update δq = a + δλ b; nullopt when no real δλ satisfies the constraint.
  virtual std::optional<double> correction(const StepFrame& f, const Vector& dq, double dl, const Vector& a,
                                           const Vector& b) const;
  // Multiple α of the tangent such that the predictor α t satisfies the constraint.
  virtual std::optional<double> predictor_length(const StepFrame& f) const;
};

std::unique_ptr<Constraint> make_constraint(ConstraintKind k);

}  // namespace senda::continuation
