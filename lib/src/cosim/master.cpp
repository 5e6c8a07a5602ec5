// The master of docs/theory.md "Co-simulation": signals from held or extrapolated
// samples (eq. C.5), outputs with the end value of the input (eq. C.6), the energy
// residual of the coupling (eq. C.7) and the energy of the whole (eq. C.8).
#include "senda/cosim/master.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <stdexcept>

namespace senda::cosim {

const char* to_string(Scheme s) {
  switch (s) {
    case Scheme::Jacobi: return "jacobi";
    case Scheme::GaussSeidel: return "gauss-seidel";
  }
  return "?";
}

const char* to_string(Termination t) {
  switch (t) {
    case Termination::Completed: return "completed";
    case Termination::Interrupted: return "interrupted";
    case Termination::Diverged: return "diverged";
    case Termination::Unstable: return "unstable";
  }
  return "?";
}

namespace {

bool whole_multiple(double a, double b) {
  const double r = a / b, n = std::round(r);
  return n >= 1.0 && std::abs(r - n) <= 1e-9 * n;
}

// A feedthrough path output → input → output that returns to where it started.
bool has_algebraic_loop(const std::vector<Unit*>& units, const std::vector<Connection>& connections) {
  // Nodes are (unit, output); an edge (a, j) → (b, j') when (a, j) feeds an input i of b and y_j' depends on u_i.
  std::vector<int> base(units.size() + 1, 0);
  for (std::size_t k = 0; k < units.size(); ++k) base[k + 1] = base[k] + units[k]->output_count();
  std::vector<std::vector<int>> next(base.back());
  for (const Connection& c : connections)
    for (int j = 0; j < units[c.to_unit]->output_count(); ++j)
      if (units[c.to_unit]->feedthrough(j, c.to_input)) next[base[c.from_unit] + c.from_output].push_back(base[c.to_unit] + j);
  std::vector<int> mark(base.back(), 0);  // 0 new, 1 on the path, 2 done
  std::function<bool(int)> visit = [&](int v) {
    mark[v] = 1;
    for (int w : next[v])
      if (mark[w] == 1 || (mark[w] == 0 && visit(w))) return true;
    mark[v] = 2;
    return false;
  };
  for (int v = 0; v < base.back(); ++v)
    if (mark[v] == 0 && visit(v)) return true;
  return false;
}

// The polynomial through samples (τ_i, y_i), newest first, of degree ≤ order (eq. C.5):
// Newton's form y0 + f01 (τ − τ0) + f012 (τ − τ0)(τ − τ1) expanded in powers of τ.
Signal polynomial(const std::vector<std::pair<double, double>>& pts, int order) {
  const int n = std::min<int>(order + 1, static_cast<int>(pts.size()));
  const auto [t0, y0] = pts[0];
  double f01 = 0.0, f012 = 0.0, t1 = 0.0;
  if (n >= 2) {
    t1 = pts[1].first;
    f01 = (y0 - pts[1].second) / (t0 - t1);
  }
  if (n >= 3) {
    const auto [t2, y2] = pts[2];
    const double f12 = (pts[1].second - y2) / (t1 - t2);
    f012 = (f01 - f12) / (t0 - t2);
  }
  Signal s;
  s.c2 = f012;
  s.c1 = f01 - f012 * (t0 + t1);
  s.c0 = y0 - f01 * t0 + f012 * t0 * t1;
  return s;
}

}  // namespace

std::string validate(const std::vector<Unit*>& units, const std::vector<Connection>& connections,
                     const MasterOptions& o) {
  const int n = static_cast<int>(units.size());
  if (n == 0) return "no units";
  if (!(o.macro_step > 0.0) || !std::isfinite(o.macro_step)) return "the macro step is not positive";
  if (!(o.end_time > 0.0) || !std::isfinite(o.end_time)) return "the end time is not positive";
  if (!whole_multiple(o.end_time, o.macro_step)) return "the end time is not a whole multiple of the macro step";
  if (o.max_iterations < 1) return "max_iterations < 1";
  std::vector<std::vector<int>> fed(n);
  for (int k = 0; k < n; ++k) {
    if (!units[k]) return "a null unit";
    if (!whole_multiple(o.macro_step, units[k]->micro_step()))
      return "unit " + std::to_string(k) + ": the macro step is not a whole multiple of its micro step";
    fed[k].assign(units[k]->input_count(), 0);
  }
  for (const Connection& c : connections) {
    if (c.to_unit < 0 || c.to_unit >= n || c.from_unit < 0 || c.from_unit >= n) return "a connection to a unit that does not exist";
    if (c.to_input < 0 || c.to_input >= units[c.to_unit]->input_count()) return "a connection to an input that does not exist";
    if (c.from_output < 0 || c.from_output >= units[c.from_unit]->output_count()) return "a connection from an output that does not exist";
    if (c.input_order < 0 || c.input_order > 2 || c.output_order < 0 || c.output_order > 2) return "an extrapolation order outside 0..2";
    if (c.to_unit == c.from_unit) return "a unit connected to itself";
    if (++fed[c.to_unit][c.to_input] > 1)
      return "input '" + units[c.to_unit]->input_name(c.to_input) + "' of unit " + std::to_string(c.to_unit) + " is connected twice";
  }
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < units[k]->input_count(); ++i)
      if (fed[k][i] == 0) return "input '" + units[k]->input_name(i) + "' of unit " + std::to_string(k) + " is not connected";
  if (!o.order.empty()) {
    std::vector<int> sorted = o.order;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < n; ++k)
      if (static_cast<int>(sorted.size()) != n || sorted[k] != k) return "the order is not a permutation of the units";
  }
  if (has_algebraic_loop(units, connections)) return "an algebraic loop: feedthrough outputs depend on each other";
  return {};
}

