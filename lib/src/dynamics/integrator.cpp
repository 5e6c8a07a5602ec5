// Time integration (docs/theory.md §11; notation in senda/dynamics/integrator.hpp).
#include "senda/dynamics/integrator.hpp"

#include <Eigen/Geometry>
#include <Eigen/SparseLU>
#include <cmath>
#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "senda/model/truss.hpp"
#include "senda/core/number.hpp"

namespace senda::dynamics {

const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::EnergyMomentum: return "energy-momentum";
    case Scheme::Midpoint: return "midpoint";
    case Scheme::Newmark: return "newmark";
    case Scheme::HHT: return "hht";
    case Scheme::Index1RK4: return "index1-rk4";
  }
  return "?";
}

const char* to_string(EmTangent t) { return t == EmTangent::Exact ? "exact" : "symmetric"; }

const char* to_string(ConvergenceTest t) {
  switch (t) {
    case ConvergenceTest::Residual: return "residual";
    case ConvergenceTest::Energy: return "energy";
    case ConvergenceTest::Both: return "both";
  }
  return "?";
}

const char* to_string(StepStatus s) {
  switch (s) {
    case StepStatus::Converged: return "converged";
    case StepStatus::NoConvergence: return "no-convergence";
    case StepStatus::Singular: return "singular";
    case StepStatus::NotFinite: return "not-finite";
    case StepStatus::Interrupted: return "interrupted";
    case StepStatus::Unstable: return "unstable";
  }
  return "?";
}

std::string IntegratorOptions::check() const {
  if (!(dt > 0.0) || !std::isfinite(dt)) return "the time step must be > 0";
  // γ < ½ is negative numerical damping (the motion grows); [dynamics] refuses it too.
  if (scheme == Scheme::Newmark && !(beta > 0.0 && beta <= 0.5 && gamma >= 0.5 && gamma <= 1.0))
    return "Newmark needs 0 < beta <= 1/2 and 1/2 <= gamma <= 1";
  if (scheme == Scheme::HHT && !(alpha >= -1.0 / 3.0 && alpha <= 0.0)) return "HHT-alpha needs alpha in [-1/3, 0]";
  if (!(residual_tolerance > 0.0) || !(energy_tolerance > 0.0)) return "the tolerances must be > 0";
  if (max_iterations < 1) return "max_iterations must be >= 1";
  return {};
}

Momenta momenta(const model::Model& model, const SparseMatrix& M, const Vector& q, const Vector& v) {
  const Vector p = M * v;
  Momenta m;
  for (int i = 0; i < model.size(); ++i) {
    const model::DofRef& d = model.equation_dof(i);
    const int c = static_cast<int>(d.component);
    if (c >= 3 || d.slot != 0) continue;
    Eigen::Vector3d x = model.node_position(d.node);
    for (int k = 0; k < model.dim(); ++k) x[k] += model.displacement(q, d.node, static_cast<model::Component>(k));
    Eigen::Vector3d pi = Eigen::Vector3d::Zero();
    pi[c] = p[i];
    m.linear += pi;
    m.angular += x.cross(pi);
  }
  return m;
}

namespace {

std::string fmt_g(double x) { return core::format_g(x, 6); }

// Adds value into S(i, j) for free dofs (the entry is in the model's pattern).
void add_entry(SparseMatrix& S, int i, int j, double value) {
  if (i >= 0 && j >= 0) S.coeffRef(i, j) += value;
}

void scatter(const model::Model& model, const model::Element& e, const Eigen::VectorXd& fe, Vector& f) {
  const auto& dofs = e.dofs();
  for (std::size_t a = 0; a < dofs.size(); ++a) {
    const int i = model.equation(dofs[a]);
    if (i >= 0) f[i] += fe[static_cast<Eigen::Index>(a)];
  }
}

void scatter_matrix(const model::Model& model, const model::Element& e, const Eigen::MatrixXd& Ke, double scale,
                    SparseMatrix& S) {
  const auto& dofs = e.dofs();
  for (std::size_t a = 0; a < dofs.size(); ++a)
    for (std::size_t b = 0; b < dofs.size(); ++b)
      add_entry(S, model.equation(dofs[a]), model.equation(dofs[b]),
                scale * Ke(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)));
}

