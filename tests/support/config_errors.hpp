#pragma once
// The message of the ConfigError that reading a .cfg text (parse_error), or reading
// and building it (build_error), raises; "" when it raises none. FILE is the name
// the messages give the text.
#include <string>

#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"

namespace senda::test {

inline std::string parse_error(const std::string& text, const std::string& file) {
  try {
    input::Config::parse(text, file);
  } catch (const input::ConfigError& e) {
    return e.what();
  }
  return "";
}

inline std::string build_error(const std::string& text, const std::string& file) {
  try {
    input::build(input::Config::parse(text, file));
  } catch (const input::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace senda::test
