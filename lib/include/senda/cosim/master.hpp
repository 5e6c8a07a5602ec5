#pragma once
// The co-simulation master (docs/theory.md "Co-simulation", eqs. C.5–C.8): advances
// a set of Units by macro steps H, exchanging their outputs only at t_n = n H.
//
// Notation                     code
//   H                            MasterOptions::macro_step
//   Jacobi / Gauss–Seidel        Scheme                all units step from the samples at t_n, or one
//                                                      after the other, each using the t_{n+1} outputs
//                                                      of those before it (MasterOptions::order)
//   p_in  ∈ {0, 1, 2}            Connection::input_order   hold (ZOH), first- (FOH) or second-order
//                                                      extrapolation of the input over the micro steps
//   p_out ∈ {0, 1, 2}            Connection::output_order  the same for the input value a unit's
//                                                      feedthrough outputs use at t_{n+1} (eq. C.6)
//   δ_n = Σ_k W_k                MacroRecord::residual  energy created by the coupling in step n (eq. C.7)
//
// With max_iterations > 1 a macro step is repeated (states restored) with the
// latest outputs at t_{n+1} until they change by less than `tolerance`.
#include <functional>
#include <string>
#include <vector>

#include "senda/cosim/unit.hpp"

namespace senda::cosim {

enum class Scheme { Jacobi, GaussSeidel };
const char* to_string(Scheme s);  // "jacobi", "gauss-seidel"

// Output `from_output` of unit `from_unit` feeds input `to_input` of unit `to_unit`.
struct Connection {
  int to_unit = 0, to_input = 0;
  int from_unit = 0, from_output = 0;
  int input_order = 0;   // 0 ZOH, 1 FOH, 2 second order: the input over the micro steps
  int output_order = 0;  // the same, for the value at t_{n+1} used by the unit's feedthrough outputs
};

// The units are closed systems joined to each other only (no external load, no
// damping): energy the whole gains is created by the coupling (eq. C.7), its error
// (docs/theory.md eq. C.9).
// A run whose coupling has created more than kUnstableEnergy times the energy it
// started with, Σ_{m≤n} δ_m > kUnstableEnergy |E(0)| (the interface energy residual,
// eq. C.7), created more than it was given, as the dynamics module's rule
// (dynamics::kUnstableEnergy): it is unstable and stops (Termination::Unstable). The
// residual, not E(t_n) − E(0): a stable explicit unit's own E swings within a period.
// Seed 002's worst configuration, Jacobi f-d with ZOH, gains 68 % over its 10 s
// (Figure 20, its demonstrated phenomenon) and completes.
constexpr double kUnstableEnergy = 1.0;

struct MasterOptions {
  double end_time = 1.0;       // simulated time from 0
  double macro_step = 1e-3;    // H: every unit's micro step divides it
  Scheme scheme = Scheme::Jacobi;
  std::vector<int> order;      // Gauss–Seidel: the order of the units (empty: as given)
  int max_iterations = 1;      // 1: explicit (non-iterative) co-simulation
  double tolerance = 1e-10;    // iteration: max |Δy| / (1 + |y|) of the outputs at t_{n+1}
  // Σδ_n above this times |E(0)| ends the run as Unstable (infinity: never).
  double unstable_energy = kUnstableEnergy;
  std::function<bool()> stop_requested;  // polled before every macro step
};

// Why a configuration cannot run ("" when it can): an input not connected or
// connected twice, an index out of range, an order that is not a permutation, a
// macro step that is not a whole multiple of a unit's micro step, a loop of
// feedthrough outputs (an algebraic loop, which an explicit master cannot solve).
std::string validate(const std::vector<Unit*>& units, const std::vector<Connection>& connections,
                     const MasterOptions& options);

// One macro step, as written to cosim_history.csv.
struct MacroRecord {
  int step = 0;                   // n (0: the initial state)
  double t = 0.0;                 // t_n
  std::vector<double> energy;     // E_k at t_n, the inputs at their actual values (eq. C.8)
  double total_energy = 0.0;      // Σ E_k
  std::vector<double> power;      // W_k / H: mean power into unit k through its inputs during the step
  double residual = 0.0;          // δ_n = Σ_k W_k (eq. C.7)
  double residual_sum = 0.0;      // Σ_{m ≤ n} δ_m
  int iterations = 0;             // sweeps of the step (0 for step 0)
  bool converged = true;          // the iteration met the tolerance (always with max_iterations = 1)
  std::vector<std::vector<double>> outputs;  // y_k at t_n as exchanged
};

// Diverged: a unit's energy or an exchanged output is not finite after a macro step
// (an explicit unit beyond its stability limit, a coupling that feeds energy in
// faster than it leaves): the run stops there; the step's record is written.
// Unstable: the energy created by the coupling (Σδ_n) has grown beyond the limit of
// MasterOptions::unstable_energy times |E(0)| (energy from nothing): the
// run stops there; the step's record is written and counted in the energy extremes.
enum class Termination { Completed, Interrupted, Diverged, Unstable };
const char* to_string(Termination t);  // "completed", "interrupted", "diverged", "unstable"

struct Summary {
  Termination termination = Termination::Completed;
  int steps = 0;                    // macro steps done
  double t_end = 0.0;
  double initial_energy = 0.0, final_energy = 0.0;
  double max_energy_deviation = 0.0;  // max_n |E(t_n) − E(0)|
  double min_energy = 0.0, max_energy = 0.0;
  double residual_sum = 0.0;        // Σ δ_n
  int unconverged_steps = 0;        // iterated steps that did not meet the tolerance
  // A diverged run: the unit (index into units) and what of it was not finite
  // ("its energy", "its output 2") at the last macro step; -1 otherwise.
  int diverged_unit = -1;
  std::string diverged_what;
};

// Why a Diverged or Unstable run stopped, in words ("" otherwise): the unit and what
// of it was not finite, or the energy's growth against the limit.
std::string termination_message(const Summary& s, const std::vector<std::string>& unit_names,
                                const MasterOptions& options);

// Called with every record (step 0 first); a stream of them is the history.
using RecordCallback = std::function<void(const MacroRecord&)>;

// Runs the co-simulation from the units' current states at t = 0. Throws
// std::invalid_argument when validate() is not empty (callers check it first).
Summary run(const std::vector<Unit*>& units, const std::vector<Connection>& connections,
            const MasterOptions& options, const RecordCallback& on_record = {});

}  // namespace senda::cosim
