// Design studies from a .cfg (Analysis::run with input::design_parameters,
// docs/config.md [design]): the
// sensitivities written in summary.json and the curves of critical points
// ([design] follow) of tests/design/von-mises-h.cfg, against the closed form
//   λ_L(h) = ±(2/(3√3)) EA h³/(a² + h²)^{3/2}   (a = EA = 1; the apex held in x)
// and its derivative dλ_L/dh = ±3 (2/(3√3)) h²/(1 + h²)^{5/2}.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "senda/analysis/observer.hpp"
#include "senda/analysis/result.hpp"
#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/output/studies.hpp"

using namespace senda;
using namespace senda::input;
namespace fs = std::filesystem;

#include "support/test_files.hpp"
#include "support/trace_run.hpp"

using senda::test::scratch;
using senda::testing::run_into;

namespace {
const std::string kSource = SENDA_SOURCE_DIR;
const double kC = 2.0 / (3.0 * std::sqrt(3.0));
double limit_load(double h) { return kC * std::pow(h, 3) / std::pow(1 + h * h, 1.5); }
double limit_slope(double h) { return 3 * kC * h * h / std::pow(1 + h * h, 2.5); }

// The config with the overrides applied (the design parameters need it besides the Spec).
Config read_config(const std::string& file, const std::vector<std::string>& overrides = {}) {
  Config c = Config::read_file(file);
  for (const std::string& o : overrides) c.apply_override(o);
  return c;
}

// The curve events; optionally a stop request inside the curves.
struct CurveEvents final : analysis::Observer {
  bool in_curve = false;
  int curves_done = 0, polls = 0;
  int stop_after_polls = -1;  // inside a curve, stop once polled more than this (-1: never)
  void on_curve_start(const analysis::CurveRecord&) override { in_curve = true; }
  void on_curve_end(const analysis::CurveRecord&) override { ++curves_done; }
  bool stop_requested() override { return stop_after_polls >= 0 && in_curve && ++polls > stop_after_polls; }
};
}  // namespace

TEST_CASE("trace with [design]: sensitivities in summary.json, curves of LP1 and LP2 on the closed form",
          "[analysis][study]") {
  const Config config = read_config(kSource + "/tests/design/von-mises-h.cfg",
                             {"design.follow=LP1,LP2", "design.mu_min=0.3", "design.mu_max=1.2"});
  const Spec spec = build(config);
  const fs::path dir = scratch("study-von-mises");
  CurveEvents ev;
  const analysis::TraceResult s = run_into(spec, dir, &config, &ev);
  REQUIRE(s.critical_points.size() == 2);
  CHECK(ev.curves_done == 4);  // two points, both directions

  const nlohmann::json j = nlohmann::json::parse(senda::test::slurp(dir / "summary.json"));
  const double h = 0.5;
  for (int k = 0; k < 2; ++k) {
    const auto& cp = j["critical_points"][k];
    REQUIRE(cp.contains("sensitivities"));
    REQUIRE(cp["sensitivities"].size() == 1);
    const auto& sj = cp["sensitivities"][0];
    CHECK(sj["parameter"] == "h");
    CHECK(sj["valid"] == true);
    const double sign = k == 0 ? 1.0 : -1.0;  // LP1 the maximum, LP2 the minimum
    CHECK(std::abs(sj["dlambda_dmu"].get<double>() - sign * limit_slope(h)) <= 1e-7 * limit_slope(h));
  }
  REQUIRE(j["curves"].size() == 4);
  for (const auto& c : j["curves"]) {
    INFO(c.dump());
    CHECK(c["termination"] == "mu-range");
    CHECK(c["events"].empty());
    const std::string file = c["file"];
    std::istringstream csv(senda::test::slurp(dir / file));
    std::string line;
    std::getline(csv, line);
    CHECK(line == "point,h,lambda,kind,iterations,residual,arclength,u_2_uy");
    const double sign = c["point"] == "LP1" ? 1.0 : -1.0;
    int rows = 0;
    double mu_first = 0, mu_last = 0;
    while (std::getline(csv, line)) {
      std::istringstream f(line);
      std::string cell[8];
      for (auto& x : cell) std::getline(f, x, ',');
      const double mu = std::stod(cell[1]), lambda = std::stod(cell[2]);
      CHECK(cell[3] == "limit");
      CHECK(std::abs(lambda - sign * limit_load(mu)) <= 1e-9 * limit_load(mu));
      // The apex drop at the limit points: w = h(1 ∓ 1/√3).
      const double w = mu * (1 - sign / std::sqrt(3.0));
      CHECK(std::abs(-std::stod(cell[7]) - w) <= 1e-7 * mu);
      if (rows == 0) mu_first = mu;
      mu_last = mu;
      ++rows;
    }
    CHECK(rows == c["points"].get<int>());
    CHECK(mu_first == 0.5);
    if (c["direction"] == "up")
      CHECK(mu_last > 1.2);
    else
      CHECK(mu_last < 0.3);
  }
}

