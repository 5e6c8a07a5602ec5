// The one SIGINT/SIGTERM handler of the trace command (and of simulate), and the
// exception guard of both mains (run_guarded). The handler: a flag the runs poll
// (Observer::stop_requested, the sweep's workers). Installed first thing in
// main, so that a signal at any time ends the run as interrupted with its
// results kept instead of killing the process.
#include <signal.h>

#include <csignal>

#include <unistd.h>

#include <fmt/core.h>

#include <exception>

#include "app.hpp"
#include "senda/input/config.hpp"
#include "senda/output/files.hpp"

namespace trace_app {

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
}

bool stop_requested() { return g_stop != 0; }

int run_guarded(const char* command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const senda::input::ConfigError& e) {
    fmt::print(stderr, "{}: {}\n", command, e.what());
    return kExitBadInput;
  } catch (const senda::output::DirectoryRefused& e) {
    fmt::print(stderr, "{}: {}\n", command, e.what());
    return kExitBadInput;
  } catch (const senda::output::OutputError& e) {
    fmt::print(stderr, "{}: {}\n", command, e.what());
    return kExitFailed;
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: internal error: {}\n", command, e.what());
    return kExitInternal;
  }
}

}  // namespace trace_app
