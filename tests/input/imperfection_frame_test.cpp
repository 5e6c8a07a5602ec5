// model.imperfection on framed models: the mode file of a meshed beam moves its
// intermediate nodes too (before, such a file was refused: "the mode file moves
// node 3, which this model does not have", the intermediate nodes being made after
// the imperfection was read). Checked against the amplification of an initial
// crookedness in the shape of the buckling mode.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "senda/continuation/path_follower.hpp"
#include "senda/critical/branch.hpp"
#include "senda/input/builder.hpp"
#include "senda/model/model.hpp"
#include "senda/output/results.hpp"

using namespace senda;
using namespace senda::continuation;
using namespace senda::critical;
namespace fs = std::filesystem;

namespace {

// The Euler column of problems/euler-column.cfg (clamped–free, EI = L = 1, 16
// elements, nearly inextensible).
std::string column(const std::string& imperfection, double lambda_max) {
  return "[model]\nnode = 1 0.0 0.0\nnode = 2 0.0 1.0\nbeam = 1 1 2 1e5 1e5 1.0 16\nfix = 1 ux uy rz\n"
         "load = 2 uy -1.0\n" + imperfection +
         "[continuation]\nconstraint = spherical\ninitial_step = 0.05\nauto_scale = false\n"
         "residual_tolerance = 1e-9\n[stop]\nmax_steps = 400\nlambda_max = " + std::to_string(lambda_max) + "\n";
}

}  // namespace

TEST_CASE("a mode-shaped imperfection of a meshed column: every node moved, the deflection amplified by "
          "alpha/(1 - alpha)",
          "[input][imperfection][frame]") {
  const fs::path dir = fs::temp_directory_path() / "senda_imperfection_frame_test";
  fs::remove_all(dir);
  // The perfect column: BP1 and its mode, written as trace writes it.
  const input::Spec perfect = input::build(input::Config::parse(column("", 3.0), "column.cfg"));
  PathFollower pf(*perfect.model, perfect.analysis.explorer.path);
  REQUIRE(pf.start(Vector::Zero(perfect.model->size()), 0.0));
  CriticalPointFinder finder(FinderOptions{});
  while (pf.advance() && finder.points().empty()) finder.check(pf, 0);
  REQUIRE(finder.points().size() == 1);
  CriticalPoint bp = finder.points()[0];
  REQUIRE(bp.converged);
  bp.id = "BP1";
  output::write_mode(dir, *perfect.model, bp);
  const double lc = bp.lambda;  // 2.4713701 (16 elements)
  CHECK(lc == Approx(2.4713701).epsilon(1e-7));
  const int tip_ux = perfect.model->equation(1, model::Component::Ux);
  const double phi_tip = bp.phi[tip_ux] / bp.phi.cwiseAbs().maxCoeff();

  const double e = 1e-4;
  const input::Spec imperfect = input::build(input::Config::parse(
      column("imperfection = " + (dir / "modes" / "BP1.csv").string() + " 1e-4\n", 2.2), "imperfect.cfg"));
  // Every node moved by e φ: the tip and the intermediate nodes (ids 3 … 17).
  REQUIRE(imperfect.model->node_count() == perfect.model->node_count());
  double moved = 0.0;
  for (int k = 0; k < imperfect.model->node_count(); ++k) {
    const Eigen::Vector3d d = imperfect.model->node_position(k) - perfect.model->node_position(k);
    const int eq = perfect.model->equation(k, model::Component::Ux);
    const double expect = eq >= 0 ? e * bp.phi[eq] / bp.phi.cwiseAbs().maxCoeff() : 0.0;
    INFO("node " << imperfect.model->node_id(k));
    CHECK(d.x() == Approx(expect).margin(1e-15));
    moved = std::max(moved, std::abs(d.x()));
  }
  CHECK(moved > 0.5 * e);
  // Initial crookedness e φ in the shape of the buckling mode: the additional
  // deflection under P is e φ α/(1 − α), α = P/P_cr (Timoshenko & Gere 1961 §1.12,
  // initially curved bars; for the discrete model too when the crookedness is its
  // own mode, up to the nonlinear terms, relative O(e)). Measured: relative
  // deviation 1.1e-9 at α = 0.02, 1.1e-8 at α = 0.50, 4.8e-8 at α = 0.69.
  PathFollower ip(*imperfect.model, imperfect.analysis.explorer.path);
  REQUIRE(ip.start(Vector::Zero(imperfect.model->size()), 0.0));
  int checked = 0;
  while (ip.advance() && ip.current().lambda < 0.85 * lc) {
    const double a = ip.current().lambda / lc;
    const double predicted = e * phi_tip * a / (1.0 - a);
    INFO("lambda " << ip.current().lambda << " tip ux " << ip.current().q[tip_ux] << " predicted " << predicted);
    CHECK(ip.current().q[tip_ux] == Approx(predicted).epsilon(1e-6));
    ++checked;
  }
  CHECK(checked >= 5);
  fs::remove_all(dir);
}

TEST_CASE("a mode-shaped imperfection of a 3D member: intermediate nodes moved; a node the model does not have "
          "is named",
          "[input][imperfection][frame3d]") {
  const fs::path dir = fs::temp_directory_path() / "senda_imperfection_frame3d_test";
  fs::create_directories(dir);
  const std::string model =
      "[model]\ndim = 3\nnode = 1 0 0 0\nnode = 2 0 0 2\n"
      "beam = 1 1 2 1e4 1e4 1e4 1.0 1.0 1.0 1 0 0 4\nfix = 1 all rx ry rz\nfix = 2 ux uy rx ry rz\n"
      "load = 2 uz -1\n";
  auto build_with = [&](const std::string& rows) {
    const fs::path f = dir / "mode.csv";
    std::ofstream(f) << "equation,dof,phi\n" << rows;
    return input::build(input::Config::parse(model + "imperfection = " + f.string() + " 0.01\n", "m.cfg"));
  };
  // Intermediate nodes 3, 4, 5 at z = 0.5, 1, 1.5: node 4 moved along x and y; the
  // top (node 2) along x, which leaves 3 and 5 (no rows) on the perfect member.
  const input::Spec s = build_with("0,node 4 ux,1\n1,node 4 uy,-0.5\n2,node 4 rx,1\n3,node 2 ux,2\n");
  int found = 0;
  for (int k = 0; k < s.model->node_count(); ++k) {
    const Eigen::Vector3d x = s.model->node_position(k);
    if (s.model->node_id(k) == 4) {
      CHECK(x.x() == Approx(0.01).margin(1e-15));
      CHECK(x.y() == Approx(-0.005).margin(1e-15));
      CHECK(x.z() == Approx(1.0).margin(1e-15));
      ++found;
    } else if (s.model->node_id(k) == 3 || s.model->node_id(k) == 5) {
      CHECK(x.x() == Approx(0.0).margin(1e-15));
      CHECK(x.y() == Approx(0.0).margin(1e-15));
      CHECK(x.z() == Approx(s.model->node_id(k) == 3 ? 0.5 : 1.5).margin(1e-15));
      ++found;
    } else if (s.model->node_id(k) == 2) {
      CHECK(x.x() == Approx(0.02).margin(1e-15));
      CHECK(x.z() == 2.0);
    }
  }
  CHECK(found == 3);
  // A node beyond the model's (ids 1 … 5), at the imperfection's line (9).
  CHECK_THROWS_WITH(build_with("0,node 6 ux,1\n"),
                    Catch::Contains("m.cfg:9:") && Catch::Contains("model.imperfection") &&
                        Catch::Contains("the mode file moves node 6, which this model does not have"));
  fs::remove_all(dir);
}
