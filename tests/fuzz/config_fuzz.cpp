// Fuzz target on the configuration reader and the model builder:
//   bytes -> io::Config::parse -> io::build.
// A ConfigError is the expected outcome of bad input; its message must name the
// file. Any other exception, a crash, a hang or a sanitizer report is a finding.
// Built two ways (tests/fuzz.cmake): with libFuzzer (clang, SENDA_FUZZ=ON,
// scripts/fuzz.sh), and with replay_main.cpp as a plain program that runs the
// seed corpus and every past finding through the same function (ctest
// fuzz.replay_corpus, every build).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "senda/io/builder.hpp"
#include "senda/io/config.hpp"

namespace {
[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "config_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.cfg";
  try {
    const senda::io::Config config = senda::io::Config::parse(text, file);
    const senda::io::Setup setup = senda::io::build(config);
    // A successful build is a finalized model with something to solve and to record.
    if (!setup.model) finding("build returned no model", "");
    if (setup.model->size() <= 0) finding("build returned a model without unknowns", "");
    if (setup.track.empty()) finding("build returned nothing to track", "");
    for (const senda::io::TrackedDof& t : setup.track)
      if (t.equation < 0 || t.equation >= setup.model->size())
        finding("tracked dof without an equation", t.column);
    // The undeformed state of a valid model has a finite residual (elements built from finite data).
    const senda::Vector q = senda::Vector::Zero(setup.model->size());
    senda::Vector g;
    setup.model->residual(q, 0.0, g);
    if (!g.allFinite()) finding("residual at q = 0 is not finite", "");
  } catch (const senda::io::ConfigError& e) {
    if (std::string_view(e.what()).substr(0, file.size()) != file)
      finding("ConfigError does not name the file", e.what());
  } catch (const std::exception& e) {
    finding("unexpected exception (not a ConfigError)", e.what());
  } catch (...) {
    finding("unexpected exception of unknown type", "");
  }
  return 0;
}
