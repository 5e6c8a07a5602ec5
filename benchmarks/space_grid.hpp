#pragma once
// The double-layer space grid of bench_trusses and bench_factorization: square on
// diagonal square, nx × ny bays, pinned at the four bottom corners, uniform
// downward load on the top nodes, Green–Lagrange bars (EA = 1000).
#include <memory>

#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

namespace senda::benchmarks {

inline model::Model space_grid(int nx, int ny) {
  using namespace senda::model;
  const double a = 1.0, depth = 0.7;  // bay size and layer distance
  Model m(3);
  auto bottom = [&](int i, int j) { return i * (ny + 1) + j; };
  const int top0 = (nx + 1) * (ny + 1);
  auto top = [&](int i, int j) { return top0 + i * ny + j; };
  int id = 1;
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j) m.add_node(id++, {i * a, j * a, 0.0});
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) m.add_node(id++, {(i + 0.5) * a, (j + 0.5) * a, depth});
  int e = 1;
  auto bar = [&](int p, int q) {
    m.add_element(std::make_unique<TrussBar>(e++, 3, p, q, m.node_position(p), m.node_position(q), 1000.0,
                                             StrainMeasure::GreenLagrange));
  };
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j) {
      if (i < nx) bar(bottom(i, j), bottom(i + 1, j));
      if (j < ny) bar(bottom(i, j), bottom(i, j + 1));
    }
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      if (i + 1 < nx) bar(top(i, j), top(i + 1, j));
      if (j + 1 < ny) bar(top(i, j), top(i, j + 1));
      for (int di = 0; di <= 1; ++di)
        for (int dj = 0; dj <= 1; ++dj) bar(top(i, j), bottom(i + di, j + dj));
    }
  for (int i : {0, nx})
    for (int j : {0, ny})
      for (Component c : {Component::Ux, Component::Uy, Component::Uz}) m.fix(bottom(i, j), c);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) m.add_load(top(i, j), Component::Uz, -1.0);
  m.finalize();
  return m;
}


}  // namespace senda::benchmarks
