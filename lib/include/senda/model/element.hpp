#pragma once
// Element interface: an element owns a few degrees of freedom of the model and
// returns, for its local displacement vector u_e, the internal force f_e = ∂W/∂u_e
// and the tangent K_e = ∂f_e/∂u_e (W the element's strain energy).
#include <Eigen/Core>
#include <string>
#include <vector>

namespace senda::model {

enum class Component { Ux = 0, Uy = 1, Uz = 2, Rx = 3, Ry = 4, Rz = 5 };
inline constexpr int kComponents = 6;

const char* to_string(Component c);

// One degree of freedom of a node: (node index, component, slot). Slot 0 is the
// node's own component, shared by every element that refers to it; slot k > 0 is
// the k-th additional unknown of that component at the node (Model::add_dof), e.g.
// the own end rotation of a member released by a hinge.
struct DofRef {
  int node;
  Component component;
  int slot = 0;
};

class Element {
 public:
  virtual ~Element() = default;

  // The element's degrees of freedom, in the order of its local vectors.
  virtual const std::vector<DofRef>& dofs() const = 0;

  // Strain energy W(u_e).
  virtual double energy(const Eigen::VectorXd& u_e) const = 0;

  // f_e and/or K_e at u_e; either pointer may be null. Sizes are set by the caller
  // to dofs().size() (and square for K_e).
  virtual void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const = 0;

  // Optional exact directional derivative of the tangent, out_e = ∇(K_e(u_e) a_e)·b_e
  // (the third derivative of W contracted with a_e and b_e). Returns false when not
  // provided; Model::tangent_derivative then reports false and callers use finite
  // differences.
  virtual bool tangent_derivative(const Eigen::VectorXd& /*u_e*/, const Eigen::VectorXd& /*a_e*/,
                                  const Eigen::VectorXd& /*b_e*/, Eigen::VectorXd& /*out_e*/) const {
    return false;
  }

  // Short description for messages ("truss 4 (nodes 1-2)").
  virtual std::string describe() const = 0;

  // Where the element's own kinematics is singular at u_e (a bar of zero length: its
  // direction undefined there), what it is; empty elsewhere.
  virtual std::string degenerate(const Eigen::VectorXd& /*u_e*/) const { return {}; }
};

}  // namespace senda::model
