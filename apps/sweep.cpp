// The sweep of trace --sweep: one TraceRun per value on std::thread workers.
// Each worker builds its own Setup (lib/io/design), so that nothing but the
// read-only Config and reference Setup is shared; results go to their slot of
// a vector, the progress lines are printed under a mutex.
#include "sweep.hpp"

#include <fmt/core.h>
#include <signal.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "senda/io/design.hpp"
#include "senda/io/plot.hpp"
#include "senda/io/results.hpp"
#include "senda/io/trace.hpp"

namespace fs = std::filesystem;
namespace io = senda::io;

namespace {

volatile std::sig_atomic_t g_sweep_stop = 0;
extern "C" void on_sweep_signal(int) { g_sweep_stop = 1; }

// With --overwrite: Senda's own files of an earlier sweep (never anything else).
void clear_old_sweep(const fs::path& dir) {
  std::error_code ec;
  for (const char* f : {"sweep.csv", "sweep.json", "sweep.gp", "sweep.png", "sweep.svg", "plot.log"}) fs::remove(dir / f, ec);
  const fs::path sub = dir / "sweep";
  if (!fs::is_directory(sub, ec)) return;
  for (const fs::directory_entry& e : fs::directory_iterator(sub, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    io::prepare_output_dir(e.path(), true);  // removes the trace files only
    fs::remove(e.path(), ec);                // only if nothing else was there
  }
}

std::string describe(const io::SweepValue& v) {
  std::string s = v.status;
  if (v.status == "bad-input" || v.status == "internal-error" || v.status == "output-error") return s + ": " + v.message;
  for (const io::SweepPoint& p : v.points)
    s += p.converged ? fmt::format(", {} {} lambda={:.9g}", p.id, p.kind, p.lambda)
                     : fmt::format(", {} {} not located", p.id, p.kind);
  if (v.points.empty()) s += ", no critical point";
  return s;
}

}  // namespace

int run_sweep(const io::Config& config, const SweepCommand& cmd) {
  const io::SweepSpec spec = io::parse_sweep(cmd.spec, config);
  const io::Setup reference = io::build(config);
  {
    io::TraceRun probe(reference);
    probe.start();  // a mechanism is bad input: found before anything is written
  }
  io::check_output_dir(cmd.out_dir, cmd.overwrite);
  std::error_code ec;
  fs::create_directories(cmd.out_dir, ec);
  if (ec) throw io::ConfigError(cmd.out_dir.string(), 0, "", "cannot create the results directory: " + ec.message());
  if (cmd.overwrite) clear_old_sweep(cmd.out_dir);

  const std::vector<double> values = io::sweep_values(spec);
  io::SweepResult result;
  result.spec = spec;
  for (const io::TrackedDof& t : reference.track) result.track_columns.push_back(t.column);
  for (std::size_t k = 0; k < values.size(); ++k) {
    io::SweepValue v;
    v.index = static_cast<int>(k);
    v.mu = values[k];
    v.dir = io::sweep_subdir(v.index);
    result.values.push_back(v);
  }

  struct sigaction sa {};
  sa.sa_handler = on_sweep_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  const auto stop = [] { return g_sweep_stop != 0; };

  int jobs = cmd.jobs > 0 ? cmd.jobs : static_cast<int>(std::thread::hardware_concurrency());
  jobs = std::max(1, std::min(jobs, static_cast<int>(values.size())));
  if (!cmd.quiet) {
    fmt::print("sweep of {} over {} values in [{}, {}] ({}), {} job{}\n", spec.parameter, values.size(),
               io::format_value(spec.start), io::format_value(spec.stop), spec.log ? "log" : "lin", jobs,
               jobs > 1 ? "s" : "");
    std::fflush(stdout);
  }
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::size_t done = 0;
  auto worker = [&] {
    while (!stop()) {
      const std::size_t k = next++;
      if (k >= values.size()) return;
      io::SweepValue v = io::run_sweep_value(config, reference, spec.parameter, static_cast<int>(k), values[k],
                                             cmd.out_dir, stop);
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      if (!cmd.quiet) {
        fmt::print("[{}/{}] {} = {}: {}\n", done, values.size(), spec.parameter, io::format_value(v.mu), describe(v));
        std::fflush(stdout);
      }
      result.values[k] = std::move(v);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  result.interrupted = g_sweep_stop != 0;

  const io::PlotFiles files = io::write_sweep_files(cmd.out_dir, result);
  int ran = 0, failed = 0;
  for (const io::SweepValue& v : result.values) {
    if (v.status == "not-run") continue;
    ++ran;
    if (v.exit_code != 0 && v.status != "interrupted") ++failed;
  }
  fmt::print("\nsweep of {}: {} of {} values traced, {} failed{}\n", spec.parameter, ran, values.size(), failed,
             result.interrupted ? ", interrupted" : "");
  fmt::print("  results in {} (sweep.csv, sweep.json, sweep/NNN/)\n", cmd.out_dir.string());
  const char* env = std::getenv("SENDA_GNUPLOT");
  const io::RenderResult r = io::render_plot(files, env && *env ? env : "gnuplot");
  if (r.status == io::RenderStatus::Rendered) fmt::print("  plot: {}\n", r.message);
  else fmt::print(stderr, "trace: --sweep figure: {}\n", r.message);
  return io::sweep_exit_code(result);
}
