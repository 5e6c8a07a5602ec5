// Write failures (issue 20 item 12), made without a full disk: RLIMIT_FSIZE makes
// a write past the limit fail with EFBIG (SIGXFSZ ignored). The message names the
// file and gives the system's reason; no temporary file is left behind; path.csv
// ends in whole rows.
#include <catch2/catch.hpp>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <algorithm>
#include <sstream>
#include <string>

#include "senda/output/files.hpp"
#include "senda/output/results.hpp"
#include "support/test_files.hpp"

using namespace senda;
namespace fs = std::filesystem;
using senda::test::empty_scratch_dir;
using senda::test::slurp;

namespace {

// The soft file-size limit while it lives (the process's own, restored after).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old_);
    rlimit r = old_;
    r.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &r);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};

}  // namespace

TEST_CASE("a failed atomic write names the file, says why, and leaves no .tmp", "[output][hostile]") {
  const fs::path dir = empty_scratch_dir("write-failure");
  const fs::path file = dir / "summary.json";
  {
    const FileSizeLimit limit(1000);
    try {
      output::write_file_atomically(file, std::string(5000, 'x'));
      FAIL("no OutputError");
    } catch (const output::OutputError& e) {
      const std::string m = e.what();
      INFO(m);
      CHECK(m.find(file.string()) != std::string::npos);
      CHECK(m.find("File too large") != std::string::npos);
    }
  }
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(fs::exists(dir / "summary.json.tmp"));
  // Within the limit it is written whole.
  output::write_file_atomically(file, "{}\n");
  CHECK(slurp(file) == "{}\n");
}

TEST_CASE("path.csv ends in whole rows when a write fails", "[output][hostile]") {
  const fs::path dir = empty_scratch_dir("path-write-failure");
  const fs::path file = dir / "path.csv";
  output::RunInfo info;
  info.track_columns = {"u_2_uy"};
  info.track = {0};
  continuation::PathPoint p;
  p.q = Vector::Constant(1, -0.123456789);
  p.lambda = 0.987654321;
  bool failed = false;
  {
    const FileSizeLimit limit(2000);  // rows are ~110 bytes: the limit falls inside one
    output::PathWriter w(file, info);
    for (int i = 0; i < 100 && !failed; ++i) {
      p.index = i;
      try {
        w.write(p, 0);
      } catch (const output::OutputError& e) {
        failed = true;
        const std::string m = e.what();
        INFO(m);
        CHECK(m.find(file.string()) != std::string::npos);
        CHECK(m.find("File too large") != std::string::npos);
      }
    }
  }
  REQUIRE(failed);
  const std::string text = slurp(file);
  REQUIRE_FALSE(text.empty());
  CHECK(text.back() == '\n');
  std::istringstream rows(text);
  std::string row;
  std::getline(rows, row);
  const auto fields = [](const std::string& r) { return std::count(r.begin(), r.end(), ',') + 1; };
  const long n = fields(row);
  int count = 0;
  while (std::getline(rows, row)) {
    CHECK(fields(row) == n);
    ++count;
  }
  CHECK(count > 5);
  CHECK(text.size() < 2000);
}
