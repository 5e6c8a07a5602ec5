// simulate FILE.cfg [options] [section.key=value ...]: integrates the motion of the
// structure in FILE.cfg in time (its [dynamics] section: mass, damping, load history,
// integrator, initial state) and writes the results directory (docs/config.md
// "The simulate command"; `simulate --help`).
//
// Exit codes (the trace command's, apps/trace/app.hpp): 0 the simulation reached t_end,
// 1 a step failed (Newton did not converge, a singular iteration matrix) or a write
// failed (results kept), 2 bad input (nothing written), 3 internal error, 130 interrupted
// by SIGINT or SIGTERM (every step written so far kept).
#include <fmt/core.h>

#include <exception>

#include "app.hpp"
#include "senda/input/config.hpp"
#include "senda/output/files.hpp"
#include "simulate.hpp"

// The exception ladder below is trace's (apps/trace/main.cpp), and the option parsing of
// command.cpp follows trace's: on main both are apps/common (senda_app::guarded,
// parse_options, split_inputs), which simulate should call when merged there.
int main(int argc, char** argv) {
  trace_app::install_stop_handler();  // first: a signal at any time is an interruption
  const simulate_app::Parsed parsed = simulate_app::parse_command(argc, argv);
  if (!parsed.command) return parsed.exit;
  try {
    senda::input::Config config = senda::input::Config::read_file(parsed.command->cfg);
    for (const std::string& o : parsed.command->overrides) config.apply_override(o);
    return simulate_app::run_simulation(config, *parsed.command);
  } catch (const senda::input::ConfigError& e) {
    fmt::print(stderr, "simulate: {}\n", e.what());
    return trace_app::kExitBadInput;
  } catch (const senda::output::DirectoryRefused& e) {
    fmt::print(stderr, "simulate: {}\n", e.what());
    return trace_app::kExitBadInput;
  } catch (const senda::output::OutputError& e) {
    fmt::print(stderr, "simulate: {}\n", e.what());
    return trace_app::kExitFailed;
  } catch (const std::exception& e) {
    fmt::print(stderr, "simulate: internal error: {}\n", e.what());
    return trace_app::kExitInternal;
  }
}
