#include "senda/model/truss.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace senda::model {

const char* to_string(StrainMeasure s) {
  switch (s) {
    case StrainMeasure::GreenLagrange: return "green-lagrange";
    case StrainMeasure::Engineering: return "engineering";
    case StrainMeasure::Logarithmic: return "logarithmic";
  }
  return "?";
}

TrussBar::TrussBar(int id, int dim, int node_a, int node_b, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb,
                   double EA, StrainMeasure measure)
    : id_(id), dim_(dim), xa_(xa), xb_(xb), EA_(EA), measure_(measure) {
  if (dim != 2 && dim != 3) throw std::logic_error("TrussBar: dim must be 2 or 3");
  if (dim == 2) xa_.z() = xb_.z() = 0.0;
  l0_ = (xb_ - xa_).norm();
  if (!(l0_ > 0.0)) throw std::invalid_argument("truss " + std::to_string(id) + " has zero length");
  for (int node : {node_a, node_b})
    for (int c = 0; c < dim; ++c) dofs_.push_back({node, static_cast<Component>(c)});
}

std::string TrussBar::describe() const { return "truss " + std::to_string(id_); }

namespace {
// The strain ε of each measure from δ = λ₁² − 1 = (l² − l₀²)/l₀² and the stretch
// s = λ₁ = √(1 + δ), without forming s − 1 (which keeps only eps/|ε| of ε's digits):
//   Green–Lagrange ε = δ/2,  engineering ε = δ/(1 + s),  logarithmic ε = ½ log1p(δ).
double strain_of(StrainMeasure m, double delta, double s) {
  switch (m) {
    case StrainMeasure::GreenLagrange: return 0.5 * delta;
    case StrainMeasure::Engineering: return delta / (1.0 + s);
    case StrainMeasure::Logarithmic: return 0.5 * std::log1p(delta);
  }
  return 0.0;
}
}  // namespace

void TrussBar::energy_of_stretch(double delta, double* W, double* N, double* dN) const {
  const double s = std::sqrt(1.0 + delta);  // stretch λ₁
  const double eps = strain_of(measure_, delta, s);
  double n = 0, dn = 0;
  switch (measure_) {
    case StrainMeasure::GreenLagrange:
      n = EA_ * eps * s;                 // dW/dl = EA l₀ ε (l/l₀²)
      dn = EA_ / l0_ * (eps + s * s);
      break;
    case StrainMeasure::Engineering:
      n = EA_ * eps;
      dn = EA_ / l0_;
      break;
    case StrainMeasure::Logarithmic:
      n = EA_ * eps / s;                 // dW/dl = EA l₀ ε / l
      dn = EA_ / l0_ * (1.0 - eps) / (s * s);
      break;
  }
  if (W) *W = 0.5 * EA_ * l0_ * eps * eps;
  if (N) *N = n;
  if (dN) *dN = dn;
}

double TrussBar::stretch_defect(double l) const { return (l - l0_) * (l + l0_) / (l0_ * l0_); }

void TrussBar::energy_of_length(double l, double* W, double* N, double* dN) const {
  energy_of_stretch(stretch_defect(l), W, N, dN);
}

double TrussBar::energy_quotient(double la, double lb) const {
  const double da = stretch_defect(la), db = stretch_defect(lb);
  const double ea = strain_of(measure_, da, la / l0_), eb = strain_of(measure_, db, lb / l0_);
  double de_dl = 0;  // (ε(lb) − ε(la))/(lb − la)
  switch (measure_) {
    case StrainMeasure::GreenLagrange: de_dl = (la + lb) / (2.0 * l0_ * l0_); break;
    case StrainMeasure::Engineering: de_dl = 1.0 / l0_; break;
    case StrainMeasure::Logarithmic: {
      const double x = (lb - la) / la;  // ln(lb/la)/(lb − la) = log1p(x)/(x la)
      de_dl = x == 0.0 ? 1.0 / la : std::log1p(x) / (x * la);
      break;
    }
  }
  return 0.5 * EA_ * l0_ * (ea + eb) * de_dl;
}

namespace {
// The current chord d = ΔX + Δu and δ = (l² − l₀²)/l₀² = Δu·(2ΔX + Δu)/l₀², the latter from
// the displacements: l² − l₀² formed from l would cancel all but eps/|δ| of its digits
// (a shallow lattice's bars strain by ~1e-6 at their snap; docs/theory.md §1.2).
struct Chord {
  Eigen::Vector3d d;
  double delta;
};
Chord chord(int dim, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double l0, const Eigen::VectorXd& u) {
  const Eigen::Vector3d X = xb - xa;
  Chord c{X, 0.0};
  for (int k = 0; k < dim; ++k) {
    const double du = u[dim + k] - u[k];
    c.d[k] += du;
    c.delta += du * (2.0 * X[k] + du);
  }
  c.delta /= l0 * l0;
  return c;
}
}  // namespace

std::string TrussBar::degenerate(const Eigen::VectorXd& u_e) const {
  // Below 1e-3 of its length at rest: a bar on its way through zero length (three-bar's
  // branch from BP2 (-) crawled to 8e-7 of it and ended "no convergence"). Not a
  // Green–Lagrange bar: its energy is a polynomial in u, regular at zero length.
  if (measure_ == StrainMeasure::GreenLagrange) return {};
  const double ratio = chord(dim_, xa_, xb_, l0_, u_e).d.norm() / l0_;
  if (!(ratio < 1e-3)) return {};
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", ratio);
  return describe() + " is " + text + " of its length at rest: a bar through zero length, where its direction is "
         "undefined and its tangent singular";
}

double TrussBar::energy(const Eigen::VectorXd& u_e) const {
  double W;
  energy_of_stretch(chord(dim_, xa_, xb_, l0_, u_e).delta, &W, nullptr, nullptr);
  return W;
}

double TrussBar::axial_force(const Eigen::VectorXd& u_e) const {
  double N;
  energy_of_stretch(chord(dim_, xa_, xb_, l0_, u_e).delta, nullptr, &N, nullptr);
  return N;
}

void TrussBar::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const Chord c = chord(dim_, xa_, xb_, l0_, u_e);
  const double l = c.d.norm();
  const Eigen::Vector3d n = c.d / l;
  double N, dN;
  energy_of_stretch(c.delta, nullptr, &N, &dN);
  if (f_e) {
    for (int c = 0; c < dim_; ++c) {
      (*f_e)[c] = -N * n[c];
      (*f_e)[dim_ + c] = N * n[c];
    }
  }
  if (K_e) {
    // k = N' n nᵀ + (N/l)(I − n nᵀ)   (eq. 1.4)
    for (int i = 0; i < dim_; ++i)
      for (int j = 0; j < dim_; ++j) {
        const double k = dN * n[i] * n[j] + N / l * ((i == j ? 1.0 : 0.0) - n[i] * n[j]);
        (*K_e)(i, j) = k;
        (*K_e)(dim_ + i, dim_ + j) = k;
        (*K_e)(i, dim_ + j) = -k;
        (*K_e)(dim_ + i, j) = -k;
      }
  }
}

}  // namespace senda::model
