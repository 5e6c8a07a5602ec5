// simulate FILE.cfg [options] [section.key=value ...]: integrates the motion of the
// structure in FILE.cfg in time (its [dynamics] section: mass, damping, load history,
// integrator, initial state) and writes the results directory (docs/config.md
// "The simulate command"; `simulate --help`).
//
// Exit codes (apps/common, as trace's): 0 the simulation reached t_end,
// 1 a step failed (Newton did not converge, a singular iteration matrix) or a write
// failed (results kept), 2 bad input (nothing written), 3 internal error, 130 interrupted
// by SIGINT or SIGTERM (every step written so far kept).
#include "common.hpp"
#include "simulate.hpp"
#include "blas_kernel.hpp"

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again (SIGINT/SIGTERM held)
  senda_app::install_stop_handler();  // then: a signal from here on is an interruption, not a kill
  senda::linalg::MpiSession mpi(argc, argv);  // SENDA_MPI: MPI's lifetime; ranks > 0 serve rank 0's MUMPS
  if (senda_app::served_as_worker(mpi, "simulate")) return senda_app::kExitOk;
  const simulate_app::Parsed parsed = simulate_app::parse_command(argc, argv);
  if (!parsed.command) return parsed.exit;
  const simulate_app::Command& cmd = *parsed.command;
  return senda_app::guarded("simulate", [&] {
    return simulate_app::run_simulation(senda_app::read_config(cmd.cfg, cmd.overrides), cmd);
  });
}
