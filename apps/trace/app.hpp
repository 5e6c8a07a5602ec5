#pragma once
// The trace command (docs/config.md "Command line"): its parts, shared by
// main.cpp and the unit tests (tests/apps/).
//
//   command.cpp       the command line → Command (and --help)
//   run.cpp           one trace: Spec → Analysis → Recorder + Console → report
//   sweep.cpp         --sweep: one trace per value, in threads
//   imperfection.cpp  --imperfection
//   console.cpp       progress lines and the closing report
//   ../common/        exit codes, the SIGINT/SIGTERM handler, reading the file (shared with cosim)
// Exit codes live here and nowhere in lib/.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "senda/analysis/analysis.hpp"
#include "senda/continuation/path_follower.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/output/results.hpp"

namespace trace_app {

// Exit codes of the trace command (apps/common): 0 completed or max-steps; 1
// step-too-small, diverged, stalled, an output error (results kept); 2 bad input
// or command line (nothing written); 3 a bug; 130 interrupted.
using senda_app::kExitBadInput;
using senda_app::kExitFailed;
using senda_app::kExitInternal;
using senda_app::kExitInterrupted;
using senda_app::kExitOk;

// Exit status of a finished trace: 0 completed or max-steps, 1 step-too-small,
// diverged or stalled, 130 interrupted.
int exit_code(senda::continuation::Termination t);

struct Command {
  std::string cfg;
  std::vector<std::string> overrides;  // section.key=value, the flags' keys appended
  std::filesystem::path out_dir;
  bool overwrite = false, quiet = false, plot = false, vtk = false;
  std::string sweep, imperfection;
  int jobs = 0;  // --jobs (0: not given)
};

// The command line → a Command, or an exit code when the run is over already
// (--help printed: 0; a bad command line, message on stderr: 2).
struct Parsed {
  std::optional<Command> command;
  int exit = kExitOk;
};
Parsed parse_command(int argc, char** argv);

// The one SIGINT/SIGTERM handler (apps/common/signals.cpp).
using senda_app::install_stop_handler;
using senda_app::stop_requested;

// What the output files say of a spec besides its results (names, columns).
senda::output::RunInfo run_info(const senda::input::Spec& spec);

// The notes of an accepted model, on stderr: Spec::model_notes, and Spec::notes (the
// keys without effect) where `key_notes` (a study words its own). Printed once the
// model is accepted (no mechanism, a resolvable first step), so that a refused one
// gets its error alone.
void print_notes(const senda::input::Spec& spec, bool key_notes);

// The three ways of running a config. Each returns the exit code; bad input
// found before anything is written throws ConfigError (or DirectoryRefused).
// run_trace takes the config and frees it once the analysis has started: nothing
// later refers to it, and at 10⁶ unknowns its entries are some 10² MiB
// (docs/performance.md, the 10⁶ dome with the eigenvalue monitor).
int run_trace(std::unique_ptr<const senda::input::Config> config, const Command& cmd);
// Starts the analysis; a first step below what the model resolves (the follower's
// StepTooSmall at the start) is thrown as a ConfigError at continuation.initial_step.
void refuse_unresolvable_step(const senda::input::Config& config, senda::analysis::Analysis& analysis);
int run_sweep(const senda::input::Config& config, const Command& cmd);
int run_imperfection(const senda::input::Config& config, const Command& cmd);

}  // namespace trace_app