// Central force of a truss bar between the states a and b (seed 003 eqs. 3.42–3.46):
//   f*_b = −f*_a = σ r̄,  σ = N* / l̄,  N* = [W(l_b) − W(l_a)]/(l_b − l_a),  l̄ = (l_a + l_b)/2,
//   r̄ = (d_a + d_b)/2 the midpoint chord                                    (eq. 11.9)
// and ∂f*_b/∂d_b = ½ σ I + c r̄ ⊗ d_b with c = (N(l_b)/l_b − σ)/(½(l_b² − l_a²)), its limit
// (N' − N/l)/(2 l²) at l̄ when l_b → l_a (eq. 3.46)                             (eq. 11.10)
void bar_force(const model::Model& model, const model::TrussBar& bar, const Eigen::VectorXd& ua,
               const Eigen::VectorXd& ub, Eigen::VectorXd& fe, Eigen::MatrixXd* Ke) {
  const int dim = model.dim();
  const auto& dofs = bar.dofs();
  const Eigen::Vector3d X = model.node_position(dofs[dim].node) - model.node_position(dofs[0].node);
  Eigen::Vector3d da = X, db = X;
  for (int c = 0; c < dim; ++c) {
    da[c] += ua[dim + c] - ua[c];
    db[c] += ub[dim + c] - ub[c];
  }
  const double la = da.norm(), lb = db.norm(), lm = 0.5 * (la + lb);
  const double sigma = bar.energy_quotient(la, lb) / lm;
  const Eigen::Vector3d rm = 0.5 * (da + db);
  for (int c = 0; c < dim; ++c) {
    fe[c] = -sigma * rm[c];
    fe[dim + c] = sigma * rm[c];
  }
  if (!Ke) return;
  double coef;
  if (std::abs(lb - la) > 1e-5 * bar.reference_length()) {
    double Nb;
    bar.energy_of_length(lb, nullptr, &Nb, nullptr);
    coef = (Nb / lb - sigma) / (0.5 * (lb * lb - la * la));
  } else {
    double N, dN;
    bar.energy_of_length(lm, nullptr, &N, &dN);
    coef = (dN - N / lm) / (2.0 * lm * lm);
  }
  // f_b depends on d_b = x_b − x_a: ∂f_b/∂u_b = A, ∂f_b/∂u_a = −A; f_a = −f_b.
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      const double A = (i == j ? 0.5 * sigma : 0.0) + coef * rm[i] * db[j];
      (*Ke)(dim + i, dim + j) = A;
      (*Ke)(dim + i, j) = -A;
      (*Ke)(i, dim + j) = -A;
      (*Ke)(i, j) = A;
    }
}

// Discrete derivative of Gonzalez (seed 003 eq. 2.5) of an element's energy:
//   f* = f(ū) + [ΔW − f(ū)·Δu] / (Δu·Δu) Δu,   ū = (u_a + u_b)/2            (eq. 11.8)
// The correction is dropped when it is below the rounding of ΔW (it is then noise).
void gonzalez_force(const model::Element& e, const Eigen::VectorXd& ua, const Eigen::VectorXd& ub,
                    Eigen::VectorXd& fe, Eigen::MatrixXd* Ke) {
  const Eigen::VectorXd um = 0.5 * (ua + ub), du = ub - ua;
  e.compute(um, &fe, Ke);
  const double du2 = du.squaredNorm();
  if (du2 == 0.0) return;
  const double Wa = e.energy(ua), Wb = e.energy(ub), fdu = fe.dot(du);
  const double gap = (Wb - Wa) - fdu;
  const double eps = std::numeric_limits<double>::epsilon();
  if (std::abs(gap) > 16.0 * eps * (std::abs(Wa) + std::abs(Wb) + std::abs(fdu))) fe += (gap / du2) * du;
}

}  // namespace

