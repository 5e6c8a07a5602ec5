// trace FILE.cfg [options] [section.key=value ...]: follows the equilibrium path
// of the structure in FILE.cfg, locates its critical points, follows its
// secondary branches and design curves, and writes the results directory
// (docs/config.md "Command line"; `trace --help`). With --sweep, one trace per
// value of a parameter; with --imperfection, the imperfection sensitivity.
//
// Exit codes (app.hpp): 0 the trace ran (completed or max-steps), 1 it ended with
// step-too-small or diverged or a write failed (results kept), 2 bad input
// (nothing written), 3 internal error, 130 interrupted by SIGINT or SIGTERM.
//
// Under mpirun -np P (a SENDA_MPI build) the same, with MUMPS distributing the
// factorizations over the P processes (docs/user-guide.md "Distributed runs").
//
// Progress goes to stdout: one line per point when stdout is not a terminal; on
// a terminal a single line updated in place (console.hpp); nothing with --quiet.
#include <fmt/core.h>

#include <memory>
#include <utility>

#include "app.hpp"
#include "senda/input/config.hpp"
#include "senda/linalg/distributed.hpp"
#include "blas_kernel.hpp"

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again (SIGINT/SIGTERM held)
  trace_app::install_stop_handler();  // then: a signal from here on is an interruption, not a kill
  // mpirun -np P (SENDA_MPI): rank 0 runs the analysis and writes everything; the
  // other ranks only take part in its MUMPS calls. Its destructor releases them on
  // every return of rank 0 (a crash or a second signal ends the job by mpirun).
  senda::linalg::MpiSession mpi(argc, argv);
  if (senda_app::served_as_worker(mpi, "trace")) return senda_app::kExitOk;
  const trace_app::Parsed parsed = trace_app::parse_command(argc, argv);
  if (!parsed.command) return parsed.exit;
  trace_app::Command cmd = *parsed.command;
  if (!mpi.concurrent_factorizations()) cmd.jobs = 1;  // a sweep's values one at a time: P > 1
  return senda_app::guarded("trace", [&] {
    auto owned = std::make_unique<const senda::input::Config>(senda_app::read_config(cmd.cfg, cmd.overrides));
    const senda::input::Config& config = *owned;
    // Lagrange multipliers are kept out of trace (docs/theory.md §9): their K is indefinite.
    if (const senda::input::Entry* e = config.find("dynamics.rigid_link"))
      config.fail(e, "dynamics.rigid_link",
                  "trace does not take rigid links: they are Lagrange-multiplier constraints of the simulate "
                  "command, whose pivots trace would read as instability (docs/theory.md §9); run 'simulate', or "
                  "give trace a stiff model.truss",
                  "no dynamics.rigid_link under trace");
    if (!cmd.sweep.empty()) return trace_app::run_sweep(config, cmd);
    if (!cmd.imperfection.empty()) return trace_app::run_imperfection(config, cmd);
    return trace_app::run_trace(std::move(owned), cmd);
  });
}
