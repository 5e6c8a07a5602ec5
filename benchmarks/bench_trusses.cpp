// Truss benchmark: a generated double-layer space grid (square on diagonal
// square), nx × ny bays, pinned at the four bottom corners, uniform downward load
// on the top nodes, Green–Lagrange bars. Traced with the spherical arc length for
// a fixed number of steps. Prints JSON like bench_bratu.
//
//   bench_trusses                 grids 10×10, 30×30 (--grid 60 alone: 21 951 unknowns, 4–6 s
//                                 by host, docs/performance.md)
//   bench_trusses --grid 40 [--grid 80 ...] [--steps 30] [--solver auto|cholmod|mumps]
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "runner.hpp"
#include "space_grid.hpp"
#include "blas_kernel.hpp"

using namespace senda;
using namespace senda::model;

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);  // first: it may execute the program again
  senda_app::unblock_stop_signals();    // no handler here: Ctrl-C ends a benchmark
  std::vector<int> grids;
  int steps = 30;
  linalg::Solver solver = linalg::Solver::Auto;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) {
      grids.push_back(std::atoi(argv[++i]));
    } else if (a == "--steps" && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (a == "--solver" && i + 1 < argc && linalg::solver_from_string(argv[i + 1])) {
      solver = *linalg::solver_from_string(argv[++i]);
    } else {
      std::cerr << "usage: bench_trusses [--grid N]... [--steps S] [--solver auto|cholmod|mumps]\n";
      return 2;
    }
  }
  if (grids.empty()) grids = {10, 30};
  nlohmann::json runs = nlohmann::json::array();
  for (int g : grids) {
    Model m = benchmarks::space_grid(g, g);
    continuation::Options o;
    o.initial_load_increment = 0.05;
    o.max_steps = steps;
    o.linear_solver = solver;
    runs.push_back(benchmarks::run_path("space-grid-" + std::to_string(g) + "x" + std::to_string(g), m, o,
                                        Vector::Zero(m.size()), 0.0));
    runs.back()["elements"] = m.element_count();
    std::cerr << "grid " << g << ": " << runs.back()["time_s"]["total"] << " s\n";
  }
  std::cout << runs.dump(2) << std::endl;
  return 0;
}