void discrete_force(const model::Model& model, const Vector& qa, const Vector& qb, Vector& f, SparseMatrix* S,
                    double scale, bool exact) {
  f.setZero(model.size());
  Eigen::VectorXd ua, ub, fe;
  Eigen::MatrixXd Ke;
  for (int e = 0; e < model.element_count(); ++e) {
    const model::Element& el = model.element(e);
    model.gather(e, qa, ua);
    model.gather(e, qb, ub);
    fe.resize(ua.size());
    Ke.resize(ua.size(), ua.size());
    if (const auto* bar = dynamic_cast<const model::TrussBar*>(&el)) {
      bar_force(model, *bar, ua, ub, fe, S && exact ? &Ke : nullptr);
      if (S && !exact) {
        el.compute(0.5 * (ua + ub), nullptr, &Ke);
        Ke *= 0.5;
      }
    } else {
      gonzalez_force(el, ua, ub, fe, S ? &Ke : nullptr);
      if (S) Ke *= 0.5;  // ∂/∂u_b of f(ū): ½ K(ū) (the symmetric approximation, §11.4)
    }
    scatter(model, el, fe, f);
    if (S) scatter_matrix(model, el, Ke, scale, *S);
  }
}

struct Integrator::Solvers {
  std::unique_ptr<linalg::SymmetricFactorization> ldlt;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu;
  bool lu_analysed = false;
};

Integrator::Integrator(const model::Model& model, SparseMatrix M, SparseMatrix C, LoadHistory load,
                       IntegratorOptions options, std::optional<ConstraintSet> constraints)
    : model_(model), M_(std::move(M)), C_(std::move(C)), load_(std::move(load)), options_(options),
      solvers_(std::make_unique<Solvers>()) {
  if (const std::string why = options_.check(); !why.empty()) throw std::invalid_argument("Integrator: " + why);
  if (const std::string why = load_.check(); !why.empty()) throw std::invalid_argument("Integrator: " + why);
  if (M_.rows() != model.size() || M_.nonZeros() != model.tangent_pattern().nonZeros())
    throw std::invalid_argument("Integrator: M must have the model's tangent pattern (mass_matrix())");
  if (C_.nonZeros() != 0 && C_.nonZeros() != M_.nonZeros())
    throw std::invalid_argument("Integrator: C must have the model's tangent pattern (rayleigh_damping())");
  if (options_.scheme == Scheme::HHT) {
    options_.beta = 0.25 * (1.0 - options_.alpha) * (1.0 - options_.alpha);
    options_.gamma = 0.5 - options_.alpha;
  }
  if (options_.scheme != Scheme::HHT) options_.alpha = 0.0;
  if (constraints && options_.scheme != Scheme::Index1RK4)
    throw std::invalid_argument("Integrator: constraints by multipliers need the index1-rk4 scheme");
  if (options_.scheme == Scheme::Index1RK4) {
    if (const std::string why = options_.index1.validate(); !why.empty())
      throw std::invalid_argument("Integrator: " + why);
    if (constraints && constraints->unknowns() != model.size())
      throw std::invalid_argument("Integrator: the constraints are not on the model's unknowns");
    // M a + Gᵀμ = f with f = f_ext(t) − f(q) − C v (constraint.hpp's ForceFunction).
    ForceFunction force = [this](double t, const Vector& q, const Vector& v, Vector& f) {
      Vector fint;
      model_.internal_force(q, fint);
      external(t, f);
      f -= fint;
      if (C_.nonZeros()) f -= C_ * v;
    };
    index1_ = std::make_unique<Index1Integrator>(M_, constraints ? std::move(*constraints) : ConstraintSet(model.size()),
                                                 std::move(force), options_.index1);
    return;  // no Newton iteration, no iteration matrix
  }
  if (options_.scheme == Scheme::EnergyMomentum && options_.em_tangent == EmTangent::Exact)
    for (int e = 0; e < model.element_count(); ++e)
      unsymmetric_ = unsymmetric_ || dynamic_cast<const model::TrussBar*>(&model.element(e)) != nullptr;
  if (!unsymmetric_)
    solvers_->ldlt = std::make_unique<linalg::SymmetricFactorization>(model.tangent_pattern(), options_.solver);
}

