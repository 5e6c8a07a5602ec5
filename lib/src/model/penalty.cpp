// Penalty Fix and Tie (seed 003 §1.6, eqs. 3.47–3.53); notation in penalty.hpp.
#include "senda/model/penalty.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace senda::model {

PenaltyElement::PenaltyElement(const char* kind, int id, std::vector<int> nodes, const std::vector<Component>& comps,
                               double kappa, std::vector<double> gap)
    : kind_(kind), id_(id), tie_(nodes.size() == 2), kappa_(kappa), gap_(std::move(gap)) {
  const auto misuse = [&](const char* what) {
    throw std::logic_error(std::string(kind) + ": " + what + " (" __FILE__ ")");
  };
  if (nodes.empty() || nodes.size() > 2) misuse("one or two nodes");
  if (tie_ && nodes[0] == nodes[1]) misuse("a node tied to itself");
  if (comps.empty()) misuse("no component");
  if (!(kappa > 0.0)) misuse("kappa must be positive");
  if (gap_.empty()) gap_.assign(comps.size(), 0.0);
  if (gap_.size() != comps.size()) misuse("one gap per component");
  for (int n : nodes)
    for (Component c : comps) dofs_.push_back({n, c});
}

std::string PenaltyElement::describe() const { return std::string(kind_) + " " + std::to_string(id_); }

Eigen::VectorXd PenaltyElement::violation(const Eigen::VectorXd& u_e) const {
  const Eigen::Index n = static_cast<Eigen::Index>(gap_.size());
  Eigen::VectorXd phi = Eigen::Map<const Eigen::VectorXd>(gap_.data(), n);
  if (tie_) {
    phi += u_e.tail(n) - u_e.head(n);  // Φ = x_b − x_a (eq. 3.52)
  } else {
    phi += u_e;  // Φ = x − p (eq. 3.50)
  }
  return phi;
}

double PenaltyElement::energy(const Eigen::VectorXd& u_e) const { return 0.5 * kappa_ * violation(u_e).squaredNorm(); }

void PenaltyElement::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const Eigen::Index n = static_cast<Eigen::Index>(gap_.size());
  const Eigen::MatrixXd A = kappa_ * Eigen::MatrixXd::Identity(n, n);
  if (!tie_) {
    // f = κΦ (eq. 3.50, the sign of an internal force), K = κ 1 (eq. 3.51).
    if (f_e) *f_e = kappa_ * violation(u_e);
    if (K_e) *K_e = A;
    return;
  }
  // f = κΦ [−1; 1] (eq. 3.52), K = [A −A; −A A], A = κ 1 (eq. 3.53).
  if (f_e) {
    const Eigen::VectorXd s = kappa_ * violation(u_e);
    f_e->head(n) = -s;
    f_e->tail(n) = s;
  }
  if (K_e) *K_e << A, -A, -A, A;
}

}  // namespace senda::model
