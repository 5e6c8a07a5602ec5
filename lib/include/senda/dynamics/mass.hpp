#pragma once
// Mass and damping of a finite-element model (docs/theory.md §11.1).
//
// Notation (docs/theory.md)            code
//   M      mass matrix                  mass_matrix()
//   m_i    lumped mass of node i        MassSpec::nodes[].mass (every translation of the node)
//   J_i    rotary inertia of node i     MassSpec::nodes[].rotary (every rotation of the node)
//   ρA     mass per reference length    MassSpec::line_density (bars and beam elements)
//   ρI     rotary inertia per length    MassSpec::line_rotary_inertia (beam rotations)
//   C = a M + b K₀  Rayleigh damping    rayleigh_damping(), K₀ = K(q = 0)     (eq. 11.3)
//
// Member mass of an element of reference length L₀ (eq. 11.2), per translation
// component (and, with ρI, per rotation component of a beam):
//   lumped      ½ ρA L₀ at each end
//   consistent  ρA L₀/6 [2 1; 1 2]     (linear interpolation, the shape functions of the
//                                       bar and of the Simo–Reissner beam)
// Member mass goes to truss bars and beam elements (TrussBar, Beam2D, Corotational2D,
// Beam3D), never to springs. M is stored with the tangent pattern of the model (every
// entry of M is one of K's), so that the iteration matrices a M + b K + c C of the
// integrators are sums of value arrays.
#include <vector>

#include "senda/core/problem.hpp"
#include "senda/model/model.hpp"

namespace senda::dynamics {

enum class MassLumping { Lumped, Consistent };
const char* to_string(MassLumping l);  // "lumped", "consistent"

struct NodalMass {
  int node = 0;         // model node index
  double mass = 0.0;    // on each translation of the node
  double rotary = 0.0;  // on each rotation of the node (frames)
};

struct MassSpec {
  std::vector<NodalMass> nodes;
  double line_density = 0.0;         // ρA
  double line_rotary_inertia = 0.0;  // ρI
  MassLumping lumping = MassLumping::Lumped;
};

// M with the pattern of model.tangent_pattern(). Throws std::invalid_argument for a
// negative mass or density.
SparseMatrix mass_matrix(const model::Model& model, const MassSpec& spec);

// The first unknown with no mass (a zero row of M), or −1. An integrator needs
// mass on every unknown (docs/theory.md §11.1).
int massless_unknown(const SparseMatrix& M);

// C = a M + b K(q = 0), with the same pattern as M.
SparseMatrix rayleigh_damping(const model::Model& model, const SparseMatrix& M, double a, double b);

}  // namespace senda::dynamics
