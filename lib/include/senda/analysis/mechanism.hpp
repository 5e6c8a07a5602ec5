#pragma once
// Is the structure held? K(0) singular means it can move without strain: a
// mechanism or a missing support. Checked on a factorization of its own, so that
// the answer does not depend on what the path's start Newton did with dead loads.
//
//   MechanismCheck m = check_mechanism(problem);
//   if (m.kind != MechanismKind::Held) ... m.free_equations / m.moves name the unknowns
//
// A singular K: the unknowns with an exactly zero pivot are held one at a time
// with a stiff diagonal entry until K is regular (at most 10 named). A nearly
// singular K (smallest/largest pivot below 1e-14, e.g. an unsprung hinge): the
// mechanism's motion is the null vector, found by inverse iteration, and the
// unknowns it moves most are named.
#include <vector>

#include "senda/core/problem.hpp"
#include "senda/linalg/factorization.hpp"

namespace senda::analysis {

enum class MechanismKind { Held, NearlySingular, Singular };

struct MechanismCheck {
  MechanismKind kind = MechanismKind::Held;
  linalg::FactorStatus status = linalg::FactorStatus::Ok;  // of the first factorization of K(0)
  double pivot_ratio = 0.0;         // smallest / largest |pivot|
  std::vector<int> free_equations;  // Singular: the unknowns held, in order
  bool more = false;                // Singular: K still singular after holding those
  std::vector<int> moves;           // NearlySingular: the unknowns the null vector moves most
};

// K(q = 0, λ = 0) of the problem.
MechanismCheck check_mechanism(const core::Problem& problem);

}  // namespace senda::analysis
