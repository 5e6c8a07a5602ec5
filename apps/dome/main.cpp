// dome [OPTIONS_FILE] --rings N [--layers 1|2] [--depth D] [--load apex|distributed]
//      [--rise H] [--radius A] [--ea EA] [--max-steps S] [--out FILE.cfg]: writes the
// .cfg of a shallow single- or double-layer lattice dome (senda/input/dome.hpp) to
// FILE.cfg, or to stdout, for `trace`. OPTIONS_FILE holds the same options as lines
// `name = value` (`#` comments, each name once); the command line wins over it.
// Exit codes: 0 written, 2 bad arguments (a message on stderr naming the file, line
// and option for OPTIONS_FILE; nothing written), 1 the file could not be written.
#include <boost/program_options.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "senda/input/dome.hpp"

namespace po = boost::program_options;

namespace {

struct BadArgument {
  std::string message;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Reads OPTIONS_FILE into vm, one line at a time so that an error names its line;
// the line of each option is kept for the checks after parsing.
void read_options_file(const std::string& file, const po::options_description& d, po::variables_map& vm,
                       std::map<std::string, int>& line_of) {
  std::ifstream in(file);
  if (!in) throw BadArgument{fmt::format("{}: cannot read the options file", file)};
  std::string raw;
  int line = 0;
  std::map<std::string, int> seen;
  while (std::getline(in, raw)) {
    ++line;
    const std::string text = trim(raw.substr(0, raw.find('#')));
    if (text.empty()) continue;
    const auto eq = text.find('=');
    if (eq == std::string::npos) throw BadArgument{fmt::format("{}:{}: expected 'option = value', found '{}'", file, line, text)};
    const std::string key = trim(text.substr(0, eq)), value = trim(text.substr(eq + 1));
    const std::string where = fmt::format("{}:{}: option '{}'", file, line, key);
    if (key == "out" || key == "help" || !d.find_nothrow(key, false))
      throw BadArgument{fmt::format("{}: unknown (valid: rings, layers, depth, load, rise, radius, ea, max-steps)", where)};
    if (const auto it = seen.find(key); it != seen.end())
      throw BadArgument{fmt::format("{}: given twice (first on line {})", where, it->second)};
    seen[key] = line;
    if (value.empty()) throw BadArgument{fmt::format("{}: no value", where)};
    if (vm.count(key) && !vm[key].defaulted()) continue;  // the command line's value wins
    po::variables_map one;
    try {
      const std::vector<std::string> args{"--" + key, value};
      po::store(po::command_line_parser(args).options(d).run(), one);
      // Only this option's variable: po::notify would also write every other option's
      // default over what earlier lines set.
      d.find(key, false).semantic()->notify(one[key].value());
    } catch (const po::error& e) {
      throw BadArgument{fmt::format("{}: '{}' is not a valid value ({})", where, value, e.what())};
    }
    line_of[key] = line;
  }
}

}  // namespace

int main(int argc, char** argv) {
  senda::input::DomeOptions o;
  std::string load = "apex", out, options_file;
  po::options_description d("dome: the .cfg of a shallow lattice dome (docs/user-guide.md, senda/input/dome.hpp)");
  d.add_options()("help,h", "this help")
      ("rings,n", po::value<int>(&o.rings), "rings n of the lattice, [2, 2000]: 3(1 + 3n(n - 1)) unknowns (9n^2 more with two layers); required")
      ("layers", po::value<int>(&o.layers)->default_value(o.layers), "1, or 2: a bottom layer under the centroids of the top layer's upward triangles")
      ("depth", po::value<double>(&o.depth)->default_value(o.depth), "layers 2: the bottom layer's depth in units of the crown height h1, (0, 10]")
      ("load", po::value<std::string>(&load)->default_value(load), "apex (point load at the crown) or distributed (at every free top node)")
      ("rise", po::value<double>(&o.rise)->default_value(o.rise), "height H of the crown above the rim, (0, radius)")
      ("radius", po::value<double>(&o.base_radius)->default_value(o.base_radius), "base radius a")
      ("ea", po::value<double>(&o.EA)->default_value(o.EA), "axial stiffness EA of every bar")
      ("max-steps", po::value<int>(&o.max_steps)->default_value(o.max_steps), "stop.max_steps of the .cfg")
      ("out,o", po::value<std::string>(&out), "the .cfg to write (default: stdout)");
  po::options_description hidden;
  hidden.add_options()("options-file", po::value<std::string>(&options_file));
  po::options_description all;
  all.add(d).add(hidden);
  po::positional_options_description pos;
  pos.add("options-file", 1);
  std::map<std::string, int> line_of;  // option → its line in the options file
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: dome [OPTIONS_FILE] [options]\n"
                   "OPTIONS_FILE: lines 'option = value' (the long names below, # comments); the command line wins\n\n"
                << d << "\n";
      return 0;
    }
    po::notify(vm);  // the command line and the defaults; then the file's other options
    if (!options_file.empty()) read_options_file(options_file, d, vm, line_of);
    if (!vm.count("rings") && !line_of.count("rings"))
      throw BadArgument{options_file.empty() ? "the option '--rings' is required but missing"
                                             : fmt::format("{}: the option 'rings' is required but missing", options_file)};
  } catch (const po::error& e) {
    fmt::print(stderr, "dome: {}\n", e.what());
    return 2;
  } catch (const BadArgument& e) {
    fmt::print(stderr, "dome: {}\n", e.message);
    return 2;
  }
  // A check that fails names the option's line when the options file set it.
  auto where = [&](const std::string& option) {
    const auto it = line_of.find(option);
    return it == line_of.end() ? std::string() : fmt::format("{}:{}: option '{}': ", options_file, it->second, option);
  };
  if (load == "apex") o.load = senda::input::DomeLoad::Apex;
  else if (load == "distributed") o.load = senda::input::DomeLoad::Distributed;
  else {
    fmt::print(stderr, "dome: {}--load: '{}' is not apex or distributed\n", where("load"), load);
    return 2;
  }
  if (const std::string why = o.validate(); !why.empty()) {
    // validate() names the field first: its option.
    static const std::map<std::string, std::string> option_of{{"rings", "rings"},   {"layers", "layers"},
                                                              {"depth", "depth"},   {"rise", "rise"},
                                                              {"base_radius", "radius"}, {"EA", "ea"},
                                                              {"max_steps", "max-steps"}};
    const auto it = option_of.find(why.substr(0, why.find(' ')));
    fmt::print(stderr, "dome: {}{}\n", it == option_of.end() ? std::string() : where(it->second), why);
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
