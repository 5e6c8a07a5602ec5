// Figures of a trace (senda/output/plot.hpp): critical.csv, the classes of path.csv,
// the gnuplot script, and render_plot's statuses (a missing, a failing and a
// silent program need no gnuplot; the rendering itself needs it and is skipped
// without it).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app.hpp"
#include "senda/analysis/result.hpp"
#include "senda/input/builder.hpp"
#include "senda/output/plot.hpp"

using namespace senda;
using namespace senda::output;
namespace fs = std::filesystem;

#include "support/test_files.hpp"
#include "support/trace_run.hpp"

namespace {
const std::string kSource = SENDA_SOURCE_DIR;

// BUILD/tests-io-scratch/plot/<name>, empty.
fs::path scratch(const std::string& name) { return senda::test::empty_scratch_dir("plot/" + name); }

using senda::test::slurp;

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

bool has_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

// Two branches: the primary path stable then unstable, branch 1 unstable only.
const char* kPath =
    "point,branch,lambda,u_2_uy,iterations,residual,step_length,det_sign,negative_pivots\n"
    "0,0,0,0,0,0,0,1,0\n"
    "1,0,0.5,-0.1,2,1e-12,0.1,1,0\n"
    "2,0,0.6,-0.2,2,1e-12,0.1,-1,1\n"
    "0,1,0.55,-0.15,0,0,0,-1,1\n"
    "1,1,0.5,-0.3,3,1e-12,0.1,-1,1\n";

RunInfo small_info() {
  RunInfo info;
  info.problem = "lee";
  info.title = "Lee's frame";
  info.config = "problems/lee-frame.cfg";
  info.track_columns = {"u_2_uy"};
  info.track = {1};
  return info;
}

analysis::TraceResult small_summary() {
  analysis::TraceResult s;
  critical::CriticalPoint lp;
  lp.id = "LP1";
  lp.kind = critical::CriticalKind::Limit;
  lp.converged = true;
  lp.lambda = 0.5625;
  lp.branches = {0};
  critical::CriticalPoint mp;
  mp.id = "MP1";
  mp.kind = critical::CriticalKind::Multiple;
  mp.converged = false;
  mp.lambda = 0.25;
  mp.branches = {1};
  s.critical_points.resize(2);
  s.critical_points[0].point = lp;
  s.critical_points[0].tracked = {-0.125};
  s.critical_points[1].point = mp;
  s.critical_points[1].tracked = {-0.5};
  critical::Branch b0, b1;
  b1.id = 1;
  b1.parent = 0;
  b1.start_point = "BP1";
  b1.direction = -1;
  s.branches = {b0, b1};
  return s;
}
}  // namespace

TEST_CASE("plot: critical.csv has one row per critical point", "[output][plot]") {
  const std::string csv = critical_csv(small_info(), small_summary());
  // A point that was not located has no lambda nor displacements (gnuplot skips the
  // row; its last Newton iterate meant nothing, issue 19 item 3).
  CHECK(csv ==
        "id,kind,branch,lambda,u_2_uy,converged\n"
        "LP1,limit,0,0.5625,-0.125,1\n"
        "MP1,multiple,1,,,0\n");
  RunInfo two;
  two.track_columns = {"u_1_ux", "u_1_uy"};
  two.track = {0, 1};
  CHECK(critical_csv(two, analysis::TraceResult{}) == "id,kind,branch,lambda,u_1_ux,u_1_uy,converged\n");
}

TEST_CASE("plot: stable and unstable parts of each branch are read from path.csv", "[output][plot]") {
  const fs::path dir = scratch("classes");
  write(dir / "path.csv", kPath);
  const PathClasses c = read_path_classes(dir / "path.csv");
  REQUIRE(c.branches == std::vector<int>{0, 1});
  CHECK(c.has_stable == std::vector<bool>{true, false});
  CHECK(c.has_unstable == std::vector<bool>{true, true});

  SECTION("not a path.csv") {
    write(dir / "bad.csv", "a,b,c\n1,2,3\n");
    CHECK_THROWS_AS(read_path_classes(dir / "bad.csv"), OutputError);
    CHECK_THROWS_AS(read_path_classes(dir / "missing.csv"), OutputError);
  }
  SECTION("a short row") {
    write(dir / "short.csv", std::string(kPath) + "2,1,0.4\n");
    CHECK_THROWS_WITH(read_path_classes(dir / "short.csv"), Catch::Contains("short.csv:7: 3 fields"));
  }
}

