#include "senda/model/model.hpp"

#include "senda/core/number.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace senda::model {

const char* to_string(Component c) {
  switch (c) {
    case Component::Ux: return "ux";
    case Component::Uy: return "uy";
    case Component::Uz: return "uz";
    case Component::Rx: return "rx";
    case Component::Ry: return "ry";
    case Component::Rz: return "rz";
  }
  return "?";
}

Model::Model(int dim) : dim_(dim) {
  if (dim != 2 && dim != 3) throw std::logic_error("senda::model::Model: dim must be 2 or 3");
}

void Model::check_mutable() const {
  if (finalized_) throw std::logic_error("senda::model::Model: modified after finalize()");
}

void Model::check_node(int node) const {
  if (node < 0 || node >= node_count())
    throw std::logic_error("senda::model::Model: node index " + std::to_string(node) + " out of range");
}

int Model::add_node(int id, const Eigen::Vector3d& x) {
  check_mutable();
  Node n;
  n.id = id;
  n.x = x;
  if (dim_ == 2) n.x.z() = 0.0;
  nodes_.push_back(n);
  return node_count() - 1;
}

void Model::add_element(std::unique_ptr<Element> e) {
  check_mutable();
  for (const DofRef& d : e->dofs()) {
    check_node(d.node);
    if (d.slot < 0 || d.slot > extra_dof_count(d.node) ||
        (d.slot > 0 && nodes_[d.node].extra[d.slot - 1].c != d.component))
      throw std::logic_error("senda::model::Model: " + e->describe() + " refers to slot " + std::to_string(d.slot) +
                             " of node " + std::to_string(nodes_[d.node].id) + " " + to_string(d.component) +
                             ", which add_dof did not create");
  }
  elements_.push_back(std::move(e));
}

int Model::add_dof(int node, Component c, std::string label, std::string name) {
  check_mutable();
  check_node(node);
  nodes_[node].extra.push_back({c, std::move(label), std::move(name)});
  return extra_dof_count(node);
}

int Model::warping_dof(int node) {
  check_mutable();
  check_node(node);
  if (const int slot = warping_slot(node)) return slot;
  ExtraDof x{Component::Rx, {}, "warp"};
  x.warping = true;
  nodes_[node].extra.push_back(std::move(x));
  return extra_dof_count(node);
}

int Model::warping_slot(int node) const {
  check_node(node);
  const auto& extra = nodes_[node].extra;
  for (std::size_t k = 0; k < extra.size(); ++k)
    if (extra[k].warping) return static_cast<int>(k) + 1;
  return 0;
}

void Model::fix_warping(int node) {
  check_mutable();
  const int slot = warping_slot(node);
  if (slot == 0)
    throw ModelError("node " + std::to_string(nodes_[node].id) + " has no warping unknown (no thin-walled member there)");
  nodes_[node].extra[static_cast<std::size_t>(slot - 1)].fixed = true;
}

void Model::fix(int node, Component c) {
  check_mutable();
  check_node(node);
  nodes_[node].fixed[static_cast<int>(c)] = true;
}

void Model::add_load(int node, Component c, double value) {
  check_mutable();
  check_node(node);
  loads_.push_back({node, c, value});
}

void Model::add_dead_load(int node, Component c, double value) {
  check_mutable();
  check_node(node);
  dead_loads_.push_back({node, c, value});
}

void Model::add_moment_load(int node, Component c, double value, MomentType type) {
  check_mutable();
  check_node(node);
  if (dim_ != 3 || static_cast<int>(c) < 3)
    throw ModelError(std::string("a ") + (type == MomentType::Semitangential ? "semitangential" : "quasitangential") +
                     " load is a moment of a 3D model (rx, ry or rz)");
  moment_entries_.push_back({node, c, value, type});
}

