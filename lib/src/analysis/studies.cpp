#include "senda/analysis/studies.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace senda::analysis {

std::vector<double> sweep_values(const SweepSpec& s) {
  std::vector<double> v;
  if (s.count == 1) return {s.start};
  const double lo = std::min(s.start, s.stop), hi = std::max(s.start, s.stop);
  for (int k = 0; k < s.count; ++k) {
    const double t = static_cast<double>(k) / (s.count - 1);
    double x = s.stop;
    if (k < s.count - 1) x = s.log ? s.start * std::pow(s.stop / s.start, t) : s.start + (s.stop - s.start) * t;
    if (k > 0 && k < s.count - 1 && std::isfinite(x)) {
      // The spacing here: what rounding must stay far below.
      const double spacing = s.log ? std::abs(x * std::log(s.stop / s.start)) / (s.count - 1)
                                   : std::abs(s.stop - s.start) / (s.count - 1);
      // A linear range across zero: its zero exactly (-0.3:0.3:3 gave -5.6e-17).
      if (!s.log && std::abs(x) <= 1e-9 * spacing) {
        x = 0.0;
      } else {
        // The value as a user would type it, to 15 significant digits: 0.1:0.4:4 gives
        // 0.3, not 0.1 + 0.3·(2/3) = 0.30000000000000004, which sweep.csv and the run's
        // lines printed (and the model was built with); a log sweep's 1e-5 was
        // 9.999999999999997e-06. Kept only where it moves the value by far less than the
        // spacing and stays in the range (1:1.00000000000001:3 is left as computed).
        char text[32];
        std::snprintf(text, sizeof text, "%.15g", x);
        const double y = std::strtod(text, nullptr);
        if (std::isfinite(y) && y >= lo && y <= hi && std::abs(y - x) <= 1e-9 * spacing) x = y;
      }
    }
    v.push_back(x);
  }
  return v;
}

std::string status_name(const SweepValue& v) {
  switch (v.status) {
    case SweepStatus::NotRun: return "not-run";
    case SweepStatus::Ran: return continuation::to_string(v.termination);
    case SweepStatus::BadInput: return "bad-input";
    case SweepStatus::OutputError: return "output-error";
    case SweepStatus::InternalError: return "internal-error";
  }
  return "internal-error";
}

SweepValue sweep_value(int index, double mu, const TraceResult& r, std::size_t tracks) {
  SweepValue v;
  v.index = index;
  v.mu = mu;
  v.status = SweepStatus::Ran;
  v.termination = r.termination;
  v.message = r.message;
  for (const CriticalRecord& rec : r.critical_points) {
    const critical::CriticalPoint& cp = rec.point;
    SweepPoint p;
    p.id = cp.id;
    p.kind = cp.kind;
    p.branch = cp.branches.empty() ? 0 : cp.branches.front();
    p.lambda = cp.lambda;
    p.tracked = rec.tracked;
    p.tracked.resize(tracks, 0.0);
    p.converged = cp.converged;
    v.points.push_back(std::move(p));
  }
  return v;
}

ImperfectionRun imperfection_study(const core::ProblemFamily& family, const std::string& parameter,
                                   const std::vector<double>& amplitudes, const continuation::Options& path,
                                   const critical::FinderOptions& finder, const std::function<bool()>& stop) {
  ImperfectionRun r;
  r.parameter = parameter;
  r.amplitudes = amplitudes;
  if (stop && stop()) {
    r.study.interrupted = true;
    r.message = "interrupted before the perfect structure was traced";
    return r;
  }
  std::shared_ptr<const core::Problem> perfect;
  try {
    perfect = family.at(0.0);
  } catch (const std::exception& e) {
    r.message = std::string("the perfect structure (") + parameter + " = 0) cannot be built: " + e.what();
    return r;
  }
  // Polled inside each path too: its steps and Newton iterations, its location.
  continuation::Options p = path;
  critical::FinderOptions f = finder;
  p.stop_requested = stop;
  f.locate_options.stop_requested = stop;
  std::string why;
  const std::optional<critical::CriticalPoint> cp =
      critical::first_critical_point(*perfect, Vector::Zero(perfect->size()), 0.0, p, f, &why);
  if (stop && stop()) {
    r.study.interrupted = true;
    r.message = "interrupted while the perfect structure was traced";
    return r;
  }
  if (!cp) {
    r.message = "the perfect structure (" + parameter + " = 0) has no located critical point: " + why;
    return r;
  }
  r.perfect_id = cp->id;
  r.perfect_kind = cp->kind;
  r.study = critical::imperfection_sensitivity(family, amplitudes, cp->lambda, p, f, stop);
  r.study.lambda_perfect = cp->lambda;
  return r;
}

}  // namespace senda::analysis
