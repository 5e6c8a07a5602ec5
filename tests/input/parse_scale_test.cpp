// Reading is O(n log n) in the number of lines (issue 20 item 8): 200 000
// [parameters] entries took over 60 s (20 000: 0.46 s), a scan of every entry per
// entry added. 100 000 of them, or of repeated design.parameter lines, read and
// built in well under 2 s here; quadratic, they would take ~15 s.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "senda/input/family.hpp"

using namespace senda::input;

namespace {

constexpr const char* kModel =
    "[model]\n"
    "node = 1 -1 0\n"
    "node = 2 0 0.5\n"
    "node = 3 1 0\n"
    "truss = 1 1 2 1\n"
    "truss = 2 2 3 1\n"
    "fix = 1 all\n"
    "fix = 3 all\n"
    "fix = 2 ux\n"
    "load = 2 uy -1\n";

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("100 000 parameters or design.parameter lines are read in linear-logarithmic time",
          "[input][config][hostile]") {
  constexpr int n = 100000;
  SECTION("[parameters] entries") {
    std::string text = std::string(kModel) + "[parameters]\n";
    for (int i = 0; i < n; ++i) text += "p" + std::to_string(i) + " = " + std::to_string(i) + "\n";
    const auto t0 = std::chrono::steady_clock::now();
    const Config c = Config::parse(text, "many.cfg");
    const Spec s = build(c);
    const double dt = seconds(t0);
    INFO("read and built in " << dt << " s");
    CHECK(dt < 2.0);
    CHECK(c.parameter("p99999") == 99999.0);
    CHECK(s.model->size() == 1);
  }
  SECTION("repeated design.parameter lines") {
    std::string text = std::string(kModel) + "[parameters]\nh = 0.5\n[design]\n";
    for (int i = 0; i < n; ++i) text += "parameter = h\n";
    const auto t0 = std::chrono::steady_clock::now();
    const Config c = Config::parse(text, "many.cfg");
    const Spec s = build(c);
    const auto design = design_parameters(c, s);
    const double dt = seconds(t0);
    INFO("read and built in " << dt << " s");
    CHECK(dt < 2.0);
    CHECK(c.all("design.parameter").size() == static_cast<std::size_t>(n));
    CHECK_FALSE(design.empty());
  }
}
