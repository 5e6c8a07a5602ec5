#pragma once
// The place of a rigid link in the model. A rigid link is a Lagrange-multiplier
// constraint of senda::dynamics (ConstraintSet::add_distance, docs/theory.md §9), not
// an element: it stores no energy and its force G^T mu comes from the multiplier.
// The model still has to number the translations of its two nodes, give them a block
// in the sparsity pattern (where the mass matrix lives) and draw the link; this
// element does that and nothing else: W = 0, f = 0, K = 0.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "senda/model/element.hpp"

namespace senda::model {

class RigidLinkPlace final : public Element {
 public:
  // The translations of node_a and node_b (model node indices, dim of them each);
  // number: the link's position in the input (for messages).
  RigidLinkPlace(int number, int dim, int node_a, int node_b) : number_(number) {
    for (int node : {node_a, node_b})
      for (int c = 0; c < dim; ++c) dofs_.push_back({node, static_cast<Component>(c)});
  }
  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd&) const override { return 0.0; }
  void compute(const Eigen::VectorXd&, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override {
    if (f_e) f_e->setZero();
    if (K_e) K_e->setZero();
  }
  std::string describe() const override { return "rigid link " + std::to_string(number_); }

 private:
  int number_;
  std::vector<DofRef> dofs_;
};

}  // namespace senda::model