Integrator::~Integrator() = default;

void Integrator::external(double t, Vector& out) const {
  out = load_.factor(t) * model_.reference_load() + model_.dead_load();
}

bool Integrator::start(double t0, const Vector& q0, const Vector& v0) {
  const int n = model_.size();
  if (q0.size() != n || v0.size() != n) throw std::invalid_argument("Integrator::start: q0, v0 of the wrong size");
  state_ = State{};
  initial_phi_ = initial_phi_dot_ = 0.0;
  state_.t = t0;
  t0_ = t0;
  steps_ = 0;
  state_.q = q0;
  state_.v = v0;
  state_.a = Vector::Zero(n);
  if (options_.scheme == Scheme::Newmark || options_.scheme == Scheme::HHT) {
    Vector fext, f;
    external(t0, fext);
    model_.internal_force(q0, f);
    Vector rhs = fext - f;
    if (C_.nonZeros()) rhs -= C_ * v0;
    linalg::SymmetricFactorization mass(model_.tangent_pattern(), options_.solver);
    if (mass.factorize(M_) != linalg::FactorStatus::Ok) {
      message_ = "M is singular: the initial acceleration M a0 = f_ext - f - C v0 has no solution";
      return false;
    }
    state_.a = mass.solve(rhs);
  }
  hook_values_.assign(columns().size(), 0.0);
  if (index1_) {
    index1_->set_state(t0, q0, v0);
    Vector a, mu;
    if (const Index1Status st = index1_->acceleration(t0, q0, v0, a, mu); st != Index1Status::Ok) {
      message_ = st == Index1Status::NotFinite
                     ? "the initial state or its forces are not finite (f_ext - f(q0) - C v0 overflows)"
                     : "[M G^T; G 0] is singular at the start: the rigid links are redundant or degenerate";
      return false;
    }
    hook_values_[0] = initial_phi_ = index1_->violation();
    hook_values_[1] = initial_phi_dot_ = index1_->violation_rate();
  }
  E0_ = 0.0;
  const Energies e = energies_of(state_, 0.0);
  E0_ = e.kinetic + e.strain;  // no work done yet: the load potential is 0 at t0
  scale_ = 0.0;
  message_.clear();
  return true;
}

Energies Integrator::energies() const { return energies_of(state_, scale_); }

double Integrator::supplied(double scale, const State& s) {
  // scale: the running max of |W_ext| (E₀ is added by the caller).
  return std::max(scale, std::abs(s.work));
}

Energies Integrator::energies_of(const State& s, double scale) const {
  Energies e;
  e.kinetic = 0.5 * s.v.dot(M_ * s.v);
  e.strain = model_.energy(s.q);
  e.load_potential = -s.work;
  e.dissipated = s.dissipated;
  e.total = e.kinetic + e.strain + e.load_potential;
  e.error = e.total + e.dissipated - E0_;
  e.supplied = std::abs(E0_) + supplied(scale, s);
  // Nothing supplied (at rest, unloaded): relative to what there is, if anything.
  const double ref = e.supplied > 0.0 ? e.supplied : e.kinetic + e.strain;
  e.relative = ref > 0.0 ? e.error / ref : 0.0;
  return e;
}