void Model::finalize() {
  check_mutable();
  if (elements_.empty()) throw ModelError("the model has no elements");
  for (const auto& e : elements_)
    for (const DofRef& d : e->dofs()) {
      if (d.slot > 0)
        nodes_[d.node].extra[d.slot - 1].used = true;
      else
        nodes_[d.node].used[static_cast<int>(d.component)] = true;
    }
  for (const Node& n : nodes_) {
    bool any = false;
    for (bool u : n.used) any = any || u;
    for (const ExtraDof& x : n.extra) any = any || x.used;
    if (!any) throw ModelError("node " + std::to_string(n.id) + " is not connected to any element");
  }
  // Equation numbering: node by node, component by component, then the node's
  // additional dofs in the order of add_dof.
  neq_ = 0;
  eq_dof_.clear();
  for (int i = 0; i < node_count(); ++i) {
    Node& n = nodes_[i];
    for (int c = 0; c < kComponents; ++c) {
      if (n.used[c] && !n.fixed[c]) {
        n.eq[c] = neq_++;
        eq_dof_.push_back({i, static_cast<Component>(c)});
      }
    }
    for (std::size_t k = 0; k < n.extra.size(); ++k) {
      ExtraDof& x = n.extra[k];
      x.eq = x.used && !x.fixed ? neq_++ : -1;
      if (x.eq >= 0) eq_dof_.push_back({i, x.c, static_cast<int>(k) + 1});
    }
  }
  if (neq_ == 0) throw ModelError("every degree of freedom is fixed: nothing to solve");

  auto load_vector = [&](const std::vector<LoadEntry>& entries, const char* what) {
    Vector v = Vector::Zero(neq_);
    for (const LoadEntry& l : entries) {
      const Node& n = nodes_[l.node];
      const int c = static_cast<int>(l.c);
      if (!n.used[c])
        throw ModelError(std::string(what) + " on node " + std::to_string(n.id) + " " + to_string(l.c) +
                         ": no element uses that degree of freedom");
      if (n.eq[c] >= 0) v[n.eq[c]] += l.value;  // a load on a support is a reaction: ignored
    }
    return v;
  };
  r_ = load_vector(loads_, "load");
  d_ = load_vector(dead_loads_, "dead load");
  // Rotation-dependent moments: one per node and type; the value at ψ = 0 joins r.
  r_ += load_vector(moment_entries_, "moment load");
  moments_.clear();
  for (const LoadEntry& l : moment_entries_) {
    auto it = std::find_if(moments_.begin(), moments_.end(),
                           [&](const MomentLoad& s) { return s.node == l.node && s.type == l.type; });
    if (it == moments_.end()) {
      moments_.push_back({l.node, l.type});
      it = moments_.end() - 1;
      for (int k = 0; k < 3; ++k) it->eq[k] = nodes_[l.node].eq[3 + k];
    }
    it->m0[static_cast<int>(l.c) - 3] += l.value;
  }
  std::erase_if(moments_, [](const MomentLoad& s) { return s.m0 == Eigen::Vector3d::Zero(); });

  // Sparsity pattern, both triangles.
  std::vector<Eigen::Triplet<double>> trip;
  element_eq_.assign(elements_.size(), {});
  for (std::size_t e = 0; e < elements_.size(); ++e) {
    auto& eqs = element_eq_[e];
    for (const DofRef& d : elements_[e]->dofs()) eqs.push_back(equation(d));
    for (int a : eqs)
      for (int b : eqs)
        if (a >= 0 && b >= 0) trip.emplace_back(a, b, 1.0);
  }
  for (const MomentLoad& st : moments_)  // the load stiffness couples the node's rotations
    for (int a : st.eq)
      for (int b : st.eq)
        if (a >= 0 && b >= 0) trip.emplace_back(a, b, 0.0);
  for (int i = 0; i < neq_; ++i) trip.emplace_back(i, i, 0.0);  // the diagonal always exists
  pattern_.resize(neq_, neq_);
  pattern_.setFromTriplets(trip.begin(), trip.end());
  pattern_.makeCompressed();

  // Position of every (a, b) pair of each element in the value array.
  const int* outer = pattern_.outerIndexPtr();
  const int* inner = pattern_.innerIndexPtr();
  element_slot_.assign(elements_.size(), {});
  for (std::size_t e = 0; e < elements_.size(); ++e) {
    const auto& eqs = element_eq_[e];
    const int m = static_cast<int>(eqs.size());
    auto& slot = element_slot_[e];
    slot.assign(static_cast<std::size_t>(m) * m, -1);
    for (int b = 0; b < m; ++b) {
      if (eqs[b] < 0) continue;
      const int* first = inner + outer[eqs[b]];
      const int* last = inner + outer[eqs[b] + 1];
      for (int a = 0; a < m; ++a) {
        if (eqs[a] < 0) continue;
        const int* pos = std::lower_bound(first, last, eqs[a]);
        slot[static_cast<std::size_t>(b) * m + a] = static_cast<int>(pos - inner);
      }
    }
  }
  for (MomentLoad& st : moments_)
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) {
        if (st.eq[a] < 0 || st.eq[b] < 0) continue;
        const int* first = inner + outer[st.eq[b]];
        const int* last = inner + outer[st.eq[b] + 1];
        st.slot[3 * b + a] = static_cast<int>(std::lower_bound(first, last, st.eq[a]) - inner);
      }
  finalized_ = true;
}

