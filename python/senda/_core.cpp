// senda._core: the C++ side of the Python module `senda` (docs/python.md). The
// public Python API, its docstrings and the result classes are in
// python/senda/__init__.py; this file holds what must be C++:
//
//   load(path, overrides)         input::load + check_mechanism → a LoadedModel (Spec + Config)
//   load_text(text, file, ...)    the same from the .cfg text senda.build writes
//   LoadedModel.run(...)          analysis::Analysis on the model, output::Recorder when out is given
//   run_problem(obj, options,...) analysis::Analysis on a Python object through PyProblem
//
// GIL. A run releases the GIL for its whole length; every call back into Python
// (a Problem method, the progress callable, the Ctrl-C poll) takes it again with
// gil_scoped_acquire, so other Python threads run while Senda computes.
//
// Errors. A Python exception raised in a callback leaves the library as the C++
// exception py::error_already_set (the library never catches it: it catches only
// its own types) and is restored at the boundary, with its type and message.
// KeyboardInterrupt is the exception to that rule: polled between steps
// (PyErr_CheckSignals, in Observer::stop_requested) it ends the run as
// "interrupted" through the library's own stop hook, so that the result and the
// results directory keep what was computed; raised inside a Problem callback (a
// step cannot be finished then) the run is abandoned and the result is built from
// the events received so far (PyObserver keeps them), also as "interrupted".
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/analysis/analysis.hpp"
#include "senda/analysis/observer.hpp"
#include "senda/analysis/options.hpp"
#include "senda/analysis/result.hpp"
#include "senda/core/problem.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/input/family.hpp"
#include "senda/output/files.hpp"
#include "senda/output/recorder.hpp"

namespace py = pybind11;

namespace {

using senda::Vector;
using senda::SparseMatrix;
namespace analysis = senda::analysis;
namespace continuation = senda::continuation;
namespace critical = senda::critical;

py::array_t<double> to_array(const Vector& v) {
  py::array_t<double> a(v.size());
  if (v.size()) std::memcpy(a.mutable_data(), v.data(), sizeof(double) * static_cast<std::size_t>(v.size()));
  return a;
}

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), sizeof(double) * v.size());
  return a;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v, py::ssize_t rows, py::ssize_t cols) {
  py::array_t<T> a({rows, cols});
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), sizeof(T) * v.size());
  return a;
}

// ---------------------------------------------------------------------------
// The path, kept as it converges (TraceResult has no per-point records), and the
// events a partial result needs when a callback abandons the run.
struct PathRows {
  std::vector<int> branch, index, iterations, det_sign, negative_pivots, bordered_sign;
  std::vector<double> lambda, residual, step_length, tracked, states;
};

class PyObserver final : public analysis::Observer {
 public:
  PyObserver(std::vector<int> track, std::vector<std::string> columns, py::object progress, bool keep_states)
      : track_(std::move(track)), columns_(std::move(columns)), progress_(std::move(progress)),
        keep_states_(keep_states) {}

  void on_point(int branch, const continuation::PathPoint& p) override {
    rows_.branch.push_back(branch);
    rows_.index.push_back(p.index);
    rows_.iterations.push_back(p.iterations);
    rows_.det_sign.push_back(p.det_sign);
    rows_.negative_pivots.push_back(p.negative_pivots);
    rows_.bordered_sign.push_back(p.bordered_sign);
    rows_.lambda.push_back(p.lambda);
    rows_.residual.push_back(p.residual);
    rows_.step_length.push_back(p.step_length);
    const std::vector<double> t = analysis::tracked_values(p.q, track_);
    rows_.tracked.insert(rows_.tracked.end(), t.begin(), t.end());
    if (keep_states_) rows_.states.insert(rows_.states.end(), p.q.data(), p.q.data() + p.q.size());
    unknowns_ = static_cast<int>(p.q.size());
    if (!r_.points) r_.lambda_max = r_.lambda_min = p.lambda;
    r_.lambda_max = std::max(r_.lambda_max, p.lambda);
    r_.lambda_min = std::min(r_.lambda_min, p.lambda);
    ++r_.points;
    if (progress_.is_none() || stop_) return;
    py::gil_scoped_acquire gil;
    py::dict info;
    info["branch"] = branch;
    info["index"] = p.index;
    info["lam"] = p.lambda;
    py::dict tracked;
    for (std::size_t k = 0; k < t.size() && k < columns_.size(); ++k) tracked[py::str(columns_[k])] = t[k];
    info["tracked"] = tracked;
    info["iterations"] = p.iterations;
    info["residual"] = p.residual;
    info["step_length"] = p.step_length;
    info["det_sign"] = p.det_sign;
    info["negative_pivots"] = p.negative_pivots;
    try {
      // None (no return) or a true value goes on; any false value stops here (False,
      // numpy.False_, 0), as Python's own truth test says.
      const py::object answer = progress_(info);
      if (!answer.is_none()) {
        const int truth = PyObject_IsTrue(answer.ptr());
        if (truth < 0) throw py::error_already_set();  // no truth value (an array): the callback's error
        if (truth == 0) stop_ = true;
      }
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_KeyboardInterrupt)) throw;
      stop_ = true;  // Ctrl-C inside the callback: the same as between steps
    }
  }
  void on_crossing(int branch, const continuation::Crossing& c) override { r_.crossings.push_back({branch, c}); }
  void on_critical(const analysis::CriticalEvent& e) override {
    if (e.is_new) {
      analysis::CriticalRecord rec;
      rec.point = e.point;
      rec.tracked = analysis::tracked_values(e.point.q, track_);
      r_.critical_points.push_back(std::move(rec));
    }
  }
  void on_branch_start(const critical::Branch& b) override { r_.branches.push_back(b); }
  void on_branch_end(const critical::Branch& b) override {
    for (critical::Branch& x : r_.branches)
      if (x.id == b.id) x = b;
  }
  bool stop_requested() override {
    if (stop_) return true;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) {
      if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) throw py::error_already_set();
      PyErr_Clear();
      stop_ = true;
    }
    return stop_;
  }

  const PathRows& rows() const { return rows_; }
  int unknowns() const { return unknowns_; }
  bool keep_states() const { return keep_states_; }
  std::size_t track_count() const { return track_.size(); }
  // What was received before a callback abandoned the run, as an interrupted result.
  analysis::TraceResult partial(const std::string& why) const {
    analysis::TraceResult r = r_;
    r.unknowns = unknowns_;
    r.termination = continuation::Termination::Interrupted;
    r.message = why;
    for (critical::Branch& b : r.branches)
      if (b.termination == critical::BranchEnd::Running) {
        b.termination = critical::BranchEnd::Interrupted;
        b.message = why;
      }
    return r;
  }

 private:
  std::vector<int> track_;
  std::vector<std::string> columns_;
  py::object progress_;
  bool keep_states_ = false;
  bool stop_ = false;
  int unknowns_ = 0;
  PathRows rows_;
  analysis::TraceResult r_;  // the events so far (partial())
};

