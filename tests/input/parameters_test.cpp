// Named parameters (${NAME}, ${expression}), the design API (parameters,
// with_parameter, build with values) and sweeps (lib/input/parameters, the
// sweep records of lib/analysis/studies, the files of lib/output/studies and
// the trace command's --sweep, apps/trace/sweep.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <algorithm>
#include <cstdlib>

#include "app.hpp"
#include "senda/analysis/studies.hpp"
#include "senda/input/expression.hpp"
#include "senda/input/parameters.hpp"
#include "senda/output/studies.hpp"
#include "support/test_files.hpp"
#include "support/trace_run.hpp"
#include "support/config_errors.hpp"

using namespace senda;
using namespace senda::input;
namespace fs = std::filesystem;

namespace {
std::string error_of(const std::string& text) { return senda::test::parse_error(text, "p.cfg"); }
double eval(const std::string& s) {
  return evaluate_expression(s, [](std::string_view n) -> std::optional<double> {
    if (n == "H") return 2.0;
    if (n == "EA") return 1e6;
    return std::nullopt;
  });
}
std::string expr_error(const std::string& s) {
  try {
    eval(s);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "";
}
const std::string kTruss =
    "[parameters]\nH = 0.5\nEA = 2\n"
    "[model]\nnode = 1 -1 0\nnode = 2 0 ${H}\nnode = 3 1 0\n"
    "truss = 1 1 2 ${EA}\ntruss = 2 2 3 ${2*EA}\nfix = 1 all\nfix = 3 all\nfix = 2 ux\nload = 2 uy -1\n"
    "[continuation]\ninitial_step = ${0.01 * H}\n";
}  // namespace

TEST_CASE("expression: precedence, associativity, functions", "[input][parameters][expression]") {
  CHECK(eval("1 + 2 * 3") == 7.0);
  CHECK(eval("(1 + 2) * 3") == 9.0);
  CHECK(eval("2 ^ 3 ^ 2") == 512.0);  // right-associative
  CHECK(eval("-2 ^ 2") == -4.0);      // ^ binds tighter than unary minus
  CHECK(eval("2 ^ -1") == 0.5);
  CHECK(eval("10 - 4 - 3") == 3.0);   // left-associative
  CHECK(eval("12 / 3 / 2") == 2.0);
  CHECK(eval("--3") == 3.0);
  CHECK(eval("H * EA") == 2e6);
  CHECK(eval("1.5e-3 * 2") == Approx(3e-3).epsilon(1e-15));
  CHECK(eval("sqrt(H + 2)") == 2.0);
  CHECK(eval("cos(pi)") == -1.0);
  CHECK(eval("sin(pi / 2)") == 1.0);
  CHECK(eval("tan(0)") == 0.0);
  CHECK(eval(" 3 ") == 3.0);
}

TEST_CASE("expression: errors", "[input][parameters][expression]") {
  CHECK_THAT(expr_error("1 / (H - 2)"), Catch::Contains("division by zero"));
  CHECK_THAT(expr_error("2 *"), Catch::Contains("expression ends"));
  CHECK_THAT(expr_error("(1 + 2"), Catch::Contains("expected ')'"));
  CHECK_THAT(expr_error("1 2"), Catch::Contains("unexpected '2'"));
  CHECK_THAT(expr_error("X + 1"), Catch::Contains("unknown parameter 'X'"));
  CHECK_THAT(expr_error("sqrt(-1)"), Catch::Contains("sqrt of a negative"));
  CHECK_THAT(expr_error("10 ^ 400"), Catch::Contains("not a finite number"));
  CHECK_THAT(expr_error("1.2.3"), Catch::Contains("malformed number"));
  CHECK_THAT(expr_error("sqrt 2"), Catch::Contains("expected '(' after sqrt"));
  CHECK_THAT(expr_error(""), Catch::Contains("expression ends"));
  CHECK_THAT(expr_error(std::string(200, '(') + "1" + std::string(200, ')')), Catch::Contains("nested deeper"));
  CHECK_THAT(expr_error(std::string(10000, '-') + "1"), Catch::Contains("nested deeper"));
  try {
    eval("Q");
  } catch (const ExpressionError& e) {
    CHECK(e.name() == "Q");
  }
}

TEST_CASE("parameters: substitution into values, before validation", "[input][parameters][config]") {
  const Config c = Config::parse(kTruss, "p.cfg");
  const auto nodes = c.all("model.node");
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[1]->value == "2 0 0.5");
  CHECK(nodes[1]->raw == "2 0 ${H}");
  CHECK(nodes[0]->raw.empty());
  CHECK(c.all("model.truss")[1]->value == "2 2 3 4");
  CHECK(*c.real("continuation.initial_step") == 0.005);
  CHECK(*c.parameter("H") == 0.5);
  CHECK_FALSE(c.parameter("Z"));
  const auto p = parameters(c);
  REQUIRE(p.size() == 2);
  CHECK(p[0] == std::make_pair(std::string("H"), 0.5));
  CHECK(p[1] == std::make_pair(std::string("EA"), 2.0));
  CHECK(design_parameters(c).empty());
  SECTION("a parameter may be defined after its use") {
    const Config d = Config::parse("[stop]\nmax_steps = ${n}\n[parameters]\nn = 7\n", "p.cfg");
    CHECK(*d.integer("stop.max_steps") == 7);
  }
  SECTION("the substituted number reads back exactly") {
    const Config d = Config::parse("[parameters]\nx = 0.1\n[continuation]\ninitial_step = ${x/3}\n", "p.cfg");
    CHECK(*d.real("continuation.initial_step") == 0.1 / 3);
  }
  SECTION("overriding a parameter substitutes again") {
    Config d = c;
    d.apply_override("parameters.H=0.75");
    CHECK(d.all("model.node")[1]->value == "2 0 0.75");
    CHECK(*d.real("continuation.initial_step") == 0.0075);
    const Config e = with_parameter(c, "EA", 3.0);
    CHECK(e.all("model.truss")[0]->value == "1 1 2 3");
    CHECK(e.all("model.truss")[1]->value == "2 2 3 6");
    CHECK(*c.parameter("EA") == 2.0);  // the original is unchanged
  }
  SECTION("[design] parameter names parameters") {
    const Config d = Config::parse(kTruss + "[design]\nparameter = EA\nparameter = H\nparameter = EA\n", "p.cfg");
    CHECK(design_parameters(d) == std::vector<std::string>{"EA", "H"});
  }
}

