#pragma once
// The two-degree-of-freedom oscillator of seed 002 (§3.1 is missing from its text;
// the parameters are those of the LIM co-simulation benchmark it uses, issue 17):
// m1 = m2 = 1 kg, k1 = 10, kc = 100, k2 = 1000 N/m, no damping, x0 = (0, 0),
// v0 = (100, -100) m/s, so E0 = 10 000 J. Built as co-simulation units the way
// the seed's Tables 3 and 4 couple them.
#include <memory>
#include <vector>

#include "senda/cosim/linear_unit.hpp"
#include "senda/cosim/master.hpp"

namespace seed002 {

inline constexpr double m1 = 1.0, m2 = 1.0, k1 = 10.0, kc = 100.0, k2 = 1000.0, v10 = 100.0, v20 = -100.0;
inline constexpr double E0 = 0.5 * m1 * v10 * v10 + 0.5 * m2 * v20 * v20;

enum class Causality { ForceDisplacement, DisplacementDisplacement };

struct Case {
  senda::cosim::Scheme scheme = senda::cosim::Scheme::Jacobi;
  Causality causality = Causality::ForceDisplacement;
  int first = 0;          // Gauss–Seidel: 0 SS1 first, 1 SS2 first
  int y1_order = 0;       // "FOH y1" (SS1 column): order of the x1 that SS2's force output uses at t_{n+1}
  int u2_order = 0;       // "FOH u2" (SS2 column): order of x1 over SS2's micro steps
  double H = 1e-3, h1 = 1e-3, h2 = 1e-3, T = 10.0;
  senda::cosim::Integrator integrator = senda::cosim::Integrator::SymplecticEuler;
  int max_iterations = 1;
};

struct Coupled {
  std::vector<std::unique_ptr<senda::cosim::LinearUnit>> units;
  std::vector<senda::cosim::Connection> connections;
  senda::cosim::MasterOptions options;
  std::vector<senda::cosim::Unit*> pointers() const {
    std::vector<senda::cosim::Unit*> p;
    for (const auto& u : units) p.push_back(u.get());
    return p;
  }
};

inline senda::cosim::LinearUnit one_mass(double m, double k, double v0, const std::vector<senda::cosim::Port>& ports,
                                        senda::cosim::Integrator integ, double h) {
  senda::cosim::LinearSystem s;
  s.mass = Eigen::VectorXd::Constant(1, m);
  s.stiffness = Eigen::MatrixXd::Constant(1, 1, k);
  s.x0 = Eigen::VectorXd::Zero(1);
  s.v0 = Eigen::VectorXd::Constant(1, v0);
  return senda::cosim::LinearUnit(s, ports, integ, h);
}

// Output indices of a one-port unit: 0 x, 1 v, 2 f (Spring ports only).
inline Coupled coupled(const Case& c) {
  using namespace senda::cosim;
  Coupled r;
  const bool fd = c.causality == Causality::ForceDisplacement;
  const Port ss1_port = fd ? Port{"", 0, PortKind::Force, 0.0, 1.0} : Port{"", 0, PortKind::Spring, kc, 0.5};
  const Port ss2_port{"", 0, PortKind::Spring, kc, fd ? 1.0 : 0.5};
  r.units.push_back(std::make_unique<LinearUnit>(one_mass(m1, k1, v10, {ss1_port}, c.integrator, c.h1)));
  r.units.push_back(std::make_unique<LinearUnit>(one_mass(m2, k2, v20, {ss2_port}, c.integrator, c.h2)));
  // SS2's input is x1 (both causalities); SS1's input is SS2's force (f-d) or x2 (d-d).
  r.connections.push_back({1, 0, 0, 0, c.u2_order, c.y1_order});
  r.connections.push_back({0, 0, 1, fd ? 2 : 0, 0, 0});
  r.options.end_time = c.T;
  r.options.macro_step = c.H;
  r.options.scheme = c.scheme;
  if (c.scheme == Scheme::GaussSeidel) r.options.order = c.first == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0};
  r.options.max_iterations = c.max_iterations;
  return r;
}

// The whole system in one unit: M = I, K = [k1 + kc, −kc; −kc, k2 + kc].
inline senda::cosim::LinearUnit monolithic(senda::cosim::Integrator integ, double h) {
  senda::cosim::LinearSystem s;
  s.mass = Eigen::Vector2d(m1, m2);
  s.stiffness.resize(2, 2);
  s.stiffness << k1 + kc, -kc, -kc, k2 + kc;
  s.x0 = Eigen::Vector2d::Zero();
  s.v0 = Eigen::Vector2d(v10, v20);
  return senda::cosim::LinearUnit(s, {}, integ, h);
}

}  // namespace seed002
