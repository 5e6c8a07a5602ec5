#!/usr/bin/env bash
# apps.blas_kernel: select_blas_kernel() (apps/common/blas_kernel.hpp) as the commands
# run it. Usage: blas_kernel.sh PROBE
set -euo pipefail
probe=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(env -u OPENBLAS_CORETYPE "$probe" "a b" --x=1 "")
core=$(sed -n 's/^core=//p' <<<"$out")
avx=$(sed -n 's/^avx=//p' <<<"$out")
[[ $(grep -c '^arg=' <<<"$out") == 3 ]] || fail "arguments lost: $out"
grep -qx 'arg=a b' <<<"$out" && grep -qx 'arg=--x=1' <<<"$out" && grep -qx 'arg=' <<<"$out" ||
  fail "arguments changed: $out"
if [[ -z $core ]]; then
  echo "the BLAS is not OpenBLAS: nothing to select"
  exit 0
fi
echo "OpenBLAS kernels: $core (CPU with AVX: $avx)"
if [[ $avx == 1 && $core == Prescott ]]; then fail "Prescott kernels kept on a CPU with AVX"; fi

# A value the user set is kept, even Prescott.
out=$(OPENBLAS_CORETYPE=Prescott "$probe")
grep -qx 'core=Prescott' <<<"$out" || fail "OPENBLAS_CORETYPE=Prescott not kept: $out"
echo "ok"
