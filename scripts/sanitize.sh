#!/usr/bin/env bash
# Builds the library, the trace, dome, cosim and simulate commands and a subset of
# the test suite with AddressSanitizer and UndefinedBehaviorSanitizer into
# ./build-asan (clang; scripts/sanitizer-build.sh, shared with scripts/fuzz.sh,
# which this builds too) and runs the subset that fits the CI time budget
# (tests/sanitize.cmake):
#   sanitize.unit        unit tests of every module + tests/robustness (one Catch2 program)
#   cli.*                the trace command: bad-input corpus, interruption, determinism, ...
#   fuzz.replay_corpus   the fuzz seeds and past findings through reader and builder
# Not run here: tests/problems/ (catalogue runs take minutes under ASan), the
# Bratu, star dome and API-example tests, the downstream package test, and
# cli.plot.catalogue_figures (the manual's figures and sweeps: 3 min under the
# sanitizers, its plotting code is run by cli.plot.von_mises).
# cli.bounded_memory skips itself (ASan cannot start under ulimit -v).
# A sanitizer report fails its test.
# usage: scripts/sanitize.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/sanitizer-build.sh
sanitizer_build trace dome cosim simulate senda_fuzz_replay senda_sanitize_tests senda_config_fuzz
jobs=$(nproc 2>/dev/null || echo 2)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest --output-on-failure -j"$jobs" --timeout 900 -R '^(sanitize\.|cli\.|fuzz\.)' -E '^cli\.plot\.catalogue_figures$' "$@"
