# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: the one instrumented build
# both use, ./build-asan, configured and built with clang:
#   SENDA_SANITIZE=ON   AddressSanitizer + UndefinedBehaviorSanitizer everywhere,
#                       -fno-sanitize-recover=all (a report fails its test)
#   SENDA_FUZZ=ON       libFuzzer's coverage instrumentation everywhere
#                       (-fsanitize=fuzzer-no-link) and the fuzz target
#   Debug, -O1 -g1      fast to build and run; NDEBUG not defined, so Eigen's
#                       bounds assertions are on
# One build for both stages: the library is compiled once, not once with gcc for
# the sanitizers and again with clang for the fuzzer (docs/performance.md, "CI time").
# usage: sanitizer_build TARGET...   (from the top of the source tree)
sanitizer_build() {
  if ! command -v clang++ > /dev/null; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "sanitizer build: installing clang"
      apt-get update -qq || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libclang-rt-dev > /dev/null ||
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang > /dev/null
    else
      echo "sanitizer build: clang++ is missing: sudo apt-get install clang" >&2
      return 1
    fi
  fi
  local jobs log
  jobs=$(nproc 2>/dev/null || echo 2)
  mkdir -p build-asan
  log=build-asan/build.log
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
        -DCMAKE_CXX_COMPILER=clang++ -DSENDA_SANITIZE=ON -DSENDA_FUZZ=ON \
        -DSENDA_BUILD_BENCHMARKS=OFF > "$log" 2>&1 || { cat "$log"; return 1; }
  cmake --build build-asan -j"$jobs" --target "$@" >> "$log" 2>&1 || { tail -50 "$log"; return 1; }
}
