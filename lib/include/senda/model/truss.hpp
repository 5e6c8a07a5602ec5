#pragma once
// Two-node truss bar in 2D or 3D, geometrically exact, three strain measures.
//
// Notation (docs/theory.md §1.2)       code
//   X_a, X_b  reference positions       xa_, xb_
//   l₀ = |X_b − X_a|, l = |x_b − x_a|   l0_, l
//   n = (x_b − x_a)/l                   n
//   W(l) bar strain energy              energy_of_length()
//   N = dW/dl  axial force              N
//   N' = d²W/dl²                        dN
// Strain measures (E the modulus, A₀ the reference area, λ₁ = l/l₀ the stretch):
//   Green–Lagrange  ε = (λ₁² − 1)/2   W = ½ E A₀ l₀ ε²   (Saint Venant–Kirchhoff)
//   engineering     ε = λ₁ − 1        W = ½ E A₀ l₀ ε²
//   logarithmic     ε = ln λ₁         W = ½ E A₀ l₀ ε²   (Hencky; seed 003 §3.2)
// each evaluated from δ = λ₁² − 1 = Δu·(2ΔX + Δu)/l₀² (ΔX = X_b − X_a, Δu = u_b − u_a), not
// from λ₁ − 1: ε = δ/2, δ/(1 + λ₁), ½ log1p(δ). Formed from l, λ₁ − 1 keeps only
// eps/|ε| of ε's digits, and a bar strained by 1e-6 (a shallow lattice dome at its
// snap) would have a force error of eps EA, a million times its round-off.
// Internal force f = N [−n; n]; tangent, with P = I − n nᵀ,
//   K = [k, −k; −k, k],  k = N' n nᵀ + (N/l) P                          (eq. 1.4)
#include <Eigen/Core>

#include "senda/model/element.hpp"

namespace senda::model {

enum class StrainMeasure { GreenLagrange, Engineering, Logarithmic };
const char* to_string(StrainMeasure s);

class TrussBar final : public Element {
 public:
  // dim = 2 or 3; xa, xb reference coordinates (only the first dim used).
  TrussBar(int id, int dim, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
           double EA, StrainMeasure measure);

  const std::vector<DofRef>& dofs() const override { return dofs_; }
  double energy(const Eigen::VectorXd& u_e) const override;
  void compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const override;
  std::string describe() const override;
  std::string degenerate(const Eigen::VectorXd& u_e) const override;

  double reference_length() const { return l0_; }
  // Axial force N at u_e (positive in tension).
  double axial_force(const Eigen::VectorXd& u_e) const;
  // Strain energy as a function of the current length, and its first two derivatives
  // (N = dW/dl, dN = d²W/dl²). From l, δ = (l − l₀)(l + l₀)/l₀² carries l's round-off;
  // compute() uses energy_of_stretch() with δ from the displacements.
  void energy_of_length(double l, double* W, double* N, double* dN) const;
  // The same as a function of δ = λ₁² − 1 = (l² − l₀²)/l₀² (still derivatives in l).
  void energy_of_stretch(double delta, double* W, double* N, double* dN) const;
  // N* = [W(lb) − W(la)]/(lb − la), written without the cancellation of the
  // difference (W = ½ EA l₀ ε², so ΔW/Δl = ½ EA l₀ (ε_a + ε_b) Δε/Δl with Δε/Δl in
  // closed form); N(la) when lb = la. The force of the energy–momentum scheme
  // (senda/dynamics/integrator.hpp; seed 003 eq. 3.43).
  double energy_quotient(double la, double lb) const;

 private:
  double stretch_defect(double l) const;  // δ from l: (l − l₀)(l + l₀)/l₀²
  int id_, dim_;
  Eigen::Vector3d xa_, xb_;
  double l0_, EA_;
  StrainMeasure measure_;
  std::vector<DofRef> dofs_;
};

}  // namespace senda::model
