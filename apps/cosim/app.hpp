#pragma once
// The cosim command (docs/config.md "Co-simulation", `cosim --help`): its parts,
// shared by main.cpp and the tests.
//
//   run.cpp      the command line → a CosimSpec → the master → the results directory
//   history.cpp  cosim_history.csv (one row per macro step, flushed) and summary.json
// Exit codes, the signal handler and reading the file are apps/common's, as for trace.
#include <filesystem>
#include <string>
#include <vector>

#include "common.hpp"
#include "senda/cosim/master.hpp"
#include "senda/input/cosim.hpp"
#include "senda/output/results.hpp"

namespace cosim_app {

struct Command {
  std::string cfg;
  std::vector<std::string> overrides;
  std::filesystem::path out_dir;
  bool overwrite = false, quiet = false, plot = false;
  std::vector<std::filesystem::path> compare;  // --compare: results directories drawn with this run
};

// The command line → a Command, or the exit code when the run is over already
// (--help: 0, a bad command line: 2, message on stderr).
struct Parsed {
  std::optional<Command> command;
  int exit = senda_app::kExitOk;
};
Parsed parse_command(int argc, char** argv);

int run_cosim(const senda::input::Config& config, const Command& cmd);

// cosim_history.csv: the header at construction, one row per record, each
// handed to the system whole (output::RowFile) so that an interrupted or failed
// run keeps every finished macro step and the file ends in whole rows.
// Throws senda::output::OutputError when a write fails.
class History {
 public:
  History(const std::filesystem::path& file, const senda::input::CosimSpec& spec);
  void write(const senda::cosim::MacroRecord& r);

 private:
  senda::output::RowFile rows_;
};

// Why a diverged or unstable run stopped (naming the unit, or the energy's growth);
// "" for a run that completed or was interrupted.
std::string end_message(const senda::input::CosimSpec& spec, const senda::cosim::Summary& s);
// summary.json of a finished (or interrupted) run.
std::string summary_json(const senda::input::CosimSpec& spec, const senda::cosim::Summary& s);

}  // namespace cosim_app
