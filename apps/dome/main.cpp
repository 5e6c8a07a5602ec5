// dome --rings N [--load apex|distributed] [--rise H] [--radius A] [--ea EA]
//      [--max-steps S] [--out FILE.cfg]: writes the .cfg of a shallow single-layer
// lattice dome (senda/input/dome.hpp) to FILE.cfg, or to stdout, for `trace`.
// Exit codes: 0 written, 2 bad arguments (a message on stderr, nothing written),
// 1 the file could not be written.
#include <boost/program_options.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "senda/input/dome.hpp"

namespace po = boost::program_options;

int main(int argc, char** argv) {
  senda::input::DomeOptions o;
  std::string load = "apex", out;
  po::options_description d("dome: the .cfg of a shallow lattice dome (docs/user-guide.md, senda/input/dome.hpp)");
  d.add_options()("help,h", "this help")
      ("rings,n", po::value<int>(&o.rings)->required(), "rings n of the lattice, [2, 2000]: 3(1 + 3n(n - 1)) unknowns")
      ("load", po::value<std::string>(&load)->default_value(load), "apex (point load at the crown) or distributed")
      ("rise", po::value<double>(&o.rise)->default_value(o.rise), "height H of the crown above the rim, (0, radius)")
      ("radius", po::value<double>(&o.base_radius)->default_value(o.base_radius), "base radius a")
      ("ea", po::value<double>(&o.EA)->default_value(o.EA), "axial stiffness EA of every bar")
      ("max-steps", po::value<int>(&o.max_steps)->default_value(o.max_steps), "stop.max_steps of the .cfg")
      ("out,o", po::value<std::string>(&out), "the .cfg to write (default: stdout)");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) {
      std::cout << d << "\n";
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    fmt::print(stderr, "dome: {}\n", e.what());
    return 2;
  }
  if (load == "apex") o.load = senda::input::DomeLoad::Apex;
  else if (load == "distributed") o.load = senda::input::DomeLoad::Distributed;
  else {
    fmt::print(stderr, "dome: --load: '{}' is not apex or distributed\n", load);
    return 2;
  }
  if (const std::string why = o.validate(); !why.empty()) {
    fmt::print(stderr, "dome: {}\n", why);
    return 2;
  }
  const std::string text = senda::input::dome_config(o);
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  std::ofstream f(out, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    fmt::print(stderr, "dome: cannot write '{}'\n", out);
    return 1;
  }
  return 0;
}