// ---------------------------------------------------------------------------
// A Problem whose residual and tangent are Python methods (senda.Problem).
//
// Sparsity: the pattern is fixed for the life of a run (core::Problem). It is the
// structure of obj.pattern() when the object has one, else that of the first
// tangent, tangent(0, 0); a dense tangent gives the full n × n pattern. That
// structure is made symmetric (S ∪ Sᵀ) and given the whole diagonal: K is
// symmetric, so this loses nothing, and the library needs every K_ii in the pattern
// (the penalized K + ρ eᵢeᵢᵀ of critical/penalized.hpp writes into it; a pattern()
// with no entries failed in CHOLMOD's analysis, and a zero K_ii of tangent(0, 0),
// dropped by scipy, made the location fail). A later tangent with an entry outside
// the pattern is an error (ValueError), not a silently dropped term.
//
// Symmetry: the factorizations read one triangle of K, so a tangent that returns
// one triangle, or a matrix that is not symmetric, would be used as another matrix
// without a word. Every tangent is checked (check_symmetric): one pass over its
// entries, each pair (i, j), (j, i) compared through mirror_, O(nnz) and without
// allocation — beside the Python call that made the matrix (a scipy.sparse matrix
// built and converted, several passes over its entries in numpy), it does not show.
// Every call, not only the first: an asymmetric term may vanish at q = 0 (a
// nonlinear coupling) and appear only on the way.
class PyProblem final : public senda::Problem {
 public:
  explicit PyProblem(py::object obj) : obj_(std::move(obj)) {
    py::object size = obj_.attr("size");
    if (PyCallable_Check(size.ptr())) size = size();
    n_ = size.cast<int>();
    if (n_ < 1) throw py::value_error("Problem.size must be at least 1 (it is " + std::to_string(n_) + ")");
    residual_ = obj_.attr("residual");
    tangent_ = obj_.attr("tangent");
    if (py::hasattr(obj_, "load_derivative") && !obj_.attr("load_derivative").is_none())
      load_derivative_ = obj_.attr("load_derivative");
    proportional_ = py::hasattr(obj_, "proportional") && obj_.attr("proportional").cast<bool>();
    const bool has_pattern = py::hasattr(obj_, "pattern") && !obj_.attr("pattern").is_none();
    const py::object p = has_pattern ? obj_.attr("pattern")() : tangent_(to_array(Vector::Zero(n_)), 0.0);
    require_matrix(p, has_pattern ? "pattern" : "tangent");
    set_pattern(p);
  }

  int size() const override { return n_; }
  bool is_proportional() const override { return proportional_; }
  const SparseMatrix& tangent_pattern() const override { return pattern_; }

  void residual(const Vector& q, double lambda, Vector& g) const override {
    py::gil_scoped_acquire gil;
    vector_from(residual_(to_array(q), lambda), "residual", g);
  }

  void dg_dlambda(const Vector& q, double lambda, Vector& out) const override {
    if (!load_derivative_) return senda::Problem::dg_dlambda(q, lambda, out);
    py::gil_scoped_acquire gil;
    vector_from((*load_derivative_)(to_array(q), lambda), "load_derivative", out);
  }

  void tangent(const Vector& q, double lambda, SparseMatrix& K) const override {
    py::gil_scoped_acquire gil;
    if (K.rows() != n_ || K.nonZeros() != pattern_.nonZeros() || !K.isCompressed()) K = pattern_;
    const py::object m = tangent_(to_array(q), lambda);
    require_matrix(m, "tangent");
    fill(m, K);
    check_symmetric(K);
  }

 private:
  // What pattern() or tangent() returned, refused when it is None (a missing return).
  void require_matrix(const py::object& m, const char* what) const {
    if (m.is_none())
      throw py::type_error(std::string(what) + "() returned None, expected an n x n array or scipy.sparse matrix, n = " +
                           std::to_string(n_) + " (a missing return?)");
  }

