#include "senda/core/number.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace senda::core {

std::string format_number(double v) {
  char buf[64];
  if (std::isfinite(v) && std::abs(v) < 1e15 && v == std::trunc(v)) {
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v));
    return std::string(buf, r.ptr);
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string format_g(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

}  // namespace senda::core
