#include "senda/dynamics/mass.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "senda/model/beam2d.hpp"
#include "senda/model/beam3d.hpp"
#include "senda/model/corot2d.hpp"
#include "senda/model/truss.hpp"

namespace senda::dynamics {

using model::Component;
using model::DofRef;

const char* to_string(MassLumping l) { return l == MassLumping::Lumped ? "lumped" : "consistent"; }

namespace {

// Adds v to M(i, j) (an entry of the pattern; fixed dofs, i or j < 0, are skipped).
void add(SparseMatrix& M, int i, int j, double v) {
  if (i < 0 || j < 0 || v == 0.0) return;
  M.coeffRef(i, j) += v;  // the entry exists: no insertion
}

bool is_member(const model::Element& e) {
  return dynamic_cast<const model::TrussBar*>(&e) || dynamic_cast<const model::Beam2D*>(&e) ||
         dynamic_cast<const model::Corotational2D*>(&e) || dynamic_cast<const model::Beam3D*>(&e);
}

bool is_rotation(Component c) { return static_cast<int>(c) >= 3; }

// The member's two end dofs of each component: its dofs come as node a's, then
// node b's, in the same component order (truss, Beam2D, Corotational2D, Beam3D).
void add_member(const model::Model& model, const model::Element& e, const MassSpec& s, SparseMatrix& M) {
  const std::vector<DofRef>& dofs = e.dofs();
  const std::size_t half = dofs.size() / 2;
  const double L0 = (model.node_position(dofs[half].node) - model.node_position(dofs[0].node)).norm();
  for (std::size_t k = 0; k < half; ++k) {
    const DofRef& da = dofs[k];
    const DofRef& db = dofs[half + k];
    const double rho = is_rotation(da.component) ? s.line_rotary_inertia : s.line_density;
    const double m = rho * L0;  // eq. 11.2
    const int a = model.equation(da), b = model.equation(db);
    if (s.lumping == MassLumping::Lumped) {
      add(M, a, a, 0.5 * m);
      add(M, b, b, 0.5 * m);
    } else {
      add(M, a, a, m / 3.0);
      add(M, b, b, m / 3.0);
      add(M, a, b, m / 6.0);
      add(M, b, a, m / 6.0);
    }
  }
}

}  // namespace

SparseMatrix mass_matrix(const model::Model& model, const MassSpec& spec) {
  if (spec.line_density < 0.0 || spec.line_rotary_inertia < 0.0)
    throw std::invalid_argument("mass_matrix: negative line density");
  SparseMatrix M = model.tangent_pattern();
  std::fill(M.valuePtr(), M.valuePtr() + M.nonZeros(), 0.0);
  for (const NodalMass& n : spec.nodes) {
    if (n.mass < 0.0 || n.rotary < 0.0) throw std::invalid_argument("mass_matrix: negative nodal mass");
    for (int c = 0; c < model::kComponents; ++c) {
      const int i = model.equation(n.node, static_cast<Component>(c));
      add(M, i, i, c < 3 ? n.mass : n.rotary);
    }
  }
  if (spec.line_density > 0.0 || spec.line_rotary_inertia > 0.0)
    for (int e = 0; e < model.element_count(); ++e)
      if (is_member(model.element(e))) add_member(model, model.element(e), spec, M);
  return M;
}

int massless_unknown(const SparseMatrix& M) {
  for (int j = 0; j < M.outerSize(); ++j) {
    bool any = false;
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) any = any || it.value() != 0.0;
    if (!any) return j;
  }
  return -1;
}

SparseMatrix rayleigh_damping(const model::Model& model, const SparseMatrix& M, double a, double b) {
  SparseMatrix K = model.tangent_pattern();
  model.tangent(Vector::Zero(model.size()), 0.0, K);
  SparseMatrix C = M;
  const double* k = K.valuePtr();
  double* c = C.valuePtr();
  for (Eigen::Index i = 0; i < C.nonZeros(); ++i) c[i] = a * c[i] + b * k[i];  // eq. 11.3
  return C;
}

}  // namespace senda::dynamics