TEST_CASE("[design] follow: a stop request inside a curve keeps its points and ends the run as interrupted",
          "[analysis][study][interrupt]") {
  const Config config = read_config(kSource + "/tests/design/von-mises-h.cfg",
                             {"design.follow=LP1,LP2", "design.mu_min=0.3", "design.mu_max=1.2"});
  const Spec spec = build(config);
  const fs::path dir = scratch("study-interrupted");
  // The path itself runs to its end; inside the first curve the 31st poll stops
  // (polled before each point and in each locator iteration): a few points kept.
  CurveEvents ev;
  ev.stop_after_polls = 30;
  const analysis::TraceResult s = run_into(spec, dir, &config, &ev);
  CHECK(s.termination == continuation::Termination::Interrupted);
  CHECK(trace_app::exit_code(s.termination) == 130);
  REQUIRE(s.critical_points.size() == 2);
  REQUIRE(s.curves.size() == 1);  // LP1 up; the other three not started
  CHECK(ev.curves_done == 1);
  const analysis::CurveRecord& c = s.curves[0];
  CHECK(c.point == "LP1");
  CHECK(c.followed);
  CHECK(c.curve.termination == critical::CurveTermination::Interrupted);
  REQUIRE(c.curve.points.size() >= 2);
  CHECK(c.curve.points.size() <= 31);
  CHECK(c.curve.message == "interrupted after " + std::to_string(c.curve.points.size()) + " points");
  for (const critical::CurvePoint& p : c.curve.points)
    CHECK(std::abs(p.lambda - limit_load(p.mu)) <= 1e-9 * limit_load(p.mu));
  CHECK(c.curve.points.back().mu > 0.5);

  // The curve file holds those points; summary.json says interrupted.
  const nlohmann::json j = nlohmann::json::parse(senda::test::slurp(dir / "summary.json"));
  CHECK(j["termination"] == "interrupted");
  REQUIRE(j["curves"].size() == 1);
  CHECK(j["curves"][0]["file"] == output::curve_file(c).generic_string());
  CHECK(j["curves"][0]["termination"] == "interrupted");
  CHECK(j["curves"][0]["points"] == c.curve.points.size());
  std::istringstream csv(senda::test::slurp(dir / j["curves"][0]["file"].get<std::string>()));
  std::string line;
  std::getline(csv, line);
  CHECK(line == "point,h,lambda,kind,iterations,residual,arclength,u_2_uy");
  int rows = 0;
  while (std::getline(csv, line)) {
    std::istringstream f(line);
    std::string cell[3];
    for (auto& x : cell) std::getline(f, x, ',');
    CHECK(std::stod(cell[1]) == Approx(c.curve.points[rows].mu).epsilon(1e-15));
    CHECK(std::stod(cell[2]) == Approx(c.curve.points[rows].lambda).epsilon(1e-15));
    ++rows;
  }
  CHECK(rows == static_cast<int>(c.curve.points.size()));
}

TEST_CASE("[design] follow: a point the run did not find is a curve with bad-start, not an error",
          "[analysis][study]") {
  const Config config = read_config(kSource + "/tests/design/von-mises-h.cfg", {"design.follow=BP7", "design.direction=up"});
  const Spec spec = build(config);
  const fs::path dir = scratch("study-missing");
  const analysis::TraceResult s = run_into(spec, dir, &config);
  REQUIRE(s.curves.size() == 1);
  CHECK_FALSE(s.curves[0].followed);
  CHECK(output::curve_file(s.curves[0]).empty());
  CHECK(s.curves[0].curve.termination == critical::CurveTermination::BadStart);
  CHECK(s.curves[0].curve.message == "no critical point BP7 in this run");
  CHECK_FALSE(fs::exists(dir / "curves"));
}

