// cosim FILE.cfg [options] [section.key=value ...]: co-simulates the units of the
// [cosim] section of FILE.cfg (docs/config.md "Co-simulation"; `cosim --help`) and
// writes DIR/cosim_history.csv (flushed per macro step) and DIR/summary.json.
//
// Exit codes (apps/common): 0 the run completed, 1 an output error (results kept),
// 2 bad input (nothing written), 3 internal error, 130 interrupted by SIGINT or
// SIGTERM (the history keeps every finished macro step).
#include "app.hpp"
#include "blas_kernel.hpp"

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again (SIGINT/SIGTERM held)
  senda_app::install_stop_handler();  // then: a signal from here on is an interruption, not a kill
  senda::linalg::MpiSession mpi(argc, argv);  // SENDA_MPI: MPI's lifetime; ranks > 0 serve rank 0's MUMPS
  if (senda_app::served_as_worker(mpi, "cosim")) return senda_app::kExitOk;
  const cosim_app::Parsed parsed = cosim_app::parse_command(argc, argv);
  if (!parsed.command) return parsed.exit;
  const cosim_app::Command& cmd = *parsed.command;
  return senda_app::guarded("cosim", [&] {
    return cosim_app::run_cosim(senda_app::read_config(cmd.cfg, cmd.overrides), cmd);
  });
}
