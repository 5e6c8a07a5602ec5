#include "senda/io/trace.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/core.h>

#include "senda/linalg/factorization.hpp"

namespace senda::io {

namespace fs = std::filesystem;
using continuation::Termination;

TraceRun::TraceRun(const Setup& setup) : setup_(setup), follower_(*setup.model, setup.options) {}

std::vector<double> TraceRun::tracked(const continuation::PathPoint& p) const {
  std::vector<double> out;
  for (const TrackedDof& t : setup_.track) out.push_back(t.equation >= 0 ? p.q[t.equation] : 0.0);
  return out;
}

// K(0) singular means the structure can move without strain: a mechanism or a
// missing support. Checked on its own factorization so that the answer does not
// depend on what the path follower's start Newton did with dead loads.
void TraceRun::check_mechanism() const {
  const model::Model& m = *setup_.model;
  SparseMatrix K = m.tangent_pattern();
  m.tangent(Vector::Zero(m.size()), 0.0, K);
  linalg::SymmetricFactorization f(K);
  linalg::FactorStatus st = f.factorize(K);
  // A mechanism gives an exactly zero pivot, or one at rounding level relative
  // to the largest (a stiffness contrast of 1e14 between members is not a model).
  constexpr double kRoundingPivot = 1e-14;
  if (st == linalg::FactorStatus::Ok && f.pivot_ratio() >= kRoundingPivot) return;
  const std::string file = setup_.config_file.string();
  if (st != linalg::FactorStatus::Singular || f.first_zero_pivot() < 0) {
    throw ConfigError(file, 0, "model.fix",
                      "the structure is a mechanism or is not supported: the tangent stiffness is " +
                          (st == linalg::FactorStatus::Ok
                               ? "nearly singular (smallest/largest pivot " + fmt::format("{:.3g}", f.pivot_ratio()) + ")"
                               : std::string(linalg::to_string(st))) +
                          " at the undeformed state; add supports (fix) or elements");
  }
  // Every free dof: hold the one found with a stiff diagonal entry, factorize
  // again, until K is regular (or enough have been named).
  double scale = 0.0;
  for (int k = 0; k < K.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(K, k); it; ++it)
      if (it.row() == it.col()) scale = std::max(scale, std::abs(it.value()));
  if (!(scale > 0.0)) scale = 1.0;
  std::vector<int> free_eqs;
  while (st == linalg::FactorStatus::Singular && f.first_zero_pivot() >= 0 && free_eqs.size() < 10) {
    const int eq = f.first_zero_pivot();
    if (std::find(free_eqs.begin(), free_eqs.end(), eq) != free_eqs.end()) break;
    free_eqs.push_back(eq);
    K.coeffRef(eq, eq) += scale;
    st = f.factorize(K);
  }
  std::string dofs;
  for (int eq : free_eqs) dofs += (dofs.empty() ? "" : ", ") + m.dof_name(eq);  // "node 3 uy"
  if (st != linalg::FactorStatus::Ok) dofs += ", ...";
  // Locate the message at the first free dof's node line.
  int line = 0;
  std::string where = file;
  for (int n = 0; n < m.node_count(); ++n)
    for (int c = 0; c < model::kComponents; ++c)
      if (m.equation(n, static_cast<model::Component>(c)) == free_eqs.front() &&
          n < static_cast<int>(setup_.node_entries.size())) {
        line = setup_.node_entries[n].line;
        where = setup_.node_entries[n].file;
      }
  throw ConfigError(where, line, "model.fix",
                    "the structure is a mechanism or is not supported: the tangent stiffness is singular at the "
                    "undeformed state; free degree" + std::string(free_eqs.size() > 1 ? "s" : "") +
                        " of freedom: " + dofs +
                        (free_eqs.size() > 1 ? " (fix them, or add bars or springs that hold them)"
                                             : " (fix it, or add a bar or spring that holds it)"));
}

bool TraceRun::start() {
  if (started_) return start_ok_;
  check_mechanism();
  started_ = true;
  start_ok_ = follower_.start(Vector::Zero(setup_.model->size()), 0.0);
  return start_ok_;
}

int exit_code(Termination t) {
  switch (t) {
    case Termination::Completed:
    case Termination::MaxSteps: return 0;
    case Termination::Interrupted: return 130;
    case Termination::Running:
    case Termination::StepTooSmall:
    case Termination::Diverged: return 1;
  }
  return 1;
}

// ===========================================================================
// CRITICAL-POINT HOOK. Called once per crossing, right after the point after the
// crossing was written: follower_.previous() and follower_.current() bracket it,
// follower_.factorization() is K at current(). Locating the critical point goes
// here (lib/critical, setup_.critical holds the [critical] keys); add the result
// to the summary and serialize it in results.cpp ("critical_points").
// ===========================================================================
void TraceRun::handle_crossing(const continuation::Crossing& c, TraceSummary& summary, TraceEvents& events) {
  summary.crossings.push_back(c);
  if (events.on_crossing) events.on_crossing(*this, c);
}

TraceSummary TraceRun::run(const fs::path& out_dir, bool overwrite, TraceEvents& events) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const bool ok = start();  // may throw ConfigError: nothing written yet
  prepare_output_dir(out_dir, overwrite);

  TraceSummary s;
  s.problem = setup_.problem_name;
  s.title = setup_.title;
  s.config = setup_.config_file.string();
  s.unknowns = setup_.model->size();
  PathWriter path(out_dir / "path.csv", setup_.track);
  auto record = [&](const continuation::PathPoint& p) {
    path.write(p, 0);
    if (s.points == 0) s.lambda_max = s.lambda_min = p.lambda;
    s.lambda_max = std::max(s.lambda_max, p.lambda);
    s.lambda_min = std::min(s.lambda_min, p.lambda);
    ++s.points;
  };

  if (ok) {
    record(follower_.current());
    if (events.on_start) events.on_start(*this);
    while (!follower_.done()) {
      if (events.stop_requested && events.stop_requested()) {
        follower_.interrupt();
        break;
      }
      if (!follower_.advance()) break;
      record(follower_.current());
      if (events.on_point) events.on_point(*this, follower_.current());
      if (const auto& c = follower_.last_crossing()) handle_crossing(*c, s, events);
    }
  }
  s.termination = follower_.termination();
  s.message = follower_.message();
  const continuation::Stats& st = follower_.stats();
  s.newton_iterations = st.newton_iterations;
  s.failed_steps = st.failed_steps;
  s.factorizations = follower_.factorizations();
  const linalg::FactorStats fs_ = follower_.factor_stats();
  s.assembly_s = st.assembly_seconds;
  s.factorize_s = fs_.factorize_seconds;
  s.solve_s = fs_.solve_seconds;
  s.wall_time_s = std::chrono::duration<double>(Clock::now() - t0).count();
  write_summary(out_dir / "summary.json", s);
  return s;
}

}  // namespace senda::io
