#pragma once
// Two-node geometrically exact (Simo–Reissner) space beam: linear interpolation of
// the displacements, the section rotation interpolated geodesically between the
// nodes, one-point (reduced) integration at the midpoint, so no shear locking.
// Simo & Vu-Quoc (1986); Crisfield & Jelenić (1999) for the relative-rotation
// strains. Formulation, parametrisation and its limits: docs/notes/beam3d.md,
// whose equation numbers (S.n) are cited.
//
// Notation                                       code
//   u_e = (u_a, ψ_a, u_b, ψ_b) ∈ R¹²               local vector, dofs() order (ux uy uz rx ry rz per node)
//   ψ_a, ψ_b  nodal total rotation vectors          additive unknowns (S.1)
//   R₀ = [e₁ e₂ e₃] reference section frame        R0_ (e₁ along the member, e₂ from the reference vector)
//   R_i = exp(ψ̂_i) R₀                              nodal section frames (S.1)
//   R_ab = R_aᵀ R_b,  φ = log R_ab                  relative rotation, in section axes (S.2)
//   R_m = R_a exp(½ φ̂)                            midpoint section frame (S.3)
//   x' = (X_b + u_b − X_a − u_a)/L₀                 chord derivative
//   Γ = R_mᵀ x' − E₁,   κ = φ / L₀                   strains in section axes (S.4)
//   C_N = diag(EA, GA₂, GA₃), C_M = diag(GJ, EI₂, EI₃)  section stiffnesses (axes e₁ e₂ e₃)
//   W = L₀ · ½ (Γᵀ C_N Γ + κᵀ C_M κ)               energy (S.5)
// f_e = ∂W/∂u_e and K_e = ∂²W/∂u_e² exactly (forward automatic differentiation,
// nested for the Hessian): K_e is symmetric at every state, not only at
// equilibrium, because the unknowns are additive (S.6). Rotations are quaternions
// inside the kernel; the removable singularities of exp and log at zero angle use
// Taylor branches (S.7). Limits (S.8): the map ψ ↦ R is singular at |ψ| = 2π (the
// tangent becomes singular there), and the energy is discontinuous where the
// relative rotation of one element reaches π (never for a reasonable mesh).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "senda/model/element.hpp"