TEST_CASE("plot: the script draws what the results hold", "[output][plot]") {
  const fs::path dir = scratch("script");
  write(dir / "path.csv", kPath);
  const RunInfo info = small_info();
  const analysis::TraceResult s = small_summary();
  const std::string g = plot_script(info, s, read_path_classes(dir / "path.csv"));
  INFO(g);
  // negative_pivots is column 8 + (number of tracked columns).
  CHECK(g.find("P_NEG = 9") != std::string::npos);
  CHECK(g.find("C_CONVERGED = 6") != std::string::npos);
  CHECK(g.find("columns = 'u_2_uy'") != std::string::npos);
  // A quote in the title is doubled inside gnuplot's single quotes.
  CHECK(g.find("set title 'lee: Lee''s frame'") != std::string::npos);
  // Branch 0: a stable curve carrying the title and an unstable one; branch 1
  // has no stable point: its unstable curve carries the title.
  CHECK(g.find("on(0, 0), k_ ? column(X) : NaN):(k_ ? column(P_LAMBDA) : NaN) with lines lt 1 lw stable_width "
               "title 'primary path'") != std::string::npos);
  CHECK(g.find("on(0, 1)") != std::string::npos);
  CHECK(g.find("on(1, 0)") == std::string::npos);
  CHECK(g.find("on(1, 1), k_ ? column(X) : NaN):(k_ ? column(P_LAMBDA) : NaN) with lines lt 2 lw unstable_width "
               "dt unstable_dash title 'branch 1 from BP1 (-)'") != std::string::npos);
  // Markers for the kinds present only, the unlocated point open, labels.
  CHECK(g.find("is_kind('limit')") != std::string::npos);
  CHECK(g.find("is_kind('bifurcation')") == std::string::npos);
  CHECK(g.find("not located") != std::string::npos);
  CHECK(g.find("with labels") != std::string::npos);
  CHECK(g.find("pngcairo size width, height") != std::string::npos);
  CHECK(g.find("width = 800") != std::string::npos);
  CHECK(figure_names(info) == std::vector<std::string>{"lambda_u_2_uy.png", "lambda_u_2_uy.svg"});

  PlotOptions small;
  small.width_px = 400;
  small.height_px = 300;
  const std::string g2 = plot_script(info, s, read_path_classes(dir / "path.csv"), small);
  CHECK(g2.find("width = 400") != std::string::npos);
  CHECK(g2.find("height = 300") != std::string::npos);
  // Deterministic.
  CHECK(plot_script(info, s, read_path_classes(dir / "path.csv")) == g);
}

TEST_CASE("plot: render_plot reports a missing, failing or silent program", "[output][plot]") {
  const fs::path dir = scratch("render-status");
  write(dir / "path.csv", kPath);
  const PlotFiles f = write_plot_files(dir, small_info(), small_summary());
  CHECK(fs::is_regular_file(dir / "plot.gp"));
  CHECK(fs::is_regular_file(dir / "critical.csv"));
  REQUIRE(f.figures.size() == 2);
  CHECK(f.figures[0] == dir / "lambda_u_2_uy.png");

  SECTION("not installed") {
    const RenderResult r = render_plot(f, (dir / "no-such-gnuplot").string());
    CHECK(r.status == RenderStatus::GnuplotNotFound);
    CHECK(r.exit_status == -1);
    CHECK_THAT(r.message, Catch::Contains("not found") && Catch::Contains("gnuplot-nox") &&
                              Catch::Contains("gnuplot plot.gp"));
  }
  SECTION("exits with an error") {
    const RenderResult r = render_plot(f, "false");
    CHECK(r.status == RenderStatus::GnuplotFailed);
    CHECK(r.exit_status == 1);
    CHECK_THAT(r.message, Catch::Contains("exited with status 1"));
  }
  SECTION("exits 0 without drawing") {
    const RenderResult r = render_plot(f, "true");
    CHECK(r.status == RenderStatus::MissingFigures);
    CHECK(r.exit_status == 0);
    CHECK_THAT(r.message, Catch::Contains("lambda_u_2_uy.png"));
  }
}

