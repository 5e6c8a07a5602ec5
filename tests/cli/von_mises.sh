#!/usr/bin/env bash
# trace problems/von-mises.cfg: exit 0, path.csv with its header and one row per
# point, summary.json with the termination; overrides; an existing results
# directory refused without --overwrite; a bad override exits 2 and writes nothing.
# usage: von_mises.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
cfg="$src/problems/von-mises.cfg"

"$trace" "$cfg" --out "$work/a" --quiet > "$work/a.log" 2>&1 || die "exit $? (expected 0): $(cat "$work/a.log")"
header=$(head -n 1 "$work/a/path.csv")
[ "$header" = "point,branch,lambda,u_2_uy,iterations,residual,step_length,det_sign,negative_pivots" ] || die "header: $header"
grep -q '"termination": "completed"' "$work/a/summary.json" || die "termination not completed"
points=$(sed -n 's/^  "points": \([0-9]*\).*/\1/p' "$work/a/summary.json")
rows=$(($(wc -l < "$work/a/path.csv") - 1))
[ "$rows" = "$points" ] || die "path.csv has $rows rows, summary says $points points"
[ "$rows" -gt 10 ] || die "only $rows rows"
grep -q '"id": "LP1"' "$work/a/summary.json" || die "the limit point LP1 is not in critical_points"
grep -q '"det_sign_changed": true' "$work/a/summary.json" || die "the limit point crossing was not recorded"
[ ! -e "$work/a/summary.json.tmp" ] || die "temporary summary left behind"
echo "ok run: $rows points"

# An existing directory is refused (exit 2, nothing changed) unless --overwrite.
before=$(md5sum < "$work/a/path.csv")
"$trace" "$cfg" --out "$work/a" --quiet > "$work/b.log" 2>&1; rc=$?
[ $rc -eq 2 ] || die "existing out dir: exit $rc, expected 2"
grep -q "the results directory exists; pass --overwrite" "$work/b.log" || die "message: $(cat "$work/b.log")"
[ "$(md5sum < "$work/a/path.csv")" = "$before" ] || die "existing results were modified"
"$trace" "$cfg" --out "$work/a" --overwrite --quiet > /dev/null 2>&1 || die "--overwrite: exit $?"
echo "ok existing directory"

# Overrides: a scalar replaces the file's value.
"$trace" "$cfg" --out "$work/c" --quiet stop.max_steps=5 > "$work/c.log" 2>&1 || die "override run: exit $?"
grep -q '"termination": "max-steps"' "$work/c/summary.json" || die "override: termination not max-steps"
grep -q '"points": 6,' "$work/c/summary.json" || die "override: not 6 points"
echo "ok override"

# A bad override: exit 2, message names <command line>, nothing written.
"$trace" "$cfg" --out "$work/d" --quiet stop.max_steps=many > "$work/d.log" 2>&1; rc=$?
[ $rc -eq 2 ] || die "bad override: exit $rc"
grep -q "<command line>: key 'stop.max_steps': expected an integer, found 'many'" "$work/d.log" || die "bad override message: $(cat "$work/d.log")"
[ ! -e "$work/d" ] || die "bad override wrote $work/d"
# An unknown option and no file at all are command-line errors (exit 2).
"$trace" "$cfg" --out "$work/e" --frobnicate > /dev/null 2>&1; [ $? -eq 2 ] || die "unknown option not exit 2"
"$trace" > /dev/null 2>&1; [ $? -eq 2 ] || die "no file not exit 2"
[ ! -e "$work/e" ] || die "unknown option wrote results"
echo "ok bad command lines"