Summary run(const std::vector<Unit*>& units, const std::vector<Connection>& connections, const MasterOptions& o,
            const RecordCallback& on_record) {
  if (const std::string why = validate(units, connections, o); !why.empty())
    throw std::invalid_argument("cosim::run: " + why);
  const int n = static_cast<int>(units.size());
  const double H = o.macro_step;
  const int steps = static_cast<int>(std::round(o.end_time / H));
  std::vector<int> order = o.order;
  if (order.empty())
    for (int k = 0; k < n; ++k) order.push_back(k);

  // in[k][i]: the connection feeding input i of unit k.
  std::vector<std::vector<const Connection*>> in(n);
  for (int k = 0; k < n; ++k) in[k].assign(units[k]->input_count(), nullptr);
  for (const Connection& c : connections) in[c.to_unit][c.to_input] = &c;

  using Outputs = std::vector<std::vector<double>>;
  auto zero_outputs = [&] {
    Outputs y(n);
    for (int k = 0; k < n; ++k) y[k].assign(units[k]->output_count(), 0.0);
    return y;
  };
  // The outputs with every input at the actual value of its source: n passes
  // settle any chain of feedthroughs (validate() refused loops).
  auto consistent = [&](Outputs y, Outputs& u) {
    u.assign(n, {});
    for (int pass = 0; pass <= n; ++pass)
      for (int k = 0; k < n; ++k) {
        u[k].resize(units[k]->input_count());
        for (int i = 0; i < units[k]->input_count(); ++i) u[k][i] = y[in[k][i]->from_unit][in[k][i]->from_output];
        units[k]->outputs(u[k], y[k]);
      }
    return y;
  };

  // samples[k]: the exchanged outputs of unit k at t_n, t_{n−1}, t_{n−2} (newest first).
  std::vector<std::deque<std::vector<double>>> samples(n);
  Outputs u_now;
  Outputs y0 = consistent(zero_outputs(), u_now);
  std::vector<std::vector<double>> held = u_now;  // u(t_n⁻) of every input
  for (int k = 0; k < n; ++k) samples[k].push_front(y0[k]);

  Summary s;
  MacroRecord rec;
  rec.energy.resize(n);
  rec.power.assign(n, 0.0);
  auto record_energy = [&](const Outputs& u) {
    rec.total_energy = 0.0;
    for (int k = 0; k < n; ++k) rec.total_energy += rec.energy[k] = units[k]->energy(u[k]);
  };
  record_energy(u_now);
  rec.outputs = y0;
  s.initial_energy = s.final_energy = s.min_energy = s.max_energy = rec.total_energy;
  if (on_record) on_record(rec);

  Outputs prov = zero_outputs(), last = prov;  // outputs at t_{n+1}: this sweep's, the previous sweep's
  std::vector<char> have(n, 0);
  std::vector<std::vector<double>> end_value(n);
  std::vector<State> saved(n);

  // The signal of input i of unit k from the samples of its source (and the
  // source's t_{n+1} outputs when this sweep or the previous one has them).
  auto points = [&](int k, int i) {
    const Connection& c = *in[k][i];
    std::vector<std::pair<double, double>> pts;
    if (have[c.from_unit]) pts.emplace_back(H, prov[c.from_unit][c.from_output]);
    for (std::size_t m = 0; m < samples[c.from_unit].size() && pts.size() < 3; ++m)
      pts.emplace_back(-static_cast<double>(m) * H, samples[c.from_unit][m][c.from_output]);
    return pts;
  };
  struct Inputs {
    std::vector<Signal> signals;
    std::vector<double> at_end;  // the value the feedthrough outputs use at t_{n+1}
  };
  auto inputs_of = [&](int k) {
    Inputs r;
    for (int i = 0; i < units[k]->input_count(); ++i) {
      const auto pts = points(k, i);
      Signal sig = polynomial(pts, in[k][i]->input_order);
      sig.before = held[k][i];
      r.signals.push_back(sig);
      r.at_end.push_back(polynomial(pts, in[k][i]->output_order).value(H));
    }
    return r;
  };
  auto advance = [&](int k, const Inputs& r, double t) {
    units[k]->step(t, H, r.signals);
    units[k]->outputs(r.at_end, prov[k]);
    end_value[k].resize(r.signals.size());
    for (std::size_t i = 0; i < r.signals.size(); ++i) end_value[k][i] = r.signals[i].value(H);
  };

  for (int step = 0; step < steps; ++step) {
    if (o.stop_requested && o.stop_requested()) {
      s.termination = Termination::Interrupted;
      break;
    }
    const double t = step * H;
    if (o.max_iterations > 1)
      for (int k = 0; k < n; ++k) saved[k] = units[k]->save();
    std::fill(have.begin(), have.end(), 0);
    rec.converged = true;
    int sweep = 0;
    for (sweep = 1; sweep <= o.max_iterations; ++sweep) {
      if (sweep > 1)
        for (int k = 0; k < n; ++k) units[k]->restore(saved[k]);
      if (o.scheme == Scheme::Jacobi) {
        std::vector<Inputs> all;
        for (int k = 0; k < n; ++k) all.push_back(inputs_of(k));
        for (int k = 0; k < n; ++k) advance(k, all[k], t);
      } else {
        for (int k : order) {
          advance(k, inputs_of(k), t);
          have[k] = 1;
        }
      }
      std::fill(have.begin(), have.end(), 1);
      if (o.max_iterations == 1) break;
      if (sweep > 1) {
        double change = 0.0;
        for (int k = 0; k < n; ++k)
          for (std::size_t j = 0; j < prov[k].size(); ++j)
            change = std::max(change, std::abs(prov[k][j] - last[k][j]) / (1.0 + std::abs(prov[k][j])));
        if (change <= o.tolerance) break;
      }
      last = prov;
    }
    rec.iterations = std::min(sweep, o.max_iterations);
    if (o.max_iterations > 1 && sweep > o.max_iterations) {
      rec.converged = false;
      ++s.unconverged_steps;
    }
    for (int k = 0; k < n; ++k) {
      samples[k].push_front(prov[k]);
      if (samples[k].size() > 3) samples[k].pop_back();
      held[k] = end_value[k];
    }
    rec.step = step + 1;
    rec.t = (step + 1) * H;
    rec.residual = 0.0;
    for (int k = 0; k < n; ++k) {
      const double w = units[k]->input_work();
      rec.power[k] = w / H;
      rec.residual += w;
    }
    rec.residual_sum += rec.residual;
    consistent(prov, u_now);
    record_energy(u_now);
    rec.outputs = prov;
    s.steps = rec.step;
    // A state that is no longer finite ends the run at this step (recorded, so that
    // the history shows where): the numbers after it would all be NaN, and the
    // extremes of the energy below would stand for the steps before only.
    for (int k = 0; k < n && s.diverged_unit < 0; ++k) {
      if (!std::isfinite(rec.energy[k])) {
        s.diverged_unit = k;
        s.diverged_what = "its energy";
      }
      for (std::size_t j = 0; j < prov[k].size() && s.diverged_unit < 0; ++j)
        if (!std::isfinite(prov[k][j])) {
          s.diverged_unit = k;
          s.diverged_what = "its output " + std::to_string(j + 1);
        }
    }
    if (s.diverged_unit >= 0) {
      s.termination = Termination::Diverged;
      if (on_record) on_record(rec);
      break;
    }
    s.final_energy = rec.total_energy;
    s.min_energy = std::min(s.min_energy, rec.total_energy);
    s.max_energy = std::max(s.max_energy, rec.total_energy);
    if (on_record) on_record(rec);
    // Energy created by the coupling beyond the energy there was (eq. C.9,
    // kUnstableEnergy): the coupling is unstable; the steps after this one would only
    // grow it (seed002-fd at H = 0.1 s, its units exact: 1e4 J -> 2.8e32 J by 10 s,
    // and the run "completed"). The interface's residual Σδ_n, not E(t_n) − E(0): a
    // stable symplectic Euler unit keeps a shadow energy, not E, and its E swings by
    // up to (1 + ωh/2)/(1 − ωh/2) within a period (a unit at ωh = 1.42, weakly
    // coupled, went from 500 J to 1538 J in its first macro step with Σδ = 0.001 J,
    // and was stopped as unstable).
    if (rec.residual_sum > o.unstable_energy * std::abs(s.initial_energy)) {
      s.termination = Termination::Unstable;
      break;
    }
  }
  s.t_end = s.steps * H;
  s.residual_sum = rec.residual_sum;
  s.max_energy_deviation = std::max(s.max_energy - s.initial_energy, s.initial_energy - s.min_energy);
  return s;
}

