// trace FILE.cfg --sweep NAME=START:STOP:COUNT[:log] [--jobs N] (docs/user-guide.md
// "Design studies: sweeps"): one whole trace per value on std::thread workers,
// each into DIR/sweep/NNN/. Each worker builds its own Spec and families, so that
// nothing but the read-only Config and reference Spec is shared; results go to
// their slot of a vector, the progress lines are printed under a mutex.
#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "app.hpp"
#include "console.hpp"
#include "senda/analysis/analysis.hpp"
#include "senda/analysis/studies.hpp"
#include "senda/input/family.hpp"
#include "senda/input/parameters.hpp"
#include "senda/output/files.hpp"
#include "senda/output/recorder.hpp"
#include "senda/output/studies.hpp"

namespace trace_app {

namespace {

namespace fs = std::filesystem;
namespace an = senda::analysis;
namespace in = senda::input;
namespace out = senda::output;

// Stops the sweep's traces; nothing printed per point.
class SweepObserver final : public an::Observer {
 public:
  bool stop_requested() override { return trace_app::stop_requested(); }
};

// The whole trace of one value into out_dir / sweep_subdir(index) (created; its
// own old results replaced). Never throws: a failure is the status of the value.
an::SweepValue run_value(const in::Config& config, const in::Spec& reference, const std::string& parameter,
                         int index, double mu, const fs::path& out_dir) {
  an::SweepValue v;
  v.index = index;
  v.mu = mu;
  v.dir = out::sweep_subdir(index);
  try {
    const in::Config member = in::with_parameters(config, {{parameter, mu}});
    const in::Spec s = in::build(config, {{parameter, mu}}, reference);
    in::check_mechanism(s);
    an::Analysis a(*s.model, s.analysis, in::design_parameters(member, s));
    const out::ResultsDir dir = out::ResultsDir::prepare(out_dir / v.dir, true);
    out::Recorder recorder(dir, *s.model, run_info(s));
    SweepObserver stop;
    an::ObserverList observers({&recorder, &stop});
    const an::TraceResult r = a.run(observers);
    const std::string dir_name = v.dir;
    v = an::sweep_value(index, mu, r, reference.track.size());
    v.dir = dir_name;
  } catch (const in::ConfigError& e) {
    v.status = an::SweepStatus::BadInput;
    v.message = e.what();
  } catch (const out::DirectoryRefused& e) {
    v.status = an::SweepStatus::BadInput;
    v.message = e.what();
  } catch (const out::OutputError& e) {
    v.status = an::SweepStatus::OutputError;
    v.message = e.what();
  } catch (const std::exception& e) {
    v.status = an::SweepStatus::InternalError;
    v.message = e.what();
  }
  return v;
}

// The exit status trace would have returned for one value (sweep.json).
int value_exit(const an::SweepValue& v) {
  switch (v.status) {
    case an::SweepStatus::NotRun: return kExitOk;
    case an::SweepStatus::Ran: return exit_code(v.termination);
    case an::SweepStatus::BadInput: return kExitBadInput;
    case an::SweepStatus::OutputError: return kExitFailed;
    case an::SweepStatus::InternalError: return kExitInternal;
  }
  return kExitInternal;
}

std::string describe(const an::SweepValue& v) {
  std::string s = an::status_name(v);
  if (v.status != an::SweepStatus::Ran && v.status != an::SweepStatus::NotRun) return s + ": " + v.message;
  for (const an::SweepPoint& p : v.points)
    s += p.converged ? fmt::format(", {} {} lambda={:.9g}", p.id, senda::critical::to_string(p.kind), p.lambda)
                     : fmt::format(", {} {} not located", p.id, senda::critical::to_string(p.kind));
  if (v.points.empty()) s += ", no critical point";
  return s;
}

}  // namespace

int run_sweep(const in::Config& config, const Command& cmd) {
  const an::SweepSpec spec = in::parse_sweep(cmd.sweep, config);
  const in::Spec reference = in::build(config);
  in::check_mechanism(reference);  // a mechanism is bad input: found before anything is written
  print_notes(reference, true);
  out::ResultsDir::check(cmd.out_dir, cmd.overwrite);
  if (stop_requested()) return kExitInterrupted;  // before the old results are touched
  out::ResultsDir::prepare_sweep(cmd.out_dir, cmd.overwrite);

  const std::vector<double> values = an::sweep_values(spec);
  an::SweepResult result;
  result.spec = spec;
  result.track_columns = in::track_columns(reference);
  for (std::size_t k = 0; k < values.size(); ++k) {
    an::SweepValue v;
    v.index = static_cast<int>(k);
    v.mu = values[k];
    v.dir = out::sweep_subdir(v.index);
    result.values.push_back(v);
  }

  int jobs = cmd.jobs > 0 ? cmd.jobs : static_cast<int>(std::thread::hardware_concurrency());
  jobs = std::max(1, std::min(jobs, static_cast<int>(values.size())));
  if (!cmd.quiet) {
    fmt::print("sweep of {} over {} values in [{}, {}] ({}), {} job{}\n", spec.parameter, values.size(),
               in::format_value(spec.start), in::format_value(spec.stop), spec.log ? "log" : "lin", jobs,
               jobs > 1 ? "s" : "");
    std::fflush(stdout);
  }
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::size_t done = 0;
  auto worker = [&] {
    while (!stop_requested()) {
      const std::size_t k = next++;
      if (k >= values.size()) return;
      an::SweepValue v = run_value(config, reference, spec.parameter, static_cast<int>(k), values[k], cmd.out_dir);
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      if (!cmd.quiet) {
        fmt::print("[{}/{}] {} = {}: {}\n", done, values.size(), spec.parameter, in::format_value(v.mu), describe(v));
        std::fflush(stdout);
      }
      result.values[k] = std::move(v);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
  result.interrupted = stop_requested();

  const out::PlotFiles files = out::write_sweep_files(cmd.out_dir, result, value_exit);
  int ran = 0, failed = 0;
  bool any_failed = false;
  for (const an::SweepValue& v : result.values) {
    if (v.status == an::SweepStatus::NotRun) continue;
    ++ran;
    const bool interrupted = v.status == an::SweepStatus::Ran && v.termination == senda::continuation::Termination::Interrupted;
    if (value_exit(v) != kExitOk && !interrupted) ++failed;
    any_failed = any_failed || value_exit(v) != kExitOk;
  }
  fmt::print("\nsweep of {}: {} of {} values traced, {} failed{}\n", spec.parameter, ran, values.size(), failed,
             result.interrupted ? ", interrupted" : "");
  fmt::print("  results in {} (sweep.csv, sweep.json, sweep/NNN/)\n", cmd.out_dir.string());
  render(files, "--sweep figure");
  if (result.interrupted) return kExitInterrupted;
  return any_failed ? kExitFailed : kExitOk;
}

}  // namespace trace_app
