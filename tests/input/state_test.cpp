// Saved states of bifurcation points and branches.from: a run that starts at a
// saved BP traces the same secondary branches as the run that found it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"
#include "support/trace_run.hpp"

using namespace senda;
namespace fs = std::filesystem;

namespace {
std::string rows_of_branch(const fs::path& csv, int branch) {
  std::ifstream in(csv);
  std::string line, out;
  std::getline(in, line);  // header
  const std::string tag = "," + std::to_string(branch) + ",";
  while (std::getline(in, line)) {
    const auto c = line.find(',');
    if (line.compare(c, tag.size(), tag) == 0) out += line + "\n";
  }
  return out;
}
}  // namespace

TEST_CASE("branches.from: restart at a saved bifurcation point without retracing", "[input][state][branch]") {
  const std::string cfg = std::string(SENDA_SOURCE_DIR) + "/problems/three-bar.cfg";
  const fs::path base = fs::path(SENDA_BINARY_DIR) / "test-results" / "state";
  fs::remove_all(base);
  const input::Spec first = input::load(cfg);
  const analysis::TraceResult s1 = senda::testing::run_into(first, base / "full");
  const fs::path state = base / "full" / "states" / "BP1.json";
  REQUIRE(fs::exists(state));
  REQUIRE(s1.branches.size() >= 3);

  const input::Spec again = input::load(cfg, {"branches.from=" + state.string()});
  const analysis::TraceResult s2 = senda::testing::run_into(again, base / "from");
  REQUIRE(s2.branches.size() >= 3);
  CHECK(s2.branches[0].termination == critical::BranchEnd::NotTraced);
  CHECK(s2.branches[1].start_point == "BP1");
  CHECK(s2.branches[1].termination == s1.branches[1].termination);
  // Same point, scaling and step: the secondary branches are the same, row for row.
  CHECK(rows_of_branch(base / "from" / "path.csv", 1) == rows_of_branch(base / "full" / "path.csv", 1));
  CHECK(rows_of_branch(base / "from" / "path.csv", 2) == rows_of_branch(base / "full" / "path.csv", 2));
  CHECK(rows_of_branch(base / "from" / "path.csv", 0).empty());

  SECTION("a state of another model is refused with the file and key") {
    // The saved state is read when the spec is built (input::read_state), so the
    // ConfigError comes from the build, before any analysis starts.
    const std::string vm = std::string(SENDA_SOURCE_DIR) + "/problems/von-mises.cfg";
    CHECK_THROWS_AS(input::load(vm, {"branches.from=" + state.string()}), input::ConfigError);
    CHECK_THROWS_WITH(input::load(vm, {"branches.from=" + state.string()}),
                      Catch::Contains("branches.from") && Catch::Contains("another model"));
  }
  SECTION("a state whose numbers cannot start a branch is refused like input") {
    std::stringstream text;
    text << std::ifstream(state).rdbuf();
    const std::string good = text.str();
    auto refused = [&](const std::string& from, const std::string& to, const std::string& why) {
      const std::size_t at = good.find(from);
      REQUIRE(at != std::string::npos);
      std::string bad = good;
      bad.replace(at, from.size(), to);
      const fs::path f = base / "bad-state.json";
      std::ofstream(f) << bad;
      INFO(from << " -> " << to);
      CHECK_THROWS_WITH(input::load(cfg, {"branches.from=" + f.string()}),
                        Catch::Contains("branches.from") && Catch::Contains(why));
    };
    const std::size_t step = good.find("\"initial_step\":");
    REQUIRE(step != std::string::npos);
    refused(good.substr(step, good.find_first_of(",}", step) - step), "\"initial_step\":0", "initial_step");
    const std::size_t w = good.find("\"w\":[");
    REQUIRE(w != std::string::npos);
    refused(good.substr(w, good.find_first_of(",]", w) - w), "\"w\":[0.0", "scaling.w[0]");
    // Not a regular file (a directory stands for a FIFO or a device).
    CHECK_THROWS_WITH(input::load(cfg, {"branches.from=" + base.string()}), Catch::Contains("not a regular file"));
  }
}
