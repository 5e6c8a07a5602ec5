#pragma once
// A linear, undamped mass–spring unit  M ẍ + K x = Σ_ports e_d f_p(t)  (docs/theory.md
// eqs. C.1–C.4), the subsystems of seed 002 (two-degree-of-freedom oscillator, Tables 3
// and 4) and a linearised Senda structure (K = model.tangent at the reference state,
// a lumped mass).
//
// Notation                  code
//   M = diag(m)               LinearSystem::mass        lumped masses
//   K                         LinearSystem::stiffness   symmetric, dense
//   e_d                       Port::dof                 the dof a port acts on
//   k_c                       Port::stiffness           coupling spring of a Spring port
//   s                         Port::share               fraction of the coupling spring's energy counted here
//   K_eff = K + Σ k_c e_d e_dᵀ                          the springs of the Spring ports added
//
// A port is either
//   Force   input f (force on dof d);                     outputs x_d, v_d
//   Spring  input u (position of the far end of a spring k_c attached to dof d);
//           outputs x_d, v_d and f = k_c (x_d − u), the force the spring puts on
//           the far end (direct feedthrough from u).
// Force–displacement coupling of seed 002 joins a Force port to a Spring port;
// displacement–displacement joins two Spring ports with the same k_c (the spring
// is in both models; each counts half its energy, share = 0.5).
//
// Integrators: symplectic Euler (seed 002 eq. 37: v ← v + h a(x, t), x ← x + h v),
// and Exact: the modal solution of each micro step for inputs polynomial in time
// (eq. C.4), exact to rounding whatever the step.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "senda/cosim/unit.hpp"

namespace senda::cosim {

enum class Integrator { SymplecticEuler, Exact };
const char* to_string(Integrator i);  // "symplectic-euler", "exact"

enum class PortKind { Force, Spring };

struct Port {
  std::string name;             // "" for a unit with one port: its input is "u", its outputs "x", "v", "f"
  int dof = 0;                  // index into the unit's dofs
  PortKind kind = PortKind::Force;
  double stiffness = 0.0;       // k_c > 0 of a Spring port
  double share = 1.0;           // (0, 1]: share of the spring's energy counted in this unit
};

struct LinearSystem {
  Eigen::VectorXd mass;          // > 0 per dof
  Eigen::MatrixXd stiffness;     // symmetric; K_eff positive definite with Exact
  Eigen::VectorXd x0, v0;        // initial state
};

class LinearUnit final : public Unit {
 public:
  // Throws std::invalid_argument for inconsistent sizes, a non-positive mass,
  // a port outside the dofs, or (Exact) a K_eff that is not positive definite.
  LinearUnit(LinearSystem system, std::vector<Port> ports, Integrator integrator, double micro_step);

  int input_count() const override { return static_cast<int>(ports_.size()); }
  int output_count() const override { return static_cast<int>(outputs_.size()); }
  std::string input_name(int i) const override;
  std::string output_name(int j) const override;
  bool feedthrough(int output, int input) const override;
  double micro_step() const override { return h_; }
  void step(double t, double H, std::span<const Signal> inputs) override;
  void outputs(std::span<const double> u, std::span<double> y) const override;
  double energy(std::span<const double> u) const override;
  double input_work() const override { return work_; }
  State save() const override;
  void restore(const State& s) override;

  const Eigen::VectorXd& x() const { return x_; }
  const Eigen::VectorXd& v() const { return v_; }
  Integrator integrator() const { return integrator_; }
  // Natural circular frequencies of K_eff φ = ω² M φ (ascending).
  Eigen::VectorXd frequencies() const;
  // The micro steps h at which the integrator is stable on the unit alone (its inputs
  // held) are those below this: symplectic Euler is stable for ω_max h < 2 (the
  // amplification matrix of a mode has |trace| = |2 − (ω h)²| < 2; at ω h = 2 it is
  // a Jordan block and grows linearly), so 2/ω_max; infinity for Exact and for a unit
  // with no positive frequency. Known before the run: the cosim input refuses a step at
  // or above it.
  double stable_step_limit() const;

 private:
  enum class Quantity { X, V, F };
  struct Output {
    int port;
    Quantity q;
  };
  Eigen::VectorXd force(std::span<const Signal> inputs, double tau) const;  // Σ e_d f_p(τ)
  void step_symplectic(double H, std::span<const Signal> inputs);
  void step_exact(double H, std::span<const Signal> inputs);

  Eigen::VectorXd m_;
  Eigen::MatrixXd k_eff_, k_;
  std::vector<Port> ports_;
  std::vector<Output> outputs_;
  Integrator integrator_;
  double h_;
  Eigen::VectorXd x_, v_;
  double work_ = 0.0;
  // Exact: K_eff Φ = M Φ Ω², Φᵀ M Φ = I; the modal state q, q̇ (x = Φ q, v = Φ q̇).
  Eigen::MatrixXd phi_;
  Eigen::VectorXd omega_, q_, qd_;
};

}  // namespace senda::cosim
