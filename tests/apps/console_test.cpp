// The trace command's console output (apps/trace/console.hpp): the text of the
// terminal's updating progress line.
#include <catch2/catch.hpp>
#include <string>

#include "console.hpp"

TEST_CASE("progress line: the text of the terminal's updating line", "[apps][console]") {
  trace_app::Progress p;
  p.points = 42;
  p.lambda = 0.0344265;
  p.step_length = 0.01;
  p.elapsed_s = 3.21;
  p.critical_points = 1;
  CHECK(trace_app::progress_line(p) == "points 42  lambda=+3.442650e-02  ds=1.000e-02  critical 1  elapsed 0:03.2");
  p.branch = 2;
  p.lambda = -1.5;
  p.elapsed_s = 125.04;
  CHECK(trace_app::progress_line(p) == "branch 2  points 42  lambda=-1.500000e+00  ds=1.000e-02  critical 1  elapsed 2:05.0");
  p.elapsed_s = 3725.9;
  CHECK(trace_app::progress_line(p) == "branch 2  points 42  lambda=-1.500000e+00  ds=1.000e-02  critical 1  elapsed 1:02:05");
  p.elapsed_s = 59.99;  // never "0:60.0"
  CHECK_THAT(trace_app::progress_line(p), Catch::EndsWith("elapsed 0:59.9"));
  CHECK(trace_app::progress_line(p, 20) == "branch 2  points 42 ");
}