void Model::add_moments(const Vector& q, double scale, Vector* out, double* values) const {
  Eigen::Vector3d grad;
  Eigen::Matrix3d hess;
  for (const MomentLoad& st : moments_) {
    Eigen::Vector3d psi;
    for (int k = 0; k < 3; ++k) psi[k] = st.eq[k] >= 0 ? q[st.eq[k]] : 0.0;
    if (st.type == MomentType::Semitangential)
      semitangential_potential(psi, st.m0, &grad, values ? &hess : nullptr);
    else
      quasitangential_potential(psi, st.m0, &grad, values ? &hess : nullptr);
    for (int k = 0; k < 3; ++k)
      if (out && st.eq[k] >= 0) (*out)[st.eq[k]] += scale * (grad[k] - st.m0[k]);
    if (values)
      for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
          if (st.slot[3 * b + a] >= 0) values[st.slot[3 * b + a]] -= scale * hess(a, b);
  }
}

int Model::equation(int node, Component c) const {
  check_node(node);
  return nodes_[node].eq[static_cast<int>(c)];
}

int Model::equation(const DofRef& d) const {
  check_node(d.node);
  if (d.slot == 0) return nodes_[d.node].eq[static_cast<int>(d.component)];
  if (d.slot < 0 || d.slot > extra_dof_count(d.node))
    throw std::logic_error("senda::model::Model: slot " + std::to_string(d.slot) + " out of range");
  return nodes_[d.node].extra[d.slot - 1].eq;
}

double Model::displacement(const Vector& q, int node, Component c) const {
  const int eq = equation(node, c);
  return eq >= 0 ? q[eq] : 0.0;
}

void Model::gather(int e, const Vector& q, Eigen::VectorXd& u_e) const {
  const auto& eqs = element_eq_[e];
  u_e.resize(static_cast<Eigen::Index>(eqs.size()));
  for (std::size_t a = 0; a < eqs.size(); ++a) u_e[a] = eqs[a] >= 0 ? q[eqs[a]] : 0.0;
}

void Model::internal_force(const Vector& q, Vector& f) const {
  if (!finalized_) throw std::logic_error("senda::model::Model: finalize() not called");
  f.setZero(neq_);
  Eigen::VectorXd u_e, f_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    f_e.resize(u_e.size());
    elements_[e]->compute(u_e, &f_e, nullptr);
    const auto& eqs = element_eq_[e];
    for (std::size_t a = 0; a < eqs.size(); ++a)
      if (eqs[a] >= 0) f[eqs[a]] += f_e[a];
  }
}