TEST_CASE("plot: plot.gp and critical.csv written atomically; a second script keeps its own log", "[output][plot]") {
  const fs::path dir = scratch("logs");
  write(dir / "path.csv", kPath);
  // An old plot.gp is replaced whole, and no temporary file is left beside it.
  write(dir / "plot.gp", "old script\n");
  const PlotFiles f = write_plot_files(dir, small_info(), small_summary());
  CHECK(slurp(dir / "plot.gp") == plot_script(small_info(), small_summary(), read_path_classes(dir / "path.csv")));
  CHECK(slurp(dir / "critical.csv") == critical_csv(small_info(), small_summary()));
  CHECK_FALSE(fs::exists(dir / "plot.gp.tmp"));
  CHECK_FALSE(fs::exists(dir / "critical.csv.tmp"));
  CHECK(f.log.empty());

  // A stand-in for gnuplot that says which script it was given, on stdout and stderr.
  const fs::path fake = dir / "fake-gnuplot";
  write(fake, "#!/bin/sh\necho \"stdout of $1\"\necho \"stderr of $1\" >&2\n");
  fs::permissions(fake, fs::perms::owner_all);
  const RenderResult r1 = render_plot(f, fake.string());
  CHECK(r1.status == RenderStatus::MissingFigures);
  CHECK(r1.log == dir / "plot.log");
  CHECK(slurp(dir / "plot.log") == "stdout of plot.gp\nstderr of plot.gp\n");

  PlotFiles cf;
  cf.dir = dir;
  cf.script = dir / "curves.gp";
  cf.figures = {dir / "curves.png"};
  cf.log = dir / "curves.log";
  write(cf.script, "# curves\n");
  const RenderResult r2 = render_plot(cf, fake.string());
  CHECK(r2.status == RenderStatus::MissingFigures);
  CHECK(r2.log == dir / "curves.log");
  CHECK_THAT(r2.message, Catch::Contains("curves.log"));
  CHECK(slurp(dir / "curves.log") == "stdout of curves.gp\nstderr of curves.gp\n");
  // The first run's messages survive the second run.
  CHECK(slurp(dir / "plot.log") == "stdout of plot.gp\nstderr of plot.gp\n");
  // A log is rewritten, not appended to, by the next run of its own script.
  render_plot(f, fake.string());
  CHECK(slurp(dir / "plot.log") == "stdout of plot.gp\nstderr of plot.gp\n");
}

TEST_CASE("plot: von Mises rendered by gnuplot", "[output][plot][gnuplot]") {
  if (!has_gnuplot()) {
    WARN("gnuplot is not installed: rendering not tested");
    return;
  }
  const input::Spec spec = input::load(kSource + "/problems/von-mises.cfg");
  const fs::path dir = scratch("von-mises") / "results";
  const analysis::TraceResult s = senda::testing::run_into(spec, dir);
  const PlotFiles f = write_plot_files(dir, trace_app::run_info(spec), s);
  const RenderResult r = render_plot(f);
  INFO(r.message << "\n" << slurp(r.log));
  REQUIRE(r.status == RenderStatus::Rendered);
  CHECK(r.exit_status == 0);
  const std::string png = slurp(dir / "lambda_u_2_uy.png");
  REQUIRE(png.size() > 24);
  CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  // IHDR: width and height, big endian, at bytes 16 and 20.
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  CHECK(be32(16) == 800);
  CHECK(be32(20) == 600);
  CHECK(slurp(dir / "lambda_u_2_uy.svg").find("<svg") != std::string::npos);
  // The critical points of the run are in critical.csv, LP1 first.
  const std::string crit = slurp(dir / "critical.csv");
  CHECK(crit.rfind("id,kind,branch,lambda,u_2_uy,converged\nLP1,limit,0,", 0) == 0);
  // gnuplot's log holds no warning (no curve without points, no bad column).
  CHECK(slurp(r.log).empty());
}

TEST_CASE("plot: a series figure draws each curve by column name, quoted", "[output][plot][cosim]") {
  senda::output::SeriesFigure f{"energy", "it's E", "t [s]", "E [J]",
                                {{"a/cosim_history.csv", "t", "E_total", "jacobi"},
                                 {"b's/cosim_history.csv", "t", "E_total", "gauss-seidel"}}};
  const std::string s = senda::output::series_plot_script(f);
  CHECK(s == senda::output::series_plot_script(f));  // deterministic
  CHECK_THAT(s, Catch::Contains("set title 'it''s E'"));
  CHECK_THAT(s, Catch::Contains("'a/cosim_history.csv' using 't':'E_total' with lines lt 1 lw 1.5 title 'jacobi'"));
  CHECK_THAT(s, Catch::Contains("'b''s/cosim_history.csv' using 't':'E_total' with lines lt 2 lw 1.5 title 'gauss-seidel'"));
  CHECK_THAT(s, Catch::Contains("set output sprintf('%s.%s', 'energy', format)"));
}
