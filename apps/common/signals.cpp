// The one SIGINT/SIGTERM handler of the commands (trace, cosim, simulate): a flag the
// runs poll (Observer::stop_requested, the sweep's workers). Installed first thing in
// main after select_blas_kernel(), so that a signal at any time ends the run as
// interrupted with its results kept instead of killing the process. The two signals
// are blocked while select_blas_kernel() executes the program again; they are
// unblocked once the handler is in place, and one sent meanwhile arrives then.
#include <signal.h>

#include <csignal>

#include <unistd.h>

#include "blas_kernel.hpp"
#include "common.hpp"

namespace senda_app {

namespace {
volatile std::sig_atomic_t g_stop = 0;  // the only state a signal handler may touch
// The first signal asks the run to stop at its next poll (results kept); a
// second one, while a phase that does not poll is still running, ends the
// process at once (_exit is async-signal-safe), as a signal did before.
extern "C" void on_signal(int) {
  if (g_stop) _exit(kExitInterrupted);
  g_stop = 1;
}
}  // namespace

void install_stop_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  unblock_stop_signals();
}

bool stop_requested() { return g_stop != 0; }

}  // namespace senda_app
