// Saved states of bifurcation points and branches.from: a run that starts at a
// saved BP traces the same secondary branches as the run that found it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"
#include "senda/io/trace.hpp"

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

TEST_CASE("branches.from: restart at a saved bifurcation point without retracing", "[io][state][branch]") {
  const std::string cfg = std::string(SENDA_SOURCE_DIR) + "/problems/three-bar.cfg";
  const fs::path base = fs::path(SENDA_BINARY_DIR) / "test-results" / "state";
  fs::remove_all(base);
  const io::Setup first = io::load(cfg);
  io::TraceRun run1(first);
  io::TraceEvents none;
  const io::TraceSummary s1 = run1.run(base / "full", false, none);
  const fs::path state = base / "full" / "states" / "BP1.json";
  REQUIRE(fs::exists(state));
  REQUIRE(s1.branches.size() >= 3);

  const io::Setup again = io::load(cfg, {"branches.from=" + state.string()});
  io::TraceRun run2(again);
  const io::TraceSummary s2 = run2.run(base / "from", false, none);
  REQUIRE(s2.branches.size() >= 3);
  CHECK(s2.branches[0].termination == critical::BranchEnd::NotTraced);
  CHECK(s2.branches[1].start_point == "BP1");
  CHECK(s2.branches[1].termination == s1.branches[1].termination);
  // Same point, scaling and step: the secondary branches are the same, row for row.
  CHECK(rows_of_branch(base / "from" / "path.csv", 1) == rows_of_branch(base / "full" / "path.csv", 1));
  CHECK(rows_of_branch(base / "from" / "path.csv", 2) == rows_of_branch(base / "full" / "path.csv", 2));
  CHECK(rows_of_branch(base / "from" / "path.csv", 0).empty());

  SECTION("a state of another model is refused with the file and key") {
    const std::string vm = std::string(SENDA_SOURCE_DIR) + "/problems/von-mises.cfg";
    const io::Setup other = io::load(vm, {"branches.from=" + state.string()});
    io::TraceRun run3(other);
    CHECK_THROWS_WITH(run3.start(), Catch::Contains("branches.from") && Catch::Contains("another model"));
  }
}
