// Geometrically exact plane beam; the formulas are in beam2d.hpp.
#include "senda/model/beam2d.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "senda/model/corot2d.hpp"
#include "senda/model/model.hpp"

namespace senda::model {

namespace {
[[noreturn]] void misuse(const std::string& what, int line) {
  throw std::logic_error(std::string(__FILE__) + ":" + std::to_string(line) + ": " + what);
}

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat36 = Eigen::Matrix<double, 3, 6>;

// Everything the energy, force and tangent need at the Gauss point.
struct GaussPoint {
  Eigen::Vector2d t, n;
  Eigen::Vector3d e;  // (ε, γ, κ)
};

GaussPoint evaluate(const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0, double theta0,
                    const Eigen::VectorXd& u) {
  if (u.size() != 6) misuse("Beam2D: u_e must have 6 entries", __LINE__);
  const Eigen::Vector2d d(xb.x() - xa.x() + u[3] - u[0], xb.y() - xa.y() + u[4] - u[1]);
  const double theta = theta0 + 0.5 * (u[2] + u[5]);
  GaussPoint g;
  g.t = {std::cos(theta), std::sin(theta)};
  g.n = {-g.t.y(), g.t.x()};
  g.e = {g.t.dot(d) / L0 - 1.0, g.n.dot(d) / L0, (u[5] - u[2]) / L0};
  return g;
}
}  // namespace

BeamSection beam_section(double E, double nu, double A, double I, double shear_factor) {
  if (!(E > 0) || !(A > 0) || !(I > 0) || !(shear_factor > 0) || !(nu > -1.0 && nu <= 0.5))
    throw std::invalid_argument("beam section: need E, A, I, shear factor > 0 and -1 < nu <= 0.5");
  const double G = E / (2.0 * (1.0 + nu));
  return {E * A, shear_factor * G * A, E * I};
}

Beam2D::Beam2D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double EA,
               double GAs, double EI, int rz_slot_a, int rz_slot_b)
    : id_(id), node_a_(node_a), node_b_(node_b), xa_(xa), xb_(xb), EA_(EA), GAs_(GAs), EI_(EI) {
  xa_.z() = xb_.z() = 0.0;
  const Eigen::Vector3d d = xb_ - xa_;
  L0_ = d.norm();
  if (!(L0_ > 0.0)) throw std::invalid_argument("beam " + std::to_string(id) + " has zero length");
  if (!(EA > 0) || !(GAs > 0) || !(EI > 0))
    throw std::invalid_argument("beam " + std::to_string(id) + ": EA, GAs and EI must be > 0");
  theta0_ = std::atan2(d.y(), d.x());
  if (rz_slot_a < 0 || rz_slot_b < 0) throw std::invalid_argument("beam " + std::to_string(id) + ": negative rotation slot");
  dofs_ = {{node_a, Component::Ux}, {node_a, Component::Uy}, {node_a, Component::Rz, rz_slot_a},
           {node_b, Component::Ux}, {node_b, Component::Uy}, {node_b, Component::Rz, rz_slot_b}};
}

std::string Beam2D::describe() const {
  return "beam " + std::to_string(id_);
}

Eigen::Vector3d Beam2D::strains(const Eigen::VectorXd& u_e) const {
  return evaluate(xa_, xb_, L0_, theta0_, u_e).e;
}

Eigen::Vector3d Beam2D::stress_resultants(const Eigen::VectorXd& u_e) const {
  const Eigen::Vector3d e = strains(u_e);
  return {EA_ * e[0], GAs_ * e[1], EI_ * e[2]};
}

double Beam2D::energy(const Eigen::VectorXd& u_e) const {
  const Eigen::Vector3d e = strains(u_e);
  return 0.5 * L0_ * (EA_ * e[0] * e[0] + GAs_ * e[1] * e[1] + EI_ * e[2] * e[2]);
}

