#include "senda/cosim/linear_unit.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace senda::cosim {

namespace {
[[noreturn]] void misuse(const std::string& what) { throw std::invalid_argument("cosim::LinearUnit: " + what); }

// Number of micro steps h in H; H must be a whole multiple of h (to 1e-9 relative).
int micro_steps(double H, double h) {
  const double r = H / h;
  const double n = std::round(r);
  if (n < 1.0 || std::abs(r - n) > 1e-9 * n) misuse("the macro step is not a whole multiple of the micro step");
  return static_cast<int>(n);
}
}  // namespace

const char* to_string(Integrator i) {
  switch (i) {
    case Integrator::SymplecticEuler: return "symplectic-euler";
    case Integrator::Exact: return "exact";
  }
  return "?";
}

LinearUnit::LinearUnit(LinearSystem system, std::vector<Port> ports, Integrator integrator, double micro_step)
    : m_(std::move(system.mass)),
      k_(std::move(system.stiffness)),
      ports_(std::move(ports)),
      integrator_(integrator),
      h_(micro_step),
      x_(std::move(system.x0)),
      v_(std::move(system.v0)) {
  const Eigen::Index n = m_.size();
  if (n == 0 || k_.rows() != n || k_.cols() != n || x_.size() != n || v_.size() != n) misuse("inconsistent sizes");
  if ((m_.array() <= 0.0).any() || !m_.allFinite()) misuse("a mass is not positive");
  if (!(h_ > 0.0) || !std::isfinite(h_)) misuse("the micro step is not positive");
  if (!k_.allFinite() || (k_ - k_.transpose()).norm() > 1e-12 * (1.0 + k_.norm())) misuse("K is not symmetric");
  k_eff_ = k_;
  for (int p = 0; p < static_cast<int>(ports_.size()); ++p) {
    const Port& port = ports_[p];
    if (port.dof < 0 || port.dof >= n) misuse("a port is outside the dofs");
    outputs_.push_back({p, Quantity::X});
    outputs_.push_back({p, Quantity::V});
    if (port.kind == PortKind::Spring) {
      if (!(port.stiffness > 0.0) || !(port.share > 0.0 && port.share <= 1.0)) misuse("a bad spring port");
      k_eff_(port.dof, port.dof) += port.stiffness;
      outputs_.push_back({p, Quantity::F});
    }
  }
  if (integrator_ == Integrator::Exact) {
    // K_eff Φ = M Φ Ω² through the symmetric M^{-1/2} K_eff M^{-1/2} = Q Ω² Qᵀ, Φ = M^{-1/2} Q.
    const Eigen::VectorXd s = m_.cwiseSqrt().cwiseInverse();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(s.asDiagonal() * k_eff_ * s.asDiagonal());
    if (eig.info() != Eigen::Success) misuse("the eigenvalues of K_eff did not converge");
    if (!(eig.eigenvalues().minCoeff() > 1e-12 * eig.eigenvalues().cwiseAbs().maxCoeff()))
      misuse("K_eff is not positive definite (a free mode): the exact integrator needs every frequency > 0");
    omega_ = eig.eigenvalues().cwiseSqrt();
    phi_ = s.asDiagonal() * eig.eigenvectors();
    // The modal state is the state: x = Φ q after every step, never q from x again
    // (ΦᵀMΦ = I only to rounding, and the round trip in every step would drift by
    // N·eps: 1e-11 m after the 10 000 steps of seed 002).
    q_ = phi_.transpose() * (m_.asDiagonal() * x_);
    qd_ = phi_.transpose() * (m_.asDiagonal() * v_);
  }
}

std::string LinearUnit::input_name(int i) const {
  const std::string& n = ports_.at(i).name;
  return n.empty() ? "u" : n;
}

std::string LinearUnit::output_name(int j) const {
  const Output& o = outputs_.at(j);
  const std::string& n = ports_[o.port].name;
  const char* q = o.q == Quantity::X ? "x" : o.q == Quantity::V ? "v" : "f";
  return n.empty() ? std::string(q) : n + "." + q;
}

bool LinearUnit::feedthrough(int output, int input) const {
  const Output& o = outputs_.at(output);
  return o.q == Quantity::F && o.port == input;
}