TEST_CASE("[design] follow: bad ids and a missing design parameter are errors at their line", "[analysis][study]") {
  const std::string base = senda::test::slurp(kSource + "/tests/design/von-mises-h.cfg");
  CHECK_THROWS_WITH(build(Config::parse(base + "\n[design]\nfollow = LP1 X3\n", "vm.cfg")),
                    Catch::Contains("key 'design.follow': 'X3' is not a critical point id"));
  std::string no_param = base;
  no_param.replace(no_param.find("parameter = h"), 13, "follow = LP1");
  CHECK_THROWS_WITH(build(Config::parse(no_param, "vm.cfg")),
                    Catch::Contains("a curve of critical points needs a design parameter"));
}

TEST_CASE("imperfection study: a stop request ends it with the amplitudes done so far", "[analysis][study][interrupt]") {
  const Config config = Config::read_file(kSource + "/tests/design/von-mises-imperfect.cfg");
  const Spec reference = build(config);
  const ConfigFamily family(config, "eps", reference);
  // Polled before the perfect structure, before each amplitude and inside each
  // path (issue 20): asked once the second amplitude's model is built (the
  // perfect structure, 1e-6, 1e-5), it stops inside that amplitude, which is dropped.
  const analysis::ImperfectionRun r = analysis::imperfection_study(
      family, "eps", {1e-6, 1e-5, 1e-4}, reference.analysis.explorer.path, reference.analysis.explorer.finder,
      [&] { return family.builds() >= 3; });
  CHECK(r.study.interrupted);
  REQUIRE(r.study.points.size() == 1);
  CHECK(r.study.points[0].found);
  CHECK(r.study.points[0].lambda_max < r.study.lambda_perfect);
  CHECK(output::imperfection_json(r).find("\"interrupted\": true") != std::string::npos);
  // Without a stop request every amplitude is traced and the key is absent.
  const analysis::ImperfectionRun all = analysis::imperfection_study(
      family, "eps", {1e-6, 1e-5}, reference.analysis.explorer.path, reference.analysis.explorer.finder);
  CHECK_FALSE(all.study.interrupted);
  CHECK(all.study.points.size() == 2);
  CHECK(output::imperfection_json(all).find("interrupted") == std::string::npos);
}

TEST_CASE("[design] a stiffness of a straight member keeps the bifurcation: its sensitivity and curve",
          "[analysis][study]") {
  // dg/dEI at the Euler column's bifurcation is the round-off of two residuals (the
  // column is straight): its direction is noise, and its cosine with phi (0.24) called
  // EI an imperfection, with no sensitivity and both curves bad-start.
  const Config config = read_config(kSource + "/tests/design/euler-column-ei.cfg",
                                    {"design.follow=BP1", "design.mu_max=2", "branches.switch=false"});
  const Spec spec = build(config);
  const fs::path dir = scratch("study-euler-ei");
  CurveEvents ev;
  const analysis::TraceResult s = run_into(spec, dir, &config, &ev);
  const nlohmann::json j = nlohmann::json::parse(senda::test::slurp(dir / "summary.json"));
  REQUIRE(j["critical_points"].size() >= 1);
  const auto& cp = j["critical_points"][0];
  REQUIRE(cp["id"] == "BP1");
  const double lambda = cp["lambda"].get<double>();
  const auto& sj = cp["sensitivities"][0];
  INFO(sj.dump());
  CHECK(sj["valid"] == true);
  CHECK(sj["phi_dot_dg_dmu"].get<double>() == 0.0);
  CHECK(std::abs(sj["dlambda_dmu"].get<double>() - lambda) <= 1e-4 * lambda);  // lambda / EI at EI = 1
  bool up = false;
  for (const auto& c : j["curves"])
    if (c["direction"] == "up") {
      up = true;
      INFO(c.dump());
      CHECK(c["termination"] == "mu-range");
    }
  CHECK(up);
}
