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
#include <utility>
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
// Forward AutoDiff of an energy of N unknowns: first order for the force, nested
// for the Hessian; for the directional third derivative one direction (a), one
// direction (b), then the N-entry gradient.
template <int N>
struct AD {
  using V = Eigen::Matrix<double, N, 1>;
  using S1 = Eigen::AutoDiffScalar<V>;
  using S2 = Eigen::AutoDiffScalar<Eigen::Matrix<S1, N, 1>>;
  using Sa = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  using Sb = Eigen::AutoDiffScalar<Eigen::Matrix<Sa, 1, 1>>;
  using S3 = Eigen::AutoDiffScalar<Eigen::Matrix<Sb, N, 1>>;
};

// The quaternion kernel shared with the semitangential moment (quaternion.hpp).
using namespace kernel;

// f = ∂W/∂u (f non-null) and K = ∂²W/∂u² (K non-null) of W = energy(x), energy a
// generic callable on Eigen::Matrix<T, N, 1> (S.6).
template <int N, class Energy>
void ad_force_tangent(const Energy& energy, const Eigen::Matrix<double, N, 1>& u, Eigen::VectorXd* f,
                      Eigen::MatrixXd* K) {
  using V = typename AD<N>::V;
  using S1 = typename AD<N>::S1;
  using S2 = typename AD<N>::S2;
  if (!K) {
    if (!f) return;
    Eigen::Matrix<S1, N, 1> x;
    for (int i = 0; i < N; ++i) x[i] = S1(u[i], V::Unit(i));
    *f = energy(x).derivatives();
    return;
  }
  // Seeds: x_i = (u_i + δu_i) as an S1 whose own derivative is e_i, and the outer
  // derivative e_i as well, so that W.value().derivatives() = ∂W/∂u and
  // W.derivatives()[j].derivatives() = ∂²W/∂u∂u_j.
  Eigen::Matrix<S2, N, 1> x;
  for (int i = 0; i < N; ++i) {
    Eigen::Matrix<S1, N, 1> d;
    for (int j = 0; j < N; ++j) d[j] = S1(i == j ? 1.0 : 0.0, V::Zero());
    x[i] = S2(S1(u[i], V::Unit(i)), d);
  }
  const S2 W = energy(x);
  if (f) *f = W.value().derivatives();
  Eigen::Matrix<double, N, N> H;
  for (int j = 0; j < N; ++j) H.col(j) = W.derivatives()[j].derivatives();
  // Mixed partials from AutoDiff agree to round-off; the average makes K exactly
  // symmetric for the symmetric factorizations.
  *K = 0.5 * (H + H.transpose());
}

