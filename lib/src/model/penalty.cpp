// Penalty Fix and Tie (seed 003 §1.6, eqs. 3.47–3.53); notation in penalty.hpp.
#include "senda/model/penalty.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace senda::model {

namespace {

std::vector<double> checked_gap(std::vector<double> gap, std::size_t n, double kappa, const char* what) {
  if (n == 0) throw std::logic_error(std::string(what) + ": no component (" __FILE__ ")");
  if (!(kappa > 0.0)) throw std::logic_error(std::string(what) + ": kappa must be positive (" __FILE__ ")");
  if (gap.empty()) gap.assign(n, 0.0);
  if (gap.size() != n) throw std::logic_error(std::string(what) + ": one gap per component (" __FILE__ ")");
  return gap;
}

}  // namespace

PenaltyFix::PenaltyFix(int id, int node, std::vector<Component> comps, double kappa, std::vector<double> gap)
    : id_(id), kappa_(kappa), gap_(checked_gap(std::move(gap), comps.size(), kappa, "PenaltyFix")) {
  for (Component c : comps) dofs_.push_back({node, c});
}

std::string PenaltyFix::describe() const { return "penalty fix " + std::to_string(id_); }

Eigen::VectorXd PenaltyFix::violation(const Eigen::VectorXd& u_e) const {
  Eigen::VectorXd phi(u_e.size());
  for (Eigen::Index k = 0; k < u_e.size(); ++k) phi[k] = u_e[k] + gap_[k];
  return phi;
}

double PenaltyFix::energy(const Eigen::VectorXd& u_e) const { return 0.5 * kappa_ * violation(u_e).squaredNorm(); }

void PenaltyFix::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  // ∂Φ/∂u = 1: f = κ Φ (eq. 3.50 with the sign of an internal force), K = κ 1 (eq. 3.51).
  if (f_e) *f_e = kappa_ * violation(u_e);
  if (K_e) *K_e = kappa_ * Eigen::MatrixXd::Identity(u_e.size(), u_e.size());
}

PenaltyTie::PenaltyTie(int id, int node_a, int node_b, std::vector<Component> comps, double kappa,
                       std::vector<double> gap)
    : id_(id), kappa_(kappa), gap_(checked_gap(std::move(gap), comps.size(), kappa, "PenaltyTie")) {
  if (node_a == node_b) throw std::logic_error("PenaltyTie: a node tied to itself (" __FILE__ ")");
  for (Component c : comps) dofs_.push_back({node_a, c});
  for (Component c : comps) dofs_.push_back({node_b, c});
}

std::string PenaltyTie::describe() const { return "penalty tie " + std::to_string(id_); }

Eigen::VectorXd PenaltyTie::violation(const Eigen::VectorXd& u_e) const {
  const Eigen::Index n = u_e.size() / 2;
  Eigen::VectorXd phi(n);
  for (Eigen::Index k = 0; k < n; ++k) phi[k] = u_e[n + k] - u_e[k] + gap_[k];
  return phi;
}

double PenaltyTie::energy(const Eigen::VectorXd& u_e) const { return 0.5 * kappa_ * violation(u_e).squaredNorm(); }

void PenaltyTie::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  // ∂Φ/∂u = [−1, 1]: f = κ Φ [−1; 1] (eq. 3.52), K = [A −A; −A A], A = κ 1 (eq. 3.53).
  const Eigen::Index n = u_e.size() / 2;
  if (f_e) {
    const Eigen::VectorXd s = kappa_ * violation(u_e);
    f_e->head(n) = -s;
    f_e->tail(n) = s;
  }
  if (K_e) {
    const Eigen::MatrixXd A = kappa_ * Eigen::MatrixXd::Identity(n, n);
    *K_e << A, -A, -A, A;
  }
}

}  // namespace senda::model