TEST_CASE("parameters: errors name file, line, key and the parameter", "[input][parameters][config]") {
  CHECK(error_of("[parameters]\nH = 1\n[stop]\nmax_steps = ${G}\n") ==
        "p.cfg:4: key 'stop.max_steps': unknown parameter 'G' in '${G}' (valid: parameters H)");
  CHECK_THAT(error_of("[parameters]\nH = 1\n[stop]\nmax_steps = ${H*}\n"),
             Catch::StartsWith("p.cfg:4: key 'stop.max_steps': in '${H*}': expected a number"));
  CHECK_THAT(error_of("[parameters]\nH = 1\n[continuation]\ninitial_step = ${1/(H-1)}\n"),
             Catch::StartsWith("p.cfg:4: key 'continuation.initial_step': in '${1/(H-1)}': division by zero"));
  CHECK_THAT(error_of("[parameters]\nH = 1\n[continuation]\ninitial_step = ${H\n"),
             Catch::StartsWith("p.cfg:4: key 'continuation.initial_step': unclosed '${'"));
  // The usual validation after substitution, at the line of the value.
  CHECK(error_of("[parameters]\nH = 1\n[continuation]\ninitial_step = ${-H}\n") ==
        "p.cfg:4: key 'continuation.initial_step': value -1 is out of range (valid: (0, inf))");
  CHECK_THAT(error_of("[parameters]\nn = 2.5\n[stop]\nmax_steps = ${n}\n"),
             Catch::StartsWith("p.cfg:4: key 'stop.max_steps': expected an integer, found '2.5'"));
  CHECK_THAT(error_of("[parameters]\nH = abc\n"), Catch::StartsWith("p.cfg:2: key 'parameters.H': expected a number"));
  CHECK_THAT(error_of("[parameters]\nH = ${1}\n"), Catch::Contains("a parameter's value is a number"));
  CHECK_THAT(error_of("[parameters]\n2H = 1\n"), Catch::StartsWith("p.cfg:2: key 'parameters.2H': malformed parameter name"));
  CHECK_THAT(error_of("[parameters]\npi = 3\n"), Catch::Contains("a name of the expression syntax"));
  CHECK_THAT(error_of("[parameters]\nH = 1\nH = 2\n"), Catch::Contains("given twice"));
  CHECK_THAT(error_of("[parameters]\nH = 1\n[design]\nparameter = G\n"),
             Catch::StartsWith("p.cfg:4: key 'design.parameter': 'G' is not a parameter"));
  Config c = Config::parse(kTruss, "p.cfg");
  try {
    c.apply_override("parameters.Z=1");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(e.file() == kCommandLine);
    CHECK_THAT(e.what(), Catch::Contains("unknown parameter 'Z'"));
    CHECK_THAT(e.what(), Catch::Contains("H, EA"));
  }
  // An override that makes a value invalid is reported at the value's line.
  try {
    c.apply_override("parameters.H=-1");
    c.apply_override("continuation.initial_step=${0.01*H}");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "continuation.initial_step");
  }
  // The option table: one row for every [parameters] key, never suggested.
  REQUIRE(find_option("parameters.anything") != nullptr);
  CHECK(std::string(find_option("parameters.anything")->key) == kParameterRow);
  CHECK(find_option("parameters.") == nullptr);
  CHECK(nearest_key("parameters.NAM") != kParameterRow);
}

