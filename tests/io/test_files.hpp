#pragma once
// Small file helpers shared by the io tests.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace senda::test {

// The whole file as bytes ("" if it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace senda::test