  // Complex values: numpy's cast to double drops the imaginary part with a
  // ComplexWarning only, and the run went on with the real parts. Refused instead
  // (np.iscomplexobj reads the dtype of arrays and scipy.sparse matrices, and converts
  // a list).
  void refuse_complex(const py::object& o, const char* what) const {
    if (iscomplexobj_(o).cast<bool>())
      throw py::type_error(std::string(what) +
                           "() returned complex numbers: Senda's unknowns, residual and tangent are real (return "
                           "the real part, e.g. .real, where the imaginary part is zero by construction)");
  }

  void vector_from(const py::object& o, const char* what, Vector& out) const {
    if (o.is_none())
      throw py::type_error(std::string(what) + "() returned None, expected an array of " + std::to_string(n_) +
                           " numbers (a missing return?)");
    refuse_complex(o, what);
    const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(o);
    if (!a) throw py::type_error(std::string(what) + "() must return an array of numbers");
    if (a.size() != n_ || (a.ndim() != 1 && !(a.ndim() == 2 && (a.shape(0) == 1 || a.shape(1) == 1))))
      throw py::value_error(std::string(what) + "() returned " + std::to_string(a.size()) + " values, expected " +
                            std::to_string(n_));
    out.resize(n_);
    std::memcpy(out.data(), a.data(), sizeof(double) * static_cast<std::size_t>(n_));
  }

  static bool is_sparse(const py::object& m) { return py::hasattr(m, "tocsc") && py::hasattr(m, "nnz"); }

  // The CSC arrays of a scipy.sparse matrix (canonical: sorted, no duplicates).
  struct Csc {
    py::array_t<long long, py::array::c_style | py::array::forcecast> indptr, indices;
    py::array_t<double, py::array::c_style | py::array::forcecast> data;
  };
  Csc csc(const py::object& m) const {
    refuse_complex(m, "tangent");
    py::object c = m.attr("tocsc")();
    const auto shape = c.attr("shape").cast<std::pair<long, long>>();
    if (shape.first != n_ || shape.second != n_)
      throw py::value_error("tangent() returned a " + std::to_string(shape.first) + " x " +
                            std::to_string(shape.second) + " matrix, expected " + std::to_string(n_) + " x " +
                            std::to_string(n_));
    if (!c.attr("has_canonical_format").cast<bool>()) {
      c = c.attr("copy")();
      c.attr("sum_duplicates")();
    }
    return {decltype(Csc::indptr)::ensure(c.attr("indptr")), decltype(Csc::indices)::ensure(c.attr("indices")),
            decltype(Csc::data)::ensure(c.attr("data"))};
  }

  py::array_t<double, py::array::c_style | py::array::forcecast> dense(const py::object& m) const {
    refuse_complex(m, "tangent");
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(m);
    if (!a || a.ndim() != 2 || a.shape(0) != n_ || a.shape(1) != n_)
      throw py::value_error("tangent() must return an n x n array or scipy.sparse matrix, n = " +
                            std::to_string(n_));
    return a;
  }

  // The structure S of m made symmetric and given the diagonal, S ∪ Sᵀ ∪ I (see the
  // class comment), and mirror_.
  void set_pattern(const py::object& m) {
    std::vector<Eigen::Triplet<double>> t;
    if (is_sparse(m)) {
      const Csc c = csc(m);
      for (int j = 0; j < n_; ++j)
        for (long long k = c.indptr.at(j); k < c.indptr.at(j + 1); ++k) {
          const int i = static_cast<int>(c.indices.at(k));
          t.emplace_back(i, j, 1.0);
          if (i != j) t.emplace_back(j, i, 1.0);
        }
      for (int j = 0; j < n_; ++j) t.emplace_back(j, j, 1.0);
    } else {
      dense(m);
      for (int j = 0; j < n_; ++j)
        for (int i = 0; i < n_; ++i) t.emplace_back(i, j, 1.0);
    }
    pattern_.resize(n_, n_);
    pattern_.setFromTriplets(t.begin(), t.end());  // duplicates summed: one entry each
    pattern_.makeCompressed();
    // mirror_[k]: the slot of (j, i) for the slot k of (i, j). The pattern is
    // symmetric, so column i holds the rows j with (i, j) in the pattern, sorted: met
    // in the order of the columns j, they take column i's slots one after the other.
    const int* outer = pattern_.outerIndexPtr();
    const int* inner = pattern_.innerIndexPtr();
    std::vector<int> next(outer, outer + n_);
    mirror_.assign(static_cast<std::size_t>(pattern_.nonZeros()), 0);
    for (int j = 0; j < n_; ++j)
      for (int k = outer[j]; k < outer[j + 1]; ++k) mirror_[static_cast<std::size_t>(k)] = next[inner[k]]++;
  }