void Integrator::residual(const Vector& y, Vector& R, SparseMatrix* S, double& ref) const {
  const State& s = state_;
  const double dt = options_.dt;
  Vector fext, fint;
  if (S) {
    if (S->nonZeros() != M_.nonZeros()) *S = model_.tangent_pattern();
    std::fill(S->valuePtr(), S->valuePtr() + S->nonZeros(), 0.0);
  }
  auto add_scaled = [&](const SparseMatrix& A, double c) {
    if (!S || A.nonZeros() == 0) return;
    const double* a = A.valuePtr();
    double* out = S->valuePtr();
    for (Eigen::Index i = 0; i < S->nonZeros(); ++i) out[i] += c * a[i];
  };
  auto add_tangent = [&](const Vector& at, double c) {
    if (!S) return;
    SparseMatrix K = model_.tangent_pattern();
    model_.tangent(at, 0.0, K);
    add_scaled(K, c);
  };
  if (options_.scheme == Scheme::EnergyMomentum || options_.scheme == Scheme::Midpoint) {
    const Vector& dq = y;
    const Vector x = s.q + dq;
    const Vector Mdq = (2.0 / (dt * dt)) * (M_ * dq), Mv = (2.0 / dt) * (M_ * s.v);
    const Vector inertia = Mdq - Mv;  // (2/Δt²) M (x − q − Δt v), eqs. 11.6/11.7
    external(s.t + 0.5 * dt, fext);
    if (options_.scheme == Scheme::EnergyMomentum) {
      discrete_force(model_, s.q, x, fint, S, 1.0, options_.em_tangent == EmTangent::Exact);
    } else {
      const Vector qm = 0.5 * (s.q + x);
      model_.internal_force(qm, fint);
      add_tangent(qm, 0.5);
    }
    R = inertia + fint - fext;
    double damping = 0.0;
    if (C_.nonZeros()) {
      const Vector cv = C_ * dq / dt;
      R += cv;
      damping = cv.norm();
    }
    add_scaled(M_, 2.0 / (dt * dt));
    add_scaled(C_, 1.0 / dt);
    // The size of R's terms (not of R). The unknown is Δq, not q_{n+1}: the inertia
    // (2/Δt²) M (Δq − Δt v) is then rounded to eps of its terms, not to eps (2/Δt²)‖M q‖.
    ref = std::max({Mdq.norm(), Mv.norm(), fint.norm(), fext.norm(), damping});
    return;
  }
  // Newmark / HHT (eq. 11.11). Newton's unknown is a_{n+1} itself (y), not Δq: Δq and
  // v_{n+1} follow from it without a division by β, so that every term of R is a
  // physical force (M a_{n+1}, f, f_ext, C v_{n+1}), rounded to eps of itself, for any
  // β. With Δq as the unknown, a_{n+1} = (Δq − Δt v)/(βΔt²) − (1/(2β) − 1) a_n held
  // terms of size ‖M v‖/(βΔt) that cancel: the reference of the test grew like 1/β
  // and at β = 1e-8 the predictor passed it unconverged (0 iterations, a wrong motion).
  const double alpha = options_.alpha;
  const Vector& a1 = y;
  const Vector dq = newmark_increment(y);
  const Vector x = s.q + dq;
  const Vector v1 = s.v + dt * ((1.0 - options_.gamma) * s.a + options_.gamma * a1);
  const Vector inertia = M_ * a1;
  external(s.t + dt, fext);
  model_.internal_force(x, fint);
  R = inertia + (1.0 + alpha) * (fint - fext);
  double damping = 0.0, previous = 0.0;
  if (C_.nonZeros()) {
    const Vector cv = C_ * v1;
    R += (1.0 + alpha) * cv;
    damping = cv.norm();
  }
  if (alpha != 0.0) {
    Vector fext0, fint0;
    external(s.t, fext0);
    model_.internal_force(s.q, fint0);
    R -= alpha * (fint0 - fext0);
    if (C_.nonZeros()) R -= alpha * (C_ * s.v);
    previous = -alpha * std::max({fint0.norm(), fext0.norm(), C_.nonZeros() ? (C_ * s.v).norm() : 0.0});
  }
  // ∂R/∂a_{n+1} = M + (1 + α)(γΔt C + βΔt² K(x)).
  add_scaled(M_, 1.0);
  add_scaled(C_, (1.0 + alpha) * options_.gamma * dt);
  add_tangent(x, (1.0 + alpha) * options_.beta * dt * dt);
  // The physical forces only: the test means the same at every β.
  ref = std::max({inertia.norm(), fint.norm(), fext.norm(), damping, previous});
}