bool Model::tangent_derivative(const Vector& q, double /*lambda*/, const Vector& a, const Vector& b,
                               Vector& out) const {
  if (!finalized_) throw std::logic_error("senda::model::Model: finalize() not called");
  if (!moments_.empty()) return false;
  out.setZero(neq_);
  Eigen::VectorXd u_e, a_e, b_e, o_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    gather(e, a, a_e);
    gather(e, b, b_e);
    if (!elements_[e]->tangent_derivative(u_e, a_e, b_e, o_e)) return false;
    const auto& eqs = element_eq_[e];
    for (std::size_t k = 0; k < eqs.size(); ++k)
      if (eqs[k] >= 0) out[eqs[k]] += o_e[k];
  }
  return true;
}

double Model::energy(const Vector& q) const {
  double W = 0.0;
  Eigen::VectorXd u_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    W += elements_[e]->energy(u_e);
  }
  return W;
}

void Model::residual(const Vector& q, double lambda, Vector& g) const {
  internal_force(q, g);
  g -= lambda * r_ + d_;
  if (!moments_.empty()) {
    Vector extra = Vector::Zero(neq_);
    add_moments(q, lambda, &extra, nullptr);
    g -= extra;
  }
}

void Model::tangent(const Vector& q, double lambda, SparseMatrix& K) const {
  if (!finalized_) throw std::logic_error("senda::model::Model: finalize() not called");
  if (K.nonZeros() != pattern_.nonZeros() || K.rows() != neq_) K = pattern_;
  double* values = K.valuePtr();
  std::fill(values, values + K.nonZeros(), 0.0);
  Eigen::VectorXd u_e;
  Eigen::MatrixXd K_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    K_e.resize(u_e.size(), u_e.size());
    elements_[e]->compute(u_e, nullptr, &K_e);
    const auto& slot = element_slot_[e];
    const Eigen::Index m = u_e.size();
    for (Eigen::Index b = 0; b < m; ++b)
      for (Eigen::Index a = 0; a < m; ++a) {
        const int s = slot[static_cast<std::size_t>(b * m + a)];
        if (s >= 0) values[s] += K_e(a, b);
      }
  }
  add_moments(q, lambda, nullptr, values);
}

void Model::dg_dlambda(const Vector& q, double /*lambda*/, Vector& out) const {
  out = -r_;
  if (!moments_.empty()) add_moments(q, -1.0, &out, nullptr);
}

DofKind Model::dof_kind(int i) const {
  const DofRef& d = eq_dof_[i];
  if (d.slot > 0 && nodes_[d.node].extra[static_cast<std::size_t>(d.slot - 1)].warping) return DofKind::Generic;
  const Component c = d.component;
  return static_cast<int>(c) < 3 ? DofKind::Translation : DofKind::Rotation;
}

double Model::kind_length(DofKind kind) const {
  if (kind == DofKind::Translation || nodes_.empty()) return 1.0;
  Eigen::Vector3d lo = nodes_.front().x, hi = lo;
  for (const auto& n : nodes_) {
    lo = lo.cwiseMin(n.x);
    hi = hi.cwiseMax(n.x);
  }
  double L = (hi - lo).maxCoeff();
  if (!(L > 0.0) || !std::isfinite(L)) L = 1.0;
  return kind == DofKind::Rotation ? L : L * L;
}

