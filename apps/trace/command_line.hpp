#pragma once
// The command line shared by trace and simulate: the options of the command plus the
// positional words FILE.cfg [section.key=value ...] (docs/config.md "Command line").
#include <boost/program_options.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace trace_app {

struct CommandLine {
  boost::program_options::variables_map vm;
  std::string cfg;                     // FILE.cfg
  std::vector<std::string> overrides;  // the words after it, each section.key=value
};

// Parses argv with the command's options: --help calls help() and ends the run (exit 0);
// a bad option, no FILE.cfg or a word after it that is not an override prints
// "<command>: <why>" and the usage on stderr and ends it (exit 2). `exit` is set
// whenever std::nullopt is returned.
std::optional<CommandLine> parse_command_line(const char* command, const char* usage, int argc, char** argv,
                                              const boost::program_options::options_description& options,
                                              const std::function<void()>& help, int& exit);

}  // namespace trace_app