Vector Integrator::newmark_increment(const Vector& a1) const {
  // Δq = Δt v_n + Δt² ((½ − β) a_n + β a_{n+1})
  const double dt = options_.dt, beta = options_.beta;
  return dt * state_.v + (dt * dt) * ((0.5 - beta) * state_.a + beta * a1);
}

bool Integrator::solve(const SparseMatrix& S, const Vector& b, Vector& x, StepStatus& status) {
  if (!S.coeffs().allFinite() || !b.allFinite()) {
    status = StepStatus::NotFinite;
    return false;
  }
  if (unsymmetric_) {
    if (!solvers_->lu_analysed) {
      solvers_->lu.analyzePattern(S);
      solvers_->lu_analysed = true;
    }
    solvers_->lu.factorize(S);
    if (solvers_->lu.info() != Eigen::Success) {
      status = StepStatus::Singular;
      return false;
    }
    x = solvers_->lu.solve(b);
    return true;
  }
  const linalg::FactorStatus fs = solvers_->ldlt->factorize(S);
  if (fs != linalg::FactorStatus::Ok) {
    status = fs == linalg::FactorStatus::NotFinite ? StepStatus::NotFinite : StepStatus::Singular;
    return false;
  }
  solvers_->ldlt->solve(b, x);
  return true;
}

std::vector<std::string> Integrator::columns() const {
  std::vector<std::string> c;
  if (index1_) c = {"phi_norm", "phi_dot_norm", "projections"};
  if (hook_)
    for (const std::string& h : hook_->columns()) c.push_back(h);
  return c;
}

const Index1Statistics* Integrator::constraint_statistics() const {
  return index1_ ? &index1_->statistics() : nullptr;
}

int Integrator::constraint_count() const { return index1_ ? index1_->constraints().size() : 0; }

// One explicit step of the index-1 system (constraint.hpp), then the bookkeeping of
// eq. 11.12 with the midpoint load and velocity.
StepReport Integrator::index1_step() {
  StepReport rep;
  if (stop_ && stop_()) {
    rep.status = StepStatus::Interrupted;
    message_ = "interrupted";
    return rep;
  }
  const double dt = options_.dt;
  index1_->set_state(state_.t, state_.q, state_.v);
  const Index1Statistics before = index1_->statistics();
  const Index1Status st = index1_->step(dt);
  const std::string at = " at t = " + fmt_g(state_.t + dt);
  if (st == Index1Status::NotFinite) {
    rep.status = StepStatus::NotFinite;
    message_ = "the state or its forces are not finite in a stage of the step" + at +
               " (the motion overflowed: is dt too large for the explicit RK4, or a velocity or damping too large?)";
    return rep;
  }
  if (st == Index1Status::SingularSystem) {
    rep.status = StepStatus::Singular;
    message_ = "[M G^T; G 0] is singular" + at + " (redundant or degenerate rigid links)";
    return rep;
  }
  if (st == Index1Status::ProjectionFailed) {
    rep.status = StepStatus::NoConvergence;
    message_ = "the position projection did not reach dynamics.projection_tolerance in " +
               std::to_string(options_.index1.max_projection_iterations) + " solves" + at;
    return rep;
  }
  if (!index1_->q().allFinite() || !index1_->v().allFinite()) {
    rep.status = StepStatus::NotFinite;
    message_ = "the state is not finite" + at + " (is dt too large for the explicit RK4?)";
    return rep;
  }
  State n = state_;
  // W_ext and D by RK4's quadrature of their rates over its stages (the augmented
  // system y' = (v, a, f_ext·v, v·C v) integrated by the same method).
  const std::array<Vector, 4>& sv = index1_->stage_velocities();
  const double stage_t[4] = {state_.t, state_.t + 0.5 * dt, state_.t + 0.5 * dt, state_.t + dt};
  const double weight[4] = {1.0, 2.0, 2.0, 1.0};
  double power = 0.0, dissipation = 0.0;
  Vector f;
  for (int k = 0; k < 4; ++k) {
    external(stage_t[k], f);
    power += weight[k] * f.dot(sv[k]);
    if (C_.nonZeros()) dissipation += weight[k] * sv[k].dot(C_ * sv[k]);
  }
  n.work += dt / 6.0 * power;
  n.dissipated += dt / 6.0 * dissipation;
  // A projection after the step moved q off RK4's q_{n+1}: the loads work along that
  // move too (at t_{n+1}), so that a constant load's potential stays −f·(q − q₀).
  Vector rk4_q = state_.q;
  for (int k = 0; k < 4; ++k) rk4_q += (dt / 6.0 * weight[k]) * sv[k];
  n.work += f.dot(index1_->q() - rk4_q);  // f is f_ext(t_{n+1}), the last stage's
  n.q = index1_->q();
  n.v = index1_->v();
  n.t = t0_ + static_cast<double>(steps_ + 1) * dt;
  if (!accept(n, rep)) {
    index1_->set_statistics(before);  // a refused step is not counted (its |Phi| neither)
    return rep;
  }
  hook_values_[0] = index1_->violation();
  hook_values_[1] = index1_->violation_rate();
  hook_values_[2] = index1_->statistics().corrections;
  if (hook_) {
    std::vector<double> extra(hook_values_.begin() + 3, hook_values_.end());
    hook_->after_step(model_, M_, state_, extra);
    std::copy(extra.begin(), extra.end(), hook_values_.begin() + 3);
  }
  rep.status = StepStatus::Converged;
  return rep;
}

