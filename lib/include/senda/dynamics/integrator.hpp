#pragma once
// Implicit time integration of M q̈ + C q̇ + f(q) = f_ext(t) (docs/theory.md §11).
//
// Notation (docs/theory.md §11)           code
//   q_n, v_n, a_n  state at t_n            State::q, v, a
//   x = q_{n+1}    (Newton's unknown, inside step(): Δq = x − q_n for the midpoint schemes,
//                   a_{n+1} for Newmark and HHT)
//   Δt             time step               IntegratorOptions::dt
//   f(q) = ∂U/∂q   internal force          Model::internal_force
//   f*(q_n, x)     discrete gradient       discrete_force()                 (eqs. 11.8–11.10)
//   R(x), S = ∂R/∂x residual, iteration matrix of a step
//
// Schemes (one Newton loop, the residual and matrix differ):
//   EnergyMomentum  R = (2/Δt²) M (x − q − Δt v) + C (x − q)/Δt + f*(q, x) − f_ext(t_{n+½})   (eq. 11.7)
//                   f* the central-force form of seed 003 (eqs. 3.42–3.46) for truss bars,
//                   the discrete derivative of Gonzalez (seed 003 eq. 2.5) for every other
//                   element (springs: it is the midpoint force, their energy being quadratic)
//   Midpoint        the same with f((q + x)/2) (seed 003 eqs. 1.13–1.17)               (eq. 11.6)
//   Newmark, HHT    x = q + Δt v + Δt²((½ − β) a_n + β a_{n+1}),
//                   v_{n+1} = v + Δt((1 − γ) a_n + γ a_{n+1}),
//                   R = M a_{n+1} + (1 + α)(C v_{n+1} + f(x) − f_ext(t_{n+1}))
//                                 − α(C v_n + f(q_n) − f_ext(t_n))                   (eq. 11.11)
//                   α = 0 is Newmark; HHT-α with α ∈ [−1/3, 0], β = (1 − α)²/4, γ = ½ − α.
//   Index1RK4       the constrained system M a + Gᵀμ = f_ext(t) − f(q) − C v with rigid links
//                   (constraint.hpp: Index1Integrator, explicit RK4 on the index-1 equations,
//                   Baumgarte, projection; docs/theory.md §9); no Newton iteration. Work of
//                   the loads and dissipation by RK4's own quadrature of their rates
//                   f_ext·v and v·C v over its four stages (h/6 (P₁ + 2P₂ + 2P₃ + P₄)), as
//                   accurate as the motion (f_ext(t_{n+½})·Δq was off by a third on the
//                   first step of a ramp from rest).
// Energy bookkeeping (eq. 11.12): T = ½ vᵀM v, U = Σ W_e, the work of the loads
// W_ext += f_ext,n+½ · (q_{n+1} − q_n) (EM, midpoint: at t_{n+½}; Newmark/HHT: the mean
// of f_ext(t_n) and f_ext(t_{n+1})), the dissipated D += Δq·C v̄; the load potential is
// −W_ext (= −f_ext·(q − q₀) for a constant load) and the energy error
// E_err = T + U − W_ext + D − E₀.
//
// Nothing prints; a step that does not converge is a status (StepStatus), never an
// exception. A constraint solver plugs in through StepHook (after each converged step:
// correct q and v, report its own columns); penalty constraints need no hook, they are
// elements of the model.
#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/core/problem.hpp"
#include "senda/dynamics/constraint.hpp"
#include "senda/dynamics/load.hpp"
#include "senda/linalg/factorization.hpp"
#include "senda/model/model.hpp"

