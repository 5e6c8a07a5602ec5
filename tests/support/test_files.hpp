#pragma once
// Small file helpers shared by the tests (the test binary defines SENDA_BINARY_DIR).
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

// The text between the first `begin` and the next `end` after it ("" if either is
// missing): the code between two markers, or a block of a Markdown page.
inline std::string between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto a = text.find(begin);
  if (a == std::string::npos) return {};
  const auto from = a + begin.size();
  const auto b = text.find(end, from);
  if (b == std::string::npos) return {};
  return text.substr(from, b - from);
}

// BUILD/tests-io-scratch/<name> (name may hold a '/'), removed with whatever an
// earlier run left in it and not created: a results directory that a test lets
// trace create must not exist beforehand.
inline std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path p = std::filesystem::path(SENDA_BINARY_DIR) / "tests-io-scratch" / name;
  std::filesystem::remove_all(p);
  return p;
}

// The same, created empty, for a test that writes its own files into it.
inline std::filesystem::path empty_scratch_dir(const std::string& name) {
  const std::filesystem::path p = scratch(name);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace senda::test
