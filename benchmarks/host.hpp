#pragma once
// The machine a benchmark ran on, for its JSON: the same work takes 4.0 s on one
// 2-core host and 7 s on another (docs/performance.md), so every figure carries its
// CPU and the BLAS kernels that ran (blas_kernel.hpp).
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "blas_kernel.hpp"

namespace senda::benchmarks {

// {"cpu": /proc/cpuinfo's model name, "cpu_family_model": "6/207", "blas_core": ...}.
inline nlohmann::json host() {
  std::string name, family, model, line;
  std::ifstream in("/proc/cpuinfo");
  const auto value = [](const std::string& l) {  // "model name\t: Intel(R) ..." -> "Intel(R) ..."
    const std::size_t colon = l.find(':');
    const std::size_t start = colon == std::string::npos ? l.size() : l.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : l.substr(start);
  };
  while (std::getline(in, line) && (name.empty() || family.empty() || model.empty())) {
    if (line.rfind("model name", 0) == 0) name = value(line);
    else if (line.rfind("cpu family", 0) == 0) family = value(line);
    else if (line.rfind("model", 0) == 0 && line.rfind("model name", 0) != 0) model = value(line);
  }
  return {{"cpu", name}, {"cpu_family_model", family + "/" + model}, {"blas_core", senda_app::openblas_core()}};
}

}  // namespace senda::benchmarks
