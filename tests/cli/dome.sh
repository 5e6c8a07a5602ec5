#!/usr/bin/env bash
# The `dome` program: the .cfg it writes is traced by `trace` to a located LP1 (apex
# load) and runs with the distributed load; stdout and --out give the same bytes;
# bad arguments exit 2 and write nothing.
# usage: dome.sh DOME TRACE WORK_DIR
set -u
dome=$1; trace=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
fail=0
die() { echo "FAIL: $*"; fail=1; }
"$dome" --rings 3 --out "$work/dome3.cfg" || die "dome --rings 3: exit $?"
"$dome" -n 3 > "$work/stdout.cfg" || die "dome -n 3 to stdout: exit $?"
cmp -s "$work/dome3.cfg" "$work/stdout.cfg" || die "--out and stdout differ"
"$trace" "$work/dome3.cfg" --out "$work/run3" --quiet; rc=$?
[ $rc -eq 0 ] || die "trace of the 3-ring dome: exit $rc"
grep -q '"unknowns": 57' "$work/run3/summary.json" || die "3 rings: not 57 unknowns"
python3 - "$work/run3/summary.json" <<'PY' || die "3 rings: LP1 not located as a limit point"
import json, sys
s = json.load(open(sys.argv[1]))
lp = [p for p in s["critical_points"] if p["id"] == "LP1"]
sys.exit(0 if lp and lp[0]["kind"] == "limit" and lp[0]["converged"] else 1)
PY
"$dome" -n 3 --load distributed --max-steps 20 -o "$work/dist.cfg" || die "distributed: exit $?"
grep -c '^load = ' "$work/dist.cfg" | grep -qx 19 || die "distributed: not one load per free node (19)"
"$trace" "$work/dist.cfg" --out "$work/dist" --quiet; rc=$?
[ $rc -eq 0 ] || die "trace of the distributed dome: exit $rc"
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
[ $fail -eq 0 ] && echo "ok: dome"
exit $fail