  // K_ij = K_ji for every pair, to 1e-10 of the pair's scale s_ij = max(√|K_ii K_jj|,
  // |K_ij|, |K_ji|, 1e-4 max |K|). Why that tolerance: a tangent assembled from
  // symmetric formulas can differ between K_ij and K_ji by the rounding of its sums,
  // a few ulps of the terms of rows i and j (which √|K_ii K_jj| bounds for a
  // stiffness), far below it; a triangle left out or a wrong term differs by the size
  // of the entries, far above it; and an asymmetry below it changes the matrix that
  // is factorized by less than 1e-10 of its rows' scale, no more than what the
  // default residual and critical-point tolerances (1e-10) accept. Not relative to
  // max |K| alone: one stiff entry (K_00 = 1e12) then hid a missing triangle in the
  // soft rows ([[1, 0], [3, 1]] there was read as [[1, 3], [3, 1]]). The floor
  // 1e-14 max |K| keeps rounding noise in a pair near zero with zero diagonals
  // (constraint rows) from being called an asymmetry. NaN and infinite entries are
  // not asymmetries (the comparison is false): they are the numerical outcome of
  // what the problem computed.
  //
  // Cost: two passes over the values (the diagonal and max |K|, then the pairs),
  // a few times a copy of them (fill() makes one): ~10-20 ms for 3·10⁶ entries,
  // against 220 ms for the Python tangent that made them (Bratu, n = 10⁶,
  // scipy.sparse). The pattern holds the whole diagonal (it is made so).
  void check_symmetric(const SparseMatrix& K) const {
    const double* v = K.valuePtr();
    const int* mirror = mirror_.data();
    const int* outer = K.outerIndexPtr();
    const int* inner = K.innerIndexPtr();
    double largest = 0.0;
    std::vector<double> diagonal_(static_cast<std::size_t>(n_), 0.0);  // |K_jj|
    for (int j = 0; j < n_; ++j)
      for (int k = outer[j]; k < outer[j + 1]; ++k) {
        largest = std::max(largest, std::abs(v[k]));
        if (inner[k] == j) diagonal_[static_cast<std::size_t>(j)] = std::abs(v[k]);
      }
    const double floor = 1e-4 * largest;
    for (int j = 0; j < n_; ++j)
      for (int k = outer[j]; k < outer[j + 1]; ++k) {
        const int m = mirror[k];
        if (m <= k) continue;
        const int i = inner[k];
        const double a = v[k], b = v[m];
        const double scale = std::max({std::sqrt(diagonal_[static_cast<std::size_t>(i)] *
                                                 diagonal_[static_cast<std::size_t>(j)]),
                                       std::abs(a), std::abs(b), floor});
        if (std::abs(a - b) > 1e-10 * scale)
          throw py::value_error(fmt_pair("tangent(): K is not symmetric: entry (", i, j, a, b) +
                                " (they differ by more than 1e-10 of the pair's scale " + number(scale) +
                                ", the largest of sqrt(|K_ii K_jj|), |K_ij|, |K_ji| and 1e-4 max |K|)" +
                                ". Senda factorizes one triangle of K: return both triangles, a symmetric "
                                "matrix (a tangent from finite differences: (K + K.T) / 2)");
      }
  }
  // The shortest of %.15g … %.17g that reads back as x: 0.05, not 0.050000000000000003.
  static std::string number(double x) {
    char b[32];
    for (int digits = 15; digits <= 17; ++digits) {
      std::snprintf(b, sizeof b, "%.*g", digits, x);
      if (std::strtod(b, nullptr) == x) break;
    }
    return b;
  }
  static std::string fmt_pair(const char* head, int i, int j, double kij, double kji) {
    return head + std::to_string(i) + ", " + std::to_string(j) + "): K[" + std::to_string(i) + ", " +
           std::to_string(j) + "] = " + number(kij) + " but K[" + std::to_string(j) + ", " + std::to_string(i) +
           "] = " + number(kji);
  }

  [[noreturn]] static void outside(long long i, long long j) {
    throw py::value_error("tangent(): entry (" + std::to_string(i) + ", " + std::to_string(j) +
                          ") is outside the sparsity pattern (Problem.pattern(), or the first tangent)");
  }

  void fill(const py::object& m, SparseMatrix& K) const {
    double* v = K.valuePtr();
    const int* outer = K.outerIndexPtr();
    const int* inner = K.innerIndexPtr();
    if (!is_sparse(m)) {
      const auto a = dense(m);
      const double* d = a.data();
      for (int j = 0; j < n_; ++j)
        for (int k = outer[j]; k < outer[j + 1]; ++k) v[k] = d[static_cast<long>(inner[k]) * n_ + j];
      if (K.nonZeros() != static_cast<long>(n_) * n_) {  // a sparse pattern: nothing may fall outside it
        for (int j = 0; j < n_; ++j)
          for (int i = 0; i < n_; ++i)
            if (d[static_cast<long>(i) * n_ + j] != 0.0 &&
                !std::binary_search(inner + outer[j], inner + outer[j + 1], i))
              outside(i, j);
      }
      return;
    }
    const Csc c = csc(m);
    const long long* ip = c.indptr.data();
    const long long* ix = c.indices.data();
    const double* d = c.data.data();
    // The usual case, the pattern's own structure: one copy.
    bool same = c.data.size() == K.nonZeros();
    for (int j = 0; same && j <= n_; ++j) same = ip[j] == outer[j];
    for (long k = 0; same && k < K.nonZeros(); ++k) same = ix[k] == inner[k];
    if (same) {
      std::memcpy(v, d, sizeof(double) * static_cast<std::size_t>(K.nonZeros()));
      return;
    }
    std::fill(v, v + K.nonZeros(), 0.0);
    for (int j = 0; j < n_; ++j) {
      int k = outer[j];
      for (long long s = ip[j]; s < ip[j + 1]; ++s) {
        while (k < outer[j + 1] && inner[k] < ix[s]) ++k;
        if (k == outer[j + 1] || inner[k] != ix[s]) {
          if (d[s] != 0.0) outside(ix[s], j);
          continue;
        }
        v[k] = d[s];
      }
    }
  }

