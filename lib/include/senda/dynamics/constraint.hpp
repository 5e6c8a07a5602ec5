#pragma once
// Holonomic constraints by Lagrange multipliers, their index-1 dynamics and the
// stabilisation of the constraint equations (seed 000 §2.4.3; docs/theory.md,
// "Constraints").
//
// Notation (seed 000)                                     code
//   q, v = q̇, a = q̈     unknowns of the model (displacements) and their rates
//   Φ(q) = 0           m scleronomic constraints             ConstraintSet::phi
//   G = Φ_q            m × n Jacobian                        ConstraintSet::jacobian
//   Ġ v = Φ̇_q q̇        the velocity term of Φ̈ (eq. 33)       ConstraintSet::gdot_v
//   M                  mass matrix (n × n, SPD)
//   f(t, q, v)         every force but the constraints'      ForceFunction
//   μ                  multipliers; constraint force −Gᵀμ
//
// Index-1 dynamics. Φ̈ = G a + Ġ v (eq. 33) replaced by Baumgarte's
//   Φ̈ + 2α Φ̇ + β² Φ = 0                                             (eq. 35)
// gives, with M a + Gᵀμ = f,
//   [M  Gᵀ] [a]   [f                      ]
//   [G  0 ] [μ] = [−Ġv − 2α G v − β² Φ    ]
// α = β = 0 is the plain index-1 form (eq. 33): along an exact solution Φ̈ = 0, so
// Φ(t) = a₁ t + a₂ (eq. 34) — a violation present at the start grows linearly and
// the integrator's errors accumulate; with α, β > 0 every violation decays as
//   Φ(t) = a₁ e^{s₁t} + a₂ e^{s₂t},  s₁,₂ = −α ± √(α² − β²)           (eq. 36).
//
// Projection (eqs. 37–42): the nearest point of the constraint manifold in the
// norm ‖δq‖²_W = δqᵀ W δq,
//   [W  Gᵀ] [δq]   [0     ]                                          (eq. 40)
//   [G  0 ] [μ ] = [−Φ(q*)]
// G evaluated at the current iterate; repeated until ‖Φ‖ ≤ tolerance (one pass is
// the seed's eq. 40; the repetition is Newton's method on Φ = 0 with minimum-norm
// steps, quadratically convergent). Velocities, linear in v (eq. 42):
//   [W  Gᵀ] [δv]   [0     ]
//   [G  0 ] [ν ] = [−G v*]     with G at the projected positions.
// W = M keeps the centre of mass and the linear momentum of the bodies a
// projection moves (Gᵀμ has no resultant for internal links); W = I gives the
// minimum Euclidean correction (eq. 41).
//
// Constraints offered: a rigid link, Φ = (‖x_b − x_a‖² − L²)/(2L) (≈ ‖x_b − x_a‖ − L,
// a length; the squared form makes G linear in q: G = ±dᵀ/L, Ġv = ‖ḋ‖²/L with
// d = x_b − x_a), and a fixed coordinate, Φ = q_i − value (G = e_iᵀ, Ġv = 0). Both
// scleronomic (no Φ_t), the only ones an energy-conserving scheme can treat (seed
// 003 §1.6).
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "senda/core/problem.hpp"
#include "senda/model/model.hpp"

namespace senda::dynamics {

// A point of the structure: its reference position and the equations of its
// translations (−1 for a fixed or absent component, which does not move).
struct ConstraintPoint {
  Eigen::Vector3d X = Eigen::Vector3d::Zero();
  std::array<int, 3> eq = {-1, -1, -1};
};

// The point of a node of a finalized model.
ConstraintPoint model_point(const model::Model& m, int node);

class ConstraintSet {
 public:
  explicit ConstraintSet(int unknowns);

  // A rigid link of length L > 0 between two points (default: their reference
  // distance). Returns the constraint's row.
  int add_distance(const ConstraintPoint& a, const ConstraintPoint& b, double length);
  int add_distance(const ConstraintPoint& a, const ConstraintPoint& b);
  // q[equation] = value.
  int add_coordinate(int equation, double value = 0.0);

  int size() const { return static_cast<int>(rows_.size()); }
  int unknowns() const { return n_; }

  Vector phi(const Vector& q) const;
  SparseMatrix jacobian(const Vector& q) const;  // G, size() × unknowns()
  Vector gdot_v(const Vector& q, const Vector& v) const;

 private:
  struct Row {
    bool distance;
    ConstraintPoint a, b;  // distance
    double length = 0.0;
    int equation = -1;     // coordinate
    double value = 0.0;
  };
  Eigen::Vector3d position(const ConstraintPoint& p, const Vector& q) const;
  Eigen::Vector3d rate(const ConstraintPoint& p, const Vector& v) const;
  void check_point(const ConstraintPoint& p) const;

