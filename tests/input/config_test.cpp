// The configuration reader: every class of bad input gives a message naming
// file, line and key (docs/config.md), overrides replace or append.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "senda/input/config.hpp"
#include "support/config_errors.hpp"

using namespace senda::input;
namespace fs = std::filesystem;

namespace {
// The message of the ConfigError thrown by parsing `text` as "t.cfg" ("" if none).
std::string error_of(const std::string& text) { return senda::test::parse_error(text, "t.cfg"); }
}  // namespace

TEST_CASE("config: entries carry section.key, value, file and line", "[input][config]") {
  const Config c = Config::parse("# comment\n[model]\n\nnode = 1 0 0   # trailing\nnode = 2 1 0\n[stop]\nmax_steps=7\n", "f.cfg");
  REQUIRE(c.entries().size() == 3);
  CHECK(c.entries()[0].key == "model.node");
  CHECK(c.entries()[0].value == "1 0 0");
  CHECK(c.entries()[0].line == 4);
  CHECK(c.entries()[0].file == "f.cfg");
  CHECK(c.entries()[2].line == 7);
  CHECK(c.all("model.node").size() == 2);
  CHECK(*c.integer("stop.max_steps") == 7);
  SECTION("defaults come from the table") {
    CHECK(*c.real("continuation.initial_step") == 0.05);
    CHECK(*c.boolean("continuation.auto_scale"));
    CHECK(*c.text("critical.detect") == "both");
    CHECK(*c.integer("critical.max_iterations") == 20);
    CHECK(*c.real("critical.bifurcation_tolerance") == 1e-6);
    CHECK(*c.boolean("critical.locate"));
    CHECK_FALSE(c.real("stop.lambda_max").has_value());
  }
  SECTION("CRLF line ends are accepted") {
    const Config d = Config::parse("[stop]\r\nmax_steps = 3\r\n", "crlf.cfg");
    CHECK(*d.integer("stop.max_steps") == 3);
  }
}

TEST_CASE("config: each class of error names file, line and key", "[input][config][errors]") {
  struct Case {
    const char* name;
    std::string text;
    std::string expected;
  };
  const Case cases[] = {
      {"unknown key, nearest suggested", "[stop]\nmax_step = 3\n",
       "t.cfg:2: key 'stop.max_step': unknown key; did you mean 'stop.max_steps'?"},
      {"key in the wrong section", "[model]\nmax_steps = 3\n", "t.cfg:2: key 'model.max_steps': unknown key; did you mean 'stop.max_steps'?"},
      {"unknown section", "[modle]\ndim = 2\n", "t.cfg:1: unknown section [modle]"},
      {"malformed number 1.2.3", "[continuation]\npsi = 1.2.3\n",
       "t.cfg:2: key 'continuation.psi': malformed number '1.2.3' (trailing '.3') (valid: [0, inf))"},
      {"not a number", "[continuation]\npsi = abc\n", "t.cfg:2: key 'continuation.psi': expected a number, found 'abc'"},
      {"trailing garbage", "[continuation]\ninitial_step = 0.1x\n", "t.cfg:2: key 'continuation.initial_step': malformed number '0.1x'"},
      {"NaN", "[continuation]\npsi = nan\n", "t.cfg:2: key 'continuation.psi': NaN is not a valid number"},
      {"Inf", "[stop]\nlambda_max = inf\n", "t.cfg:2: key 'stop.lambda_max': an infinite value is not allowed"},
      {"overflow", "[stop]\nlambda_max = 1e400\n", "t.cfg:2: key 'stop.lambda_max': number '1e400' is out of the range of a double"},
      {"out of range", "[continuation]\ninitial_step = -0.1\n",
       "t.cfg:2: key 'continuation.initial_step': value -0.1 is out of range (valid: (0, inf))"},
      {"integer out of range", "[stop]\nmax_steps = 0\n", "t.cfg:2: key 'stop.max_steps': value 0 is out of range (valid: [1, 10000000])"},
      {"not an integer", "[stop]\nmax_steps = 2.5\n", "t.cfg:2: key 'stop.max_steps': expected an integer, found '2.5'"},
      {"bad choice", "[continuation]\nconstraint = riks\n",
       "t.cfg:2: key 'continuation.constraint': unknown value 'riks' (valid: spherical|cylindrical|pseudo-arclength|load|displacement)"},
      {"bad bool", "[stop]\nzero_load = maybe\n", "t.cfg:2: key 'stop.zero_load': expected a boolean, found 'maybe'"},
      {"missing value", "[stop]\nmax_steps =\n", "t.cfg:2: key 'stop.max_steps': missing value"},
      {"scalar given twice", "[stop]\nmax_steps = 3\nmax_steps = 4\n",
       "t.cfg:3: key 'stop.max_steps': given twice (first at line 2)"},
      {"no '='", "[stop]\nmax_steps 3\n", "t.cfg:2: expected 'key = value' or '[section]', found 'max_steps 3'"},
      {"missing key", "[stop]\n= 3\n", "t.cfg:2: missing key before '='"},
      {"malformed section", "[stop\n", "t.cfg:1: malformed section header '[stop'"},
      {"non-UTF-8 bytes", "[stop]\nmax_steps = 3 \xff\xfe\n", "t.cfg:2: the line holds bytes that are not UTF-8 text"},
      {"empty file", "", "t.cfg: the file is empty"},
      {"only comments", "# nothing\n\n", "t.cfg: the file is empty (no 'key = value' line)"},
      {"top-level key", "dim = 3\n", "t.cfg:1: key 'dim': unknown key; did you mean 'model.dim'?"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      INFO(c.text);
      const std::string msg = error_of(c.text);
      CHECK_THAT(msg, Catch::Contains(c.expected));
    }
  }
}

