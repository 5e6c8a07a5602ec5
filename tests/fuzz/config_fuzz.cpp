// Fuzz target on the configuration reader and the model builder:
//   bytes -> input::Config::parse -> input::build.
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
#include <optional>
#include <string>
#include <string_view>

#include "senda/input/builder.hpp"
#include "senda/input/config.hpp"

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
    senda::input::Config config = senda::input::Config::parse(text, file);
    // The fuzzer's memory limit (2 GB, scripts/fuzz.sh) is below what the largest
    // model a short file may ask for takes (model.max_elements = 2·10⁶ elements:
    // 900 000 beam elements build in 1.8 GB in Release, more under ASan): a valid
    // huge model is not a finding. Files asking for more than kFuzzMaxElements are
    // held to it, as a user would with model.max_elements; the limit and its
    // message are still exercised, and smaller limits in a file are kept.
    constexpr long kFuzzMaxElements = 100000;
    if (const std::optional<long> max = config.integer("model.max_elements"); !max || *max > kFuzzMaxElements)
      config.apply_override("model.max_elements=" + std::to_string(kFuzzMaxElements));
    const senda::input::Spec spec = senda::input::build(config);
    // A successful build is a finalized model with something to solve and to record.
    if (!spec.model) finding("build returned no model", "");
    if (spec.model->size() <= 0) finding("build returned a model without unknowns", "");
    if (spec.track.empty()) finding("build returned nothing to track", "");
    for (const senda::input::TrackedDof& t : spec.track)
      if (t.equation < 0 || t.equation >= spec.model->size())
        finding("tracked dof without an equation", t.column);
    // The undeformed state of a valid model has a finite residual (elements built from finite data).
    const senda::Vector q = senda::Vector::Zero(spec.model->size());
    senda::Vector g;
    spec.model->residual(q, 0.0, g);
    if (!g.allFinite()) finding("residual at q = 0 is not finite", "");
  } catch (const senda::input::ConfigError& e) {
    if (std::string_view(e.what()).substr(0, file.size()) != file)
      finding("ConfigError does not name the file", e.what());
  } catch (const std::exception& e) {
    finding("unexpected exception (not a ConfigError)", e.what());
  } catch (...) {
    finding("unexpected exception of unknown type", "");
  }
  return 0;
}