namespace senda::dynamics {

enum class Scheme { EnergyMomentum, Midpoint, Newmark, HHT, Index1RK4 };
const char* to_string(Scheme s);  // "energy-momentum", "midpoint", "newmark", "hht", "index1-rk4"

// The iteration matrix of the energy–momentum scheme for truss bars: the exact,
// unsymmetric derivative of the central force (seed 003 eq. 3.45; an LU factorization),
// or the symmetric midpoint tangent ½ K(q_{n+½}) (LDLᵀ; Newton then converges linearly).
enum class EmTangent { Exact, Symmetric };
const char* to_string(EmTangent t);  // "exact", "symmetric"

// Newton's stopping test: the residual (‖R‖ ≤ tol · the largest of its terms' norms:
// (2/Δt²)‖M Δq‖, (2/Δt)‖M v_n‖, ‖f‖, ‖f_ext‖, ‖C v‖ for the midpoint schemes; for Newmark
// and HHT, whose unknown is a_{n+1}, the physical forces ‖M a_{n+1}‖, ‖f‖, ‖f_ext‖,
// ‖C v_{n+1}‖ (and α's terms at t_n), independent of β; and the elements' force terms
// Σ|K_e||x_e − x̄_e| being the floor: ‖R‖ ≤ 64 eps times the largest of them all is
// converged too, no iteration does better; Newton's unknown is Δq = q_{n+1} − q_n, so
// that the inertia term is not rounded to eps (2/Δt²)‖M q‖), the energy norm |δxᵀR| ≤ etol |δx₀ᵀR₀| (the work of the correction,
// eq. 11.13), or both.
enum class ConvergenceTest { Residual, Energy, Both };
const char* to_string(ConvergenceTest t);  // "residual", "energy", "both"

struct IntegratorOptions {
  Scheme scheme = Scheme::EnergyMomentum;
  double dt = 0.01;                   // time step Δt > 0
  double beta = 0.25, gamma = 0.5;    // Newmark (average acceleration); HHT sets its own
  double alpha = -0.05;               // HHT-α, in [−1/3, 0]
  EmTangent em_tangent = EmTangent::Exact;
  ConvergenceTest test = ConvergenceTest::Residual;
  double residual_tolerance = 1e-12;  // relative, see ConvergenceTest
  double energy_tolerance = 1e-20;    // relative work of the last correction
  int max_iterations = 25;            // Newton iterations per step
  linalg::Solver solver = linalg::Solver::Auto;  // for the symmetric iteration matrices
  Index1Options index1;               // Index1RK4: Baumgarte α, β and the projections

  // Empty when valid, else the reason.
  std::string check() const;
};

struct State {
  double t = 0.0;
  Vector q, v, a;        // a: Newmark and HHT only (zero for the midpoint schemes)
  double work = 0.0;     // W_ext, work of the external loads since the start
  double dissipated = 0.0;
};

struct Energies {
  double kinetic = 0.0, strain = 0.0, load_potential = 0.0, dissipated = 0.0;
  double total = 0.0;     // T + U + load_potential
  double error = 0.0;     // total + dissipated − E₀
  // The energy supplied so far, |E₀| + max over the run of |W_ext|: what the motion can
  // hold (0 at rest and unloaded); the error lies between −supplied (all of it lost,
  // dissipated counted) and +∞ (created).
  double supplied = 0.0;
  // error / supplied (error / (T + U) when nothing was supplied). Not over T + U, which
  // grows with a blow-up and held this ratio below 1 while the energy of an unstable
  // RK4 run grew 8e5-fold.
  double relative = 0.0;
};

// Linear momentum Σ p_i and angular momentum Σ x_i × p_i about the origin
// (x_i = X_i + u_i, p = M v restricted to the translations of node i).
struct Momenta {
  Eigen::Vector3d linear = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular = Eigen::Vector3d::Zero();
};
Momenta momenta(const model::Model& model, const SparseMatrix& M, const Vector& q, const Vector& v);

// The energy–momentum force f*(q_a, q_b) (eqs. 11.8–11.10) and, when S is not null, its
// derivative with respect to q_b added into S times `scale` (S with the model's pattern;
// exact = false adds ½ K(q_{n+½}) for the bars instead of eq. 3.45).
void discrete_force(const model::Model& model, const Vector& qa, const Vector& qb, Vector& f, SparseMatrix* S,
                    double scale, bool exact);

// Unstable: the step converged but its energy error is positive and exceeds the energy
// supplied (kUnstableEnergy, Energies::relative): energy was created from nothing, an
// explicit scheme beyond its stability limit; the state is not advanced.
enum class StepStatus { Converged, NoConvergence, Singular, NotFinite, Interrupted, Unstable };
const char* to_string(StepStatus s);  // "converged", "no-convergence", "singular", "not-finite", "interrupted", "unstable"
constexpr double kUnstableEnergy = 1.0;

struct StepReport {
  StepStatus status = StepStatus::Converged;
  int iterations = 0;
  double residual = 0.0;  // ‖R‖ at the end, relative (see ConvergenceTest)
  std::vector<double> residuals;  // relative ‖R‖ at every iteration (the first: the predictor's)
};

// A constraint solver's plug-in (issue 16 part 4): after every converged step it may
// correct q and v (projection, re-imposition) and report values for its own columns of
// history.csv (‖Φ‖, ‖Φ̇‖, projections done, ...).
class StepHook {
 public:
  virtual ~StepHook() = default;
  virtual std::vector<std::string> columns() const = 0;
  virtual void after_step(const model::Model& model, const SparseMatrix& M, State& state,
                          std::vector<double>& values) = 0;
};

class Integrator {
 public:
  // M and C with the model's pattern (mass.hpp); C may be empty (no damping). The model
  // must outlive the integrator. Throws std::invalid_argument for invalid options.
  // constraints (rigid links on the model's unknowns) only with Scheme::Index1RK4,
  // which runs without them too (plain RK4).
  Integrator(const model::Model& model, SparseMatrix M, SparseMatrix C, LoadHistory load,
             IntegratorOptions options, std::optional<ConstraintSet> constraints = std::nullopt);
  ~Integrator();
  Integrator(const Integrator&) = delete;
  Integrator& operator=(const Integrator&) = delete;

