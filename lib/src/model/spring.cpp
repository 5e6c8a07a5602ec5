#include "senda/model/spring.hpp"

#include <string>
#include <utility>

namespace senda::model {

LinearSpring::LinearSpring(int id, int node_a, int node_b, Component c, double k) : id_(id), k_(k) {
  dofs_.push_back({node_a, c});
  if (node_b >= 0) dofs_.push_back({node_b, c});
}

LinearSpring::LinearSpring(const DofRef& a, const DofRef& b, double k, std::string name)
    : id_(-1), k_(k), name_(std::move(name)) {
  dofs_.push_back(a);
  dofs_.push_back(b);
}

LinearSpring::LinearSpring(const DofRef& a, double k, std::string name) : id_(-1), k_(k), name_(std::move(name)) {
  dofs_.push_back(a);
}

std::string LinearSpring::describe() const { return name_.empty() ? "spring " + std::to_string(id_) : name_; }

double LinearSpring::energy(const Eigen::VectorXd& u_e) const {
  const double s = dofs_.size() == 2 ? u_e[1] - u_e[0] : u_e[0];
  return 0.5 * k_ * s * s;
}

void LinearSpring::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  if (dofs_.size() == 1) {
    if (f_e) (*f_e)[0] = k_ * u_e[0];
    if (K_e) (*K_e)(0, 0) = k_;
    return;
  }
  const double s = u_e[1] - u_e[0];
  if (f_e) {
    (*f_e)[0] = -k_ * s;
    (*f_e)[1] = k_ * s;
  }
  if (K_e) *K_e << k_, -k_, -k_, k_;
}

}  // namespace senda::model
