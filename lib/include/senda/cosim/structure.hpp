#pragma once
// A Senda structure as a linear co-simulation unit: K = model.tangent(q_ref, λ_ref)
// (the tangent at the reference state, the unloaded one by default: the structure
// linearised there) and a lumped mass per free unknown. A later adapter of the
// dynamics module (its mass matrix and integrators) replaces this one, behind the
// same Unit interface.
#include <Eigen/Core>

#include "senda/cosim/linear_unit.hpp"
#include "senda/core/problem.hpp"

namespace senda::cosim {

struct LumpedMass {
  double translation = 0.0;  // mass on each translational unknown (> 0)
  double rotation = 0.0;     // rotary inertia on each rotational unknown (> 0 when the model has one)
};

// The linear system of a problem at (q_ref, λ_ref), at rest. Throws
// std::invalid_argument when a needed mass is not positive.
LinearSystem linearise(const core::Problem& problem, const LumpedMass& mass, const core::Vector& q_ref,
                       double lambda_ref = 0.0);

}  // namespace senda::cosim
