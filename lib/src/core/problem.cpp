#include "senda/core/problem.hpp"

#include "senda/core/differences.hpp"

#include <algorithm>
#include <cmath>

namespace senda::core {

void Problem::dg_dlambda(const Vector& q, double lambda, Vector& out) const {
  // Central differences: error O(ε²); ε balances it against round-off (cbrt(eps)).
  const double eps = kLambdaStep * std::max(1.0, std::abs(lambda));
  Vector gp(size()), gm(size());
  residual(q, lambda + eps, gp);
  residual(q, lambda - eps, gm);
  out = (gp - gm) / (2.0 * eps);
}

}  // namespace senda::core
