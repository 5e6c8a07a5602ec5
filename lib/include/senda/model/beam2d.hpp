#pragma once
// Two-node geometrically exact (Simo–Reissner) plane beam: linear interpolation of
// displacements and rotation, one-point (reduced) integration, so no shear locking.
// Simo & Vu-Quoc (1986); Crisfield vol. 1 (1991) §7.4; Cardona & Géradin (1988).
// Formulation and tests: docs/notes/beam.md, whose equation numbers (B.n) are cited.
//
// Notation                                   code
//   u_e = (u₁ₓ, u₁ᵧ, θ₁, u₂ₓ, u₂ᵧ, θ₂)          local vector, dofs() order (ux, uy, rz per node)
//   X₁, X₂ reference nodal positions           xa_, xb_
//   L₀ = |X₂ − X₁|, θ₀ = atan2 of X₂ − X₁       L0_, theta0_
//   d = X₂ − X₁ + u₂ − u₁ (current chord)      d
//   θ̄ = θ₀ + (θ₁ + θ₂)/2 (Gauss point)          theta
//   t = (cos θ̄, sin θ̄), n = (−sin θ̄, cos θ̄)    t, n   (section frame; ∂t/∂θ̄ = n, ∂n/∂θ̄ = −t)
//   x' = d/L₀                                   d / L0_
// Strains at the Gauss point, e = (ε, γ, κ):
//   ε = t·x' − 1     axial
//   γ = n·x'         shear
//   κ = (θ₂ − θ₁)/L₀ bending                                        (beam.md B.1)
// Energy (one-point rule, exact for the constant κ; D = diag(EA, GA_s, EI)):
//   W = L₀ · ½ eᵀ D e,     s = D e = (N, Q, M)                          (B.2)
// Force and tangent by the chain rule, B = ∂e/∂u_e (3 × 6):
//   f_e = L₀ Bᵀ s,   K_e = L₀ (Bᵀ D B + N ∂²ε/∂u² + Q ∂²γ/∂u²)       (B.3; κ is linear in u_e)
//            ∂/∂u₁      ∂/∂θ₁        ∂/∂u₂      ∂/∂θ₂
//   B = [  −tᵀ/L₀     γ/2        tᵀ/L₀     γ/2     ]   ε
//       [  −nᵀ/L₀   −(1+ε)/2     nᵀ/L₀   −(1+ε)/2  ]   γ
//       [   0        −1/L₀        0        1/L₀    ]   κ
// The only non-zero second derivatives of ε and γ couple a translation u_a with a
// rotation θ_i, or two rotations (σ₁ = −1, σ₂ = +1 the sign of node a):
//   ∂²ε/∂u_a∂θ_i = σ_a n/(2L₀),   ∂²γ/∂u_a∂θ_i = −σ_a t/(2L₀)
//   ∂²ε/∂θ_i∂θ_j = −(1+ε)/4,      ∂²γ/∂θ_i∂θ_j = −γ/4                   (B.4)
// so the geometric part G = N ∂²ε + Q ∂²γ is
//   G(u_a, θ_i) = σ_a (N n − Q t)/(2L₀),   G(θ_i, θ_j) = −(N(1+ε) + Q γ)/4   (B.5)
// and K_e is symmetric. Rotations are additive in the plane: θ is not wrapped,
// any value (beyond π) is valid. Rigid motions (translation, rotation by α of the
// positions with α added to both θ) leave e = 0 exactly.
#include <Eigen/Core>
#include <vector>

#include "senda/model/element.hpp"

namespace senda::model {

class Model;

// Section stiffnesses of a plane beam.
struct BeamSection {
  double EA = 0.0;   // axial
  double GAs = 0.0;  // shear, G A_s = κ_s G A
  double EI = 0.0;   // bending
};

// From material and section data: G = E/(2(1 + ν)), GA_s = shear_factor·G·A
// (shear_factor κ_s = 5/6 for a rectangle).
BeamSection beam_section(double E, double nu, double A, double I, double shear_factor);

class Beam2D final : public Element {
 public:
  // xa, xb reference coordinates of node_a and node_b (z ignored). EA, GAs, EI > 0.
  // rz_slot_a, rz_slot_b: the rotation slot of each end (DofRef::slot): 0 the node's
  // rotation (a rigid joint with the other members there), k > 0 an own rotation
  // added by Model::add_dof (a moment release, hinge).
  Beam2D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double EA,
         double GAs, double EI, int rz_slot_a = 0, int rz_slot_b = 0);
  Beam2D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
         const BeamSection& section, int rz_slot_a = 0, int rz_slot_b = 0)
      : Beam2D(id, node_a, node_b, xa, xb, section.EA, section.GAs, section.EI, rz_slot_a, rz_slot_b) {}

  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  std::string describe() const override;

  double reference_length() const { return L0_; }
  double reference_angle() const { return theta0_; }
  // e = (ε, γ, κ) at u_e.
  Eigen::Vector3d strains(const Eigen::VectorXd& u_e) const;
  // s = (N, Q, M) = D e at u_e.
  Eigen::Vector3d stress_resultants(const Eigen::VectorXd& u_e) const;

 private:
  int id_, node_a_, node_b_;
  Eigen::Vector3d xa_, xb_;
  double L0_, theta0_;
  double EA_, GAs_, EI_;
  std::vector<DofRef> dofs_;
};

// The element a member is meshed into: Beam2D (Simo–Reissner, shear-flexible) or
// Corotational2D (co-rotational Euler–Bernoulli, corot2d.hpp; GAs unused).
enum class BeamFormulation { SimoReissner, Corotational };
const char* to_string(BeamFormulation f);  // "simo-reissner", "corotational"

// Meshes the straight member from node_a to node_b (node indices of a 2D model)
// into n equal Beam2D (or Corotational2D) elements: adds the n − 1 intermediate nodes with user ids
// first_node_id, first_node_id + 1, … and the elements with ids first_element_id, ….
// Returns the n + 1 node indices along the member, node_a first, node_b last.
// Consecutive members that share an end node are rigidly connected there, unless
// an end's rotation slot (rz_slot_a at node_a, rz_slot_b at node_b; see Beam2D) is
// an own rotation of the member: a hinge. inner: the positions of the n − 1
// intermediate nodes (an imperfect member); empty: equally spaced on the chord.
std::vector<int> mesh_member(Model& model, int node_a, int node_b, int n, const BeamSection& section,
                             int first_node_id, int first_element_id, int rz_slot_a = 0, int rz_slot_b = 0,
                             BeamFormulation formulation = BeamFormulation::SimoReissner,
                             const std::vector<Eigen::Vector3d>& inner = {});

}  // namespace senda::model