  py::object obj_, residual_, tangent_;
  py::object iscomplexobj_ = py::module_::import("numpy").attr("iscomplexobj");  // refuse_complex
  std::optional<py::object> load_derivative_;
  bool proportional_ = false;
  int n_ = 0;
  SparseMatrix pattern_;
  std::vector<int> mirror_;  // mirror_[k]: the slot of the transposed entry (set_pattern)
};

// ---------------------------------------------------------------------------
// TraceResult → plain Python objects (senda/__init__.py turns them into classes).

py::dict to_dict(const continuation::Crossing& c, int branch) {
  py::dict d;
  d["branch"] = branch;
  d["point_before"] = c.point_before;
  d["point_after"] = c.point_after;
  d["lambda_before"] = c.lambda_before;
  d["lambda_after"] = c.lambda_after;
  d["negative_pivots_before"] = c.negative_pivots_before;
  d["negative_pivots_after"] = c.negative_pivots_after;
  d["det_sign_changed"] = c.det_sign_changed;
  d["bordered_sign_changed"] = c.bordered_sign_changed;
  return d;
}

py::dict to_dict(const analysis::CriticalRecord& rec, const std::vector<std::string>& columns) {
  const critical::CriticalPoint& cp = rec.point;
  py::dict d;
  d["id"] = cp.id;
  d["kind"] = critical::to_string(cp.kind);
  d["converged"] = cp.converged;
  d["message"] = cp.message;
  d["system"] = cp.system;
  // A point that was not located has no λ, state, mode nor displacements (its last
  // Newton iterate means nothing), as in summary.json: None; its bracket says where.
  py::dict tracked;
  if (cp.converged) {
    d["lam"] = cp.lambda;
    d["q"] = to_array(cp.q);
    d["phi"] = to_array(cp.phi);
    for (std::size_t k = 0; k < rec.tracked.size() && k < columns.size(); ++k)
      tracked[py::str(columns[k])] = rec.tracked[k];
    d["tracked"] = tracked;
  } else {
    d["lam"] = py::none();
    d["q"] = py::none();
    d["phi"] = py::none();
    d["tracked"] = py::none();
  }
  d["gamma"] = cp.gamma;
  d["residual"] = cp.residual;
  d["newton_iterations"] = cp.newton_iterations;
  d["residual_history"] = to_array(cp.residual_history);
  d["phi_dot_r"] = cp.phi_dot_r;
  if (cp.floor_lambda_spread >= 0.0)
    d["floor_lambda_spread"] = cp.floor_lambda_spread;
  else
    d["floor_lambda_spread"] = py::none();
  d["evidence"] = critical::to_string(cp.evidence);
  py::dict bracket;
  bracket["branch"] = cp.branches.empty() ? 0 : cp.branches.front();
  bracket["point_before"] = cp.point_before;
  bracket["point_after"] = cp.point_after;
  bracket["lambda_before"] = cp.lambda_before;
  bracket["lambda_after"] = cp.lambda_after;
  bracket["start_point"] = cp.start_point;
  d["bracket"] = bracket;
  d["negative_pivots_change"] = cp.negative_pivots_change;
  d["multiplicity"] = cp.multiplicity;
  d["factorizations"] = cp.factorizations;
  d["pivot"] = cp.pivot;
  d["penalty"] = cp.penalty;
  d["branches"] = cp.branches;
  d["switched"] = cp.switched;
  if (cp.abe) {
    const critical::BifurcationEquation& e = *cp.abe;
    py::dict abe;
    abe["A"] = e.A;
    abe["B1"] = e.B1;
    abe["B2"] = e.B2;
    abe["C"] = e.C;
    abe["symmetric"] = e.symmetric;
    abe["valid"] = e.valid;
    abe["message"] = e.message;
    py::list tangents;
    for (const critical::BranchTangent& t : e.tangents) tangents.append(py::make_tuple(to_array(t.q), t.lambda));
    abe["tangents"] = tangents;
    abe["tangents_tracked"] = rec.tangents_tracked;
    abe["incoming"] = e.incoming;
    abe["incoming_alignment"] = e.incoming_alignment;
    d["abe"] = abe;
  } else {
    d["abe"] = py::none();
  }
  py::list sens;
  for (const analysis::ParameterSensitivity& s : rec.sensitivities) {
    py::dict x;
    x["parameter"] = s.parameter;
    x["value"] = s.value;
    x["valid"] = s.sensitivity.valid;
    x["dlambda_dmu"] = s.sensitivity.dlambda_dmu;
    x["dlambda_dmu_error"] = s.sensitivity.error;
    x["phi_dot_dg_dmu"] = s.sensitivity.phi_dot_gmu;  // the name of summary.json
    x["message"] = s.sensitivity.message;
    sens.append(x);
  }
  d["sensitivities"] = sens;
  return d;
}