TEST_CASE("config: files that cannot be read", "[input][config][errors]") {
  const fs::path dir = fs::temp_directory_path() / "senda_config_test_dir";
  fs::create_directories(dir);
  SECTION("a directory") {
    CHECK_THROWS_WITH(Config::read_file(dir), dir.string() + ": is a directory, not a configuration file");
  }
  SECTION("a file that does not exist") {
    CHECK_THROWS_WITH(Config::read_file(dir / "nope.cfg"), (dir / "nope.cfg").string() + ": no such file");
  }
  SECTION("an empty file") {
    std::ofstream(dir / "empty.cfg").close();
    CHECK_THROWS_WITH(Config::read_file(dir / "empty.cfg"), (dir / "empty.cfg").string() + ": the file is empty");
  }
  SECTION("a file above 64 MiB is refused by its size, before it is read") {
    // A sparse file: no disk used, and refused without allocating its 65 MiB.
    const fs::path big = dir / "big.cfg";
    std::ofstream(big).close();
    fs::resize_file(big, 65u * 1024u * 1024u);
    CHECK_THROWS_WITH(Config::read_file(big), big.string() + ": the file is larger than 64 MiB");
  }
  fs::remove_all(dir);
}

TEST_CASE("config: a UTF-8 byte-order mark at the start is skipped", "[input][config]") {
  const std::string text = "[model]\ndim = 3\n";
  const Config plain = Config::parse(text, "t.cfg");
  const Config bom = Config::parse("\xEF\xBB\xBF" + text, "t.cfg");
  REQUIRE(bom.entries().size() == plain.entries().size());
  CHECK(bom.entries().front().key == "model.dim");
  CHECK(bom.entries().front().line == 2);
  CHECK(*bom.integer("model.dim") == 3);
  // Only at the start: elsewhere the same bytes are an error as before.
  CHECK(error_of("[model]\n\xEF\xBB\xBF" "dim = 3\n") != "");
  // A file that is only a byte-order mark is empty.
  CHECK(error_of("\xEF\xBB\xBF") == "t.cfg: the file is empty");
}

