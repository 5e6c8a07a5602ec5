// Geometrically exact space beam; the formulation is in beam3d.hpp and
// docs/notes/beam3d.md (S.n).
//
// Notation (kernel)                         code
//   q = (w, v) unit quaternion              Quat<T>{w, v}; R(q) x = x + 2w v×x + 2 v×(v×x)
//   q(ψ) = (cos ½θ, sin(½θ)/θ ψ), θ = |ψ|    quat_exp (S.7a)
//   log q = 2 atan2(|v|, w)/|v| · v, w ≥ 0   quat_log (S.7b)
//   q^{1/2} = (1 + w, v)/√(2(1 + w)), w ≥ 0   quat_sqrt (S.3)
// The energy is one template on the scalar: double for energy(), first-order
// AutoDiff for f_e, AutoDiff nested in AutoDiff for K_e (S.6).
#include "senda/model/beam3d.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <Eigen/Geometry>
#include <unsupported/Eigen/AutoDiff>

#include "senda/model/model.hpp"
#include "quaternion.hpp"

namespace senda::model {

namespace {
[[noreturn]] void misuse(const std::string& what, int line) {
  throw std::logic_error(std::string(__FILE__) + ":" + std::to_string(line) + ": " + what);
}

using Vec12 = Eigen::Matrix<double, 12, 1>;
using AD1 = Eigen::AutoDiffScalar<Vec12>;
using AD2 = Eigen::AutoDiffScalar<Eigen::Matrix<AD1, 12, 1>>;
// For the directional third derivative: one direction (a), one direction (b),
// then the 12-entry gradient.
using ADa = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
using ADb = Eigen::AutoDiffScalar<Eigen::Matrix<ADa, 1, 1>>;
using AD3 = Eigen::AutoDiffScalar<Eigen::Matrix<ADb, 12, 1>>;

// The quaternion kernel shared with the semitangential moment (quaternion.hpp).
using namespace kernel;

// Below this |v|² the Taylor branch of quat_log is used (S.7).
constexpr double kLogSeries = 1e-3;

// log q for w ≥ 0 (S.7b): the rotation vector of angle in [0, π]. With t = |v|²/w²,
// 2 atan2(|v|, w)/|v| = (2/w) atan(√t)/√t = (2/w) Σ (−t)ᵏ/(2k+1).
template <class T>
V3<T> quat_log(const Quat<T>& q) {
  const T s = dot(q.v, q.v);
  T f;
  if (value_of(s) < kLogSeries) {
    const T t = s / (q.w * q.w);
    f = (C<T>(2.0) / q.w) *
        (C<T>(1.0) + t * (C<T>(-1.0 / 3) +
                          t * (C<T>(1.0 / 5) + t * (C<T>(-1.0 / 7) + t * (C<T>(1.0 / 9) + t * (C<T>(-1.0 / 11) +
                                                                                               t * C<T>(1.0 / 13)))))));
  } else {
    using std::atan2;
    using std::sqrt;
    const T n = sqrt(s);
    f = C<T>(2.0) * atan2(n, q.w) / n;
  }
  return V3<T>(f * q.v);
}

// The midpoint rotation q_m (R_m = R(q_m) R₀, S.3) and the relative rotation
// vector ω in global axes (S.2) of the nodal rotation vectors in u.
template <class T>
Quat<T> midpoint_rotation(const Eigen::Matrix<T, 12, 1>& u, V3<T>& omega) {
  const V3<T> psi_a = u.template segment<3>(3), psi_b = u.template segment<3>(9);
  const Quat<T> qa = quat_exp(psi_a), qb = quat_exp(psi_b);
  // exp(−ψ̂_a) exp(ψ̂_b) = R₀ R_ab R₀ᵀ, the relative rotation in global axes (S.2);
  // q and −q are the same rotation: take w ≥ 0 for the principal logarithm.
  Quat<T> qab = conj(qa) * qb;
  if (value_of(qab.w) < 0.0) qab = {C<T>(-qab.w), V3<T>(-qab.v)};
  omega = quat_log(qab);
  // exp(½ ω̂) = q_ab^{1/2}; R_m = exp(ψ̂_a) exp(½ ω̂) R₀ (S.3).
  using std::sqrt;
  const T r = sqrt(C<T>(2.0) * (C<T>(1.0) + qab.w));
  const Quat<T> half{C<T>((C<T>(1.0) + qab.w) / r), V3<T>(qab.v / r)};
  return qa * half;
}

// The strains (Γ, κ) of (S.4) at u (12 entries, scalar T).
template <class T>
Eigen::Matrix<T, 6, 1> strains_of(const Eigen::Matrix<T, 12, 1>& u, const Eigen::Vector3d& xa,
                                  const Eigen::Vector3d& xb, double L0, const Eigen::Matrix3d& R0) {
  V3<T> omega;
  const Quat<T> qm = midpoint_rotation(u, omega);
  V3<T> x1;
  for (int i = 0; i < 3; ++i) x1[i] = (C<T>(xb[i] - xa[i]) + u[6 + i] - u[i]) / C<T>(L0);
  // R_mᵀ x' = R₀ᵀ R(q_m)ᵀ x'; κ = R₀ᵀ ω / L₀ (S.4).
  const V3<T> y = rotate(conj(qm), x1);
  Eigen::Matrix<T, 6, 1> e;
  for (int i = 0; i < 3; ++i) {
    e[i] = C<T>(R0(0, i)) * y[0] + C<T>(R0(1, i)) * y[1] + C<T>(R0(2, i)) * y[2];
    e[3 + i] = (C<T>(R0(0, i)) * omega[0] + C<T>(R0(1, i)) * omega[1] + C<T>(R0(2, i)) * omega[2]) / C<T>(L0);
  }
  e[0] = e[0] - C<T>(1.0);
  return e;
}

template <class T>
T energy_of(const Eigen::Matrix<T, 12, 1>& u, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0,
            const Eigen::Matrix3d& R0, const Beam3DSection& c) {
  const Eigen::Matrix<T, 6, 1> e = strains_of(u, xa, xb, L0, R0);
  const double k[6] = {c.EA, c.GA2, c.GA3, c.GJ, c.EI2, c.EI3};
  T w = C<T>(0.0);
  for (int i = 0; i < 6; ++i) w = w + C<T>(k[i]) * e[i] * e[i];
  return C<T>(0.5 * L0) * w;  // (S.5)
}

Vec12 checked(const Eigen::VectorXd& u_e) {
  if (u_e.size() != 12) misuse("Beam3D: u_e must have 12 entries", __LINE__);
  return u_e;
}
}  // namespace

Eigen::Matrix3d rotation_matrix(const Eigen::Vector3d& psi) {
  const Quat<double> q = quat_exp<double>(psi);
  Eigen::Matrix3d R;
  for (int i = 0; i < 3; ++i) R.col(i) = rotate(q, Eigen::Vector3d(Eigen::Vector3d::Unit(i)));
  return R;
}

Eigen::Vector3d rotation_vector(const Eigen::Matrix3d& R) {
  // Shepperd's method: the largest of the four squared components first.
  const double tr = R.trace();
  Quat<double> q;
  const double d[4] = {tr, R(0, 0), R(1, 1), R(2, 2)};
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (d[i] > d[k]) k = i;
  if (k == 0) {
    const double s = 2.0 * std::sqrt(1.0 + tr);
    q = {0.25 * s, Eigen::Vector3d((R(2, 1) - R(1, 2)) / s, (R(0, 2) - R(2, 0)) / s, (R(1, 0) - R(0, 1)) / s)};
  } else {
    const int i = k - 1, j = (i + 1) % 3, l = (i + 2) % 3;
    const double s = 2.0 * std::sqrt(1.0 + R(i, i) - R(j, j) - R(l, l));
    Eigen::Vector3d v;
    v[i] = 0.25 * s;
    v[j] = (R(j, i) + R(i, j)) / s;
    v[l] = (R(l, i) + R(i, l)) / s;
    q = {(R(l, j) - R(j, l)) / s, v};
  }
  if (q.w < 0.0) q = {-q.w, -q.v};
  return quat_log(q);
}

Beam3D::Beam3D(int id, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
               const Beam3DSection& section, const Eigen::Vector3d& ref)
    : id_(id), node_a_(node_a), node_b_(node_b), xa_(xa), xb_(xb), section_(section) {
  const std::string name = "beam " + std::to_string(id);
  const Eigen::Vector3d d = xb - xa;
  L0_ = d.norm();
  if (!(L0_ > 0.0)) throw std::invalid_argument(name + " has zero length");
  const Beam3DSection& s = section;
  if (!(s.EA > 0) || !(s.GA2 > 0) || !(s.GA3 > 0) || !(s.GJ > 0) || !(s.EI2 > 0) || !(s.EI3 > 0))
    throw std::invalid_argument(name + ": EA, GA2, GA3, GJ, EI2 and EI3 must be > 0");
  const Eigen::Vector3d e1 = d / L0_;
  const double rn = ref.norm();
  if (!(rn > 0.0) || !std::isfinite(rn)) throw std::invalid_argument(name + ": the reference vector is zero");
  const Eigen::Vector3d v = ref / rn;
  const Eigen::Vector3d p = v - v.dot(e1) * e1;
  // sin of the angle between the member and the reference vector; below 1e-6 the
  // section axes would be set by round-off.
  if (!(p.norm() > 1e-6))
    throw std::invalid_argument(name + ": the reference vector is parallel to the member");
  const Eigen::Vector3d e2 = p.normalized();
  R0_.col(0) = e1;
  R0_.col(1) = e2;
  R0_.col(2) = e1.cross(e2);
  dofs_.reserve(12);
  for (int n : {node_a, node_b})
    for (int c = 0; c < kComponents; ++c) dofs_.push_back({n, static_cast<Component>(c)});
}

std::string Beam3D::describe() const {
  return "beam " + std::to_string(id_);
}

Eigen::Matrix<double, 6, 1> Beam3D::strains(const Eigen::VectorXd& u_e) const {
  return strains_of<double>(checked(u_e), xa_, xb_, L0_, R0_);
}

Eigen::Matrix<double, 6, 1> Beam3D::stress_resultants(const Eigen::VectorXd& u_e) const {
  const Eigen::Matrix<double, 6, 1> e = strains(u_e);
  const Beam3DSection& c = section_;
  return (Eigen::Matrix<double, 6, 1>() << c.EA * e[0], c.GA2 * e[1], c.GA3 * e[2], c.GJ * e[3], c.EI2 * e[4],
          c.EI3 * e[5])
      .finished();
}

Eigen::Matrix3d Beam3D::section_frame(const Eigen::VectorXd& u_e) const {
  Eigen::Vector3d omega;
  const Quat<double> qm = midpoint_rotation<double>(checked(u_e), omega);
  Eigen::Matrix3d F;
  for (int i = 0; i < 3; ++i) F.col(i) = rotate(qm, Eigen::Vector3d(R0_.col(i)));
  return F;
}

double Beam3D::energy(const Eigen::VectorXd& u_e) const {
  return energy_of<double>(checked(u_e), xa_, xb_, L0_, R0_, section_);
}

void Beam3D::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const Vec12 u = checked(u_e);
  if (!K_e) {
    if (!f_e) return;
    Eigen::Matrix<AD1, 12, 1> x;
    for (int i = 0; i < 12; ++i) x[i] = AD1(u[i], Vec12::Unit(i));
    const AD1 W = energy_of(x, xa_, xb_, L0_, R0_, section_);
    *f_e = W.derivatives();
    return;
  }
  // Seeds: x_i = (u_i + δu_i) as an AD1 whose own derivative is e_i, and the
  // outer derivative e_i as well, so that W.value().derivatives() = ∂W/∂u and
  // W.derivatives()[j].derivatives() = ∂²W/∂u∂u_j (S.6).
  Eigen::Matrix<AD2, 12, 1> x;
  for (int i = 0; i < 12; ++i) {
    Eigen::Matrix<AD1, 12, 1> d;
    for (int j = 0; j < 12; ++j) d[j] = AD1(i == j ? 1.0 : 0.0, Vec12::Zero());
    x[i] = AD2(AD1(u[i], Vec12::Unit(i)), d);
  }
  const AD2 W = energy_of(x, xa_, xb_, L0_, R0_, section_);
  if (f_e) *f_e = W.value().derivatives();
  Eigen::Matrix<double, 12, 12> K;
  for (int j = 0; j < 12; ++j) K.col(j) = W.derivatives()[j].derivatives();
  // Mixed partials from AutoDiff agree to round-off; the average makes K exactly
  // symmetric for the symmetric factorizations.
  *K_e = 0.5 * (K + K.transpose());
}