py::dict to_dict(const critical::Branch& b) {
  py::dict d;
  d["id"] = b.id;
  d["parent"] = b.parent;
  d["depth"] = b.depth;
  d["start_point"] = b.start_point;
  d["direction"] = b.direction;
  d["points"] = b.rows();  // its rows in path.csv, as summary.json counts
  d["termination"] = critical::to_string(b.termination);
  d["message"] = b.message;
  d["end_point"] = b.end_point;
  d["metric"] = b.own_metric ? "own" : "path";
  py::list neutral;
  for (const critical::NeutralStretch& n : b.neutral) {
    py::dict x;
    x["first_point"] = n.first_point;
    x["last_point"] = n.last_point;
    x["lambda"] = n.lambda;
    x["lambda_spread"] = n.lambda_spread;
    x["arc_length"] = n.arc_length;
    x["crossings"] = n.crossings;
    x["lambda_left"] = n.lambda_left;
    x["located"] = n.located;
    neutral.append(x);
  }
  d["neutral"] = neutral;
  return d;
}

py::dict to_dict(const analysis::CurveRecord& c) {
  py::dict d;
  d["point"] = c.point;
  d["parameter"] = c.parameter;
  d["direction"] = c.direction;
  d["followed"] = c.followed;
  d["termination"] = critical::to_string(c.curve.termination);
  d["message"] = c.curve.message;
  std::vector<double> mu, lambda;
  std::vector<std::string> kind;
  for (const critical::CurvePoint& p : c.curve.points) {
    mu.push_back(p.mu);
    lambda.push_back(p.lambda);
    kind.push_back(critical::to_string(p.kind));
  }
  d["mu"] = to_array(mu);
  d["lam"] = to_array(lambda);
  d["kind"] = kind;
  py::list events;
  for (const critical::CurveEvent& e : c.curve.events) {
    py::dict x;
    x["kind"] = critical::to_string(e.kind);
    x["mu"] = e.mu;
    x["lam"] = e.lambda;
    x["after_point"] = e.after_point;
    x["located"] = e.located;
    x["message"] = e.message;
    events.append(x);
  }
  d["events"] = events;
  return d;
}

py::dict to_dict(const analysis::TraceResult& r, const PyObserver& o, const std::vector<std::string>& columns) {
  py::dict d;
  d["unknowns"] = r.unknowns;
  d["termination"] = continuation::to_string(r.termination);
  d["message"] = r.message;
  d["points"] = r.points;
  d["lambda_max"] = r.lambda_max;
  d["lambda_min"] = r.lambda_min;
  py::list crossings, points, branches, curves;
  for (const analysis::CrossingRecord& c : r.crossings) crossings.append(to_dict(c.crossing, c.branch));
  for (const analysis::CriticalRecord& c : r.critical_points) points.append(to_dict(c, columns));
  for (const critical::Branch& b : r.branches) branches.append(to_dict(b));
  for (const analysis::CurveRecord& c : r.curves) curves.append(to_dict(c));
  d["crossings"] = crossings;
  d["critical_points"] = points;
  d["branches"] = branches;
  d["curves"] = curves;
  py::dict stats;
  stats["newton_iterations"] = r.stats.newton_iterations;
  stats["failed_steps"] = r.stats.failed_steps;
  stats["factorizations"] = r.stats.factorizations;
  stats["locate_factorizations"] = r.stats.locate_factorizations;
  stats["wall_time_s"] = r.stats.wall_time_s;
  stats["assembly_s"] = r.stats.assembly_s;
  stats["analyze_s"] = r.stats.analyze_s;
  stats["factorize_s"] = r.stats.factorize_s;
  stats["solve_s"] = r.stats.solve_s;
  d["stats"] = stats;

  const PathRows& p = o.rows();
  const auto n = static_cast<py::ssize_t>(p.lambda.size());
  py::dict path;
  path["branch"] = py::array_t<int>(n, p.branch.data());
  path["index"] = py::array_t<int>(n, p.index.data());
  path["lam"] = py::array_t<double>(n, p.lambda.data());
  path["tracked"] = to_array(p.tracked, n, static_cast<py::ssize_t>(o.track_count()));
  path["columns"] = columns;
  path["iterations"] = py::array_t<int>(n, p.iterations.data());
  path["residual"] = py::array_t<double>(n, p.residual.data());
  path["step_length"] = py::array_t<double>(n, p.step_length.data());
  path["det_sign"] = py::array_t<int>(n, p.det_sign.data());
  path["negative_pivots"] = py::array_t<int>(n, p.negative_pivots.data());
  path["bordered_sign"] = py::array_t<int>(n, p.bordered_sign.data());
  if (o.keep_states()) path["q"] = to_array(p.states, n, o.unknowns());
  else path["q"] = py::none();
  d["path"] = path;
  return d;
}

// One run: the analysis with the GIL released, the observers, a Python error
// from a callback restored (KeyboardInterrupt: the partial result).
py::dict run_analysis(analysis::Analysis& a, PyObserver& observer, analysis::Observer* recorder,
                      const std::vector<std::string>& columns) {
  std::optional<analysis::TraceResult> r;
  try {
    py::gil_scoped_release release;
    analysis::ObserverList list;
    if (recorder) list.add(*recorder);  // the files first, as trace does
    list.add(observer);
    r = a.run(list);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_KeyboardInterrupt)) throw;
    r = observer.partial("interrupted (KeyboardInterrupt in a callback)");
  }
  return to_dict(*r, observer, columns);
}

// ---------------------------------------------------------------------------
// A .cfg read and built (input::load), kept with its Config for the design studies.
struct LoadedModel {
  senda::input::Config config;
  senda::input::Spec spec;
  std::vector<std::string> columns;
};