// ∇(K a)·b = ∂/∂u (aᵀ K(u) b): x_i = u_i + t a_i + s b_i + δu_i, W(x) differentiated
// in t, s and δu gives ∂³W/∂t∂s∂u_j = Σ W_{,ikj} a_i b_k at t = s = 0 (S.6).
template <int N, class Energy>
Eigen::VectorXd ad_tangent_derivative(const Energy& energy, const Eigen::Matrix<double, N, 1>& u,
                                      const Eigen::Matrix<double, N, 1>& a, const Eigen::Matrix<double, N, 1>& b) {
  using Sa = typename AD<N>::Sa;
  using Sb = typename AD<N>::Sb;
  using S3 = typename AD<N>::S3;
  using Va = Eigen::Matrix<double, 1, 1>;
  using Vb = Eigen::Matrix<Sa, 1, 1>;
  Eigen::Matrix<S3, N, 1> x;
  for (int i = 0; i < N; ++i) {
    const Sa base(u[i], Va::Constant(a[i]));
    const Sb xs(base, Vb::Constant(Sa(b[i], Va::Zero())));
    Eigen::Matrix<Sb, N, 1> d;
    for (int j = 0; j < N; ++j) d[j] = Sb(Sa(i == j ? 1.0 : 0.0, Va::Zero()), Vb::Constant(Sa(0.0, Va::Zero())));
    x[i] = S3(xs, d);
  }
  const S3 W = energy(x);
  Eigen::VectorXd out(N);
  for (int j = 0; j < N; ++j) out[j] = W.derivatives()[j].derivatives()[0].derivatives()[0];
  return out;
}

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
// vector ω in global axes (S.2) of the end rotations qa, qb.
template <class T>
Quat<T> midpoint_rotation(const Quat<T>& qa, const Quat<T>& qb, V3<T>& omega) {
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

// The same of the nodal rotation vectors in u (12 entries).
template <class T>
Quat<T> midpoint_rotation(const Eigen::Matrix<T, 12, 1>& u, V3<T>& omega) {
  const V3<T> psi_a = u.template segment<3>(3), psi_b = u.template segment<3>(9);
  return midpoint_rotation(quat_exp(psi_a), quat_exp(psi_b), omega);
}

// The strains (Γ, κ) of (S.4) of the end displacements ua, ub and rotations qa, qb.
template <class T>
Eigen::Matrix<T, 6, 1> strains_of_ends(const V3<T>& ua, const V3<T>& ub, const Quat<T>& qa, const Quat<T>& qb,
                                       const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0,
                                       const Eigen::Matrix3d& R0) {
  V3<T> omega;
  const Quat<T> qm = midpoint_rotation(qa, qb, omega);
  V3<T> x1;
  for (int i = 0; i < 3; ++i) x1[i] = (C<T>(xb[i] - xa[i]) + ub[i] - ua[i]) / C<T>(L0);
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

// The strains (Γ, κ) of (S.4) at u (12 entries, scalar T).
template <class T>
Eigen::Matrix<T, 6, 1> strains_of(const Eigen::Matrix<T, 12, 1>& u, const Eigen::Vector3d& xa,
                                  const Eigen::Vector3d& xb, double L0, const Eigen::Matrix3d& R0) {
  const V3<T> psi_a = u.template segment<3>(3), psi_b = u.template segment<3>(9);
  return strains_of_ends(V3<T>(u.template segment<3>(0)), V3<T>(u.template segment<3>(6)), quat_exp(psi_a),
                         quat_exp(psi_b), xa, xb, L0, R0);
}

// r² = I_p/A of the Wagner term (S.16a), 0 for the plain rod.
double wagner_r2(const Beam3DSection& c) {
  return c.EIw > 0.0 ? (c.EI2 + c.EI3) / c.EA : 0.0;
}

// The section energy of the strains e (S.5); thin-walled (S.16a): Γ₁ + ½ r² κ₁² in
// place of Γ₁ (the Wagner term) and ⅛ EK4 κ₁⁴.
template <class T>
T section_energy(const Eigen::Matrix<T, 6, 1>& e, double L0, const Beam3DSection& c) {
  const double k[6] = {c.EA, c.GA2, c.GA3, c.GJ, c.EI2, c.EI3};
  const double r2 = wagner_r2(c);
  const T axial = r2 > 0.0 ? T(e[0] + C<T>(0.5 * r2) * e[3] * e[3]) : e[0];
  T w = C<T>(k[0]) * axial * axial;
  for (int i = 1; i < 6; ++i) w = w + C<T>(k[i]) * e[i] * e[i];
  if (c.EK4 > 0.0) w = w + C<T>(0.25 * c.EK4) * e[3] * e[3] * e[3] * e[3];
  return C<T>(0.5 * L0) * w;  // (S.5)
}

// The warping energy of a thin-walled element (S.16b): the nodal warping unknowns
// ω_a, ω_b interpolated linearly, one-point integration as for the strains,
//   L₀ [½ EI_w ((ω_b − ω_a)/L₀)² + ½ GI_w (κ₁ − ½(ω_a + ω_b))²].
template <class T>
T warping_energy(const T& kappa1, const T& wa, const T& wb, double L0, const Beam3DSection& c) {
  const T dw = (wb - wa) / C<T>(L0);
  const T shear = kappa1 - C<T>(0.5) * (wa + wb);
  return C<T>(0.5 * L0) * (C<T>(c.EIw) * dw * dw + C<T>(c.GIw) * shear * shear);
}

// The energy of a thin-walled element, x = (the 12 of strains_of, ω_a, ω_b).
template <class T>
T thin_walled_energy(const Eigen::Matrix<T, 14, 1>& x, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
                     double L0, const Eigen::Matrix3d& R0, const Beam3DSection& c) {
  const Eigen::Matrix<T, 12, 1> u = x.template head<12>();
  const Eigen::Matrix<T, 6, 1> e = strains_of(u, xa, xb, L0, R0);
  return section_energy(e, L0, c) + warping_energy(e[3], x[12], x[13], L0, c);
}

// One- and two-axis hinges (S.13, S.15): the local vector holds, per end, the
// translations, the node's rotation vector ψ and, at a released end, the hinge
// angle α (and β); that end's section turns with R_n exp(α â₀) [exp(β b̂₀)], â₀
// and b̂₀ the axes in the reference (global) axes, â₀ carried by the node and b̂₀
// by the cross: q = q(ψ) ⊗ q(α â₀) [⊗ q(β b̂₀)].
struct EndLayout {
  int offset = 0;  // index of the end's first entry in u_e
  int angles = 0;  // α at offset + 6, β at offset + 7
  Eigen::Vector3d axis = Eigen::Vector3d::Zero(), axis2 = Eigen::Vector3d::Zero();
};

template <class T, class Vec>
Quat<T> end_rotation(const Vec& x, const EndLayout& end) {
  V3<T> psi;
  for (int i = 0; i < 3; ++i) psi[i] = x[end.offset + 3 + i];
  Quat<T> q = quat_exp(psi);
  for (int j = 0; j < end.angles; ++j) {
    const Eigen::Vector3d& axis = j == 0 ? end.axis : end.axis2;
    V3<T> a;
    for (int i = 0; i < 3; ++i) a[i] = x[end.offset + 6 + j] * C<T>(axis[i]);
    q = q * quat_exp(a);
  }
  return q;
}

template <class T, class Vec>
Eigen::Matrix<T, 6, 1> hinged_strains(const Vec& x, const EndLayout (&ends)[2], const Eigen::Vector3d& xa,
                                      const Eigen::Vector3d& xb, double L0, const Eigen::Matrix3d& R0) {
  V3<T> ua, ub;
  for (int i = 0; i < 3; ++i) {
    ua[i] = x[ends[0].offset + i];
    ub[i] = x[ends[1].offset + i];
  }
  return strains_of_ends(ua, ub, end_rotation<T>(x, ends[0]), end_rotation<T>(x, ends[1]), xa, xb, L0, R0);
}

template <class T>
T energy_of(const Eigen::Matrix<T, 12, 1>& u, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0,
            const Eigen::Matrix3d& R0, const Beam3DSection& c) {
  return section_energy(strains_of(u, xa, xb, L0, R0), L0, c);
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
               const Beam3DSection& section, const Eigen::Vector3d& ref, const Beam3DEnd& end_a,
               const Beam3DEnd& end_b)
    : id_(id), node_a_(node_a), node_b_(node_b), xa_(xa), xb_(xb), section_(section) {
  const std::string name = "beam " + std::to_string(id);
  const Eigen::Vector3d d = xb - xa;
  L0_ = d.norm();
  if (!(L0_ > 0.0)) throw std::invalid_argument(name + " has zero length");
  const Beam3DSection& s = section;
  if (!(s.EA > 0) || !(s.GA2 > 0) || !(s.GA3 > 0) || !(s.GJ > 0) || !(s.EI2 > 0) || !(s.EI3 > 0))
    throw std::invalid_argument(name + ": EA, GA2, GA3, GJ, EI2 and EI3 must be > 0");
  if (!(s.EIw >= 0.0) || !std::isfinite(s.EIw) || !(s.GIw >= 0.0) || !std::isfinite(s.GIw) ||
      (s.EIw > 0.0) != (s.GIw > 0.0) || !(s.EK4 >= 0.0) || !std::isfinite(s.EK4) || (s.EK4 > 0.0 && !(s.EIw > 0.0)))
    throw std::invalid_argument(name + ": EIw and GIw must both be > 0 (a thin-walled member) or both 0, EK4 >= 0 "
                                "and only with them");
  warping_ = s.EIw > 0.0;
  const Eigen::Vector3d e1 = d / L0_;
  const double rn = ref.stableNorm();
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
  // The dofs, and P (full_state = P u_e) column by column.
  dofs_.reserve(12);
  std::vector<Vec12> columns;
  const Beam3DEnd ends[2] = {end_a, end_b};
  for (int k = 0; k < 2; ++k) {
    const int n = k == 0 ? node_a : node_b;
    const Beam3DEnd& end = ends[k];
    if (end.slot < 0 || (end.spin_held && end.slot == 0)) misuse(name + ": bad end", __LINE__);
    if (warping_ != (end.warp > 0) || (warping_ && (end.slot != 0 || end.axis != Eigen::Vector3d::Zero())))
      misuse(name + ": a thin-walled member needs rigid ends and a warping unknown at each; a plain member takes none",
             __LINE__);
    offset_[k] = static_cast<int>(dofs_.size());
    for (int c = 0; c < 3; ++c) {
      dofs_.push_back({n, static_cast<Component>(c)});
      columns.push_back(Vec12::Unit(6 * k + c));
    }
    if (end.axis != Eigen::Vector3d::Zero()) {
      // A one-axis hinge (S.13): the node's rotation vector, then α; a two-axis
      // joint (S.15): then β.
      const double an = end.axis.stableNorm(), bn = end.axis2.stableNorm();
      if (end.spin_held || end.slot == 0 || !std::isfinite(an) || !std::isfinite(bn))
        misuse(name + ": bad hinged end", __LINE__);
      hinged_ = true;
      angles_[k] = bn > 0.0 ? 2 : 1;
      axis_[k] = end.axis / an;
      if (bn > 0.0) {
        axis2_[k] = end.axis2 / bn;
        if (!(axis_[k].cross(axis2_[k]).norm() > 1e-6))
          throw std::invalid_argument(name + ": the two axes of a two-axis hinge are parallel");
      }
      for (int c = 0; c < 3; ++c) dofs_.push_back({n, static_cast<Component>(3 + c)});
      for (int j = 0; j < angles_[k]; ++j) dofs_.push_back({n, Component::Rx, end.slot + j});
      continue;
    }
    if (end.axis2 != Eigen::Vector3d::Zero()) misuse(name + ": a second hinge axis without a first", __LINE__);
    if (!end.spin_held) {
      for (int c = 0; c < 3; ++c) {
        dofs_.push_back({n, static_cast<Component>(3 + c), end.slot == 0 ? 0 : end.slot + c});
        columns.push_back(Vec12::Unit(6 * k + 3 + c));
      }
      continue;
    }
    // ψ = a₂ e₂ + a₃ e₃ (S.10); the extra dofs carry the components Ry, Rz.
    plain_ = false;
    for (int c = 1; c < 3; ++c) {
      dofs_.push_back({n, static_cast<Component>(3 + c), end.slot + c - 1});
      Vec12 col = Vec12::Zero();
      col.segment<3>(6 * k + 3) = R0_.col(c);
      columns.push_back(col);
    }
  }
  if (warping_) {
    dofs_.push_back({node_a, Component::Rx, end_a.warp});
    dofs_.push_back({node_b, Component::Rx, end_b.warp});
  }
  if (hinged_) {
    if (!plain_) misuse(name + ": a hinged end with a spin-held end", __LINE__);
    plain_ = false;
    return;  // full_state() composes the rotations; P_ is not used
  }
  P_.resize(12, static_cast<Eigen::Index>(columns.size()));
  for (std::size_t j = 0; j < columns.size(); ++j) P_.col(static_cast<Eigen::Index>(j)) = columns[j];
}

std::string Beam3D::describe() const {
  return "beam " + std::to_string(id_);
}

namespace {
void layout_of(const int (&offset)[2], const int (&angles)[2], const Eigen::Vector3d (&axis)[2],
               const Eigen::Vector3d (&axis2)[2], EndLayout (&out)[2]) {
  for (int k = 0; k < 2; ++k) out[k] = EndLayout{offset[k], angles[k], axis[k], axis2[k]};
}
}  // namespace

Eigen::Matrix<double, 6, 1> Beam3D::strains(const Eigen::VectorXd& u_e) const {
  if (hinged_) {
    if (u_e.size() != static_cast<Eigen::Index>(dofs_.size())) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
    EndLayout ends[2];
    layout_of(offset_, angles_, axis_, axis2_, ends);
    return hinged_strains<double>(u_e, ends, xa_, xb_, L0_, R0_);
  }
  return strains_of<double>(full_state(u_e), xa_, xb_, L0_, R0_);
}

namespace {
Eigen::Matrix<double, 14, 1> checked14(const Eigen::VectorXd& u_e) {
  if (u_e.size() != 14) misuse("Beam3D: a thin-walled element has 14 entries", __LINE__);
  return u_e;
}
}  // namespace

Eigen::Matrix<double, 6, 1> Beam3D::stress_resultants(const Eigen::VectorXd& u_e) const {
  const Eigen::Matrix<double, 6, 1> e = strains(u_e);
  const Beam3DSection& c = section_;
  Eigen::Matrix<double, 6, 1> s;
  s << c.EA * e[0], c.GA2 * e[1], c.GA3 * e[2], c.GJ * e[3], c.EI2 * e[4], c.EI3 * e[5];
  if (warping_) {
    // ∂(W/L₀)/∂Γ₁ and ∂(W/L₀)/∂κ₁ of (S.16a, S.16b).
    const double r2 = wagner_r2(c);
    s[0] = c.EA * (e[0] + 0.5 * r2 * e[3] * e[3]);
    s[3] = c.GJ * e[3] + s[0] * r2 * e[3] + 0.5 * c.EK4 * e[3] * e[3] * e[3] +
           c.GIw * (e[3] - 0.5 * (u_e[12] + u_e[13]));
  }
  return s;
}

Eigen::Matrix3d Beam3D::section_frame(const Eigen::VectorXd& u_e) const {
  Eigen::Vector3d omega;
  Quat<double> qm;
  if (hinged_) {
    if (u_e.size() != static_cast<Eigen::Index>(dofs_.size())) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
    EndLayout ends[2];
    layout_of(offset_, angles_, axis_, axis2_, ends);
    qm = midpoint_rotation(end_rotation<double>(u_e, ends[0]), end_rotation<double>(u_e, ends[1]), omega);
  } else {
    qm = midpoint_rotation<double>(full_state(u_e), omega);
  }
  Eigen::Matrix3d F;
  for (int i = 0; i < 3; ++i) F.col(i) = rotate(qm, Eigen::Vector3d(R0_.col(i)));
  return F;
}

double Beam3D::energy(const Eigen::VectorXd& u_e) const {
  if (hinged_) return section_energy(strains(u_e), L0_, section_);
  if (warping_) return thin_walled_energy<double>(checked14(u_e), xa_, xb_, L0_, R0_, section_);
  return energy_of<double>(full_state(u_e), xa_, xb_, L0_, R0_, section_);
}

Vec12 Beam3D::full_state(const Eigen::VectorXd& u_e) const {
  if (hinged_) {
    if (u_e.size() != static_cast<Eigen::Index>(dofs_.size())) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
    EndLayout ends[2];
    layout_of(offset_, angles_, axis_, axis2_, ends);
    Vec12 u;
    for (int k = 0; k < 2; ++k) {
      u.segment<3>(6 * k) = u_e.segment<3>(offset_[k]);
      Quat<double> q = end_rotation<double>(u_e, ends[k]);
      if (q.w < 0.0) q = {-q.w, -q.v};
      u.segment<3>(6 * k + 3) = quat_log(q);
    }
    return u;
  }
  if (warping_) return checked14(u_e).head<12>();
  if (u_e.size() != P_.cols()) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
  if (plain_) return u_e;
  return P_ * u_e;
}

namespace {
// f, K and ∇(K a)·b of a hinged element, 13 to 16 entries. One instantiation, of 16
// unknowns: a shorter element's entries are padded with zeros that its energy never
// reads, and the result is cut back. The AutoDiff operations are entrywise in the
// derivative index, so the entries kept are the same numbers as those of an
// instantiation of the element's own size; one size instead of four saves about 95 s
// of compilation in every build (docs/performance.md, "CI time"), for (16/13)² more
// work on the rare hinged element.
constexpr int kHingedMax = 16;
using HingedVec = Eigen::Matrix<double, kHingedMax, 1>;
HingedVec padded(const Eigen::VectorXd& v) {
  HingedVec out = HingedVec::Zero();
  out.head(v.size()) = v;
  return out;
}
void hinged_force_tangent(const EndLayout (&ends)[2], const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double L0,
                          const Eigen::Matrix3d& R0, const Beam3DSection& c, const Eigen::VectorXd& u_e,
                          Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) {
  const auto W = [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    return section_energy(hinged_strains<T>(x, ends, xa, xb, L0, R0), L0, c);
  };
  const Eigen::Index n = u_e.size();
  Eigen::VectorXd f;
  Eigen::MatrixXd K;
  ad_force_tangent<kHingedMax>(W, padded(u_e), f_e ? &f : nullptr, K_e ? &K : nullptr);
  if (f_e) *f_e = f.head(n);
  if (K_e) *K_e = K.topLeftCorner(n, n);
}
Eigen::VectorXd hinged_tangent_derivative(const EndLayout (&ends)[2], const Eigen::Vector3d& xa,
                                          const Eigen::Vector3d& xb, double L0, const Eigen::Matrix3d& R0,
                                          const Beam3DSection& c, const Eigen::VectorXd& u_e,
                                          const Eigen::VectorXd& a_e, const Eigen::VectorXd& b_e) {
  const auto W = [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    return section_energy(hinged_strains<T>(x, ends, xa, xb, L0, R0), L0, c);
  };
  return ad_tangent_derivative<kHingedMax>(W, padded(u_e), padded(a_e), padded(b_e)).head(u_e.size());
}
}  // namespace

void Beam3D::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  if (hinged_) {
    if (u_e.size() != static_cast<Eigen::Index>(dofs_.size())) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
    EndLayout ends[2];
    layout_of(offset_, angles_, axis_, axis2_, ends);
    if (u_e.size() < 13 || u_e.size() > kHingedMax) misuse("Beam3D: a hinged element has 13 to 16 entries", __LINE__);
    hinged_force_tangent(ends, xa_, xb_, L0_, R0_, section_, u_e, f_e, K_e);
    return;
  }
  if (warping_) {
    const auto W = [&](const auto& x) { return thin_walled_energy(x, xa_, xb_, L0_, R0_, section_); };
    ad_force_tangent<14>(W, checked14(u_e), f_e, K_e);
    return;
  }
  const Vec12 u = full_state(u_e);
  const auto W = [&](const auto& x) { return energy_of(x, xa_, xb_, L0_, R0_, section_); };
  if (plain_) {
    ad_force_tangent<12>(W, u, f_e, K_e);
    return;
  }
  // u = P u_e, P constant: f_e = Pᵀ f, K_e = Pᵀ K P.
  Eigen::VectorXd f;
  Eigen::MatrixXd K;
  ad_force_tangent<12>(W, u, f_e ? &f : nullptr, K_e ? &K : nullptr);
  if (f_e) *f_e = P_.transpose() * f;
  if (K_e) *K_e = P_.transpose() * K * P_;
}

bool Beam3D::tangent_derivative(const Eigen::VectorXd& u_e, const Eigen::VectorXd& a_e, const Eigen::VectorXd& b_e,
                                Eigen::VectorXd& out_e) const {
  if (hinged_) {
    const auto n = static_cast<Eigen::Index>(dofs_.size());
    if (u_e.size() != n || a_e.size() != n || b_e.size() != n) misuse("Beam3D: u_e must have one entry per dof", __LINE__);
    EndLayout ends[2];
    layout_of(offset_, angles_, axis_, axis2_, ends);
    if (n < 13 || n > kHingedMax) misuse("Beam3D: a hinged element has 13 to 16 entries", __LINE__);
    out_e = hinged_tangent_derivative(ends, xa_, xb_, L0_, R0_, section_, u_e, a_e, b_e);
    return true;
  }
  if (warping_) {
    const auto W = [&](const auto& x) { return thin_walled_energy(x, xa_, xb_, L0_, R0_, section_); };
    out_e = ad_tangent_derivative<14>(W, checked14(u_e), checked14(a_e), checked14(b_e));
    return true;
  }
  const auto W = [&](const auto& x) { return energy_of(x, xa_, xb_, L0_, R0_, section_); };
  const Eigen::VectorXd out = ad_tangent_derivative<12>(W, full_state(u_e), full_state(a_e), full_state(b_e));
  out_e = plain_ ? out : Eigen::VectorXd(P_.transpose() * out);
  return true;
}

namespace {
// ½ K θ², θ the angle of exp(−ψ̂_n) exp(ψ̂_m) (S.11); u = (ψ_n, ψ_m).
template <class T>
T ball_spring_energy(const Eigen::Matrix<T, 6, 1>& u, double K) {
  const Quat<T> qn = quat_exp(V3<T>(u.template head<3>())), qm = quat_exp(V3<T>(u.template tail<3>()));
  Quat<T> qr = conj(qn) * qm;
  if (value_of(qr.w) < 0.0) qr = {C<T>(-qr.w), V3<T>(-qr.v)};
  const V3<T> omega = quat_log(qr);
  return C<T>(0.5 * K) * dot(omega, omega);
}

Eigen::Matrix<double, 6, 1> checked6(const Eigen::VectorXd& u_e) {
  if (u_e.size() != 6) misuse("BallJointSpring: u_e must have 6 entries", __LINE__);
  return u_e;
}
}  // namespace

BallJointSpring::BallJointSpring(int node, int slot, double K, std::string name) : K_(K), name_(std::move(name)) {
  if (!(K > 0.0) || slot < 1) misuse("BallJointSpring: K must be > 0 and slot >= 1", __LINE__);
  for (int c = 3; c < 6; ++c) dofs_.push_back({node, static_cast<Component>(c)});
  for (int c = 3; c < 6; ++c) dofs_.push_back({node, static_cast<Component>(c), slot + c - 3});
}

double BallJointSpring::energy(const Eigen::VectorXd& u_e) const {
  return ball_spring_energy<double>(checked6(u_e), K_);
}

void BallJointSpring::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  ad_force_tangent<6>([&](const auto& x) { return ball_spring_energy(x, K_); }, checked6(u_e), f_e, K_e);
}

