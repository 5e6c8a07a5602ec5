#pragma once
// A problem that depends on a design parameter μ (docs/theory.md §8):
// g(q, λ; μ), one Problem for every value of μ, all with the same size, dof
// kinds and tangent pattern (the same model, other numbers). Design studies
// (sensitivities, curves of critical points, sweeps, imperfection studies) work
// on a family; the input layer makes one from a .cfg parameter, a user from code.
#include <functional>
#include <memory>
#include <stdexcept>
#include <utility>

#include "senda/core/problem.hpp"

namespace senda::core {

// A family cannot give the problem at a value of μ (the model would be invalid
// there: a zero-length bar, a negative stiffness, another topology). Design studies
// report it as a status of the study; any other exception is a bug and passes.
class InvalidMember : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ProblemFamily {
 public:
  // Throws InvalidMember when there is no valid problem at mu.
  virtual ~ProblemFamily() = default;
  virtual std::shared_ptr<const Problem> at(double mu) const = 0;
};

// A family from a function, e.g. [](double h) { return make_truss(h); }.
class FunctionFamily final : public ProblemFamily {
 public:
  explicit FunctionFamily(std::function<std::shared_ptr<const Problem>(double)> make) : make_(std::move(make)) {}
  std::shared_ptr<const Problem> at(double mu) const override { return make_(mu); }

 private:
  std::function<std::shared_ptr<const Problem>(double)> make_;
};

}  // namespace senda::core
