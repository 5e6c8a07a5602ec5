#include "senda/model/truss.hpp"

#include <cmath>
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

void TrussBar::energy_of_length(double l, double* W, double* N, double* dN) const {
  const double s = l / l0_;  // stretch λ₁
  double eps = 0, w = 0, n = 0, dn = 0;
  switch (measure_) {
    case StrainMeasure::GreenLagrange:
      eps = 0.5 * (s * s - 1.0);
      n = EA_ * eps * s;                 // dW/dl = EA l₀ ε (l/l₀²)
      dn = EA_ / l0_ * (eps + s * s);
      break;
    case StrainMeasure::Engineering:
      eps = s - 1.0;
      n = EA_ * eps;
      dn = EA_ / l0_;
      break;
    case StrainMeasure::Logarithmic:
      eps = std::log(s);
      n = EA_ * eps / s;                 // dW/dl = EA l₀ ε / l
      dn = EA_ / l0_ * (1.0 - eps) / (s * s);
      break;
  }
  w = 0.5 * EA_ * l0_ * eps * eps;
  if (W) *W = w;
  if (N) *N = n;
  if (dN) *dN = dn;
}

double TrussBar::energy_quotient(double la, double lb) const {
  const double sa = la / l0_, sb = lb / l0_;
  double ea = 0, eb = 0, de_dl = 0;  // ε(la), ε(lb), (ε(lb) − ε(la))/(lb − la)
  switch (measure_) {
    case StrainMeasure::GreenLagrange:
      ea = 0.5 * (sa * sa - 1.0);
      eb = 0.5 * (sb * sb - 1.0);
      de_dl = (la + lb) / (2.0 * l0_ * l0_);
      break;
    case StrainMeasure::Engineering:
      ea = sa - 1.0;
      eb = sb - 1.0;
      de_dl = 1.0 / l0_;
      break;
    case StrainMeasure::Logarithmic: {
      ea = std::log(sa);
      eb = std::log(sb);
      const double x = (lb - la) / la;  // ln(lb/la)/(lb − la) = log1p(x)/(x la)
      de_dl = x == 0.0 ? 1.0 / la : std::log1p(x) / (x * la);
      break;
    }
  }
  return 0.5 * EA_ * l0_ * (ea + eb) * de_dl;
}

namespace {
Eigen::Vector3d chord(int dim, const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, const Eigen::VectorXd& u) {
  Eigen::Vector3d d = xb - xa;
  for (int c = 0; c < dim; ++c) d[c] += u[dim + c] - u[c];
  return d;
}
}  // namespace

double TrussBar::energy(const Eigen::VectorXd& u_e) const {
  double W;
  energy_of_length(chord(dim_, xa_, xb_, u_e).norm(), &W, nullptr, nullptr);
  return W;
}

double TrussBar::axial_force(const Eigen::VectorXd& u_e) const {
  double N;
  energy_of_length(chord(dim_, xa_, xb_, u_e).norm(), nullptr, &N, nullptr);
  return N;
}

void TrussBar::compute(const Eigen::VectorXd& u_e, Eigen::VectorXd* f_e, Eigen::MatrixXd* K_e) const {
  const Eigen::Vector3d d = chord(dim_, xa_, xb_, u_e);
  const double l = d.norm();
  const Eigen::Vector3d n = d / l;
  double N, dN;
  energy_of_length(l, nullptr, &N, &dN);
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