bool BallJointSpring::tangent_derivative(const Eigen::VectorXd& u_e, const Eigen::VectorXd& a_e,
                                         const Eigen::VectorXd& b_e, Eigen::VectorXd& out_e) const {
  out_e = ad_tangent_derivative<6>([&](const auto& x) { return ball_spring_energy(x, K_); }, checked6(u_e),
                                   checked6(a_e), checked6(b_e));
  return true;
}

std::vector<int> mesh_member_3d(Model& model, int node_a, int node_b, int n, const Beam3DSection& section,
                                const Eigen::Vector3d& ref, int first_node_id, int first_element_id,
                                const Beam3DEnd& end_a, const Beam3DEnd& end_b,
                                const std::vector<Eigen::Vector3d>& inner) {
  if (model.dim() != 3) misuse("mesh_member_3d: Beam3D needs a 3D model", __LINE__);
  if (n < 1) misuse("mesh_member_3d: n must be >= 1", __LINE__);
  if (node_a < 0 || node_a >= model.node_count() || node_b < 0 || node_b >= model.node_count() || node_a == node_b)
    misuse("mesh_member_3d: bad end nodes", __LINE__);
  if (!inner.empty() && static_cast<int>(inner.size()) != n - 1)
    misuse("mesh_member_3d: inner needs n - 1 positions", __LINE__);
  const Eigen::Vector3d xa = model.node_position(node_a), xb = model.node_position(node_b);
  std::vector<int> nodes{node_a};
  for (int k = 1; k < n; ++k)
    nodes.push_back(model.add_node(first_node_id + (k - 1), inner.empty()
                                                               ? Eigen::Vector3d(xa + (xb - xa) * (static_cast<double>(k) / n))
                                                               : inner[static_cast<std::size_t>(k - 1)]));
  nodes.push_back(node_b);
  // A thin-walled member (S.16): every node of it gets (or shares) the node's
  // warping unknown.
  std::vector<int> warp(nodes.size(), 0);
  if (section.EIw > 0.0)
    for (std::size_t k = 0; k < nodes.size(); ++k) warp[k] = model.warping_dof(nodes[k]);
  for (int k = 0; k < n; ++k) {
    Beam3DEnd a = k == 0 ? end_a : Beam3DEnd{}, b = k + 1 == n ? end_b : Beam3DEnd{};
    a.warp = warp[static_cast<std::size_t>(k)];
    b.warp = warp[static_cast<std::size_t>(k + 1)];
    model.add_element(std::make_unique<Beam3D>(first_element_id + k, nodes[k], nodes[k + 1],
                                               model.node_position(nodes[k]), model.node_position(nodes[k + 1]),
                                               section, ref, a, b));
  }
  return nodes;
}

}  // namespace senda::model
