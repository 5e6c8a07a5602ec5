#pragma once
// The model of a .cfg at other values of one of its [parameters]: a
// core::ProblemFamily for the design studies (sensitivities, curves of critical
// points, imperfection studies).
//
//   ConfigFamily family(config, "H", spec);           // spec built from config
//   std::shared_ptr<const core::Problem> p = family.at(40.0);
//   auto design = design_parameters(config, spec);     // every [design] parameter, for analysis::Analysis
//
// A member is built from the config with the parameter changed (build(config,
// values, reference), which checks that the topology is the same); a value that
// makes the model invalid throws core::InvalidMember out of at(). The last few members
// are kept by value of μ, so that a curve of critical points, which asks for the
// same μ several times per Newton iteration, does not re-read the input each time.
// at() may be called from several threads.
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "senda/analysis/analysis.hpp"
#include "senda/core/family.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/input/parameters.hpp"

namespace senda::input {

class ConfigFamily final : public core::ProblemFamily {
 public:
  // Keeps a copy of the config and the reference spec's topology (nothing of the
  // spec is referred to later). Throws ConfigError when `parameter` is not one of
  // [parameters]. at() throws core::InvalidMember (with the ConfigError's text)
  // for a value that makes the model invalid.
  ConfigFamily(const Config& config, std::string parameter, const Spec& reference);
  std::shared_ptr<const core::Problem> at(double mu) const override;
  const std::string& parameter() const { return parameter_; }
  // The parameter's value in the config.
  double value() const { return value_; }
  // Members built so far (a cached member is not counted again).
  long builds() const;

 private:
  static constexpr std::size_t kCached = 4;
  Config config_;
  std::string parameter_;
  double value_ = 0.0;
  Topology reference_;
  mutable std::mutex mutex_;
  mutable std::vector<std::pair<double, std::shared_ptr<const core::Problem>>> cache_;  // newest last
  mutable long builds_ = 0;
};

// The [design] parameters of the config (spec.design_parameters, in that order),
// each with its value and a ConfigFamily, for analysis::Analysis. Throws
// ConfigError for a name that is not a parameter.
std::vector<analysis::DesignParameter> design_parameters(const Config& config, const Spec& spec);

}  // namespace senda::input
