#include "common.hpp"

#include <fmt/core.h>

#include <exception>

#include "senda/output/files.hpp"

namespace senda_app {

std::optional<std::string> split_inputs(const std::vector<std::string>& positional, std::string& cfg,
                                        std::vector<std::string>& overrides) {
  if (positional.empty() || positional.front().empty()) return "no configuration file given";
  cfg = positional.front();
  overrides.assign(positional.begin() + 1, positional.end());
  for (const std::string& o : overrides)
    if (o.find('=') == std::string::npos)
      return fmt::format("'{}' is not an override 'section.key=value' (only one FILE.cfg is read)", o);
  return std::nullopt;
}

std::filesystem::path default_out_dir(const std::string& cfg) {
  return std::filesystem::path("results") / std::filesystem::path(cfg).stem();
}

senda::input::Config read_config(const std::string& cfg, const std::vector<std::string>& overrides) {
  senda::input::Config config = senda::input::Config::read_file(cfg);
  for (const std::string& o : overrides) config.apply_override(o);
  return config;
}

int guarded(const char* program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const senda::input::ConfigError& e) {
    fmt::print(stderr, "{}: {}\n", program, e.what());
    return kExitBadInput;
  } catch (const senda::output::DirectoryRefused& e) {
    fmt::print(stderr, "{}: {}\n", program, e.what());
    return kExitBadInput;
  } catch (const senda::output::OutputError& e) {
    fmt::print(stderr, "{}: {}\n", program, e.what());
    return kExitFailed;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", program, e.what());
    return kExitInternal;
  }
}

}  // namespace senda_app
