#include "senda/analysis/mechanism.hpp"

#include <algorithm>
#include <cmath>

namespace senda::analysis {

MechanismCheck check_mechanism(const core::Problem& problem) {
  MechanismCheck out;
  SparseMatrix K = problem.tangent_pattern();
  problem.tangent(Vector::Zero(problem.size()), 0.0, K);
  // Each unknown measured as a length (a rotation θ as θ L, a warping unknown as
  // ω L², L the structure's size: Problem::kind_length), so that the pivot ratio
  // below does not depend on the unit of length. Unscaled, a rotational pivot is
  // ~ EI/L against a translational one's EA/L: the LTB strip written in km had a
  // ratio of 9e-15 and was refused as a mechanism (in m, 1e-8).
  // core::UnknownScale asks Model::kind_length, which scans every node, once per kind
  // (asked per unknown, the check took 30 s under the sanitizers on an arch of 60 000
  // unknowns).
  const core::UnknownScale unknowns(problem);
  const Vector& len = unknowns.lengths();
  for (int k = 0; k < K.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(K, k); it; ++it) it.valueRef() /= len[it.row()] * len[it.col()];
  // CHOLMOD whatever linalg.solver says: the check reads its pivot ratio, which
  // MUMPS does not report, and runs once, at rest.
  linalg::SymmetricFactorization f(K, linalg::Solver::Cholmod);
  linalg::FactorStatus st = f.factorize(K);
  out.status = st;
  out.pivot_ratio = f.pivot_ratio();
  // A mechanism gives an exactly zero pivot, or one at rounding level relative
  // to the largest (a stiffness contrast of 1e14 between members is not a model).
  constexpr double kRoundingPivot = 1e-14;
  if (st == linalg::FactorStatus::Ok && f.pivot_ratio() >= kRoundingPivot) return out;
  if (st != linalg::FactorStatus::Singular || f.first_zero_pivot() < 0) {
    // Nearly singular (a pivot at rounding level, e.g. an unsprung hinge): the
    // mechanism's motion is the null vector, found by inverse iteration; the
    // unknowns it moves most are named.
    out.kind = MechanismKind::NearlySingular;
    if (st == linalg::FactorStatus::Ok) {
      Vector x = Vector::Ones(problem.size());
      for (int it = 0; it < 3; ++it) {
        x = f.solve(x);
        const double nx = x.norm();
        if (!(nx > 0) || !std::isfinite(nx)) break;
        x /= nx;
      }
      if (x.allFinite() && x.size() > 0) {
        std::vector<int> order(static_cast<std::size_t>(x.size()));
        for (int i = 0; i < x.size(); ++i) order[static_cast<std::size_t>(i)] = i;
        std::sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(x[a]) > std::abs(x[b]); });
        const double top = std::abs(x[order.front()]);
        for (std::size_t k = 0; k < order.size() && k < 4 && std::abs(x[order[k]]) >= 0.3 * top; ++k)
          out.moves.push_back(order[k]);
      }
    }
    return out;
  }
  // Every free unknown: hold the one found with a stiff diagonal entry,
  // factorize again, until K is regular (or enough have been named).
  out.kind = MechanismKind::Singular;
  double scale = 0.0;
  for (int k = 0; k < K.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(K, k); it; ++it)
      if (it.row() == it.col()) scale = std::max(scale, std::abs(it.value()));
  if (!(scale > 0.0)) scale = 1.0;
  while (st == linalg::FactorStatus::Singular && f.first_zero_pivot() >= 0 && out.free_equations.size() < 10) {
    const int eq = f.first_zero_pivot();
    if (std::find(out.free_equations.begin(), out.free_equations.end(), eq) != out.free_equations.end()) break;
    out.free_equations.push_back(eq);
    K.coeffRef(eq, eq) += scale;
    st = f.factorize(K);
  }
  out.more = st != linalg::FactorStatus::Ok;
  return out;
}

}  // namespace senda::analysis
