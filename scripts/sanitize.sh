#!/usr/bin/env bash
# Builds the library, the trace, dome, cosim and simulate commands and a subset of the test suite with
# AddressSanitizer and UndefinedBehaviorSanitizer (SENDA_SANITIZE=ON) into
# ./build-asan and runs it (the subset that fits the CI time budget,
# tests/sanitize.cmake):
#   sanitize.unit        unit tests of every module + tests/robustness (one Catch2 program)
#   cli.*                the trace command: bad-input corpus, interruption, determinism, ...
#   fuzz.replay_corpus   the fuzz seeds and past findings through reader and builder
# Not run here: tests/problems/ (catalogue runs take minutes under ASan), the
# Bratu, star dome and API-example tests, and the downstream package test.
# -O1 with line tables keeps build and run fast; NDEBUG is not defined, so
# Eigen's bounds assertions are on too. A sanitizer report fails its test.
# usage: scripts/sanitize.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build-asan
log=build-asan/build.log
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
      -DSENDA_SANITIZE=ON -DSENDA_BUILD_BENCHMARKS=OFF > "$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build-asan -j"$jobs" --target trace dome cosim simulate senda_fuzz_replay senda_sanitize_tests >> "$log" 2>&1 || { tail -50 "$log"; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest --output-on-failure -j"$jobs" --timeout 900 -R '^(sanitize\.|cli\.|fuzz\.)' "$@"