TEST_CASE("config: command-line overrides", "[input][config][overrides]") {
  Config c = Config::parse("[model]\nnode = 1 0 0\n[stop]\nmax_steps = 3\n", "t.cfg");
  SECTION("a scalar is replaced") {
    c.apply_override("stop.max_steps=50");
    CHECK(*c.integer("stop.max_steps") == 50);
    CHECK(c.all("stop.max_steps").size() == 1);
    CHECK(c.find("stop.max_steps")->file == kCommandLine);
  }
  SECTION("a scalar given twice on the command line is refused") {
    // The last one won in silence (dynamics.dt=0.1 dynamics.dt=0.5 ran at 0.5).
    CHECK_THROWS_WITH(c.apply_overrides({"stop.max_steps=50", "model.node=2 1 0", "stop.max_steps = 60"}),
                      "<command line>: key 'stop.max_steps': given twice on the command line ('50' and '60'); "
                      "only repeatable keys may repeat");
    // A repeatable key appends; a parameter may repeat (the last wins); a program may
    // override a key again, one call at a time (a run started from a saved state).
    Config p = Config::parse("[parameters]\nh = 1\n[model]\nnode = 1 0 0\n", "t.cfg");
    p.apply_overrides({"model.node=2 1 0", "model.node=3 2 0", "parameters.h=2", "parameters.h=3"});
    CHECK(*p.parameter("h") == 3.0);
    CHECK(p.all("model.node").size() == 3);
    p.apply_overrides({"branches.switch=false", "branches.switch = false"});  // the same value: no contradiction
    p.apply_override("stop.max_steps=25");
    p.apply_override("stop.max_steps=2");
    CHECK(*p.integer("stop.max_steps") == 2);
  }
  SECTION("a scalar absent from the file is added") {
    c.apply_override("continuation.psi = 0.5");
    CHECK(*c.real("continuation.psi") == 0.5);
  }
  SECTION("a repeatable key is appended") {
    c.apply_override("model.node=2 1 0");
    REQUIRE(c.all("model.node").size() == 2);
    CHECK(c.all("model.node")[1]->value == "2 1 0");
  }
  SECTION("errors name <command line>") {
    CHECK_THROWS_WITH(c.apply_override("stop.max_steps=abc"),
                      Catch::StartsWith("<command line>: key 'stop.max_steps': expected an integer, found 'abc'"));
    CHECK_THROWS_WITH(c.apply_override("stop.maxsteps=3"),
                      "<command line>: key 'stop.maxsteps': unknown key; did you mean 'stop.max_steps'?");
    CHECK_THROWS_WITH(c.apply_override("max_steps=3"), Catch::Contains("an override names section and key"));
    CHECK_THROWS_WITH(c.apply_override("stop.max_steps"), Catch::Contains("expected 'section.key=value'"));
  }
}

TEST_CASE("config: the option table", "[input][config][table]") {
  for (const OptionSpec& o : option_table()) {
    INFO(o.key);
    CHECK(std::string(o.key).find('.') != std::string::npos);
    CHECK(std::string(o.doc).size() > 5);
    CHECK(find_option(o.key) == &o);
    if (o.type == ValueType::Record) CHECK(o.valid != nullptr);
    // A default must itself be valid: parse it as a one-line file.
    if (o.default_value) {
      const std::string key(o.key);
      const std::string text = "[" + key.substr(0, key.find('.')) + "]\n" + key.substr(key.find('.') + 1) + " = " +
                               o.default_value + "\n";
      CHECK_NOTHROW(Config::parse(text, "default.cfg"));
    }
  }
  SECTION("every key is in --help") {
    const std::string help = format_option_table();
    for (const OptionSpec& o : option_table()) {
      INFO(o.key);
      CHECK_THAT(help, Catch::Contains(o.key));
    }
  }
  SECTION("every key is documented in docs/config.md") {
    std::ifstream in(std::string(SENDA_SOURCE_DIR) + "/docs/config.md");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    for (const OptionSpec& o : option_table()) {
      INFO(o.key);
      CHECK_THAT(doc, Catch::Contains("`" + std::string(o.key) + "`"));
    }
  }
}
