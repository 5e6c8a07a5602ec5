#pragma once
// The co-simulation unit (docs/theory.md, "Co-simulation"): a subsystem that keeps
// its own integrator and micro step and talks to the others only through scalar
// inputs and outputs exchanged at the macro steps t_n = n H.
//
// Notation            code
//   u_i(t)              Signal               input i over one macro step, a polynomial in τ = t − t_n
//   u_i(t_n⁻)           Signal::before       the value the unit held at the end of the previous step
//   y_j                 outputs()            output j at the current state for given input values
//   D_ji ≠ 0            feedthrough(j, i)    y_j depends on u_i at the same instant (direct feedthrough)
//   E_k                 energy()             energy of the unit for given input values
//   W_k                 input_work()         energy brought in by the inputs during the last step (eq. C.3)
//
// The master (master.hpp) builds each step's signals by holding or extrapolating
// the samples of the outputs connected to the inputs; a unit never sees another.
// A future adapter of the dynamics module's simulate machinery implements this
// same interface.
#include <span>
#include <string>
#include <vector>

namespace senda::cosim {

// An input over one macro step: u(τ) = c0 + c1 τ + c2 τ², τ ∈ [0, H].
struct Signal {
  double c0 = 0.0, c1 = 0.0, c2 = 0.0;
  double before = 0.0;  // u(t_n⁻): the end value of the previous step's signal (a hold jumps at t_n)
  double value(double tau) const { return c0 + tau * (c1 + tau * c2); }
  double rate(double tau) const { return c1 + 2.0 * c2 * tau; }
};

// An opaque saved state (restore() takes what save() gave).
using State = std::vector<double>;

class Unit {
 public:
  virtual ~Unit() = default;

  virtual int input_count() const = 0;
  virtual int output_count() const = 0;
  virtual std::string input_name(int i) const = 0;
  virtual std::string output_name(int j) const = 0;
  // True when output j depends on input i at the same instant (D_ji ≠ 0): the
  // master must then give the output a value of the input at the step's end.
  virtual bool feedthrough(int output, int input) const = 0;

  // The unit's own integration step; the macro step is a whole multiple of it.
  virtual double micro_step() const = 0;

  // Advances the state from t to t + H in micro steps, the inputs following
  // `inputs` (one Signal per input). Also computes input_work() of the step.
  virtual void step(double t, double H, std::span<const Signal> inputs) = 0;

  // Outputs at the current state when the inputs have the values u.
  virtual void outputs(std::span<const double> u, std::span<double> y) const = 0;

  // Energy of the unit at the current state when the inputs have the values u.
  virtual double energy(std::span<const double> u) const = 0;

  // Energy brought into the unit by its inputs during the last step(), the jump
  // of a held input at the step's start included (docs/theory.md eq. C.3).
  virtual double input_work() const = 0;

  // For iterated macro steps: the state before the step, and back to it.
  virtual State save() const = 0;
  virtual void restore(const State& s) = 0;
};

}  // namespace senda::cosim
