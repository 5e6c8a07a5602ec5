#include "senda/core/problem.hpp"

#include "senda/core/differences.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace senda::core {

void Problem::dg_dlambda(const Vector& q, double lambda, Vector& out) const {
  // Central differences: error O(ε²); ε balances it against round-off (cbrt(eps)).
  const double eps = kLambdaStep * std::max(1.0, std::abs(lambda));
  Vector gp(size()), gm(size());
  residual(q, lambda + eps, gp);
  residual(q, lambda - eps, gm);
  out = (gp - gm) / (2.0 * eps);
}

UnknownScale::UnknownScale(const Problem& p) {
  constexpr int kinds = 3;  // DofKind::Translation, Rotation, Generic
  double length[kinds];
  for (int k = 0; k < kinds; ++k) {
    const double l = p.kind_length(static_cast<DofKind>(k));
    length[k] = l > 0.0 && std::isfinite(l) ? l : 1.0;
  }
  L_ = length[static_cast<int>(DofKind::Rotation)];
  c_.resize(p.size());
  for (int i = 0; i < p.size(); ++i) c_[i] = length[static_cast<int>(p.dof_kind(i))];
}

double UnknownScale::norm(const Vector& v) const {
  return v.cwiseProduct(c_).norm() / L_;
}

double UnknownScale::distance(const Vector& a, const Vector& b) const {
  return (a - b).cwiseProduct(c_).norm() / L_;
}

double structure_size(const Problem& p) {
  const double L = p.kind_length(DofKind::Rotation);
  return L > 0.0 && std::isfinite(L) ? L : 1.0;
}

double difference_length(const Problem& p) { return std::min(1.0, structure_size(p)); }

std::string unknowns_fingerprint(const Problem& p) {
  // FNV-1a, 64 bits, over the names, each followed by a newline.
  std::uint64_t h = 14695981039346656037ull;
  const auto add = [&h](unsigned char c) {
    h ^= c;
    h *= 1099511628211ull;
  };
  for (int i = 0; i < p.size(); ++i) {
    for (const char c : p.dof_name(i)) add(static_cast<unsigned char>(c));
    add('\n');
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "n=%d;fnv1a64=%016llx", p.size(), static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace senda::core