  int n_;
  std::vector<Row> rows_;
};

// The weight of the projections' norm.
enum class Weight { Mass, Identity };
const char* to_string(Weight w);

struct ProjectionResult {
  bool converged = false;
  int iterations = 0;       // linear solves (the velocity projection: 1)
  double residual = 0.0;    // ‖Φ‖ (positions) or ‖G v‖ (velocities) at the end
};

// Eq. (40) repeated until ‖Φ(q)‖ ≤ tolerance, at most max_iterations solves; q is
// updated in place (left at the last iterate when not converged). W is n × n SPD.
ProjectionResult project_positions(const ConstraintSet& c, const SparseMatrix& W, Vector& q, double tolerance,
                                   int max_iterations);
// Eq. (42) at q: v ← v + δv with G v = 0 to round-off.
ProjectionResult project_velocities(const ConstraintSet& c, const SparseMatrix& W, const Vector& q, Vector& v);

// f(t, q, v): the forces of the unconstrained system, M a = f.
using ForceFunction = std::function<void(double t, const Vector& q, const Vector& v, Vector& f)>;

enum class Projection {
  None,          // Baumgarte alone (or nothing, with α = β = 0)
  EveryStep,     // project positions and velocities after every step
  WhenViolated,  // periodic re-imposition (seed 000 §2.4.3.3): when ‖Φ‖ or ‖Φ̇‖ exceeds its tolerance
};
const char* to_string(Projection p);

struct Index1Options {
  double alpha = 0.0;  // Baumgarte damping α (eq. 35), ≥ 0
  double beta = 0.0;   // Baumgarte frequency β (eq. 35), ≥ 0
  Projection projection = Projection::None;
  Weight weight = Weight::Mass;  // W of the projections
  // WhenViolated: a correction when ‖Φ‖ > position_tolerance or ‖Φ̇‖ = ‖G v‖ >
  // velocity_tolerance after a step (units of Φ: length; of Φ̇: length/time).
  double position_tolerance = 1e-8;
  double velocity_tolerance = 1e-8;
  // A position projection iterates until ‖Φ‖ ≤ this (absolute, length): keep it above
  // the round-off of the positions, ~1e-15 times the model's size (the default
  // suits sizes of order 1; a model 1e3 long needs about 1e-11).
  double projection_tolerance = 1e-13;
  int max_projection_iterations = 10;

  // "" or the reason the options are invalid.
  std::string validate() const;
};

enum class Index1Status {
  Ok,
  SingularSystem,    // [M Gᵀ; G 0] singular: G rank-deficient (redundant or singular constraints);
                     // the state is left as it was before the step
  ProjectionFailed,  // the position projection did not reach projection_tolerance (the step is
                     // taken, q left at the last projection iterate, v not projected)
  NotFinite,         // a stage's state or force is not finite (the motion overflowed: a velocity
                     // or a damping too large for the step); checked before the solve, whose
                     // failure on such numbers read as redundant links. The state is left as it was
};
const char* to_string(Index1Status s);

struct Index1Statistics {
  int steps = 0;
  int solves = 0;                 // factorizations of [M Gᵀ; G 0] (4 per RK4 step)
  int corrections = 0;            // steps after which positions and velocities were projected
  int projection_iterations = 0;  // position-projection solves
  double max_phi = 0.0;           // largest ‖Φ‖ after a step, before any correction
  double max_phi_dot = 0.0;       // largest ‖Φ̇‖ after a step, before any correction
};

// The index-1 system integrated by the classical explicit Runge–Kutta method of
// order 4 on y = (q, v) (a choice of ours: seed 000 leaves the integrator open,
// eq. 32), each stage solving the bordered system above; then the projection the
// options ask for. Nothing is printed; a failure is a status.
class Index1Integrator {
 public:
  // M: n × n SPD (constant); c: the constraints on the same n unknowns.
  Index1Integrator(SparseMatrix M, ConstraintSet c, ForceFunction f, Index1Options options = {});

  void set_state(double t, const Vector& q, const Vector& v);
  Index1Status step(double dt);

  double time() const { return t_; }
  const Vector& q() const { return q_; }
  const Vector& v() const { return v_; }
  const ConstraintSet& constraints() const { return c_; }
  // The velocities of the last step's four stages, at t, t + h/2, t + h/2 and t + h
  // (before any projection): RK4's quadrature of a rate of the motion.
  const std::array<Vector, 4>& stage_velocities() const { return stages_; }
  // ‖Φ(q)‖ and ‖G v‖ at the current state.
  double violation() const;
  double violation_rate() const;
  const Index1Statistics& statistics() const { return stats_; }
  // For a caller that refuses the step just taken (dynamics::Integrator's energy check).
  void set_statistics(const Index1Statistics& s) { stats_ = s; }
  const Index1Options& options() const { return options_; }

  // a and μ of the bordered system at (t, q, v): Ok, NotFinite when q, v or the force
  // is not finite (nothing solved), SingularSystem when [M Gᵀ; G 0] is singular.
  Index1Status acceleration(double t, const Vector& q, const Vector& v, Vector& a, Vector& mu);

 private:
  bool correct();

  SparseMatrix M_, W_;
  ConstraintSet c_;
  ForceFunction f_;
  Index1Options options_;
  double t_ = 0.0;
  Vector q_, v_;
  std::array<Vector, 4> stages_;
  Index1Statistics stats_;
};

}  // namespace senda::dynamics