double Model::force_terms(const Vector& q, double /*lambda*/) const {
  // ‖ Σₑ |K_e| |y_e| ‖ with y_e the element's coordinates relative to its centre
  // (translations) and its rotations: the size of the terms of f_e (eq. 2.9a).
  Vector t = Vector::Zero(neq_);
  Eigen::VectorXd u_e, y;
  Eigen::MatrixXd K_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    const Eigen::Index m = u_e.size();
    K_e.resize(m, m);
    elements_[e]->compute(u_e, nullptr, &K_e);
    const auto& dofs = elements_[e]->dofs();
    y.resize(m);
    double centre[3] = {0.0, 0.0, 0.0};
    int count[3] = {0, 0, 0};
    for (Eigen::Index a = 0; a < m; ++a) {
      const int c = static_cast<int>(dofs[static_cast<std::size_t>(a)].component);
      const double x = c < 3 ? nodes_[dofs[static_cast<std::size_t>(a)].node].x[c] + u_e[a] : u_e[a];
      y[a] = x;
      if (c < 3) {
        centre[c] += x;
        ++count[c];
      }
    }
    double extent = 0.0;
    for (Eigen::Index a = 0; a < m; ++a) {
      const int c = static_cast<int>(dofs[static_cast<std::size_t>(a)].component);
      if (c < 3) {
        y[a] -= centre[c] / count[c];
        extent = std::max(extent, std::abs(y[a]));
      }
    }
    // Every translation at the element's extent: its direction is computed from the
    // coordinates, rounded to eps of its length in every component, not only along
    // the member (a column along y has cos(π/2) = 6e-17 for its x component: a shear
    // strain of 6e-17, whose moment on Lee's frame in units 1000 times larger was
    // 2e-9, above a floor that counted only the y offsets, and the start point was
    // "no equilibrium").
    for (Eigen::Index a = 0; a < m; ++a)
      if (static_cast<int>(dofs[static_cast<std::size_t>(a)].component) < 3) y[a] = extent;
    const auto& eq = element_eq_[e];
    for (Eigen::Index a = 0; a < m; ++a) {
      const int i = eq[static_cast<std::size_t>(a)];
      if (i >= 0) t[i] += (K_e.row(a).cwiseAbs() * y.cwiseAbs()).value();
    }
  }
  return t.norm();
}

std::string Model::dof_name(int i) const {
  const DofRef& d = eq_dof_[i];
  const Node& n = nodes_[d.node];
  if (d.slot > 0) {
    const ExtraDof& x = n.extra[d.slot - 1];
    const std::string s = "node " + std::to_string(n.id) + " " + (x.name.empty() ? to_string(d.component) : x.name);
    return x.label.empty() ? s : s + " (" + x.label + ")";
  }
  std::string s = "node " + std::to_string(n.id) + " " + to_string(d.component);
  return s;
}

std::string Model::degenerate_configuration(const Vector& q) const {
  if (q.size() != size()) return {};
  Eigen::VectorXd u_e;
  for (int e = 0; e < element_count(); ++e) {
    gather(e, q, u_e);
    if (std::string d = elements_[e]->degenerate(u_e); !d.empty()) return d;
  }
  return {};
}

std::string Model::chart_singularity(const Vector& q) const {
  if (dim_ != 3 || q.size() != size()) return {};
  for (const Node& n : nodes_) {
    Eigen::Vector3d psi = Eigen::Vector3d::Zero();
    for (int k = 0; k < 3; ++k) {
      const int e = n.eq[static_cast<int>(Component::Rx) + k];
      if (e >= 0) psi[k] = q[e];
    }
    const double turn = psi.norm();
    const double k = std::round(turn / (2.0 * M_PI));
    // Within 1e-6 relative: a point SPB converges to at the singularity is there to
    // round-off (|ψ| = 6.283185307179586 on the circle cantilever), while a critical
    // point of the structure has no reason to be (a node's rotation within 1e-3 of a
    // full turn happens to ~1 % of a helix's points).
    if (k >= 1.0 && std::abs(turn - 2.0 * M_PI * k) <= 1e-6 * 2.0 * M_PI * k)
      return "node " + std::to_string(n.id) + " has turned by |psi| = " + core::format_number(turn) + ", " +
             core::format_number(k) + " full turn(s): the rotation vector's chart is singular there (docs/notes/beam3d.md S.8)";
  }
  return {};
}

}  // namespace senda::model
