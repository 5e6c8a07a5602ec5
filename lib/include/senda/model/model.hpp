#pragma once
// Finite-element model: nodes, a DOF map, supports, elements, and loads.
//
//   g(q, λ) = Σₑ f_e(q) − λ r − d                                      (eq. 1.1)
//
// r: reference load pattern (scaled by λ); d: dead loads (not scaled, used for
// imperfections). K = Σₑ K_e. The sparsity pattern and, for every element, the
// positions of its entries in the value array of K are computed once in
// finalize(); each tangent() only adds numbers into place.
//
// DOF map. Every node has its own components (ux, uy, uz, rx, ry, rz), shared by all
// the elements that refer to them: members meeting at a node are rigidly joined.
// add_dof(node, c, label) adds a further unknown of kind c at the node (slot 1, 2,
// … of DofRef): an element end that refers to it moves with the node's other
// components but has its own c. A hinge (moment release) is a member end with its
// own rz slot (in 3D, a ball joint: its own rx ry rz slots); its equations come
// right after the node's own ones, and dof_name calls it "node 3 rz (member 2)". Supports and loads act on the node's own
// components (slot 0) only, but for fix_warping (the node's warping unknown).
#include <Eigen/Core>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "senda/model/element.hpp"
#include "senda/core/problem.hpp"

namespace senda::model {

// Thrown for an inconsistent model (no elements, unconnected node, load on a
// degree of freedom that does not exist...). The builder adds file and line.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Model final : public Problem {
 public:
  explicit Model(int dim);  // 2 or 3

  int dim() const { return dim_; }

  // Returns the node index (0-based, in order of addition). id is the user's label.
  int add_node(int id, const Eigen::Vector3d& x);
  void add_element(std::unique_ptr<Element> e);
  // An additional unknown of component c at node (see the DOF map above); returns
  // its slot (1, 2, …). label names it in dof_name ("member 2"); name, if given,
  // replaces the component's name there ("r2": a component in a member's section
  // axes, Beam3DEnd::spin_held).
  int add_dof(int node, Component c, std::string label, std::string name = {});
  // The node's warping unknown ω (the twist rate that sets the warping of thin-walled
  // members, docs/notes/beam3d.md S.16): one additional dof, stored as an Rx slot
  // named "warp" ("node 3 warp" in dof_name), shared by every thin-walled member at
  // the node, of kind DofKind::Generic (its unit is 1/length). Created on the first
  // call; returns its slot.
  int warping_dof(int node);
  // The slot of the node's warping unknown, 0 if it has none.
  int warping_slot(int node) const;
  void fix(int node, Component c);
  // Holds the node's warping unknown at 0 (restrained warping); it must exist.
  void fix_warping(int node);
  void add_load(int node, Component c, double value);       // reference pattern r
  void add_dead_load(int node, Component c, double value);  // dead load d
  // A component (rx, ry or rz, 3D) of a conservative nodal moment m₀ of the
  // reference pattern whose spatial value depends on the node's rotation
  // (docs/notes/beam3d.md): potential −λ P(ψ), so that g gains −λ (∇P(ψ) − m₀)
  // over the ψ-conjugate load m₀ (which reference_load() holds, the load at
  // ψ = 0) and K gains −λ ∇²P, symmetric.
  //   Semitangential (S.12): P = |m₀| τ(ψ). P is not linear in m₀, so the
  //   components given at one node form one moment.
  //   Quasitangential (S.14): P = m₀·(sin θ n), the potential of dead-force
  //   couples on levers fixed to the node; spatial moment ½(tr R I − Rᵀ) m₀.
  // The two kinds at one node are two moments. A model with one is not
  // proportional (r depends on q, K on λ).
  enum class MomentType { Semitangential, Quasitangential };
  void add_moment_load(int node, Component c, double value, MomentType type);
  void add_semitangential_load(int node, Component c, double value) {
    add_moment_load(node, c, value, MomentType::Semitangential);
  }
  bool has_moment_loads() const { return !moments_.empty(); }

  // Numbers the equations and analyses the sparsity pattern. Call once, after
  // which the model is immutable (add_* throw).
  void finalize();
  bool finalized() const { return finalized_; }

  int node_count() const { return static_cast<int>(nodes_.size()); }
  int node_id(int node) const { return nodes_[node].id; }
  const Eigen::Vector3d& node_position(int node) const { return nodes_[node].x; }
  int element_count() const { return static_cast<int>(elements_.size()); }
  const Element& element(int e) const { return *elements_[e]; }
  // Equation number of (node, c) (slot 0), or −1 if fixed or not present.
  int equation(int node, Component c) const;
  // Equation number of any dof, including the additional slots (−1 if unused).
  int equation(const DofRef& d) const;
  // Number of additional dofs (slots > 0) at node.
  int extra_dof_count(int node) const { return static_cast<int>(nodes_[node].extra.size()); }
  // The dof of equation i.
  const DofRef& equation_dof(int i) const { return eq_dof_[i]; }
  // Displacement of (node, c) in the state q (0 for fixed or absent components).
  double displacement(const Vector& q, int node, Component c) const;
  const Vector& reference_load() const { return r_; }
  const Vector& dead_load() const { return d_; }
  // Local displacement vector of element e in state q.
  void gather(int e, const Vector& q, Eigen::VectorXd& u_e) const;