bool Integrator::accept(State& n, StepReport& rep) {
  // Energy created from nothing: the error exceeds all the energy supplied so far. One
  // side only: a scheme that damps (HHT, Newmark with γ > ½, RK4 within its limit)
  // loses energy, down to −(E₀ + W_ext) at most, and is no instability.
  const double scale = supplied(scale_, n);
  const Energies e = energies_of(n, scale);
  if (e.relative > kUnstableEnergy || !std::isfinite(e.relative)) {
    rep.status = StepStatus::Unstable;
    message_ = "the energy error reached " + fmt_g(e.error) + " at t = " + fmt_g(n.t) + ", " + fmt_g(std::abs(e.relative)) +
               " times the energy supplied (|E0| plus the loads' largest work so far): " +
               (options_.scheme == Scheme::Index1RK4
                    ? "the explicit RK4 is unstable at this time step (it is stable for omega_max dt <= 2 sqrt 2 = 2.83 on undamped modes, 2.78 on purely damped ones, "
                      "omega_max the highest natural frequency of the model): lower dynamics.dt"
                    : "the scheme created energy at this time step: lower dynamics.dt, or use energy-momentum") +
               "; the last state is that of the step before";
    return false;
  }
  ++steps_;
  scale_ = scale;
  state_ = std::move(n);
  return true;
}

