#pragma once
// Two-node co-rotational Euler–Bernoulli plane beam (Crisfield vol. 1 (1991) §7.3;
// Battini & Pacoste (2002)): a linear, small-strain beam in a frame that follows
// the current chord; the large rotation is all in the frame.
//
// Notation                                   code
//   u_e = (u₁ₓ, u₁ᵧ, θ₁, u₂ₓ, u₂ᵧ, θ₂)          local vector, dofs() order
//   L₀, θ₀ = length and angle of X₂ − X₁       L0_, theta0_
//   d = X₂ − X₁ + u₂ − u₁, l = |d|             current chord and length
//   β = angle of d; c = cos β, s = sin β
//   local (chord) unknowns:
//     u_l = l − L₀                              axial stretch
//     θ̄ᵢ = wrap(θ₀ + θᵢ − β)                    end rotations against the chord, in (−π, π]
//   local energy (linear beam, EB: no shear)
//     W = ½ EA u_l²/L₀ + (2EI/L₀)(θ̄₁² + θ̄₁θ̄₂ + θ̄₂²)                       (C.1)
//   local forces N = EA u_l/L₀, (M₁, M₂) = (EI/L₀)[4 2; 2 4](θ̄₁, θ̄₂)
//   with r = (−c, −s, 0, c, s, 0) = ∂l/∂u, z = (s, −c, 0, −s, c, 0), ∂β/∂u = z/l,
//     B = [rᵀ; e₃ᵀ − zᵀ/l; e₆ᵀ − zᵀ/l]   (rows u_l, θ̄₁, θ̄₂)
//     f_e = Bᵀ (N, M₁, M₂)                                                 (C.2)
//     K_e = Bᵀ K_l B + (N/l) z zᵀ + ((M₁ + M₂)/l²)(r zᵀ + z rᵀ)              (C.3)
//   (∂r/∂u = z zᵀ/l, ∂z/∂u = −r zᵀ/l; K_l = diag(EA/L₀, (EI/L₀)[4 2; 2 4])).
// K_e is symmetric. Rotations are additive and not wrapped: only θ̄ is, which is
// smooth while the element's own bending rotation stays below π.
#include <Eigen/Core>
#include <vector>

#include "senda/model/element.hpp"

namespace senda::model {

class Corotational2D final : public Element {
 public:
  // rz_slot_a, rz_slot_b as for Beam2D (hinges). EA, EI > 0.
  Corotational2D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double EA,
                 double EI, int rz_slot_a = 0, int rz_slot_b = 0);

  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  std::string describe() const override;

  double reference_length() const { return L0_; }
  // (u_l, θ̄₁, θ̄₂) at u_e.
  Eigen::Vector3d local_deformations(const Eigen::VectorXd& u_e) const;

 private:
  int id_;
  Eigen::Vector3d xa_, xb_;
  double L0_, theta0_, EA_, EI_;
  std::vector<DofRef> dofs_;
};

}  // namespace senda::model
