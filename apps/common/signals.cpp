// The one SIGINT/SIGTERM handler of the commands (trace, cosim, simulate): a flag the
// runs poll (Observer::stop_requested, the sweep's workers). Installed first thing in
// main after select_blas_kernel(), so that a signal at any time ends the run as
// interrupted with its results kept instead of killing the process. The two signals
// are blocked while select_blas_kernel() executes the program again; they are
// unblocked once the handler is in place, and one sent meanwhile arrives then.
#include <signal.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <csignal>

#include <unistd.h>

#include "blas_kernel.hpp"
#include "common.hpp"

namespace senda_app {

namespace {
// What the runs poll, from the main thread and a sweep's workers: a lock-free atomic
// (a volatile sig_atomic_t is safe for the handler but a data race across threads).
std::atomic<int> g_stop{0};
static_assert(std::atomic<int>::is_always_lock_free);
// CLOCK_MONOTONIC time of the first signal in ns (0: none yet). Lock-free, hence
// async-signal-safe; a handler on another thread (a sweep's worker) may run at the
// same time, and the compare-exchange makes exactly one of them the first.
std::atomic<std::int64_t> g_first_ns{0};
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
// A second request to stop must come this long after the first to end the process.
constexpr std::int64_t kSecondRequestNs = 1'000'000'000;

// The first signal asks the run to stop at its next poll (results kept). A signal
// less than a second after it is the same request delivered again, not a second
// one: `timeout` signals the child and then its process group, a shell may signal
// the group too, so one Ctrl-C or kill can arrive twice within microseconds, and
// ending the process then lost summary.json, states/final.json and the message. A
// signal a second or more later is a deliberate second request (Ctrl-C pressed
// again while a phase that does not poll is still running) and ends the process at
// once (_exit, like clock_gettime, is async-signal-safe), the files written so far
// kept.
extern "C" void on_signal(int) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  std::int64_t now = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  if (now == 0) now = 1;  // 0 means "no signal yet"
  std::int64_t first = 0;
  if (g_first_ns.compare_exchange_strong(first, now)) {
    g_stop.store(1);
    return;
  }
  if (now - first >= kSecondRequestNs) _exit(kExitInterrupted);
}
}  // namespace

void install_stop_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // One handler at a time on a thread: a SIGTERM does not interrupt the SIGINT's.
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  unblock_stop_signals();
}

bool stop_requested() { return g_stop.load() != 0; }

}  // namespace senda_app
