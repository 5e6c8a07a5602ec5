#pragma once
// Penalty constraints: the scalar constraints Fix (encastre) and Tie (rótula) of
// seed 003 §1.6 and §3.3, as elements of the model (docs/theory.md, "Constraints").
//
// Seed 003 §1.6: a constraint Φ(q) = 0 is replaced by the potential
//   V_Φ = ½ Φᵀ α Φ                                                   (§1.6)
// and the constraint force −∂V_Φ/∂q = −α Φ DΦ (eq. 3.47); the multiplier of the
// exact constraint is approximated by λ ≈ α Φ, the better the larger α. The seed's
// two scalar constraints depend on a distance only:
//   Fix: a point held to a point of space, Φ = ‖x − p‖, V_Φ = ½ α ‖x − p‖²
//        (a zero-length spring, eqs. 3.50–3.51: force −α (x − p), tangent α 1);
//   Tie: two points joined, Φ = r = ‖x_b − x_a‖, V_Φ = ½ α r²
//        (eqs. 3.52–3.53: force ∓α r on the two points, tangent [A −A; −A A], A = α 1).
// Both potentials are quadratic, so the force is linear in the displacements and
// the tangent constant (the seed's remark after eq. 3.53: the midpoint rule is
// already energy-conserving for them).
//
// Here the distance is taken over a chosen set C of the node's components (all
// translations gives the seed's elements; a single component is a penalty support
// of one dof; a rotation component penalises the rotation unknown):
//
// Notation                                   code
//   κ (the seed's α)                         kappa_
//   C, the constrained components            dofs_ (one DofRef per component and node)
//   Fix:  Φ_c = X_c + u_c − p_c,  c ∈ C      gap_[c] = X_c − p_c
//   Tie:  Φ_c = (X_b,c + u_b,c) − (X_a,c + u_a,c)   gap_[c] = X_b,c − X_a,c
//   V = ½ κ Σ_c Φ_c²,  f = κ Φ ∂Φ/∂u,  K = κ (∂Φ/∂u)ᵀ ∂Φ/∂u
// A gap of zero (the node's own position for a Fix, coincident nodes for a Tie) is
// the unloaded state. The builder (lib/input) gives a tie only coincident nodes, and
// a fix a non-zero gap only with `at` (a point away from the node, which then acts
// from λ = 0 like a dead load).
#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "senda/model/element.hpp"

namespace senda::model {

// Φ = B u + gap with B = 1 (one node, a Fix) or B = [−1, 1] (two nodes, a Tie):
// V = ½ κ ‖Φ‖², f = κ Bᵀ Φ, K = κ BᵀB.
class PenaltyElement : public Element {
 public:
  const std::vector<DofRef>& dofs() const final { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const final;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const final;
  std::string describe() const final;

  double kappa() const { return kappa_; }
  // Φ_c for every constrained component; κΦ is the seed's estimate of the reaction
  // (of the multiplier of the exact constraint, §1.6).
  Eigen::VectorXd violation(const Eigen::VectorXd& u_e) const;

 protected:
  // nodes: one (Fix) or two (Tie); gap: one per component (empty: zeros).
  PenaltyElement(const char* kind, int id, std::vector<int> nodes, const std::vector<Component>& comps, double kappa,
                 std::vector<double> gap);

 private:
  const char* kind_;
  int id_;
  bool tie_;
  double kappa_;
  std::vector<double> gap_;
  std::vector<DofRef> dofs_;
};

// The Fix: node held in the components comps with stiffness kappa > 0;
// gap[k] = X_c − p_c for comps[k] (empty: the node held at its reference position).
class PenaltyFix final : public PenaltyElement {
 public:
  PenaltyFix(int id, int node, const std::vector<Component>& comps, double kappa, std::vector<double> gap = {})
      : PenaltyElement("penalty fix", id, {node}, comps, kappa, std::move(gap)) {}
};

// The Tie: local dofs comps of node_a, then comps of node_b; gap[k] = X_b,c − X_a,c.
class PenaltyTie final : public PenaltyElement {
 public:
  PenaltyTie(int id, int node_a, int node_b, const std::vector<Component>& comps, double kappa,
             std::vector<double> gap = {})
      : PenaltyElement("penalty tie", id, {node_a, node_b}, comps, kappa, std::move(gap)) {}
};

}  // namespace senda::model
