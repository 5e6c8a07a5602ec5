#pragma once
// Unit-quaternion kernel of the space beam and of the semitangential moment
// (docs/notes/beam3d.md S.7, S.12), templated on the scalar so that Eigen's
// AutoDiff (nested) differentiates it exactly. Internal to senda::model.
//
// Notation                                  code
//   q = (w, v) unit quaternion              Quat<T>{w, v}; R(q) x = x + 2w v×x + 2 v×(v×x)
//   q(ψ) = (cos ½θ, sin(½θ)/θ ψ), θ = |ψ|    quat_exp (S.7a)
#include <Eigen/Core>
#include <cmath>
#include <type_traits>

namespace senda::model::kernel {

// The double value of a (possibly nested) AutoDiff scalar, for the branch tests.
inline double value_of(double x) { return x; }
template <class T>
double value_of(const T& x) {
  return value_of(x.value());
}

template <class T>
using V3 = Eigen::Matrix<T, 3, 1>;

// A constant of scalar type T: through every level of a nested AutoDiff scalar
// (AutoDiffScalar converts from its own Real only, one level at a time).
template <class T, class X>
T C(const X& x) {
  if constexpr (std::is_same_v<X, double> && !std::is_same_v<T, double>)
    return T(C<typename T::Real>(x));
  else
    return T(x);
}

template <class T>
V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return V3<T>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
template <class T>
T dot(const V3<T>& a, const V3<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

template <class T>
struct Quat {
  T w;
  V3<T> v;
};

template <class T>
Quat<T> operator*(const Quat<T>& p, const Quat<T>& q) {
  return {p.w * q.w - dot(p.v, q.v), V3<T>(p.w * q.v + q.w * p.v + cross(p.v, q.v))};
}
template <class T>
Quat<T> conj(const Quat<T>& q) {
  return {q.w, V3<T>(-q.v)};
}
// R(q) x for a unit quaternion.
template <class T>
V3<T> rotate(const Quat<T>& q, const V3<T>& x) {
  const V3<T> t = cross(q.v, x);
  return V3<T>(x + C<T>(2.0) * q.w * t + C<T>(2.0) * cross(q.v, t));
}

// Below this squared angle the Taylor branch of quat_exp is used: its truncation
// error is below 1e-19 there, and the closed form loses at most ~eps/θ⁴ ≈ 1e-12
// in the second derivatives above it (S.7).
constexpr double kExpSeries = 1e-2;  // θ²

// q(ψ) (S.7a). In s = θ²: cos ½θ = Σ (−s/4)ᵏ/(2k)!, sin(½θ)/θ = ½ Σ (−s/4)ᵏ/(2k+1)!.
template <class T>
Quat<T> quat_exp(const V3<T>& psi) {
  const T s = dot(psi, psi);
  T c, h;
  if (value_of(s) < kExpSeries) {
    c = C<T>(1.0) + s * (C<T>(-1.0 / 8) + s * (C<T>(1.0 / 384) + s * (C<T>(-1.0 / 46080) + s * C<T>(1.0 / 10321920))));
    h = C<T>(0.5) +
        s * (C<T>(-1.0 / 48) + s * (C<T>(1.0 / 3840) + s * (C<T>(-1.0 / 645120) + s * C<T>(1.0 / 185794560))));
  } else {
    using std::cos;
    using std::sin;
    using std::sqrt;
    const T theta = sqrt(s);
    c = cos(C<T>(0.5) * theta);
    h = sin(C<T>(0.5) * theta) / theta;
  }
  return {c, V3<T>(h * psi)};
}

}  // namespace senda::model::kernel
