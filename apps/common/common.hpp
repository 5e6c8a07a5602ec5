#pragma once
// What the commands (trace, cosim, simulate) share: exit codes, the one SIGINT/SIGTERM
// handler, the configuration file and its overrides on the command line, the
// default results directory, and the ladder that turns an exception into an exit
// code and a message. Exit codes live here and nowhere in lib/.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "senda/input/config.hpp"
#include "senda/linalg/distributed.hpp"

namespace senda_app {

inline constexpr int kExitOk = 0;           // the run ended as asked
inline constexpr int kExitFailed = 1;       // it ended early, or an output error (results kept)
inline constexpr int kExitBadInput = 2;     // bad input or command line (nothing written)
inline constexpr int kExitInternal = 3;     // a bug
inline constexpr int kExitInterrupted = 130;

// One SIGINT/SIGTERM handler for the whole command, installed first thing:
// the run ends at its next poll as interrupted, with its results kept.
void install_stop_handler();
bool stop_requested();

// Parses argv against `options` plus the positional arguments (FILE.cfg and the
// overrides, in `positional`). On a bad command line prints "PROGRAM: why" and the
// usage on stderr and returns false.
bool parse_options(int argc, char** argv, const boost::program_options::options_description& options,
                   const char* program, const char* usage, boost::program_options::variables_map& vm,
                   std::vector<std::string>& positional);

// The positional arguments: FILE.cfg then section.key=value overrides. Returns
// the message for a bad command line (no file, an override without '=').
std::optional<std::string> split_inputs(const std::vector<std::string>& positional, std::string& cfg,
                                        std::vector<std::string>& overrides);

// results/<FILE stem>
std::filesystem::path default_out_dir(const std::string& cfg);

// Reads the file and applies the overrides in order. Throws ConfigError.
senda::input::Config read_config(const std::string& cfg, const std::vector<std::string>& overrides);

// Under mpirun -np P (a SENDA_MPI build, docs/user-guide.md §11): on ranks > 0,
// takes part in rank 0's MUMPS calls until rank 0 releases it, then returns true
// (main returns 0; such a rank prints and writes nothing). On rank 0 (and in every
// run of one process) returns false at once. A failure on a worker ends the job.
bool served_as_worker(senda::linalg::MpiSession& mpi, const char* program);

// Runs body; a ConfigError or a refused results directory is bad input (2), an
// OutputError a failed run (1), anything else an internal error (3), each with
// "PROGRAM: message" on stderr.
int guarded(const char* program, const std::function<int()>& body);

}  // namespace senda_app
