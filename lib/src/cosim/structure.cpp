#include "senda/cosim/structure.hpp"

#include <stdexcept>

namespace senda::cosim {

LinearSystem linearise(const core::Problem& problem, const LumpedMass& mass, const core::Vector& q_ref,
                       double lambda_ref) {
  const int n = problem.size();
  if (q_ref.size() != n) throw std::invalid_argument("cosim::linearise: q_ref has the wrong size");
  core::SparseMatrix K = problem.tangent_pattern();
  problem.tangent(q_ref, lambda_ref, K);
  LinearSystem s;
  s.stiffness = Eigen::MatrixXd(K);
  s.stiffness = 0.5 * (s.stiffness + s.stiffness.transpose());  // symmetric to rounding
  s.mass.resize(n);
  for (int i = 0; i < n; ++i) {
    const double m = problem.dof_kind(i) == core::DofKind::Rotation ? mass.rotation : mass.translation;
    if (!(m > 0.0)) throw std::invalid_argument("cosim::linearise: no positive mass for unknown " + problem.dof_name(i));
    s.mass(i) = m;
  }
  s.x0 = Eigen::VectorXd::Zero(n);
  s.v0 = Eigen::VectorXd::Zero(n);
  return s;
}

}  // namespace senda::cosim
