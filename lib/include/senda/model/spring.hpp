#pragma once
// Linear springs.
//   LinearSpring: between one component of two nodes, W = ½ k (u_b − u_a)²
//                 (node_b < 0: to ground, W = ½ k u_a²). Works for translations and
//                 rotations (a rotational spring when the component is rz). The
//                 second constructor joins any two dofs of the same kind, e.g. the
//                 rotation of a node and a member's own rotation there (a hinge
//                 with a rotational spring, W = ½ k (θ_b − θ_a)²); the third puts
//                 one dof to ground (the spring across a 3D one-axis hinge, whose
//                 angle is itself the relative rotation: W = ½ k α²).
// An axial spring whose force follows the line between its nodes, N = k (l − l₀),
// is a TrussBar with the engineering measure and EA = k l₀ (see the builder).
#include <string>

#include "senda/model/element.hpp"

namespace senda::model {

class LinearSpring final : public Element {
 public:
  LinearSpring(int id, int node_a, int node_b, Component c, double k);
  // Between two dofs; name is what describe() returns.
  LinearSpring(const DofRef& a, const DofRef& b, double k, std::string name);
  // On one dof to ground, W = ½ k u_a² (e.g. the angle of a one-axis hinge).
  LinearSpring(const DofRef& a, double k, std::string name);

  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  std::string describe() const override;

 private:
  int id_;
  double k_;
  std::string name_;
  std::vector<DofRef> dofs_;
};

}  // namespace senda::model
