// Truss benchmark: a generated double-layer space grid (square on diagonal
// square), nx × ny bays, pinned at the four bottom corners, uniform downward load
// on the top nodes, Green–Lagrange bars. Traced with the spherical arc length for
// a fixed number of steps. Prints JSON like bench_bratu.
//
//   bench_trusses                 grids 10×10, 30×30 (add --grid 60: about 1.5 min)
//   bench_trusses --grid 40 [--grid 80 ...] [--steps 30]
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "runner.hpp"
#include "senda/model/model.hpp"
#include "senda/model/truss.hpp"

using namespace senda;
using namespace senda::model;

namespace {

Model space_grid(int nx, int ny) {
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

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> grids;
  int steps = 30;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) {
      grids.push_back(std::atoi(argv[++i]));
    } else if (a == "--steps" && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: bench_trusses [--grid N]... [--steps S]\n";
      return 2;
    }
  }
  if (grids.empty()) grids = {10, 30};
  nlohmann::json runs = nlohmann::json::array();
  for (int g : grids) {
    Model m = space_grid(g, g);
    continuation::Options o;
    o.initial_load_increment = 0.05;
    o.max_steps = steps;
    runs.push_back(benchmarks::run_path("space-grid-" + std::to_string(g) + "x" + std::to_string(g), m, o,
                                        Vector::Zero(m.size()), 0.0));
    runs.back()["elements"] = m.element_count();
    std::cerr << "grid " << g << ": " << runs.back()["time_s"]["total"] << " s\n";
  }
  std::cout << runs.dump(2) << std::endl;
  return 0;
}