namespace senda::model {

class Model;

// Section stiffnesses of a space beam, in the section axes e₁ (the member), e₂
// (in the plane of the member and the reference vector), e₃ = e₁ × e₂.
struct Beam3DSection {
  double EA = 0.0;   // axial
  double GA2 = 0.0;  // shear along e₂
  double GA3 = 0.0;  // shear along e₃
  double GJ = 0.0;   // torsion
  double EI2 = 0.0;  // bending about e₂
  double EI3 = 0.0;  // bending about e₃
  // Thin-walled (open-section) theory, docs/notes/beam3d.md S.16, when EIw > 0:
  // the warping stiffness EI_w (force·length⁴) of the nodal warping unknowns ω,
  // the warping shear stiffness GI_w (force·length²) that ties ω to the twist
  // rate κ₁ (Benscoter; GI_w → ∞ is Vlasov's ω = κ₁), and the Wagner term: the
  // axial strain of the section's fibres is taken as Γ₁ + ½ r² κ₁² with
  // r² = I_p/A = (EI2 + EI3)/EA (shear centre at the centroid: doubly symmetric
  // sections), and the fourth-order term ⅛ EK4 κ₁⁴, EK4 = E (∫ρ⁴ dA − I_p²/A) ≥ 0
  // (ρ the distance from the centroid; 0: the torsional post-buckling path is
  // neutral). EIw = 0: the plain rod, none of this.
  double EIw = 0.0;
  double GIw = 0.0;
  double EK4 = 0.0;
};

// Which rotation unknowns an element end refers to (ball joints, docs/notes/beam3d.md
// S.10). slot 0: the node's own rotation vector (rx ry rz of the node: a rigid
// joint). slot s > 0: the member's own rotation vector at the node, the extra dofs
// s, s+1, s+2 of Model::add_dof (components rx ry rz, global axes), unless
// spin_held: then the two extra dofs s, s+1 are its components along the
// reference section axes e₂ and e₃, and the one along e₁ is held at 0 (the rule
// that removes the spin of a member ball-jointed at both ends).
// axis ≠ 0: a one-axis hinge (S.13). The end keeps the node's own rotation vector
// and adds one unknown, the hinge angle α (the extra dof `slot`, slot > 0): its
// section turns with R_n exp(α â), â = axis/|axis| in reference (global) axes,
// carried by the node; the other two components of the relative rotation stay
// exactly zero at any rotation. Not with spin_held.
// axis2 ≠ 0 as well: a two-axis (universal, Cardan) joint (S.15). Two unknowns,
// α (dof `slot`) and β (dof `slot + 1`): the section turns with
// R_n exp(α â) exp(β b̂), b̂ = axis2/|axis2| in reference axes carried by the cross
// (the first rotation turns it); there is no third angle: the moment about the
// direction normal to both current axes is carried. The two axes must not be
// parallel.
// warp > 0: the end's node's warping unknown (Model::warping_dof), for a member
// with section.EIw > 0 (both ends need one; with no hinge, ball joint or spin held).
struct Beam3DEnd {
  int slot = 0;
  bool spin_held = false;
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis2 = Eigen::Vector3d::Zero();
  int warp = 0;
};

class Beam3D final : public Element {
 public:
  // xa, xb reference coordinates of node_a and node_b; ref a vector not parallel to
  // xb − xa: e₂ is its part normal to the member (throws std::invalid_argument if
  // it is parallel, zero, or any stiffness is not > 0). end_a, end_b: the rotation
  // unknowns of each end (default: the nodes' own); the local vector u_e has 12
  // entries, 11 or 10 with spin_held ends, 13 to 16 with one- and two-axis hinges
  // (dofs() order: per end ux uy uz, the rotation vector, then α (and β) at a
  // hinged end), 14 for a thin-walled member (section.EIw > 0: the 12, then ω_a,
  // ω_b).
  Beam3D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
         const Beam3DSection& section, const Eigen::Vector3d& ref, const Beam3DEnd& end_a = {},
         const Beam3DEnd& end_b = {});

  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  // ∇(K_e a_e)·b_e = ∂/∂u (a_eᵀ K_e(u) b_e), exactly: forward AutoDiff three deep
  // (directions a_e, b_e, then the gradient), no finite differences (S.6).
  bool tangent_derivative(const Eigen::VectorXd& u_e, const Eigen::VectorXd& a_e, const Eigen::VectorXd& b_e,
                          Eigen::VectorXd& out_e) const override;
  std::string describe() const override;

  double reference_length() const { return L0_; }
  // Columns e₁ e₂ e₃ of the reference section frame R₀.
  const Eigen::Matrix3d& reference_frame() const { return R0_; }
  // (Γ, κ) at u_e: Γ = (ε, γ₂, γ₃), κ = (torsion, κ₂, κ₃), section axes (S.4).
  Eigen::Matrix<double, 6, 1> strains(const Eigen::VectorXd& u_e) const;
  // The section frame at the midpoint, R_m R₀ = [e₁ e₂ e₃] turned (S.3): columns in
  // global axes (VTK output draws e₂ so that the twist shows).
  Eigen::Matrix3d section_frame(const Eigen::VectorXd& u_e) const;
  // (N, Q₂, Q₃, T, M₂, M₃) = (C_N Γ, C_M κ); thin-walled (S.16): N = EA(Γ₁ + ½r²κ₁²)
  // and T = ∂W/∂κ₁ / L₀, the whole torque (Saint-Venant, Wagner and warping shear).
  Eigen::Matrix<double, 6, 1> stress_resultants(const Eigen::VectorXd& u_e) const;
  // The 12 entries (u_a, ψ_a, u_b, ψ_b), global components, of the local vector u_e:
  // u_e itself unless an end holds its spin (then ψ = R₀ (0, a₂, a₃)) or is a
  // one- or two-axis hinge (then ψ is the rotation vector of R_n exp(α â)
  // [exp(β b̂)], angle ≤ π).
  Eigen::Matrix<double, 12, 1> full_state(const Eigen::VectorXd& u_e) const;

