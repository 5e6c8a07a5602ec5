#pragma once
// Seed 003's Truss1 (§4.2), shared by the dynamics tests: a mass m = 1 on a bar
// (EA = 100, l₀ = 1, Hencky strain by default) hinged at the origin, starting at
// (1, 0) with velocity (0, 5).
#include <memory>

#include "senda/dynamics/mass.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

namespace test {

struct Truss1 {
  std::shared_ptr<senda::model::Model> m = std::make_shared<senda::model::Model>(2);
  int free = 0;
  explicit Truss1(senda::model::StrainMeasure s = senda::model::StrainMeasure::Logarithmic) {
    using senda::model::Component;
    const int o = m->add_node(1, {0, 0, 0});
    free = m->add_node(2, {1, 0, 0});
    m->add_element(std::make_unique<senda::model::TrussBar>(1, 2, o, free, m->node_position(o),
                                                            m->node_position(free), 100.0, s));
    m->fix(o, Component::Ux);
    m->fix(o, Component::Uy);
    m->finalize();
  }
  senda::SparseMatrix mass() const { return senda::dynamics::mass_matrix(*m, {{{free, 1.0, 0.0}}}); }
  senda::Vector v0() const {
    senda::Vector v = senda::Vector::Zero(2);
    v[m->equation(free, senda::model::Component::Uy)] = 5.0;
    return v;
  }
};

}  // namespace test
