#!/usr/bin/env bash
# Cheap inputs that would cost much (issue 20), under `ulimit -v 2000000` (2 GB of
# address space): a 10 GB sparse .cfg, /dev/zero as the mode file, a model that
# asks for 10^8 elements. Each is refused with exit 2 and its message in under a
# second, before memory is spent on it.
# usage: bounded_memory.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
# AddressSanitizer reserves terabytes of shadow address space at start: under
# ulimit -v it cannot start at all. Skipped in the sanitizer build (exit 77): told
# by tests/hostile.cmake, or seen in a gcc build's shared libasan (clang links the
# runtime statically, so ldd alone does not tell).
if [ -n "${SENDA_ASAN_BUILD:-}" ] || ldd "$trace" 2> /dev/null | grep -q libasan; then
  echo "skipped: trace is built with AddressSanitizer"; exit 77
fi

truncate -s 10G "$work/huge.cfg" || die "cannot make a sparse file"
cat > "$work/dev-zero-mode.cfg" <<'CFG'
[model]
node = 1 -1 0
node = 2 0 2
node = 3 1 0
truss = 1 1 2 1
truss = 2 2 3 1
fix = 1 all
fix = 3 all
load = 2 uy -1
imperfection = /dev/zero 0.001
CFG
{
  echo "[model]"
  echo "node = 1 0 0"
  echo "node = 2 1 0"
  for i in $(seq 0 999); do echo "beam = $((i * 100000 + 1)) 1 2 1 1 1 100000"; done
  echo "fix = 1 all"
  echo "load = 2 uy -1"
} > "$work/1e8-elements.cfg"

check() {  # name expect
  local name=$1 expect=$2
  local t0 t1 rc
  t0=$(date +%s.%N)
  ( ulimit -v 2000000; exec "$trace" "$work/$name.cfg" --out "$work/out-$name" ) > "$work/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local dt; dt=$(echo "$t1 - $t0" | bc)
  [ "$rc" -eq 2 ] || die "$name: exit $rc, expected 2: $(cat "$work/$name.log")"
  grep -qF "$expect" "$work/$name.log" || die "$name: message lacks '$expect': $(cat "$work/$name.log")"
  (( $(echo "$dt < 1.0" | bc) )) || die "$name: took $dt s"
  [ ! -e "$work/out-$name" ] || die "$name: wrote results"
  echo "ok $name: exit 2 in $dt s: $(cat "$work/$name.log")"
}
check huge "larger than 64 MiB"
check dev-zero-mode "is not a regular file"
check 1e8-elements "more than model.max_elements"
