#pragma once
// The simulate command: its command line and its one run. It shares the trace
// command's reader, overrides, exit codes and signal handler (apps/common).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "senda/input/config.hpp"

namespace simulate_app {

struct Command {
  std::string cfg;
  std::vector<std::string> overrides;
  std::filesystem::path out_dir;
  bool overwrite = false, quiet = false, plot = false, vtk = false;
};

struct Parsed {
  std::optional<Command> command;
  int exit = 0;
};
Parsed parse_command(int argc, char** argv);

// Builds, checks and runs; returns the exit code. Bad input found before anything is
// written throws ConfigError (or DirectoryRefused).
int run_simulation(const senda::input::Config& config, const Command& cmd);

}  // namespace simulate_app
