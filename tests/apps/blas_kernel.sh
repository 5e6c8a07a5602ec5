#!/usr/bin/env bash
# apps.blas_kernel: select_blas_kernel() (apps/common/blas_kernel.hpp) as the commands
# run it. Usage: blas_kernel.sh PROBE STUB (STUB: a library whose
# openblas_get_corename() says "Prescott", preloaded to make the re-execution happen
# on any host).
set -euo pipefail
probe=$1
stub=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
get() { sed -n "s/^$1=//p" <<<"$out"; }
args_kept() {
  [[ $(grep -c '^arg=' <<<"$out") == 3 ]] && grep -qx 'arg=a b' <<<"$out" && grep -qx 'arg=--x=1' <<<"$out" &&
    grep -qx 'arg=' <<<"$out" || fail "$1: arguments changed: $out"
}

# 1. The host's own OpenBLAS: never left on Prescott kernels on a CPU with AVX.
out=$(env -u OPENBLAS_CORETYPE "$probe" "a b" --x=1 "")
args_kept "host"
core=$(get core)
if [[ -z $core ]]; then
  echo "the BLAS is not OpenBLAS: nothing selected"
else
  echo "OpenBLAS kernels: $core (CPU with AVX: $(get avx))"
  [[ $(get avx) == 1 && $core == Prescott ]] && fail "Prescott kernels kept on a CPU with AVX"
  out=$(OPENBLAS_CORETYPE=Prescott "$probe")
  [[ $(get core) == Prescott ]] || fail "OPENBLAS_CORETYPE=Prescott not kept: $out"
fi

# 2. A Prescott fallback (the stub): executed again with the CPU's kernels, the same
# arguments and name, SIGINT and SIGTERM held until unblocked.
out=$(env -u OPENBLAS_CORETYPE LD_PRELOAD="$stub" "$probe" "a b" --x=1 "")
args_kept "re-executed"
expected=$(get expected)
if [[ -n $expected ]]; then
  [[ $(get coretype) == "$expected" ]] || fail "OPENBLAS_CORETYPE is '$(get coretype)', not '$expected': $out"
  [[ $(get held) == 1 ]] || fail "SIGINT/SIGTERM not held across the execution: $out"
else
  [[ $(get coretype) == "(unset)" && $(get held) == 0 ]] || fail "a CPU without AVX: nothing to select: $out"
fi
[[ $(get held_after) == 0 ]] || fail "SIGINT/SIGTERM still blocked: $out"
[[ $(get comm) == "$(basename "$probe" | cut -c1-15)" ]] || fail "the process is named '$(get comm)': $out"
echo "re-executed with OPENBLAS_CORETYPE=$(get coretype)"

# 3. A value the user set is kept, and nothing is executed again.
out=$(LD_PRELOAD="$stub" OPENBLAS_CORETYPE=Haswell "$probe")
[[ $(get coretype) == Haswell && $(get held) == 0 ]] || fail "the user's OPENBLAS_CORETYPE: $out"

# 4. Started by the dynamic loader: executing /proc/self/exe would run ld.so; nothing is done.
interp=$(readelf -l "$probe" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)\]/\1/p')
if [[ -n $interp && -x $interp ]]; then
  out=$(env -u OPENBLAS_CORETYPE LD_PRELOAD="$stub" "$interp" "$probe" "a b" --x=1 "")
  args_kept "under $interp"
  [[ $(get coretype) == "(unset)" ]] || fail "re-executed under $interp: $out"
fi
echo "ok"
