#include "senda/input/family.hpp"

#include <algorithm>
#include <map>

#include "senda/input/parameters.hpp"

namespace senda::input {

ConfigFamily::ConfigFamily(const Config& config, std::string parameter, const Spec& reference)
    : config_(config), parameter_(std::move(parameter)), reference_(topology(reference)) {
  const std::optional<double> v = config_.parameter(parameter_);
  if (!v)
    throw ConfigError(config_.file(), 0, "design.parameter", "'" + parameter_ + "' is not a parameter of [parameters]");
  value_ = *v;
}

std::shared_ptr<const core::Problem> ConfigFamily::at(double mu) const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [m, p] : cache_)
      if (m == mu) return p;
  }
  // Built outside the lock: two threads asking for one new μ build it twice, harmlessly.
  std::shared_ptr<const core::Problem> p;
  try {
    p = build(config_, std::map<std::string, double>{{parameter_, mu}}, reference_).model;
  } catch (const ConfigError& e) {
    throw core::InvalidMember(e.what());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++builds_;
  if (cache_.size() == kCached) cache_.erase(cache_.begin());
  cache_.emplace_back(mu, p);
  return p;
}

long ConfigFamily::builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builds_;
}

std::vector<analysis::DesignParameter> design_parameters(const Config& config, const Spec& spec) {
  std::vector<analysis::DesignParameter> out;
  for (const std::string& name : spec.design_parameters) {
    auto family = std::make_shared<const ConfigFamily>(config, name, spec);
    out.push_back({name, family->value(), family});
  }
  return out;
}

}  // namespace senda::input
