#!/usr/bin/env bash
# Fuzzes the configuration reader and model builder (tests/fuzz/config_fuzz.cpp)
# with libFuzzer for a bounded time. Builds with clang into ./build-asan, the build
# of scripts/sanitize.sh (scripts/sanitizer-build.sh: AddressSanitizer,
# UndefinedBehaviorSanitizer, coverage), so after it only the fuzz target is linked.
# Seeds: problems/*.cfg, tests/bad-input/*.cfg and tests/fuzz/corpus/ (past
# findings). Fails on any finding (crash, sanitizer report, exception other than
# ConfigError, an input slower than FUZZ_TIMEOUT s); the input is left in
# build-asan/findings/ - reproduce with build-asan/tests/senda_config_fuzz FILE.
# usage: scripts/fuzz.sh [SECONDS]   (default 60; FUZZ_TIMEOUT default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
timeout_s=${FUZZ_TIMEOUT:-10}
source scripts/sanitizer-build.sh
sanitizer_build senda_config_fuzz
fuzzer=build-asan/tests/senda_config_fuzz
# The working corpus (inputs libFuzzer adds) starts from the seeds on every run.
work=build-asan/fuzz-corpus
rm -rf "$work" build-asan/findings
mkdir -p "$work" build-asan/findings
cp problems/*.cfg tests/bad-input/*.cfg "$work"/
cp tests/fuzz/corpus/* "$work"/ 2>/dev/null || true
echo "fuzz: $(ls "$work" | wc -l) seed inputs, ${seconds} s, timeout ${timeout_s} s per input"
set +e
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$fuzzer" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb=2048 -max_len=8192 \
            -dict=tests/fuzz/cfg.dict -print_final_stats=1 -artifact_prefix=build-asan/findings/ \
            "$work" > build-asan/fuzz.log 2>&1
rc=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|INFO: .*inputs)" build-asan/fuzz.log | head -20 || true
if [ "$rc" -ne 0 ] || [ -n "$(ls -A build-asan/findings)" ]; then
  tail -60 build-asan/fuzz.log
  echo "fuzz: FINDING (exit $rc): $(ls build-asan/findings)" >&2
  exit 1
fi
echo "fuzz: no finding"
