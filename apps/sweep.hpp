#pragma once
// trace FILE.cfg --sweep NAME=START:STOP:COUNT[:log] [--jobs N]: the sweep part of
// the trace command (docs/user-guide.md "Design studies: sweeps").
#include <filesystem>
#include <string>

#include "senda/io/config.hpp"

struct SweepCommand {
  std::string spec;  // NAME=START:STOP:COUNT[:log]
  int jobs = 0;      // worker threads; 0: std::thread::hardware_concurrency()
  bool quiet = false;
  bool overwrite = false;
  std::filesystem::path out_dir;
};

// Traces the model once per value, in parallel, each into DIR/sweep/NNN, then
// writes DIR/sweep.csv, DIR/sweep.json, DIR/sweep.gp and renders DIR/sweep.png/.svg
// with gnuplot when it is there. Returns the exit code (0 every value ran,
// 1 some value failed, 130 interrupted). Throws ConfigError for bad input found
// before anything is written (the sweep, the file's model, the directory), and
// OutputError when a sweep file cannot be written.
int run_sweep(const senda::io::Config& config, const SweepCommand& command);
