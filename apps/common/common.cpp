#include "common.hpp"

#include <fmt/core.h>

#include <exception>

#include "senda/output/files.hpp"

namespace senda_app {

bool parse_options(int argc, char** argv, const boost::program_options::options_description& options,
                   const char* program, const char* usage, boost::program_options::variables_map& vm,
                   std::vector<std::string>& positional) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()("input", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description pos;
  pos.add("input", -1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n{}\n", program, e.what(), usage);
    return false;
  }
  if (vm.count("input")) positional = vm["input"].as<std::vector<std::string>>();
  return true;
}

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
  config.apply_overrides(overrides);
  return config;
}

bool served_as_worker(senda::linalg::MpiSession& mpi, const char* program) {
  if (mpi.rank() == 0) return false;
  try {
    mpi.serve_workers();
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: rank {}: internal error: {}\n", program, mpi.rank(), e.what());
    mpi.abort(kExitInternal);
  }
  return true;
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