// As trace does (apps/trace/main.cpp, run.cpp): overrides in order, build, the mechanism check.
std::shared_ptr<LoadedModel> build_model(senda::input::Config config, const std::vector<std::string>& overrides) {
  config.apply_overrides(overrides);  // a key given twice with two values is refused
  senda::input::Spec spec = senda::input::build(config);
  senda::input::check_mechanism(spec);
  std::vector<std::string> columns = senda::input::track_columns(spec);
  return std::make_shared<LoadedModel>(LoadedModel{std::move(config), std::move(spec), std::move(columns)});
}

std::shared_ptr<LoadedModel> load(const std::string& path, const std::vector<std::string>& overrides) {
  return build_model(senda::input::Config::read_file(path), overrides);
}

// The model text senda.build writes from its arguments, read as a .cfg file named
// `file`: the same reader, builder and checks as load, so the same messages.
std::shared_ptr<LoadedModel> load_text(const std::string& text, const std::string& file,
                                       const std::vector<std::string>& overrides) {
  return build_model(senda::input::Config::parse(text, file), overrides);
}

py::dict run_model(const LoadedModel& m, const std::optional<std::string>& out, bool overwrite,
                   const py::object& progress, bool states) {
  const senda::input::Spec& spec = m.spec;
  analysis::Analysis a(*spec.model, spec.analysis, senda::input::design_parameters(m.config, spec));
  PyObserver observer(spec.analysis.track, m.columns, progress, states);
  if (!out) return run_analysis(a, observer, nullptr, m.columns);
  {
    py::gil_scoped_release release;
    a.start();
  }
  senda::output::ResultsDir::check(*out, overwrite);
  const senda::output::ResultsDir dir = senda::output::ResultsDir::prepare(*out, overwrite);
  senda::output::RunInfo info;
  info.problem = spec.problem_name;
  info.title = spec.title;
  info.config = spec.config_file.string();
  info.track_columns = m.columns;
  info.track = spec.analysis.track;
  senda::output::RecorderOptions ro;
  ro.vtk = spec.output.vtk;
  ro.drawings = spec.output.plot || spec.output.drawings;
  senda::output::Recorder recorder(dir, *spec.model, info, ro);
  return run_analysis(a, observer, &recorder, m.columns);
}