TEST_CASE("design: build with parameter values keeps the topology", "[input][parameters]") {
  const Config c = Config::parse(kTruss, "p.cfg");
  const Spec a = build(c);
  const Spec b = build(c, {{"H", 0.8}});
  REQUIRE(b.model->size() == a.model->size());
  CHECK(b.model->node_position(1)[1] == 0.8);
  CHECK(a.model->node_position(1)[1] == 0.5);
  // A parameter that changes the number of elements is refused.
  const Config m = Config::parse(
      "[parameters]\nn = 2\n[model]\nnode = 1 0 0\nnode = 2 1 0\nbeam = 1 1 2 100 100 1 ${n}\nfix = 1 all\n"
      "fix = 1 rz\nload = 2 uy -1\n",
      "m.cfg");
  const Spec ref = build(m);
  try {
    build(m, {{"n", 3}}, ref);
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(e.line() == 2);
    CHECK(e.key() == "parameters.n");
    CHECK_THAT(e.what(), Catch::Contains("topology"));
  }
}

TEST_CASE("sweep: specification and values", "[input][parameters][sweep]") {
  const Config c = Config::parse(kTruss, "p.cfg");
  const analysis::SweepSpec s = parse_sweep("H=30:45:16", c);
  CHECK(s.parameter == "H");
  CHECK(s.count == 16);
  CHECK_FALSE(s.log);
  const auto v = analysis::sweep_values(s);
  REQUIRE(v.size() == 16);
  CHECK(v.front() == 30.0);
  CHECK(v[1] == 31.0);
  CHECK(v.back() == 45.0);
  const auto l = analysis::sweep_values(parse_sweep("EA=1e-4:1e-2:3:log", c));
  REQUIRE(l.size() == 3);
  CHECK(l[1] == Approx(1e-3).epsilon(1e-14));
  // The values a user typed, to the last digit (0.1 + 0.3 · 2/3 was 0.30000000000000004
  // in sweep.csv, a log sweep's 1e-5 was 9.999999999999997e-06).
  CHECK(analysis::sweep_values(parse_sweep("H=0.1:0.4:4", c)) == std::vector<double>{0.1, 0.2, 0.3, 0.4});
  CHECK(analysis::sweep_values(parse_sweep("EA=1e-6:1e-3:4:log", c)) == std::vector<double>{1e-6, 1e-5, 1e-4, 1e-3});
  CHECK(analysis::sweep_values(parse_sweep("H=-0.3:0.3:3", c)) == std::vector<double>{-0.3, 0.0, 0.3});
  CHECK(analysis::sweep_values(parse_sweep("EA=1e-10:1e-8:3:log", c)) == std::vector<double>{1e-10, 1e-9, 1e-8});
  CHECK(analysis::sweep_values(parse_sweep("EA=-0.35:0.7:4", c)) == std::vector<double>{-0.35, 0.0, 0.35, 0.7});
  // Where 15 digits would move a value by its spacing, it is left as computed.
  const auto close = analysis::sweep_values(parse_sweep("H=1:1.00000000000001:3", c));
  CHECK(close[1] > close[0]);
  CHECK(close[1] < close[2]);
  CHECK(analysis::sweep_values(parse_sweep("H=2:2:1", c)) == std::vector<double>{2.0});
  auto err = [&](const std::string& t) {
    try {
      parse_sweep(t, c);
    } catch (const ConfigError& e) {
      CHECK(e.key() == "--sweep");
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err("Q=1:2:3"), Catch::Contains("'Q' is not a parameter"));
  CHECK_THAT(err("H=1:2"), Catch::Contains("expected START:STOP:COUNT"));
  CHECK_THAT(err("H=1:x:3"), Catch::Contains("STOP: expected a finite number"));
  CHECK_THAT(err("H=1:2:0"), Catch::Contains("COUNT"));
  CHECK_THAT(err("H=-1:2:3:log"), Catch::Contains("log sweep needs"));
  CHECK_THAT(err("H=1:2:3:cubic"), Catch::Contains("'lin' or 'log'"));
  CHECK_THAT(err("H"), Catch::Contains("NAME=START:STOP:COUNT"));
  // One value from a range (STOP unused), or one value COUNT times: both ran, with
  // nothing said.
  CHECK_THAT(err("H=2:3:1"), Catch::Contains("STOP (3) would be unused"));
  CHECK_THAT(err("H=0.3:0.3:3"), Catch::Contains("the 3 values would all be 0.3"));
  CHECK(output::sweep_subdir(7) == "sweep/007");
}

// The located limit load of the von Mises truss at every rise h against the
// closed form lambda_cr(h) = (2/(3 sqrt 3)) EA h^3 / (a^2 + h^2)^(3/2) (a = 1,
// EA = 1; problems/von-mises.cfg). Tolerance 1e-9 relative as in
// tests/problems/catalogue_critical_test.cpp: SPL is solved to a scaled residual
// of 1e-10.
//
// A sweep is a whole analysis per value: the library gives the model at each
// value (build with parameter values) and the record of each run
// (analysis::sweep_value); the trace command runs the values and writes the
// files (trace_app::run_sweep, whose exit codes live in apps/). Both are checked
// here: the records, then the app's files, which must hold the same rows.
TEST_CASE("sweep: von Mises truss, limit load against the rise h", "[input][parameters][sweep][von-mises]") {
  const Config c = Config::read_file(std::string(SENDA_SOURCE_DIR) + "/tests/design/von-mises-h.cfg");
  REQUIRE(design_parameters(c) == std::vector<std::string>{"h"});
  const Spec ref = build(c);
  const fs::path dir = fs::path(SENDA_BINARY_DIR) / "tests" / "design-sweep";
  fs::remove_all(dir);
  fs::create_directories(dir);
  analysis::SweepResult r;
  r.spec = parse_sweep("h=0.3:1.2:4", c);
  r.track_columns = {"u_2_uy"};
  CHECK(track_columns(ref) == r.track_columns);
  const auto values = analysis::sweep_values(r.spec);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double h = values[k];
    INFO("h = " << h);
    const Config member = with_parameters(c, {{"h", h}});
    const Spec s = build(c, {{"h", h}}, ref);
    const std::string sub = output::sweep_subdir(static_cast<int>(k));
    const analysis::TraceResult t = senda::testing::run_into(s, dir / "records" / sub, &member);
    analysis::SweepValue v = analysis::sweep_value(static_cast<int>(k), h, t, ref.track.size());
    v.dir = sub;
    CHECK(v.status == analysis::SweepStatus::Ran);
    CHECK(analysis::status_name(v) == "completed");
    CHECK(trace_app::exit_code(v.termination) == 0);
    REQUIRE(v.points.size() == 2);
    const double exact = 2.0 / (3.0 * std::sqrt(3.0)) * h * h * h / std::pow(1.0 + h * h, 1.5);
    CHECK(v.points[0].id == "LP1");
    CHECK(v.points[0].kind == senda::critical::CriticalKind::Limit);
    CHECK(v.points[0].converged);
    CHECK(v.points[0].lambda == Approx(exact).epsilon(1e-9));
    CHECK(v.points[1].lambda == Approx(-exact).epsilon(1e-9));
    // At the maximum the apex has dropped by h (1 - 1/sqrt 3).
    REQUIRE(v.points[0].tracked.size() == 1);
    CHECK(-v.points[0].tracked[0] == Approx(h * (1.0 - 1.0 / std::sqrt(3.0))).epsilon(1e-8));
    CHECK(fs::exists(dir / "records" / v.dir / "summary.json"));
    r.values.push_back(v);
  }
  const std::string csv = output::sweep_csv(r);
  CHECK_THAT(csv, Catch::StartsWith("index,mu,status,id,kind,branch,lambda,u_2_uy,converged\n0,0.29999999999999999,"
                                    "completed,LP1,limit,0,0.00913213095"));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 9);

  // The trace command's sweep of the same values: exit 0, the same rows, the
  // sub-directories, sweep.json and the inline data of sweep.gp.
  setenv("SENDA_GNUPLOT", "/nonexistent/gnuplot", 1);  // the figure is not tested here (tests/output/plot_test.cpp)
  trace_app::Command cmd;
  cmd.cfg = std::string(SENDA_SOURCE_DIR) + "/tests/design/von-mises-h.cfg";
  cmd.out_dir = dir / "app";
  cmd.quiet = true;
  cmd.jobs = 1;
  cmd.sweep = "h=0.3:1.2:4";
  CHECK(trace_app::run_sweep(c, cmd) == 0);
  CHECK(senda::test::slurp(cmd.out_dir / "sweep.csv") == csv);
  for (const analysis::SweepValue& v : r.values) CHECK(fs::exists(cmd.out_dir / v.dir / "summary.json"));
  const std::string json = senda::test::slurp(cmd.out_dir / "sweep.json");
  CHECK_THAT(json, Catch::Contains("\"parameter\": \"h\""));
  CHECK_THAT(json, Catch::Contains("\"dir\": \"sweep/003\""));
  CHECK_THAT(json, Catch::Contains("\"exit_code\": 0") && !Catch::Contains("\"exit_code\": 1"));
  const std::string gp = senda::test::slurp(cmd.out_dir / "sweep.gp");
  // The inline data are the located loads at full precision (their last digits
  // are round-off of the solver: compare with the values, not with fixed digits).
  const auto row = [](double mu, double lambda, const char* id) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.17g %.17g  # %s\n", mu, lambda, id);
    return std::string(buf);
  };
  CHECK_THAT(gp, Catch::Contains("$S0 << EOD\n" + row(values[0], r.values[0].points[0].lambda, "LP1") +
                                 row(values[0], r.values[0].points[1].lambda, "LP2")));
  CHECK_THAT(gp, Catch::Contains("title 'limit points'"));
  CHECK_THAT(gp, !Catch::Contains("$S1"));  // one kind, all on the primary path
  CHECK_THAT(gp, Catch::Contains("set output 'sweep.'.format"));

  // A failed value is a row with its status, and makes the exit code 1 (the
  // value's own exit status, in sweep.json, is 2: bad input). h = 0 is a flat
  // truss: its model is refused when it is built.
  CHECK_THROWS_AS(build(c, {{"h", 0.0}}, ref), ConfigError);
  analysis::SweepValue bad;
  bad.index = 9;
  bad.mu = 0.0;
  bad.status = analysis::SweepStatus::BadInput;
  bad.dir = output::sweep_subdir(9);
  CHECK(analysis::status_name(bad) == "bad-input");
  r.values.push_back(bad);
  CHECK_THAT(output::sweep_csv(r), Catch::EndsWith("9,0,bad-input,,,,,,\n"));
  trace_app::Command failing = cmd;
  failing.out_dir = dir / "app-failed";
  failing.sweep = "h=0:0.3:2";
  CHECK(trace_app::run_sweep(c, failing) == 1);
  CHECK_THAT(senda::test::slurp(failing.out_dir / "sweep.csv"), Catch::Contains("\n0,0,bad-input,,,,,,\n"));
  CHECK_THAT(senda::test::slurp(failing.out_dir / "sweep.json"), Catch::Contains("\"exit_code\": 2"));
  // An interrupted sweep exits 130: a signal, tested by tests/cli/sweep.sh.
}

