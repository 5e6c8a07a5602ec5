#include "console.hpp"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "app.hpp"
#include "senda/continuation/constraint.hpp"
#include "senda/output/studies.hpp"

namespace trace_app {

namespace an = senda::analysis;
namespace cr = senda::critical;

namespace {
// A sensitivity whose estimated error is above 1e-6 of it says so: ten digits are
// printed, and where the terms of eq. (8.3) cancel fewer hold (dλ/dEA of a column).
std::string error_note(double value, double error) {
  if (!(error > 1e-6 * std::abs(value))) return {};
  if (!std::isfinite(error)) return " (no error estimate: the halved difference steps give no finite value)";
  return fmt::format(" (estimated error {:.2g}, {:.2g} of it: the difference quotients are that far from converged)",
                     error, error / std::max(std::abs(value), 1e-300));
}
}  // namespace

std::string progress_line(const Progress& p, std::size_t max_width) {
  const double t = std::max(0.0, p.elapsed_s);
  std::string elapsed;
  if (t < 3600.0) {
    const int min = static_cast<int>(t / 60.0);
    elapsed = fmt::format("{}:{:04.1f}", min, std::min(t - 60.0 * min, 59.9));
  } else {
    const long s = static_cast<long>(t);
    elapsed = fmt::format("{}:{:02d}:{:02d}", s / 3600, static_cast<int>(s / 60 % 60), static_cast<int>(s % 60));
  }
  std::string line = p.branch > 0 ? fmt::format("branch {}  ", p.branch) : "";
  line += fmt::format("points {}  lambda={:+.6e}  ds={:.3e}  critical {}  elapsed {}", p.points, p.lambda,
                      p.step_length, p.critical_points, elapsed);
  if (max_width > 0 && line.size() > max_width) line.resize(max_width);
  return line;
}

Console::Console(const senda::input::Spec& spec, bool tty, bool quiet)
    : spec_(spec), tty_(tty), quiet_(quiet), t0_(std::chrono::steady_clock::now()) {}

bool Console::stop_requested() { return trace_app::stop_requested(); }

std::string Console::values(const senda::Vector& q) const {
  std::string s;
  const std::vector<double> u = an::tracked_values(q, spec_.analysis.track);
  for (std::size_t i = 0; i < u.size(); ++i) s += fmt::format("  {}={:+.6e}", spec_.track[i].column, u[i]);
  return s;
}

void Console::say(const std::string& text) {
  if (quiet_) return;
  if (!tty_) {
    fmt::print("{}", text);
    return;
  }
  erase();
  fmt::print("{}", text);
  if (progress_.points > 0) draw();  // the line exists once there is a point
}

void Console::on_point(int branch, const senda::continuation::PathPoint& p) {
  if (quiet_) return;
  if (branch == 0 && p.index == 0)
    say(fmt::format("{}: {} unknowns, constraint {}\n", spec_.problem_name, spec_.model->size(),
                    senda::continuation::to_string(spec_.analysis.explorer.path.constraint)));
  progress_.branch = branch;
  const std::string b = branch > 0 ? fmt::format("b{} ", branch) : "";
  point(p, fmt::format("{}step {:>5}  lambda={:+.9e}{}  it={:>2}  ds={:.3e}  neg={}\n", b, p.index, p.lambda,
                       values(p.q), p.iterations, p.step_length,
                       p.negative_pivots < 0 ? std::string("?") : std::to_string(p.negative_pivots)));
}

void Console::point(const senda::continuation::PathPoint& p, const std::string& line) {
  ++progress_.points;
  progress_.lambda = p.lambda;
  progress_.step_length = p.step_length;
  if (!tty_) {
    fmt::print("{}", line);
    std::fflush(stdout);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  erase();
  draw();
}

void Console::on_crossing(int, const senda::continuation::Crossing& c) {
  say(fmt::format("  crossing between points {} and {}: lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n",
                  c.point_before, c.point_after, c.lambda_before, c.lambda_after, c.negative_pivots_before,
                  c.negative_pivots_after, c.det_sign_changed ? ", det K changed sign" : ""));
}

void Console::on_critical(const an::CriticalEvent& e) {
  const cr::CriticalPoint& cp = e.point;
  if (!e.is_new) {
    say(fmt::format("  branch {} meets {} (located before): the branch ends there\n", e.branch, cp.id));
    return;
  }
  ++progress_.critical_points;
  std::string text;
  // The saved point of a --from run (found on a branch not traced here: -1): its
  // location is the state's, checked by SPB in this run (branch 0's message).
  const bool saved = cp.branches.size() == 1 && cp.branches.front() == -1;
  if (cp.converged && saved)
    text = fmt::format("  {} {} point: lambda = {:.12g}{}  (the saved point, branches.from)\n", cp.id,
                       cr::to_string(cp.kind), cp.lambda, values(cp.q));
  else if (cp.converged)
    text = fmt::format("  {} {} point: lambda = {:.12g}{}  ({} in {} iterations, residual {:.1e})\n", cp.id,
                       cr::to_string(cp.kind), cp.lambda, values(cp.q), cp.system, cp.newton_iterations, cp.residual);
  else
    text = fmt::format("  {} {}: not located: {} (bracket lambda in [{:.9g}, {:.9g}])\n", cp.id,
                       cr::to_string(cp.kind), cp.message, std::min(cp.lambda_before, cp.lambda_after),
                       std::max(cp.lambda_before, cp.lambda_after));
  if (cp.abe && cp.abe->valid)
    text += fmt::format("     bifurcation equation: A = {:.6g}, B1 = {:.6g}, B2 = {:.6g}, C = {:.6g}: {}\n", cp.abe->A,
                        cp.abe->B1, cp.abe->B2, cp.abe->C, cp.abe->message);
  say(text);
}

void Console::on_neutral(int branch, const cr::NeutralStretch& n) {
  std::string located;
  for (const std::string& id : n.located) located += (located.empty() ? "" : ", ") + id;
  say(fmt::format("  branch {}: a neutral stretch from point {}: lambda = {:.10g} constant (to {:.2g}) over arc length "
                  "{:.4g} while K is singular to the path's precision (a neutral path, or a branch too flat at this "
                  "step length to tell its critical points from round-off): its crossings are not located{}\n",
                  branch, n.first_point, n.lambda, n.lambda_spread, n.arc_length,
                  located.empty() ? "" : " (located on it before: " + located + ")"));
}

void Console::on_branch_start(const cr::Branch& b) {
  if (b.id == 0) return;
  say(fmt::format("branch {}: from {} along {}its secondary tangent (parent branch {})\n", b.id, b.start_point,
                  b.direction > 0 ? "+" : "-", b.parent));
}

void Console::on_curve_start(const an::CurveRecord& c) {
  say(fmt::format("curve of {}: {} {} ...\n", c.point, c.parameter, c.direction > 0 ? "increasing" : "decreasing"));
}

void Console::clear() {
  if (tty_) erase();
}

void Console::erase() {
  if (!shown_) return;
  fmt::print("\r\x1b[K");
  shown_ = false;
  std::fflush(stdout);
}

void Console::draw() {
  last_ = std::chrono::steady_clock::now();
  progress_.elapsed_s = std::chrono::duration<double>(last_ - t0_).count();
  winsize w{};
  const std::size_t width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 1 ? w.ws_col - 1 : 0;
  fmt::print("{}", progress_line(progress_, width));
  shown_ = true;
  std::fflush(stdout);
}

void print_report(const senda::input::Spec& spec, const an::TraceResult& s, const std::filesystem::path& out_dir) {
  const std::vector<std::string> columns = senda::input::track_columns(spec);
  fmt::print("\n{}: {} points, termination {}: {}\n", spec.problem_name, s.points,
             senda::continuation::to_string(s.termination), s.message);
  fmt::print("  lambda in [{:.9g}, {:.9g}], {} Newton iterations, {} factorizations, {:.3f} s\n", s.lambda_min,
             s.lambda_max, s.stats.newton_iterations, s.stats.factorizations, s.stats.wall_time_s);
  if (s.crossings.empty()) fmt::print("  no crossings (no change of det K sign, inertia or bordered determinant)\n");
  for (const an::CrossingRecord& x : s.crossings) {
    const auto& c = x.crossing;
    fmt::print("  crossing: branch {}, points {}-{}, lambda in [{:.9g}, {:.9g}], negative pivots {} -> {}{}\n",
               x.branch, c.point_before, c.point_after, c.lambda_before, c.lambda_after, c.negative_pivots_before,
               c.negative_pivots_after, c.det_sign_changed ? ", det sign changed" : "");
  }
  if (!s.critical_points.empty()) {
    fmt::print("\n  critical points:\n  {:<5} {:<12} {:>20} {:>6}  {}\n", "id", "kind", "lambda", "iter", "status");
    for (const an::CriticalRecord& rec : s.critical_points) {
      const cr::CriticalPoint& cp = rec.point;
      std::string u;
      for (std::size_t i = 0; i < rec.tracked.size() && i < columns.size(); ++i)
        u += fmt::format("  {}={:+.9e}", columns[i], rec.tracked[i]);
      std::string kind = cr::to_string(cp.kind);
      if (cp.abe && cp.abe->valid) kind += cp.abe->symmetric ? " (sym)" : " (asym)";
      if (cp.converged && cp.neutral_branch >= 0)
        fmt::print("  {:<5} {:<12} {:>20.12g} {:>6}  located{}  (a point of the neutral stretch of branch {})\n", cp.id,
                   kind, cp.lambda, cp.newton_iterations, u, cp.neutral_branch);
      else if (cp.converged && cp.floor_lambda_spread >= 0.0)  // λ holds to its spread, not to the tolerance
        fmt::print("  {:<5} {:<12} {:>20.12g} {:>6}  located at the round-off floor (lambda to {:.1e}){}\n", cp.id,
                   kind, cp.lambda, cp.newton_iterations, cp.floor_lambda_spread, u);
      else if (cp.converged)
        fmt::print("  {:<5} {:<12} {:>20.12g} {:>6}  located{}\n", cp.id, kind, cp.lambda, cp.newton_iterations, u);
      else  // no λ: the last Newton iterate of a point not located means nothing
        fmt::print("  {:<5} {:<12} {:>20} {:>6}  NOT located, lambda in [{:.9g}, {:.9g}]: {}\n", cp.id, kind, "-",
                   cp.newton_iterations, std::min(cp.lambda_before, cp.lambda_after),
                   std::max(cp.lambda_before, cp.lambda_after), cp.message);
    }
  }
  bool any_sensitivity = false;
  for (const an::CriticalRecord& rec : s.critical_points) any_sensitivity = any_sensitivity || !rec.sensitivities.empty();
  if (any_sensitivity) {
    fmt::print("\n  sensitivities d lambda_cr / d mu:\n");
    for (const an::CriticalRecord& rec : s.critical_points)
      for (const an::ParameterSensitivity& ps : rec.sensitivities)
        fmt::print("  {:<5} {} = {:.9g}: {}\n", rec.point.id, ps.parameter, ps.value,
                   ps.sensitivity.valid ? fmt::format("{:+.9e}", ps.sensitivity.dlambda_dmu) +
                                              error_note(ps.sensitivity.dlambda_dmu, ps.sensitivity.error)
                                        : "none: " + ps.sensitivity.message);
  }
  if (!s.curves.empty()) {
    fmt::print("\n  curves of critical points:\n");
    for (const an::CurveRecord& c : s.curves) {
      std::string end;
      if (!c.curve.points.empty())
        end = fmt::format(", ends at {} = {:.9g}, lambda = {:.9g}", c.parameter, c.curve.points.back().mu,
                          c.curve.points.back().lambda);
      const std::filesystem::path file = senda::output::curve_file(c);
      fmt::print("  {} {} {}: {} points, {}{}{}\n", c.point, c.parameter, c.direction > 0 ? "up" : "down",
                 c.curve.points.size(), cr::to_string(c.curve.termination), end,
                 file.empty() ? "" : " (" + file.generic_string() + ")");
      if (!c.curve.message.empty()) fmt::print("      {}\n", c.curve.message);
      for (const auto& e : c.curve.events)
        fmt::print("      {} at {} = {:.9g}, lambda = {:.9g}{}\n", cr::to_string(e.kind), c.parameter, e.mu, e.lambda,
                   e.located ? " (located)" : " (not located)");
    }
  }
  if (s.branches.size() > 1) {
    fmt::print("\n  branches:\n");
    for (const cr::Branch& b : s.branches) {
      const std::string indent(2 * static_cast<std::size_t>(b.depth) + 4, ' ');
      if (b.id == 0)
        fmt::print("{}0 primary path: {}\n", indent,
                   b.termination == cr::BranchEnd::NotTraced
                       ? b.message
                       : fmt::format("{} points, {}", b.rows(), cr::to_string(b.termination)));
      else
        fmt::print("{}{} from {} ({}): {} points, {}{}\n", indent, b.id, b.start_point, b.direction > 0 ? "+" : "-",
                   b.rows(), cr::to_string(b.termination), b.end_point.empty() ? "" : " at " + b.end_point);
      // Why a branch ended early (a crawling branch, a failed step), under it; and the
      // notes a branch that ran to its end carries after its end reason ("; under
      // load control 1 step jumped ...", a bound crossed inside a step).
      const bool early = b.termination == cr::BranchEnd::Stalled || b.termination == cr::BranchEnd::Diverged ||
                         b.termination == cr::BranchEnd::StepTooSmall || b.termination == cr::BranchEnd::Jumped;
      const bool notes = b.id > 0 && b.message.find("; ") != std::string::npos;
      const bool said = (early || notes) && !b.message.empty();
      if (said) fmt::print("{}  {}\n", indent, b.message);
      // A stretch the message already holds (appended to it at the branch's end) once.
      for (const cr::NeutralStretch& n : b.neutral)
        if (const std::string d = cr::describe(n); !said || b.message.find(d) == std::string::npos)
          fmt::print("{}  {}\n", indent, d);
    }
  }
  fmt::print("  results in {}\n", out_dir.string());
}

void render(const senda::output::PlotFiles& files, const std::string& what) {
  const char* env = std::getenv("SENDA_GNUPLOT");
  const senda::output::RenderResult r = senda::output::render_plot(files, env && *env ? env : "gnuplot");
  if (r.status == senda::output::RenderStatus::Rendered)
    fmt::print("  plot: {}\n", r.message);
  else
    fmt::print(stderr, "trace: {}: {}\n", what, r.message);
}

}  // namespace trace_app