py::dict run_problem(const py::object& obj, const analysis::AnalysisOptions& options, const py::object& progress,
                     bool states) {
  PyProblem problem(obj);
  analysis::Analysis a(problem, options);
  std::vector<std::string> columns;
  for (int i : options.track) columns.push_back("q" + std::to_string(i));
  PyObserver observer(options.track, columns, progress, states);
  return run_analysis(a, observer, nullptr, columns);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ side of the senda module (use `import senda`; docs/python.md).";

  // Exceptions: the library's types, with the text the trace command prints after "trace: ".
  static py::exception<senda::input::ConfigError> config_error(m, "ConfigError", PyExc_ValueError);
  static py::exception<senda::output::OutputError> output_error(m, "OutputError", PyExc_OSError);
  static py::exception<senda::output::DirectoryRefused> dir_refused(m, "DirectoryRefused", output_error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const senda::input::ConfigError& e) {
      py::object x = py::reinterpret_borrow<py::object>(config_error.ptr())(e.what());
      x.attr("file") = e.file();
      x.attr("line") = e.line();
      x.attr("key") = e.key();
      PyErr_SetObject(config_error.ptr(), x.ptr());
    } catch (const senda::output::DirectoryRefused& e) {
      PyErr_SetString(dir_refused.ptr(), e.what());
    } catch (const senda::output::OutputError& e) {
      PyErr_SetString(output_error.ptr(), e.what());
    }
  });

  py::enum_<continuation::ConstraintKind>(m, "Constraint")
      .value("SPHERICAL", continuation::ConstraintKind::Spherical)
      .value("CYLINDRICAL", continuation::ConstraintKind::Cylindrical)
      .value("PSEUDO_ARCLENGTH", continuation::ConstraintKind::PseudoArclength)
      .value("LOAD_CONTROL", continuation::ConstraintKind::LoadControl)
      .value("DISPLACEMENT_CONTROL", continuation::ConstraintKind::DisplacementControl);
  py::enum_<critical::DetectTest>(m, "DetectTest")
      .value("DET", critical::DetectTest::Det)
      .value("INERTIA", critical::DetectTest::Inertia)
      .value("BOTH", critical::DetectTest::Both);

  // The option structs, field for field as in C++ (every default and its meaning is
  // documented beside the field in the C++ headers; docs/api.md).
  using continuation::Options;
  py::class_<Options>(m, "PathOptions", "continuation::Options: the path follower's settings")
      .def(py::init<>())
      .def_readwrite("constraint", &Options::constraint)
      .def_readwrite("control_dof", &Options::control_dof)
      .def_readwrite("initial_load_increment", &Options::initial_load_increment)
      .def_readwrite("min_step_ratio", &Options::min_step_ratio)
      .def_readwrite("max_step_ratio", &Options::max_step_ratio)
      .def_readwrite("max_step_growth", &Options::max_step_growth)
      .def_readwrite("max_turn_degrees", &Options::max_turn_degrees)
      .def_readwrite("target_iterations", &Options::target_iterations)
      .def_readwrite("max_iterations", &Options::max_iterations)
      .def_readwrite("residual_tolerance", &Options::residual_tolerance)
      .def_readwrite("increment_tolerance", &Options::increment_tolerance)
      .def_readwrite("max_steps", &Options::max_steps)
      .def_readwrite("lambda_min", &Options::lambda_min)
      .def_readwrite("lambda_max", &Options::lambda_max)
      .def_readwrite("monitor_dof", &Options::monitor_dof)
      .def_readwrite("max_displacement", &Options::max_displacement)
      .def_readwrite("stop_at_zero_load", &Options::stop_at_zero_load)
      .def_readwrite("direction", &Options::direction)
      .def_readwrite("auto_scale", &Options::auto_scale)
      .def_readwrite("reuse_factorization", &Options::reuse_factorization)
      .def_readwrite("psi", &Options::psi);
  using critical::LocateOptions;
  py::class_<LocateOptions>(m, "LocateOptions", "critical::LocateOptions: Newton on SPL/SPB")
      .def(py::init<>())
      .def_readwrite("tolerance", &LocateOptions::tolerance)
      .def_readwrite("max_iterations", &LocateOptions::max_iterations)
      .def_readwrite("bifurcation_tolerance", &LocateOptions::bifurcation_tolerance)
      .def_readwrite("penalty", &LocateOptions::penalty)
      .def_readwrite("inverse_iterations", &LocateOptions::inverse_iterations)
      .def_readwrite("subspace_size", &LocateOptions::subspace_size);
  using critical::FinderOptions;
  py::class_<FinderOptions>(m, "FinderOptions", "critical::FinderOptions: detection and location")
      .def(py::init<>())
      .def_readwrite("detect", &FinderOptions::detect)
      .def_readwrite("locate", &FinderOptions::locate)
      .def_readwrite("locate_options", &FinderOptions::locate_options)
      .def_readwrite("refine_fraction", &FinderOptions::refine_fraction);
  using critical::ExplorerOptions;
  py::class_<ExplorerOptions>(m, "ExplorerOptions", "critical::ExplorerOptions: path, finder, branch switching")
      .def(py::init<>())
      .def_readwrite("path", &ExplorerOptions::path)
      .def_readwrite("finder", &ExplorerOptions::finder)
      .def_readwrite("switch_branches", &ExplorerOptions::switch_branches)
      .def_readwrite("switch_at", &ExplorerOptions::switch_at)
      .def_readwrite("max_depth", &ExplorerOptions::max_depth)
      .def_readwrite("direction", &ExplorerOptions::direction)
      .def_readwrite("switch_step_ratio", &ExplorerOptions::switch_step_ratio)
      .def_readwrite("symmetric_tolerance", &ExplorerOptions::symmetric_tolerance)
      .def_readwrite("max_branches", &ExplorerOptions::max_branches);
  using analysis::AnalysisOptions;
  py::class_<AnalysisOptions>(m, "AnalysisOptions", "analysis::AnalysisOptions: every default in one place")
      .def(py::init<>())
      .def_readwrite("explorer", &AnalysisOptions::explorer)
      .def_readwrite("track", &AnalysisOptions::track)
      .def("__copy__", [](const AnalysisOptions& o) { return o; })
      .def("validate", &AnalysisOptions::validate, "'' when every field is within its range, else the reason");

  py::class_<LoadedModel, std::shared_ptr<LoadedModel>>(m, "LoadedModel")
      .def_property_readonly("name", [](const LoadedModel& x) { return x.spec.problem_name; })
      .def_property_readonly("title", [](const LoadedModel& x) { return x.spec.title; })
      .def_property_readonly("description", [](const LoadedModel& x) { return x.spec.description; })
      .def_property_readonly("config_file", [](const LoadedModel& x) { return x.spec.config_file.string(); })
      .def_property_readonly("unknowns", [](const LoadedModel& x) { return x.spec.model->size(); })
      .def_property_readonly("track_columns", [](const LoadedModel& x) { return x.columns; })
      .def_property_readonly("design_parameters", [](const LoadedModel& x) { return x.spec.design_parameters; })
      .def_property_readonly("notes", [](const LoadedModel& x) { return x.spec.notes; },
                             "keys set that this run does not use, \"FILE:LINE: KEY has no effect: ...\"")
      .def_property_readonly("model_notes", [](const LoadedModel& x) { return x.spec.model_notes; },
                             "what the model itself may get wrong (members of one Simo-Reissner element), "
                             "\"FILE:LINE: model.beam: ...\"")
      .def_property_readonly("options", [](const LoadedModel& x) { return x.spec.analysis.explorer; },
                             "a copy of the explorer options the file set")
      .def("run", &run_model, py::arg("out"), py::arg("overwrite"), py::arg("progress"), py::arg("states"));
  m.def("load", &load, py::arg("path"), py::arg("overrides"));
  m.def(
      "repeatable",
      [](const std::string& key) -> std::optional<bool> {
        const senda::input::OptionSpec* o = senda::input::find_option(key);
        if (!o) return std::nullopt;
        return o->repeatable;
      },
      py::arg("key"), "True for a repeatable .cfg key, False for a scalar one, None for an unknown key");
  m.def("load_text", &load_text, py::arg("text"), py::arg("file"), py::arg("overrides"));
  m.def("run_problem", &run_problem, py::arg("problem"), py::arg("options"), py::arg("progress"),
        py::arg("states"));
}