bool Beam3D::tangent_derivative(const Eigen::VectorXd& u_e, const Eigen::VectorXd& a_e, const Eigen::VectorXd& b_e,
                                Eigen::VectorXd& out_e) const {
  const Vec12 u = checked(u_e), a = checked(a_e), b = checked(b_e);
  using Va = Eigen::Matrix<double, 1, 1>;
  using Vb = Eigen::Matrix<ADa, 1, 1>;
  // x_i = u_i + t a_i + s b_i + δu_i: W(x) differentiated in t, s and δu gives
  // ∂³W/∂t∂s∂u_j = Σ W_{,ikj} a_i b_k at t = s = 0 (S.6).
  Eigen::Matrix<AD3, 12, 1> x;
  for (int i = 0; i < 12; ++i) {
    const ADa base(u[i], Va::Constant(a[i]));
    const ADb xs(base, Vb::Constant(ADa(b[i], Va::Zero())));
    Eigen::Matrix<ADb, 12, 1> d;
    for (int j = 0; j < 12; ++j) d[j] = ADb(ADa(i == j ? 1.0 : 0.0, Va::Zero()), Vb::Constant(ADa(0.0, Va::Zero())));
    x[i] = AD3(xs, d);
  }
  const AD3 W = energy_of(x, xa_, xb_, L0_, R0_, section_);
  out_e.resize(12);
  for (int j = 0; j < 12; ++j) out_e[j] = W.derivatives()[j].derivatives()[0].derivatives()[0];
  return true;
}

std::vector<int> mesh_member_3d(Model& model, int node_a, int node_b, int n, const Beam3DSection& section,
                                const Eigen::Vector3d& ref, int first_node_id, int first_element_id) {
  if (model.dim() != 3) misuse("mesh_member_3d: Beam3D needs a 3D model", __LINE__);
  if (n < 1) misuse("mesh_member_3d: n must be >= 1", __LINE__);
  if (node_a < 0 || node_a >= model.node_count() || node_b < 0 || node_b >= model.node_count() || node_a == node_b)
    misuse("mesh_member_3d: bad end nodes", __LINE__);
  const Eigen::Vector3d xa = model.node_position(node_a), xb = model.node_position(node_b);
  std::vector<int> nodes{node_a};
  for (int k = 1; k < n; ++k)
    nodes.push_back(model.add_node(first_node_id + (k - 1), xa + (xb - xa) * (static_cast<double>(k) / n)));
  nodes.push_back(node_b);
  for (int k = 0; k < n; ++k)
    model.add_element(std::make_unique<Beam3D>(first_element_id + k, nodes[k], nodes[k + 1],
                                               model.node_position(nodes[k]), model.node_position(nodes[k + 1]),
                                               section, ref));
  return nodes;
}

}  // namespace senda::model