StepReport Integrator::step() {
  if (index1_) return index1_step();
  StepReport rep;
  const State& s = state_;
  const double dt = options_.dt;
  const bool newmark = options_.scheme == Scheme::Newmark || options_.scheme == Scheme::HHT;
  // Newton's unknown y: Δq = q_{n+1} − q_n for the midpoint schemes, a_{n+1} for
  // Newmark and HHT (residual()). The predictor is x = q_n + Δt v_n (+ ½Δt² a_n for
  // Newmark and HHT, y = a_n).
  Vector y = newmark ? Vector(s.a) : Vector(dt * s.v);
  Vector R, dx;
  SparseMatrix S = model_.tangent_pattern();
  double w0 = -1.0, w_last = -1.0;
  const ConvergenceTest test = options_.test;
  // The size of the elements' force terms, Σ |K_e| |x_e − x̄_e| (eq. 2.9a): the internal
  // force is a sum of element forces each rounded to eps of itself, larger than f where
  // they cancel (a truss at rest under load, a stiff penalty bar): part of the rounding
  // floor of the test, not of its tolerance. Once per step, at the predictor.
  const double terms = model_.force_terms(s.q + (newmark ? newmark_increment(y) : y), load_.factor(s.t + dt));
  for (int it = 0;; ++it) {
    if (stop_ && stop_()) {
      rep.status = StepStatus::Interrupted;
      message_ = "interrupted";
      return rep;
    }
    double ref = 0.0;
    residual(y, R, &S, ref);
    const double norm = R.norm();
    if (!std::isfinite(norm)) {
      rep.status = StepStatus::NotFinite;
      message_ = "the residual is not finite at t = " + fmt_g(s.t + dt);
      return rep;
    }
    const double rel = norm == 0.0 ? 0.0 : (ref > 0.0 ? norm / ref : std::numeric_limits<double>::infinity());
    rep.residuals.push_back(rel);
    rep.residual = rel;
    rep.iterations = it;
    // Met the tolerance relative to the forces, or at the rounding of R's terms (no
    // iteration can do better: eq. 11.13).
    const bool at_floor = norm <= 64.0 * std::numeric_limits<double>::epsilon() * std::max(ref, terms);
    const bool res_ok = rel <= options_.residual_tolerance || at_floor;
    // The energy test at the floor too: with a predictor that is nearly the solution
    // the first correction's work w₀ is itself near round-off, and etol w₀ (1e-20 w₀)
    // is below what any iterate reaches (dynamics.convergence = energy failed steps
    // that had converged).
    const bool energy_ok = norm == 0.0 || at_floor || (w_last >= 0.0 && w_last <= options_.energy_tolerance * w0);
    const bool done = test == ConvergenceTest::Residual ? res_ok
                      : test == ConvergenceTest::Energy ? energy_ok
                                                        : res_ok && energy_ok;
    if (done) break;
    if (it == options_.max_iterations) {
      rep.status = StepStatus::NoConvergence;
      message_ = "Newton did not converge in " + std::to_string(it) + " iterations at t = " + fmt_g(s.t + dt) +
                 " (relative residual " + fmt_g(rel) +
                 (test == ConvergenceTest::Residual
                      ? std::string()
                      : ", work of the last correction " + fmt_g(w0 > 0.0 ? w_last / w0 : w_last) + " of the first's") +
                 ")";
      return rep;
    }
    StepStatus st = StepStatus::Converged;
    if (!solve(S, -R, dx, st)) {
      rep.status = st;
      message_ = std::string("the iteration matrix is ") + (st == StepStatus::Singular ? "singular" : "not finite") +
                 " at t = " + fmt_g(s.t + dt);
      return rep;
    }
    // Work of the correction (eq. 11.13); for Newmark and HHT the correction of a_{n+1},
    // βΔt² times that of Δq: the test takes the ratio of two, which is the same.
    w_last = std::abs(dx.dot(R));
    if (w0 < 0.0) w0 = w_last;
    y += dx;
  }
  // Accept: velocities, accelerations, work and dissipation (eq. 11.12).
  State n = s;
  const Vector dq = newmark ? newmark_increment(y) : y;
  const Vector x = s.q + dq;
  Vector f0, f1;
  if (!newmark) {
    n.v = 2.0 * dq / dt - s.v;
    external(s.t + 0.5 * dt, f0);
    n.work += f0.dot(dq);
    if (C_.nonZeros()) n.dissipated += dq.dot(C_ * dq) / dt;
  } else {
    const double gamma = options_.gamma;
    n.a = y;
    n.v = s.v + dt * ((1.0 - gamma) * s.a + gamma * n.a);
    external(s.t, f0);
    external(s.t + dt, f1);
    n.work += 0.5 * (f0 + f1).dot(dq);
    if (C_.nonZeros()) n.dissipated += dq.dot(C_ * (0.5 * (s.v + n.v)));
  }
  n.q = x;
  n.t = t0_ + static_cast<double>(steps_ + 1) * dt;  // not a running sum of Δt
  if (!accept(n, rep)) return rep;
  if (hook_) hook_->after_step(model_, M_, state_, hook_values_);
  rep.status = StepStatus::Converged;
  return rep;
}

}  // namespace senda::dynamics