TEST_CASE("parameters: integral values substitute as integers", "[input][parameters][config]") {
  CHECK(format_number(1e7) == "10000000");
  CHECK(format_number(-3.0) == "-3");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(1.5e-7) == "1.5e-07");
  CHECK(format_number(1e20) == "1e+20");
  const Config c = Config::parse("[parameters]\nn = 5e6\n[stop]\nmax_steps = ${2*n}\n", "p.cfg");
  CHECK(*c.integer("stop.max_steps") == 10000000);
}

TEST_CASE("ConfigFamily: a member asked for again is not rebuilt from the text", "[input][parameters][family]") {
  const Config c = Config::read_file(std::string(SENDA_SOURCE_DIR) + "/tests/design/von-mises-h.cfg");
  const Spec reference = build(c);
  const ConfigFamily family(c, "h", reference);
  CHECK(family.value() == 0.5);
  const auto a = family.at(0.6);
  const auto b = family.at(0.6);
  CHECK(a == b);  // the same model object
  CHECK(family.builds() == 1);
  // A curve asks for a few values in turn: the last four are kept.
  for (double h : {0.61, 0.62, 0.63}) family.at(h);
  CHECK(family.at(0.6) == a);
  CHECK(family.builds() == 4);
  family.at(0.64);  // the oldest (0.6) leaves the cache
  CHECK(family.at(0.6) != a);
  CHECK(family.builds() == 6);
  // Each member is the model at that value (the apex at (0, h)).
  CHECK(dynamic_cast<const senda::model::Model&>(*family.at(0.62)).node_position(1).y() == 0.62);
  // A name that is not a parameter is refused when the family is made.
  CHECK_THROWS_AS(ConfigFamily(c, "nope", reference), ConfigError);
}