void Beam2D::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const GaussPoint g = evaluate(xa_, xb_, L0_, theta0_, u_e);
  const double eps = g.e[0], gam = g.e[1];
  const Eigen::Vector3d D(EA_, GAs_, EI_);
  const Eigen::Vector3d s = D.cwiseProduct(g.e);  // (N, Q, M)
  const double N = s[0], Q = s[1];

  // B = ∂e/∂u_e (B.3), columns (u₁ₓ, u₁ᵧ, θ₁, u₂ₓ, u₂ᵧ, θ₂).
  Mat36 B = Mat36::Zero();
  B.block<1, 2>(0, 0) = -g.t.transpose() / L0_;
  B.block<1, 2>(0, 3) = g.t.transpose() / L0_;
  B(0, 2) = B(0, 5) = 0.5 * gam;
  B.block<1, 2>(1, 0) = -g.n.transpose() / L0_;
  B.block<1, 2>(1, 3) = g.n.transpose() / L0_;
  B(1, 2) = B(1, 5) = -0.5 * (1.0 + eps);
  B(2, 2) = -1.0 / L0_;
  B(2, 5) = 1.0 / L0_;

  if (f_e) *f_e = L0_ * (B.transpose() * s);
  if (K_e) {
    Mat6 K = B.transpose() * D.asDiagonal() * B;
    // Geometric part G = N ∂²ε/∂u² + Q ∂²γ/∂u² (B.5).
    const Eigen::Vector2d c = (N * g.n - Q * g.t) / (2.0 * L0_);
    const double gtt = -0.25 * (N * (1.0 + eps) + Q * gam);
    for (int a = 0; a < 2; ++a) {
      const double sigma = a == 0 ? -1.0 : 1.0;
      for (int k = 0; k < 2; ++k) {
        const int row = 3 * a + k;
        for (int col : {2, 5}) {
          K(row, col) += sigma * c[k];
          K(col, row) += sigma * c[k];
        }
      }
    }
    for (int i : {2, 5})
      for (int j : {2, 5}) K(i, j) += gtt;
    *K_e = L0_ * K;
  }
}

const char* to_string(BeamFormulation f) {
  return f == BeamFormulation::Corotational ? "corotational" : "simo-reissner";
}

std::vector<int> mesh_member(Model& model, int node_a, int node_b, int n, const BeamSection& section,
                             int first_node_id, int first_element_id, int rz_slot_a, int rz_slot_b,
                             BeamFormulation formulation, const std::vector<Eigen::Vector3d>& inner) {
  if (model.dim() != 2) misuse("mesh_member: Beam2D needs a 2D model", __LINE__);
  if (n < 1) misuse("mesh_member: n must be >= 1", __LINE__);
  if (node_a < 0 || node_a >= model.node_count() || node_b < 0 || node_b >= model.node_count() || node_a == node_b)
    misuse("mesh_member: bad end nodes", __LINE__);
  if (!inner.empty() && static_cast<int>(inner.size()) != n - 1) misuse("mesh_member: inner needs n - 1 positions", __LINE__);
  const Eigen::Vector3d xa = model.node_position(node_a), xb = model.node_position(node_b);
  std::vector<int> nodes{node_a};
  for (int k = 1; k < n; ++k)
    nodes.push_back(model.add_node(first_node_id + (k - 1), inner.empty()
                                                               ? Eigen::Vector3d(xa + (xb - xa) * (static_cast<double>(k) / n))
                                                               : inner[static_cast<std::size_t>(k - 1)]));
  nodes.push_back(node_b);
  for (int k = 0; k < n; ++k) {
    const int sa = k == 0 ? rz_slot_a : 0, sb = k == n - 1 ? rz_slot_b : 0;
    const Eigen::Vector3d &x1 = model.node_position(nodes[k]), &x2 = model.node_position(nodes[k + 1]);
    if (formulation == BeamFormulation::Corotational)
      model.add_element(std::make_unique<Corotational2D>(first_element_id + k, nodes[k], nodes[k + 1], x1, x2,
                                                         section.EA, section.EI, sa, sb));
    else
      model.add_element(std::make_unique<Beam2D>(first_element_id + k, nodes[k], nodes[k + 1], x1, x2, section, sa, sb));
  }
  return nodes;
}

}  // namespace senda::model