std::string termination_message(const Summary& s, const std::vector<std::string>& unit_names,
                                const MasterOptions& o) {
  const auto g = [](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    return std::string(buf);
  };
  const std::string when = "at t = " + g(s.t_end) + " s (macro step " + std::to_string(s.steps) + ")";
  if (s.termination == Termination::Diverged && s.diverged_unit >= 0) {
    const std::size_t k = static_cast<std::size_t>(s.diverged_unit);
    return "diverged: unit '" + (k < unit_names.size() ? unit_names[k] : std::to_string(k)) + "', " + s.diverged_what +
           ", is not finite " + when +
           ": a unit beyond its integrator's stability limit (an explicit one: symplectic Euler needs omega h < 2), "
           "or a coupling that feeds energy in; a smaller micro or macro step, an implicit integrator, or iteration "
           "(cosim.max_iterations) may help";
  }
  if (s.termination == Termination::Unstable)
    return "unstable: the coupling created " + g(s.residual_sum) + " J " + when +
           " (the interface energy residual, the sum of delta_n), more than " +
           (o.unstable_energy == 1.0 ? std::string() : g(o.unstable_energy) + " times ") + "the " +
           g(std::abs(s.initial_energy)) + " J the run started with; the total energy is now " +
           g(s.final_energy) +
           " J: a smaller macro step, extrapolated inputs and outputs (foh), gauss-seidel, or iteration "
           "(cosim.max_iterations) may help";
  return {};
}

}  // namespace senda::cosim
