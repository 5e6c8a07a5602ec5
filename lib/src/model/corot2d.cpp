// Co-rotational Euler–Bernoulli plane beam; the formulas are in corot2d.hpp.
#include "senda/model/corot2d.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace senda::model {

namespace {
using Vec6 = Eigen::Matrix<double, 6, 1>;

struct Chord {
  double l, c, s;
  Eigen::Vector3d local;  // (u_l, θ̄₁, θ̄₂)
};

double wrap(double a) { return std::atan2(std::sin(a), std::cos(a)); }

Chord chord(const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0, double theta0, const Eigen::VectorXd& u) {
  if (u.size() != 6) throw std::logic_error("Corotational2D: u_e must have 6 entries");
  const double dx = xb.x() - xa.x() + u[3] - u[0], dy = xb.y() - xa.y() + u[4] - u[1];
  Chord ch;
  ch.l = std::hypot(dx, dy);
  if (!(ch.l > 0.0)) throw std::domain_error("Corotational2D: the element has collapsed to a point");
  ch.c = dx / ch.l;
  ch.s = dy / ch.l;
  const double beta = std::atan2(dy, dx);
  ch.local = {ch.l - L0, wrap(theta0 + u[2] - beta), wrap(theta0 + u[5] - beta)};
  return ch;
}
}  // namespace

Corotational2D::Corotational2D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
                               double EA, double EI, int rz_slot_a, int rz_slot_b)
    : id_(id), xa_(xa), xb_(xb), EA_(EA), EI_(EI) {
  xa_.z() = xb_.z() = 0.0;
  const Eigen::Vector3d d = xb_ - xa_;
  L0_ = d.norm();
  if (!(L0_ > 0.0)) throw std::invalid_argument("beam " + std::to_string(id) + " has zero length");
  if (!(EA > 0) || !(EI > 0)) throw std::invalid_argument("beam " + std::to_string(id) + ": EA and EI must be > 0");
  if (rz_slot_a < 0 || rz_slot_b < 0) throw std::invalid_argument("beam " + std::to_string(id) + ": negative rotation slot");
  theta0_ = std::atan2(d.y(), d.x());
  dofs_ = {{node_a, Component::Ux}, {node_a, Component::Uy}, {node_a, Component::Rz, rz_slot_a},
           {node_b, Component::Ux}, {node_b, Component::Uy}, {node_b, Component::Rz, rz_slot_b}};
}

std::string Corotational2D::describe() const { return "beam " + std::to_string(id_) + " (co-rotational)"; }

Eigen::Vector3d Corotational2D::local_deformations(const Eigen::VectorXd& u_e) const {
  return chord(xa_, xb_, L0_, theta0_, u_e).local;
}

double Corotational2D::energy(const Eigen::VectorXd& u_e) const {
  const Eigen::Vector3d q = local_deformations(u_e);
  return 0.5 * EA_ * q[0] * q[0] / L0_ + 2.0 * EI_ / L0_ * (q[1] * q[1] + q[1] * q[2] + q[2] * q[2]);  // (C.1)
}

void Corotational2D::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const Chord ch = chord(xa_, xb_, L0_, theta0_, u_e);
  const double N = EA_ * ch.local[0] / L0_;
  const double k = EI_ / L0_;
  const double M1 = k * (4 * ch.local[1] + 2 * ch.local[2]), M2 = k * (2 * ch.local[1] + 4 * ch.local[2]);
  Vec6 r, z;
  r << -ch.c, -ch.s, 0, ch.c, ch.s, 0;
  z << ch.s, -ch.c, 0, -ch.s, ch.c, 0;
  Eigen::Matrix<double, 3, 6> B;
  B.row(0) = r.transpose();
  B.row(1) = -z.transpose() / ch.l;  // ∂θ̄ᵢ/∂u = eᵢ − ∂β/∂u = eᵢ − z/l
  B.row(2) = -z.transpose() / ch.l;
  B(1, 2) += 1.0;
  B(2, 5) += 1.0;
  if (f_e) *f_e = B.transpose() * Eigen::Vector3d(N, M1, M2);  // (C.2)
  if (K_e) {
    Eigen::Matrix3d Kl = Eigen::Matrix3d::Zero();
    Kl(0, 0) = EA_ / L0_;
    Kl.bottomRightCorner<2, 2>() << 4 * k, 2 * k, 2 * k, 4 * k;
    *K_e = B.transpose() * Kl * B + (N / ch.l) * z * z.transpose() +
           ((M1 + M2) / (ch.l * ch.l)) * (r * z.transpose() + z * r.transpose());  // (C.3)
  }
}

}  // namespace senda::model