Eigen::VectorXd LinearUnit::force(std::span<const Signal> inputs, double tau) const {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(m_.size());
  for (std::size_t p = 0; p < ports_.size(); ++p) {
    const double u = inputs[p].value(tau);
    g(ports_[p].dof) += ports_[p].kind == PortKind::Force ? u : ports_[p].stiffness * u;
  }
  return g;
}

void LinearUnit::step(double /*t*/, double H, std::span<const Signal> inputs) {
  if (inputs.size() != ports_.size()) misuse("step() needs one signal per input");
  std::vector<double> before(ports_.size()), end(ports_.size());
  for (std::size_t p = 0; p < ports_.size(); ++p) {
    before[p] = inputs[p].before;
    end[p] = inputs[p].value(H);
  }
  if (integrator_ == Integrator::Exact) {
    // No dissipation and an exact solution: the energy theorem dE/dt = P_in (eq. C.3)
    // holds exactly, so the work of the inputs is the change of E, jump included.
    const double e0 = energy(before);
    step_exact(H, inputs);
    work_ = energy(end) - e0;
    return;
  }
  work_ = 0.0;
  for (std::size_t p = 0; p < ports_.size(); ++p) {
    const Port& port = ports_[p];
    if (port.kind != PortKind::Spring) continue;
    // A held input jumps from u(t_n⁻) to u(t_n⁺) with the state fixed: work s ∫ k_c (u − x) du.
    const double x = x_(port.dof), a = inputs[p].before - x, b = inputs[p].value(0.0) - x;
    work_ += port.share * 0.5 * port.stiffness * (b * b - a * a);
  }
  step_symplectic(H, inputs);
}

void LinearUnit::step_symplectic(double H, std::span<const Signal> inputs) {
  const int n = micro_steps(H, h_);
  for (int j = 0; j < n; ++j) {
    const double tau = j * h_;
    const Eigen::VectorXd a = (force(inputs, tau) - k_eff_ * x_).cwiseQuotient(m_);
    const Eigen::VectorXd v_old = v_;
    v_ += h_ * a;  // seed 002 eq. (37)
    const Eigen::VectorXd x_new = x_ + h_ * v_;
    // Work of the inputs over the micro step (eq. C.3) in the quadrature that
    // closes the unit's energy balance for this step exactly: ΔE = W + D, D the
    // integrator's own error on K alone, −h v̄ᵀK x_j + x̄ᵀK Δx (bounded for the
    // symplectic step). A port's force f_j acts through h v̄_d; the share s of a
    // coupling spring's energy changes by s k_c (x̄_d − ū)(Δx_d − Δu).
    for (std::size_t p = 0; p < ports_.size(); ++p) {
      const Port& port = ports_[p];
      const int d = port.dof;
      const double dx = x_new(d) - x_(d), h_vbar = 0.5 * h_ * (v_old(d) + v_(d));
      const double u0 = inputs[p].value(tau);
      if (port.kind == PortKind::Force) {
        work_ += u0 * h_vbar;
      } else {
        const double u1 = inputs[p].value(tau + h_);
        const double stretch = 0.5 * (x_(d) + x_new(d)) - 0.5 * (u0 + u1);
        work_ += port.stiffness * (u0 - x_(d)) * h_vbar + port.share * port.stiffness * stretch * (dx - (u1 - u0));
      }
    }
    x_ = x_new;
  }
}

