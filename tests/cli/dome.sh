#!/usr/bin/env bash
# The `dome` program: the .cfg it writes is traced by `trace` to a located LP1 (apex
# load, one and two layers) and runs with the distributed load; stdout and --out give
# the same bytes, and an options file the same as its command line; bad arguments
# exit 2 and write nothing (bad options files: the corpus, tests/bad-input/440-459).
# usage: dome.sh DOME TRACE WORK_DIR
set -u
dome=$1; trace=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
fail=0
die() { echo "FAIL: $*"; fail=1; }
"$dome" --rings 3 --out "$work/dome3.cfg" || die "dome --rings 3: exit $?"
"$dome" -n 3 > "$work/stdout.cfg" || die "dome -n 3 to stdout: exit $?"
cmp -s "$work/dome3.cfg" "$work/stdout.cfg" || die "--out and stdout differ"
traces_to_lp1() {  # what, cfg, run dir, unknowns, trace overrides...
  local what=$1 cfg=$2 run=$3 unknowns=$4; shift 4
  "$trace" "$cfg" --out "$run" --quiet "$@"; local rc=$?
  [ $rc -eq 0 ] || { die "trace of the $what: exit $rc"; return; }
  grep -q "\"unknowns\": $unknowns" "$run/summary.json" || die "$what: not $unknowns unknowns"
  python3 - "$run/summary.json" <<'PY' || die "$what: LP1 not located as a limit point"
import json, sys
s = json.load(open(sys.argv[1]))
lp = [p for p in s["critical_points"] if p["id"] == "LP1"]
sys.exit(0 if lp and lp[0]["kind"] == "limit" and lp[0]["converged"] else 1)
PY
}
traces_to_lp1 "3-ring dome" "$work/dome3.cfg" "$work/run3" 57
"$dome" -n 3 --load distributed --max-steps 20 -o "$work/dist.cfg" || die "distributed: exit $?"
grep -c '^load = ' "$work/dist.cfg" | grep -qx 19 || die "distributed: not one load per free node (19)"
"$trace" "$work/dist.cfg" --out "$work/dist" --quiet; rc=$?
[ $rc -eq 0 ] || die "trace of the distributed dome: exit $rc"
"$dome" -n 3 --layers 2 --depth 0.5 -o "$work/two.cfg" || die "two layers: exit $?"
printf '# the same dome\nrings = 3\nlayers = 2  # two\ndepth = 0.5\n' > "$work/two.opt"
"$dome" "$work/two.opt" -o "$work/two-file.cfg" || die "options file: exit $?"
cmp -s "$work/two.cfg" "$work/two-file.cfg" || die "the options file and the command line differ"
"$dome" "$work/two.opt" --rings 4 -o "$work/two-4.cfg" || die "options file with --rings 4: exit $?"
grep -q '^# 4 rings' "$work/two-4.cfg" || die "the command line does not win over the options file"
traces_to_lp1 "two-layer 3-ring dome (57 + 81 unknowns)" "$work/two.cfg" "$work/two" 138 stop.max_steps=30
bad() {  # expect, args...
  local expect=$1; shift
  "$dome" "$@" --out "$work/bad.cfg" > /dev/null 2> "$work/bad.err"; local rc=$?
  [ $rc -eq 2 ] || die "dome $*: exit $rc, expected 2"
  grep -q -- "$expect" "$work/bad.err" || die "dome $*: message lacks '$expect': $(cat "$work/bad.err")"
  [ ! -e "$work/bad.cfg" ] || die "dome $*: wrote a file"
}
bad "rings must be in \[2, 2000\], found 1" --rings 1
bad "'sphere' is not apex or distributed" --rings 3 --load sphere
bad "rise must be in (0, base_radius)" --rings 3 --rise 2
bad "rings" --load apex
bad "layers must be 1 or 2, found 3" --rings 3 --layers 3
bad "depth must be in (0, 10]" --rings 3 --layers 2 --depth 0
bad "cannot read the options file" "$work/no-such.opt"
[ $fail -eq 0 ] && echo "ok: dome"
exit $fail
