// The conservative nodal moments of potential −λ P(ψ) (docs/notes/beam3d.md):
// semitangential (S.12), P = |m₀| τ(ψ), τ the twist angle of the node's rotation
// about the moment's axis k = m₀/|m₀| (swing–twist decomposition); and
// quasitangential (S.14), P = m₀·(sin θ n) for the rotation by θ about n, the
// potential of dead-force couples on levers that turn with the node.
//
// Notation                                  code
//   ψ                                       psi, the node's rotation vector (rx ry rz)
//   q(ψ) = (w, v)                           quat_exp (S.7a)
//   τ = 2 atan2(k·v, w)                     twist (S.12a)
//   P = |m₀| τ, ∇P, ∇²P                     semitangential_potential (S.12b)
//   P = 2w (m₀·v) = m₀·(sin θ n)            quasitangential_potential (S.14a)
#include <cmath>
#include <stdexcept>
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "senda/model/model.hpp"
#include "quaternion.hpp"

namespace senda::model {

namespace {
using namespace kernel;
using AD1 = Eigen::AutoDiffScalar<Eigen::Vector3d>;
using AD2 = Eigen::AutoDiffScalar<Eigen::Matrix<AD1, 3, 1>>;

// P(ψ) = |m₀| · 2 atan2(k·v, w), (w, v) = q(ψ) taken without the sign change of
// S.7b, so that τ grows continuously past π along a rotation about k.
template <class T>
T semitangential_of(const V3<T>& psi, const Eigen::Vector3d& m0) {
  const double M = m0.norm();
  const Quat<T> q = quat_exp(psi);
  const T kv = (C<T>(m0[0]) * q.v[0] + C<T>(m0[1]) * q.v[1] + C<T>(m0[2]) * q.v[2]) / C<T>(M);
  using std::atan2;
  return C<T>(2.0 * M) * atan2(kv, q.w);
}

// P(ψ) = 2w (m₀·v): unchanged by q → −q, so no sign choice enters (S.14a).
template <class T>
T quasitangential_of(const V3<T>& psi, const Eigen::Vector3d& m0) {
  const Quat<T> q = quat_exp(psi);
  return C<T>(2.0) * q.w * (C<T>(m0[0]) * q.v[0] + C<T>(m0[1]) * q.v[1] + C<T>(m0[2]) * q.v[2]);
}

// P, ∇P and (when hess is not null) ∇²P of potential(ψ) by nested AutoDiff.
template <class F>
double differentiate(F potential, const Eigen::Vector3d& psi, Eigen::Vector3d* grad, Eigen::Matrix3d* hess) {
  if (!hess) {
    V3<AD1> x;
    for (int i = 0; i < 3; ++i) x[i] = AD1(psi[i], Eigen::Vector3d::Unit(i));
    const AD1 P = potential(x);
    if (grad) *grad = P.derivatives();
    return P.value();
  }
  V3<AD2> x;
  for (int i = 0; i < 3; ++i) {
    Eigen::Matrix<AD1, 3, 1> d;
    for (int j = 0; j < 3; ++j) d[j] = AD1(i == j ? 1.0 : 0.0, Eigen::Vector3d::Zero());
    x[i] = AD2(AD1(psi[i], Eigen::Vector3d::Unit(i)), d);
  }
  const AD2 P = potential(x);
  if (grad) *grad = P.value().derivatives();
  for (int j = 0; j < 3; ++j) hess->col(j) = P.derivatives()[j].derivatives();
  const Eigen::Matrix3d H = *hess;
  *hess = 0.5 * (H + H.transpose());  // the mixed partials agree to round-off (no aliasing: H a copy)
  return P.value().value();
}
}  // namespace

double semitangential_potential(const Eigen::Vector3d& psi, const Eigen::Vector3d& m0, Eigen::Vector3d* grad,
                                Eigen::Matrix3d* hess) {
  if (!(m0.norm() > 0.0)) throw std::logic_error("senda::model::semitangential_potential: zero moment");
  return differentiate([&](const auto& x) { return semitangential_of(x, m0); }, psi, grad, hess);
}

double quasitangential_potential(const Eigen::Vector3d& psi, const Eigen::Vector3d& m0, Eigen::Vector3d* grad,
                                 Eigen::Matrix3d* hess) {
  return differentiate([&](const auto& x) { return quasitangential_of(x, m0); }, psi, grad, hess);
}

}  // namespace senda::model
