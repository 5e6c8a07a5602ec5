#pragma once
// The 1D Bratu problem as a senda::Problem (header-only; used by the benchmarks
// and by tests).
//
//   u_{i−1} − 2u_i + u_{i+1} + h² λ e^{u_i} = 0,   i = 1…N,   h = 1/(N+1),
//   u_0 = u_{N+1} = μ (boundary value, default 0).
//
// Sign convention (the structural one): the residual is MINUS the expression,
//
//   g_i(u, λ) = 2u_i − u_{i−1} − u_{i+1} − h² λ e^{u_i}                 (B.1)
//   K = ∂g/∂u = tridiag(−1, 2 − h² λ e^{u_i}, −1)   symmetric            (B.2)
//   ∂g/∂λ     = −h² e^{u_i}                          (so r = h² e^{u})   (B.3)
//
// so that K is positive definite on the lower branch (from λ = 0 up to the fold)
// and has one negative eigenvalue on the upper branch, like a structure past a
// limit point. λ enters nonlinearly (r depends on u): is_proportional() = false.
// The fold of the discrete problem at N = 10 is λ_c = 3.4986839366; the continuum
// limit (N → ∞) is λ_c = 3.51383071912.
//
// Performance: the pattern is built once; tangent() writes the N diagonal and
// 2(N−1) off-diagonal values straight into K.valuePtr() in one sequential pass
// (no triplets, no searches per call). e^{u} dominates the cost of
// an evaluation; the follower asks for g, K and ∂g/∂λ at the same u in every Newton
// iteration, so the last e^{u} is kept and reused when u is bitwise the same (a
// memcmp is ~20 times cheaper than N exponentials). The cache makes one Bratu
// object unsafe to share between threads.
#include <Eigen/SparseCore>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "senda/core/problem.hpp"

namespace senda::benchmarks {

class Bratu final : public senda::Problem {
 public:
  explicit Bratu(int n, double mu = 0.0) : n_(n), mu_(mu) {
    if (n < 1) throw std::invalid_argument("Bratu: N must be at least 1");
    const double h = 1.0 / (n + 1);
    h2_ = h * h;
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(3 * static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      if (i > 0) t.emplace_back(i, i - 1, -1.0);
      t.emplace_back(i, i, 2.0);
      if (i + 1 < n) t.emplace_back(i, i + 1, -1.0);
    }
    pattern_.resize(n, n);
    pattern_.setFromTriplets(t.begin(), t.end());
    pattern_.makeCompressed();
  }

  int size() const override { return n_; }
  double boundary_value() const { return mu_; }
  double h2() const { return h2_; }

  // (B.1)
  void residual(const Vector& u, double lambda, Vector& g) const override {
    g.resize(n_);
    const double* x = u.data();
    double* out = g.data();
    const double* e = exp_of(u);
    const double c = h2_ * lambda;
    for (int i = 0; i < n_; ++i) {
      const double left = i > 0 ? x[i - 1] : mu_;
      const double right = i + 1 < n_ ? x[i + 1] : mu_;
      out[i] = 2.0 * x[i] - left - right - c * e[i];
    }
  }

  const SparseMatrix& tangent_pattern() const override { return pattern_; }

  // (B.2), written in place.
  void tangent(const Vector& u, double lambda, SparseMatrix& K) const override {
    if (K.nonZeros() != pattern_.nonZeros() || K.rows() != n_ || !K.isCompressed()) K = pattern_;
    double* v = K.valuePtr();
    const double* e = exp_of(u);
    const double c = h2_ * lambda;
    // One sequential pass: column j holds rows j−1, j, j+1 in this order.
    Eigen::Index k = 0;
    for (int j = 0; j < n_; ++j) {
      if (j > 0) v[k++] = -1.0;
      v[k++] = 2.0 - c * e[j];
      if (j + 1 < n_) v[k++] = -1.0;
    }
  }

  // (B.3), exact.
  void dg_dlambda(const Vector& u, double /*lambda*/, Vector& out) const override {
    out.resize(n_);
    const double* e = exp_of(u);
    for (int i = 0; i < n_; ++i) out[i] = -h2_ * e[i];
  }

  bool is_proportional() const override { return false; }
  std::string dof_name(int i) const override { return "u" + std::to_string(i + 1); }

 private:
  const double* exp_of(const Vector& u) const {
    if (u.size() != n_) throw std::logic_error("Bratu: wrong size of u");
    const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(n_);
    if (!cache_valid_ || std::memcmp(cached_u_.data(), u.data(), bytes) != 0) {
      std::memcpy(cached_u_.data(), u.data(), bytes);
      for (int i = 0; i < n_; ++i) cached_exp_[i] = std::exp(cached_u_[i]);
      cache_valid_ = true;
    }
    return cached_exp_.data();
  }

  int n_;
  double mu_;
  double h2_ = 0.0;
  SparseMatrix pattern_;
  mutable std::vector<double> cached_u_ = std::vector<double>(static_cast<std::size_t>(n_)),
                              cached_exp_ = std::vector<double>(static_cast<std::size_t>(n_));
  mutable bool cache_valid_ = false;
};

}  // namespace senda::benchmarks