void LinearUnit::step_exact(double H, std::span<const Signal> inputs) {
  const int n = micro_steps(H, h_);
  const Eigen::Index nd = m_.size();
  // g(τ) = G0 + G1 τ + G2 τ² (the ports' forces), modal forcing p = Φᵀ g.
  Eigen::VectorXd G0 = Eigen::VectorXd::Zero(nd), G1 = G0, G2 = G0;
  for (std::size_t p = 0; p < ports_.size(); ++p) {
    const double w = ports_[p].kind == PortKind::Force ? 1.0 : ports_[p].stiffness;
    G0(ports_[p].dof) += w * inputs[p].c0;
    G1(ports_[p].dof) += w * inputs[p].c1;
    G2(ports_[p].dof) += w * inputs[p].c2;
  }
  Eigen::VectorXd& q = q_;
  Eigen::VectorXd& qd = qd_;
  for (int j = 0; j < n; ++j) {
    const double tau = j * h_;
    // The forcing re-centred at τ_j: g(τ_j + s) = g0 + g1 s + g2 s².
    const Eigen::VectorXd p0 = phi_.transpose() * (G0 + tau * (G1 + tau * G2));
    const Eigen::VectorXd p1 = phi_.transpose() * (G1 + 2.0 * tau * G2);
    const Eigen::VectorXd p2 = phi_.transpose() * G2;
    for (Eigen::Index i = 0; i < nd; ++i) {
      // q̈ + ω² q = p0 + p1 s + p2 s²: the polynomial particular solution
      // a + b s + c s² (c = p2/ω², b = p1/ω², a = (p0 − 2c)/ω²) plus the free
      // vibration that matches q(0), q̇(0) (eq. C.4).
      // In long double: the rounding of cos(ω h) and sin(ω h) is the same in every
      // step; extended precision keeps it from adding up over many steps.
      using L = long double;
      const L w = omega_(i), w2 = w * w, h = h_;
      const L c = p2(i) / w2, b = p1(i) / w2, a = (p0(i) - 2.0L * c) / w2;
      const L A = q(i) - a, B = (qd(i) - b) / w;
      const L cs = std::cos(w * h), sn = std::sin(w * h);
      q(i) = static_cast<double>(a + h * (b + h * c) + A * cs + B * sn);
      qd(i) = static_cast<double>(b + 2.0L * c * h + w * (B * cs - A * sn));
    }
  }
  x_ = phi_ * q;
  v_ = phi_ * qd;
}

void LinearUnit::outputs(std::span<const double> u, std::span<double> y) const {
  if (u.size() != ports_.size() || y.size() != outputs_.size()) misuse("outputs(): wrong sizes");
  for (std::size_t j = 0; j < outputs_.size(); ++j) {
    const Output& o = outputs_[j];
    const Port& p = ports_[o.port];
    switch (o.q) {
      case Quantity::X: y[j] = x_(p.dof); break;
      case Quantity::V: y[j] = v_(p.dof); break;
      case Quantity::F: y[j] = p.stiffness * (x_(p.dof) - u[o.port]); break;
    }
  }
}

double LinearUnit::energy(std::span<const double> u) const {
  if (u.size() != ports_.size()) misuse("energy(): one value per input");
  double e = 0.5 * v_.dot(m_.asDiagonal() * v_) + 0.5 * x_.dot(k_ * x_);
  for (std::size_t p = 0; p < ports_.size(); ++p)
    if (ports_[p].kind == PortKind::Spring) {
      const double d = x_(ports_[p].dof) - u[p];
      e += ports_[p].share * 0.5 * ports_[p].stiffness * d * d;
    }
  return e;
}

State LinearUnit::save() const {
  State s;
  for (const Eigen::VectorXd* p : {&x_, &v_, &q_, &qd_}) s.insert(s.end(), p->data(), p->data() + p->size());
  return s;
}

void LinearUnit::restore(const State& s) {
  const Eigen::Index n = x_.size(), nq = q_.size();
  if (static_cast<Eigen::Index>(s.size()) != 2 * n + 2 * nq) misuse("restore(): not a state of this unit");
  x_ = Eigen::Map<const Eigen::VectorXd>(s.data(), n);
  v_ = Eigen::Map<const Eigen::VectorXd>(s.data() + n, n);
  q_ = Eigen::Map<const Eigen::VectorXd>(s.data() + 2 * n, nq);
  qd_ = Eigen::Map<const Eigen::VectorXd>(s.data() + 2 * n + nq, nq);
}

Eigen::VectorXd LinearUnit::frequencies() const {
  const Eigen::VectorXd s = m_.cwiseSqrt().cwiseInverse();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(s.asDiagonal() * k_eff_ * s.asDiagonal(), Eigen::EigenvaluesOnly);
  return eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
}

double LinearUnit::stable_step_limit() const {
  const double inf = std::numeric_limits<double>::infinity();
  if (integrator_ != Integrator::SymplecticEuler) return inf;
  const double omega_max = frequencies().maxCoeff();
  return omega_max > 0.0 ? 2.0 / omega_max : inf;
}

}  // namespace senda::cosim