  // Problem
  int size() const override { return neq_; }
  void residual(const Vector& q, double lambda, Vector& g) const override;
  const SparseMatrix& tangent_pattern() const override { return pattern_; }
  void tangent(const Vector& q, double lambda, SparseMatrix& K) const override;
  void dg_dlambda(const Vector& q, double lambda, Vector& out) const override;
  bool is_proportional() const override { return moments_.empty(); }
  DofKind dof_kind(int i) const override;
  // Translation 1, rotation L, warping (a rate of twist) L², with L the largest side
  // of the box that holds the nodes (1 for a model of one point).
  double kind_length(DofKind kind) const override;
  std::string dof_name(int i) const override;
  // 3D: a node whose rotation vector ψ is within 1e-6 relative of a full turn (|ψ| = 2πk).
  std::string chart_singularity(const Vector& q) const override;
  std::string degenerate_configuration(const Vector& q) const override;
  double force_terms(const Vector& q, double lambda) const override;
  // Σₑ ∇(K_e a_e)·b_e when every element provides it (Element::tangent_derivative)
  // and there is no moment load of add_moment_load (whose third derivative is
  // not provided);
  // false otherwise (the other loads do not depend on q, so they add nothing).
  bool tangent_derivative(const Vector& q, double lambda, const Vector& a, const Vector& b,
                          Vector& out) const override;

  // Internal force vector f(q) alone.
  void internal_force(const Vector& q, Vector& f) const;
  // Total strain energy.
  double energy(const Vector& q) const;

 private:
  struct ExtraDof {
    Component c;
    std::string label;
    std::string name;  // replaces to_string(c) in dof_name if not empty
    bool warping = false;  // the node's warping unknown (warping_dof)
    bool fixed = false;    // fix_warping
    bool used = false;
    int eq = -1;
  };
  struct Node {
    std::vector<ExtraDof> extra;  // slots 1, 2, …
    int id;
    Eigen::Vector3d x;
    bool used[kComponents] = {};
    bool fixed[kComponents] = {};
    int eq[kComponents] = {-1, -1, -1, -1, -1, -1};
  };
  struct LoadEntry {
    int node;
    Component c;
    double value;
    MomentType type = MomentType::Semitangential;  // moment_entries_ only
  };
  // One rotation-dependent moment: its type, m₀ and the equations of the node's
  // rx ry rz (−1 fixed), the value slots of their 3 × 3 block in K (−1 where an
  // equation is −1).
  struct MomentLoad {
    int node;
    MomentType type;
    Eigen::Vector3d m0 = Eigen::Vector3d::Zero();
    int eq[3] = {-1, -1, -1};
    int slot[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
  };
  // λ ∇P(ψ) − λ m₀ of every moment load added to out (scale = λ), and −λ ∇²P
  // into K's values when values is not null.
  void add_moments(const Vector& q, double scale, Vector* out, double* values) const;
  void check_mutable() const;
  void check_node(int node) const;

  int dim_;
  bool finalized_ = false;
  int neq_ = 0;
  std::vector<Node> nodes_;
  std::vector<std::unique_ptr<Element>> elements_;
  std::vector<LoadEntry> loads_, dead_loads_, moment_entries_;
  std::vector<MomentLoad> moments_;
  std::vector<std::vector<int>> element_eq_;    // per element: equation of each local dof (−1 fixed)
  std::vector<std::vector<int>> element_slot_;  // per element: value index of (a, b), −1 if either fixed
  std::vector<DofRef> eq_dof_;  // equation → dof
  Vector r_, d_;
  SparseMatrix pattern_;
};

// P(ψ) = |m₀| τ(ψ) of a semitangential moment m₀ ≠ 0 at the rotation vector ψ
// (S.12), with its gradient and Hessian when asked (exact, by AutoDiff).
double semitangential_potential(const Eigen::Vector3d& psi, const Eigen::Vector3d& m0, Eigen::Vector3d* grad,
                                Eigen::Matrix3d* hess);
// P(ψ) = m₀·(sin θ n) of a quasitangential moment m₀ (S.14), ψ = θ n, likewise.
double quasitangential_potential(const Eigen::Vector3d& psi, const Eigen::Vector3d& m0, Eigen::Vector3d* grad,
                                 Eigen::Matrix3d* hess);

}  // namespace senda::model
