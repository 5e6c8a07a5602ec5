#pragma once
// Tangents at a bifurcation point and branch switching (docs/theory.md §5).
//
// Notation                         code
//   v = K̃⁻¹r (vᵢ = 0)               CriticalPoint::v, a particular solution of K v = r
//   q̇ = ξ v + η φ, λ̇ = ξ            tangent from (ξ, η)
//   A ξ² + 2B ξη + C η² = 0          algebraic bifurcation equation (eq. 5.1)
//   A = φᵀ∇_q(Kv)v (+ 2φᵀK_λv + φᵀg_λλ)
//   B₁ = φᵀ[K(q₀+εφ)v − K(q₀−εφ)v]/2ε,  B₂ = φᵀ[K(q₀+εv)φ − K(q₀−εv)φ]/2ε  (+ φᵀK_λφ)  (eq. 5.2)
//   C = φᵀ∇_q(Kφ)φ
// The bracketed terms appear only when g is not proportional in λ.
// C = 0: symmetric (pitchfork), roots ξ = 0 (secondary, λ̇ = 0) and Aξ + 2Bη = 0.
// C ≠ 0: asymmetric (transcritical). Both cases: the null directions of the
// 2×2 form [[A, B], [B, C]], B = (B₁ + B₂)/2.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/critical_point.hpp"

namespace senda::critical {

// A, B₁, B₂, C at a located simple bifurcation point and the two branch tangents;
// (secant_q, secant_l) is the direction of the path that reached the point.
BifurcationEquation bifurcation_equation(const Problem& problem, const CriticalPoint& cp,
                                         const continuation::Scaling& scaling, const Vector& secant_q,
                                         double secant_l, double symmetric_tolerance);

struct ExplorerOptions {
  continuation::Options path;  // for every branch
  FinderOptions finder;
  bool switch_branches = true;          // false: the primary path only
  std::vector<std::string> switch_at;   // ids where to switch (empty: every bifurcation point)
  int max_depth = 2;                    // primary path = depth 0
  int direction = 0;                    // 0: both directions of a secondary branch; ±1: one
  double switch_step_ratio = 1.0;       // first step on a secondary branch, × the primary's first step in (q, λ)
  double symmetric_tolerance = 1e-5;    // |C| ≤ tol · max(|A|, |B|) → symmetric
  int max_branches = 32;
};

// How a branch ended: the follower's terminations (continuation::Termination,
// same names and spellings), or Rejoined (it reached a point located before and
// stopped there), or Jumped (it reached a point of a path it descends from while
// moving along that path: a limit point of it, or a bifurcation point along its
// own tangent; its steps left the branch for that path, docs/theory.md §5), or
// NotTraced (the primary path of a run started from a saved bifurcation point).
enum class BranchEnd { Running, Completed, MaxSteps, StepTooSmall, Diverged, Interrupted, Stalled, Rejoined, Jumped, NotTraced };
const char* to_string(BranchEnd e);  // kebab-case: "step-too-small", "rejoined", "jumped", "not-traced"
BranchEnd branch_end(continuation::Termination t);

// A stretch of a branch along which λ stays constant (to kNeutralTolerance, relative)
// while the state moves, and K is singular (its signs, or a refined step's pieces,
// show two crossings or more): a neutral equilibrium path (a torsional
// column whose section has no Wagner quartic term, a mechanism). Every point of it is
// critical; the sign changes of det K along it are counted, not located (each would
// be "located" at the stretch's λ, one per step).
struct NeutralStretch {
  int first_point = 0, last_point = 0;  // step indices on the branch (0 = its start point)
  double lambda = 0.0;                  // λ at first_point
  double lambda_spread = 0.0;           // max − min of λ over the stretch
  double arc_length = 0.0;              // in the path's scaled norm
  int crossings = 0;                    // crossings in it: the points found in its run's
                                        // located steps, then one per step whose signs changed
  bool lambda_left = false;             // λ left the band after last_point: a flat stretch
                                        // (the slow start of a branch near its bifurcation
                                        // point, at short steps), not a neutral path
  std::vector<std::string> located;     // points located on it before it was recognised
                                        // (its first crossing); unless lambda_left, points
                                        // of it, and their messages say so
};
// The relative bound on the spread of λ for a neutral stretch, and its least arc
// length in units of the branch's first step (docs/theory.md §5, neutral paths).
constexpr double kNeutralTolerance = 1e-8;
constexpr double kNeutralArcSteps = 1.0;
// "a neutral stretch from point 0 to 40: lambda = 9.942735329 constant to 5.3e-09 over …",
// and whether it is a neutral path to the branch's end or λ left the band after it.
std::string describe(const NeutralStretch& n);

struct Branch {
  int id = 0;  // 0 = primary
  int parent = -1;
  int depth = 0;
  std::string start_point;  // critical point id it starts from ("" for the primary)
  int direction = +1;
  int points = 0;
  BranchEnd termination = BranchEnd::Running;
  std::string message;
  std::string end_point;    // id of the point where it rejoined another branch
  std::vector<NeutralStretch> neutral;  // its neutral stretches, in path order
  // Secondary branches: traced in a metric of their own (the structure's size and
  // the critical load, docs/theory.md §5 "The metric of a branch") instead of the
  // path's, whose first tangent made it too fine for the branch.
  bool own_metric = false;
  // Its rows in path.csv, the start point included; none for a branch not traced in
  // the run (branch 0 of a run from a saved point).
  int rows() const { return termination == BranchEnd::NotTraced ? 0 : points + 1; }
};

class ExplorerEvents {
 public:
  virtual ~ExplorerEvents() = default;
  virtual void on_branch_start(const Branch&) {}
  virtual void on_point(const Branch&, const continuation::PathFollower&) {}
  // is_new = false: a point located before, found again on another branch.
  virtual void on_critical(const Branch&, const CriticalPoint&, bool /*is_new*/) {}
  // A neutral stretch begins (its first crossing): once per stretch.
  virtual void on_neutral(const Branch&, const NeutralStretch&) {}
  virtual void on_branch_end(const Branch&, const continuation::PathFollower&) {}
  virtual bool stop_requested() { return false; }
};

// Traces the primary path from (q0, λ0), locates its critical points, switches at
// its simple bifurcation points and traces the secondary branches (breadth first,
// up to max_depth), ending a branch where it rejoins a point already located.
class BranchExplorer {
 public:
  BranchExplorer(const Problem& problem, const ExplorerOptions& options);
  // Returns false when the primary path could not start (message()).
  bool run(const Vector& q0, double lambda0, ExplorerEvents& events);
  // The same with a primary follower already started by the caller (who may
  // have wanted to inspect the start point first); it must use options().path.
  void run(continuation::PathFollower& primary, ExplorerEvents& events);
  const ExplorerOptions& options() const { return options_; }
  // The metric a branch was traced in: its scaling and its base step (the primary
  // path's first step in (q, λ), PathFollower::metric_step_length(); Δλ₀/Λ of a
  // branch in its own metric; what switch_step_ratio multiplies for the branches
  // that start on it). Branch 0 of a run from a saved
  // state is the saved path's. For a saved state of a point found on that branch.
  const continuation::Scaling& scaling(int branch) const { return metric(branch).scaling; }
  double initial_step(int branch) const { return metric(branch).base_step; }
  // Secondary branches from a saved bifurcation point (--from) whose abe is set,
  // skipping the primary path; scaling and ds are those of the path it was found
  // on (the state's), ds before switch_step_ratio.
  bool run_from(const CriticalPoint& bp, const continuation::Scaling& scaling, double ds, ExplorerEvents& events);