 private:
  int id_, node_a_, node_b_;
  Eigen::Vector3d xa_, xb_;
  double L0_;
  Eigen::Matrix3d R0_;
  Beam3DSection section_;
  std::vector<DofRef> dofs_;
  // full_state = P_ u_e: a linear map (12 × dofs), the identity if no end holds its spin.
  bool plain_ = true;
  Eigen::Matrix<double, 12, Eigen::Dynamic> P_;
  // One- and two-axis hinges (S.13, S.15): per end, the index of its first entry
  // in u_e, how many hinge angles follow its rotation vector (0, 1 or 2) and the
  // unit axes.
  bool hinged_ = false;
  bool warping_ = false;  // thin-walled: u_e = (the 12, ω_a, ω_b)
  int offset_[2] = {0, 6};
  int angles_[2] = {0, 0};
  Eigen::Vector3d axis_[2] = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  Eigen::Vector3d axis2_[2] = {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
};

// An isotropic rotational spring across a ball joint: joins the rotation vector ψ_n of
// a node to a member's own rotation vector ψ_m there (Beam3DEnd slot, not spin_held),
//   W = ½ K |log(exp(−ψ̂_n) exp(ψ̂_m))|² = ½ K θ²,                         (S.11)
// θ the angle of the relative rotation (< π): objective (a rigid rotation of both
// leaves W unchanged) and, for small θ, a moment K θ about the relative rotation's
// axis. dofs: the node's rx ry rz, then the member's own three.
class BallJointSpring final : public Element {
 public:
  BallJointSpring(int node, int slot, double K, std::string name);
  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  bool tangent_derivative(const Eigen::VectorXd& u_e, const Eigen::VectorXd& a_e, const Eigen::VectorXd& b_e,
                          Eigen::VectorXd& out_e) const override;
  std::string describe() const override { return name_; }

 private:
  double K_;
  std::string name_;
  std::vector<DofRef> dofs_;
};

// The rotation matrix exp(ψ̂) of a rotation vector ψ (S.1), and its inverse on
// |angle| < π, the rotation vector of R (for building states in tests and output).
Eigen::Matrix3d rotation_matrix(const Eigen::Vector3d& psi);
Eigen::Vector3d rotation_vector(const Eigen::Matrix3d& R);

// Meshes the straight member from node_a to node_b (node indices of a 3D model)
// into n equal Beam3D elements, as mesh_member does for Beam2D (beam2d.hpp): the
// n − 1 intermediate nodes get ids first_node_id, …, the elements ids
// first_element_id, …; returns the n + 1 node indices along the member.
// end_a, end_b: the rotation unknowns of the member's ends (ball joints; the
// intermediate nodes are the member's own). inner: the positions of the n − 1
// intermediate nodes (an imperfect member); empty: equally spaced on the chord.
// section.EIw > 0 (thin-walled, S.16): every node of the member gets the node's
// warping unknown (Model::warping_dof, shared with the other thin-walled members there).
std::vector<int> mesh_member_3d(Model& model, int node_a, int node_b, int n, const Beam3DSection& section,
                                const Eigen::Vector3d& ref, int first_node_id, int first_element_id,
                                const Beam3DEnd& end_a = {}, const Beam3DEnd& end_b = {},
                                const std::vector<Eigen::Vector3d>& inner = {});

}  // namespace senda::model