  // Sets the state at t₀ (q₀, v₀) and its energy E₀; Newmark and HHT solve
  // M a₀ = f_ext(t₀) − f(q₀) − C v₀. False with a message when M is singular (Index1RK4:
  // when [M Gᵀ; G 0] is, redundant or degenerate links).
  bool start(double t0, const Vector& q0, const Vector& v0);
  // One step of Δt. The state advances only when the step converged.
  StepReport step();

  void set_hook(StepHook* hook) { hook_ = hook; }
  void set_stop_requested(std::function<bool()> f) { stop_ = std::move(f); }

  const State& state() const { return state_; }
  Energies energies() const;
  double load_factor(double t) const { return load_.factor(t); }
  const SparseMatrix& mass() const { return M_; }
  const IntegratorOptions& options() const { return options_; }
  const std::string& message() const { return message_; }
  // True when the iteration matrix is unsymmetric (factorized by Eigen's SparseLU).
  bool unsymmetric() const { return unsymmetric_; }
  // The extra columns of history.csv and their values after the last step: Index1RK4's
  // phi_norm (‖Φ‖), phi_dot_norm (‖G v‖) and projections (corrections so far, seed 000
  // §2.4.3.3), then the hook's.
  std::vector<std::string> columns() const;
  const std::vector<double>& hook_values() const { return hook_values_; }
  // Index1RK4: the constraint solver's counts (null otherwise).
  const Index1Statistics* constraint_statistics() const;
  // Index1RK4: ‖Φ(q₀)‖ and ‖G v₀‖ of the state start() was given (0 without links). The
  // state is integrated as given: a violation at the start drifts (linearly without
  // stabilisation, seed 000 eq. 34) or decays (Baumgarte, projections); the app warns.
  double initial_phi() const { return initial_phi_; }
  double initial_phi_dot() const { return initial_phi_dot_; }
  int constraint_count() const;

 private:
  void external(double t, Vector& out) const;
  Energies energies_of(const State& s, double scale) const;
  // max(scale, |W_ext| of s): the running max of the loads' work, of the supplied energy
  // without E₀.
  static double supplied(double scale, const State& s);
  // R and, if S is not null, S = ∂R/∂y at Newton's unknown y: Δq = x − q_n for the
  // midpoint schemes, a_{n+1} for Newmark and HHT; ref: the size of R's terms.
  void residual(const Vector& y, Vector& R, SparseMatrix* S, double& ref) const;
  // Newmark, HHT: Δq of a_{n+1}, Δt v_n + Δt²((½ − β) a_n + β a_{n+1}).
  Vector newmark_increment(const Vector& a1) const;
  bool solve(const SparseMatrix& S, const Vector& b, Vector& x, StepStatus& status);

  const model::Model& model_;
  SparseMatrix M_, C_;
  LoadHistory load_;
  IntegratorOptions options_;
  State state_;
  double E0_ = 0.0, scale_ = 0.0, t0_ = 0.0;
  double initial_phi_ = 0.0, initial_phi_dot_ = 0.0;
  long steps_ = 0;
  bool unsymmetric_ = false;
  std::string message_;
  StepHook* hook_ = nullptr;
  std::function<bool()> stop_;
  std::vector<double> hook_values_;
  std::unique_ptr<Index1Integrator> index1_;
  StepReport index1_step();
  // Takes n as the new state unless its energy error shows an instability (then false,
  // with rep and message_ set).
  bool accept(State& n, StepReport& rep);
  struct Solvers;
  std::unique_ptr<Solvers> solvers_;
};

}  // namespace senda::dynamics