  const std::vector<Branch>& branches() const { return branches_; }
  const std::vector<CriticalPoint>& critical_points() const { return finder_.points(); }
  const std::string& message() const { return message_; }
  bool interrupted() const { return interrupted_; }
  // Work summed over every branch.
  const continuation::Stats& stats() const { return stats_; }
  const linalg::FactorStats& factor_stats() const { return factor_stats_; }
  long locate_factorizations() const { return finder_.factorizations(); }

 private:
  struct Pending {
    int point;  // index into the finder's points
    int parent;
    int depth;
  };
  // A secondary branch's start (switch_at): its first step is checked to leave the
  // path it starts from, and taken again from the point, halved, when it does not.
  struct FirstStep {
    const CriticalPoint* point = nullptr;
    Vector tq;
    double tl = 0.0;
    double ds = 0.0;
    continuation::Scaling scaling;
    int parent = 0;
  };
  void trace_branch(continuation::PathFollower& f, Branch& b, ExplorerEvents& events, std::vector<Pending>& queue,
                    const FirstStep* first = nullptr);
  void switch_at(Pending p, ExplorerEvents& events, std::vector<Pending>& queue);
  // The branches of the queue's points, in turn (switch_at, which adds the points
  // found on them); after an interruption, those still pending said in message_
  // (say_untraced()).
  void switch_queue(std::vector<Pending>& queue, ExplorerEvents& events);
  // The queue's points from `from` on, after an interruption: their branches still
  // pending, said in message_ ("interrupted with branches still pending at BP2 (-),
  // BP3 (+, -)"): the directions asked for, within max_branches, not at a point a
  // branch has rejoined.
  void say_untraced(const std::vector<Pending>& queue, std::size_t from);
  // Why no branch starts at cp: its λ is outside [stop.lambda_min, stop.lambda_max], or
  // its stop.displacement dof beyond the limit (empty when it is within them).
  std::string beyond_bounds(const CriticalPoint& cp) const;
  // message_ += "; " + s (no separator first).
  void add_message(const std::string& s) { message_ += (message_.empty() ? "" : "; ") + s; }
  struct PathMetric {
    continuation::Scaling scaling;
    double base_step = 0.0;
  };
  const PathMetric& metric(int branch) const;
  // The metric and first step of a branch from cp along t, found on a path traced
  // in `parent` (docs/theory.md §5, eq. 5.5).
  struct BranchStart {
    std::shared_ptr<const PathMetric> metric;
    double ds = 0.0;
    bool own = false;
  };
  BranchStart branch_start(const CriticalPoint& cp, const BranchTangent& t,
                           const std::shared_ptr<const PathMetric>& parent) const;
  bool wanted(const std::string& id) const;
  void absorb(const continuation::PathFollower& f);

  // States compared in units of the structure's size: the finder's measure, set by
  // the constructor.
  const core::UnknownScale& scale() const { return *finder_.unknown_scale(); }

  const Problem& problem_;
  ExplorerOptions options_;
  CriticalPointFinder finder_;
  std::vector<Branch> branches_;
  // One per branch id (shared where a branch keeps its parent's metric).
  std::vector<std::shared_ptr<const PathMetric>> metrics_;
  std::string message_;
  // The points whose "no branch from …: beyond a bound" message_ holds.
  std::vector<std::string> beyond_said_;
  bool interrupted_ = false;
  continuation::Stats stats_;
  linalg::FactorStats factor_stats_;
};

}  // namespace senda::critical
