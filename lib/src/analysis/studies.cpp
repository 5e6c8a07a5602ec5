#include "senda/analysis/studies.hpp"

#include <cmath>
#include <exception>

namespace senda::analysis {

std::vector<double> sweep_values(const SweepSpec& s) {
  std::vector<double> v;
  for (int k = 0; k < s.count; ++k) {
    if (s.count == 1) {
      v.push_back(s.start);
      break;
    }
    const double t = static_cast<double>(k) / (s.count - 1);
    double x = s.stop;
    if (k < s.count - 1) x = s.log ? s.start * std::pow(s.stop / s.start, t) : s.start + (s.stop - s.start) * t;
    // To 15 significant digits: 0.1:0.4:4 gives 0.3, not 0.1 + 0.3·(2/3) =
    // 0.30000000000000004, which sweep.csv and the run's lines printed (the value a
    // user reads, and the one the model is built with, a change of 1e-16 relative).
    // A linear range across zero: its zero exactly (-0.3:0.3:3 gave -5.6e-17).
    if (!s.log && std::abs(x) <= 1e-14 * std::max(std::abs(s.start), std::abs(s.stop))) x = 0.0;
    if (k > 0 && k < s.count - 1 && std::isfinite(x) && x != 0.0) {
      const double scale = std::pow(10.0, 14 - static_cast<int>(std::floor(std::log10(std::abs(x)))));
      if (std::isfinite(scale) && std::isfinite(x * scale)) x = std::round(x * scale) / scale;
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
