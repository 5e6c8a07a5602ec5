#!/usr/bin/env bash
# Fuzzes the configuration reader and model builder (tests/fuzz/config_fuzz.cpp)
# with libFuzzer for a bounded time. Builds with clang into ./build-fuzz
# (SENDA_FUZZ=ON: AddressSanitizer, UndefinedBehaviorSanitizer, coverage).
# Seeds: problems/*.cfg, tests/bad-input/*.cfg and tests/fuzz/corpus/ (past
# findings). Fails on any finding (crash, sanitizer report, exception other than
# ConfigError, an input slower than FUZZ_TIMEOUT s); the input is left in
# build-fuzz/findings/ - reproduce with build-fuzz/tests/senda_config_fuzz FILE.
# usage: scripts/fuzz.sh [SECONDS]   (default 60; FUZZ_TIMEOUT default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
timeout_s=${FUZZ_TIMEOUT:-10}
if ! command -v clang++ > /dev/null; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "fuzz: installing clang"
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libclang-rt-dev > /dev/null ||
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang > /dev/null
  else
    echo "fuzz: clang++ is missing: sudo apt-get install clang" >&2; exit 1
  fi
fi
jobs=$(nproc 2>/dev/null || echo 2)
mkdir -p build-fuzz
log=build-fuzz/build.log
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DSENDA_FUZZ=ON -DSENDA_BUILD_BENCHMARKS=OFF > "$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build build-fuzz -j"$jobs" --target senda_config_fuzz >> "$log" 2>&1 || { tail -50 "$log"; exit 1; }
fuzzer=build-fuzz/tests/senda_config_fuzz
# The working corpus (inputs libFuzzer adds) starts from the seeds on every run.
work=build-fuzz/corpus
rm -rf "$work" build-fuzz/findings
mkdir -p "$work" build-fuzz/findings
cp problems/*.cfg tests/bad-input/*.cfg "$work"/
cp tests/fuzz/corpus/* "$work"/ 2>/dev/null || true
echo "fuzz: $(ls "$work" | wc -l) seed inputs, ${seconds} s, timeout ${timeout_s} s per input"
set +e
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$fuzzer" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=2048 -max_len=8192 \
            -dict=tests/fuzz/cfg.dict -print_final_stats=1 -artifact_prefix=build-fuzz/findings/ \
            "$work" > build-fuzz/fuzz.log 2>&1
rc=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|INFO: .*inputs)" build-fuzz/fuzz.log | head -20 || true
if [ "$rc" -ne 0 ] || [ -n "$(ls -A build-fuzz/findings)" ]; then
  tail -60 build-fuzz/fuzz.log
  echo "fuzz: FINDING (exit $rc): $(ls build-fuzz/findings)" >&2
  exit 1
fi
echo "fuzz: no finding"
