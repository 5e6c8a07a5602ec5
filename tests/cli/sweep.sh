#!/usr/bin/env bash
# trace --sweep: the von Mises truss over its rise h (tests/design/von-mises-h.cfg).
# sweep.csv holds one row per (h, critical point) with the closed-form limit load
# lambda_cr(h) = (2/(3 sqrt 3)) h^3 / (1 + h^2)^(3/2) (a = 1, EA = 1), progress
# lines, --quiet, a failed value as a row, bad --sweep input, SIGINT.
# usage: sweep.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
cfg=$src/tests/design/von-mises-h.cfg
export SENDA_GNUPLOT=/nonexistent/gnuplot  # the figure is tested in tests/output; here: its absence is no failure

"$trace" "$cfg" --out "$work/a" --sweep h=0.3:0.9:4 --jobs 2 > "$work/a.log" 2>&1
rc=$?
[ $rc -eq 0 ] || die "exit $rc: $(cat "$work/a.log")"
[ "$(grep -c '^\[[1-4]/4\] h = ' "$work/a.log")" -eq 4 ] || die "not 4 progress lines: $(cat "$work/a.log")"
csv=$work/a/sweep.csv
[ "$(head -n 1 "$csv")" = "index,mu,status,id,kind,branch,lambda,u_2_uy,converged" ] || die "header: $(head -n 1 "$csv")"
[ "$(wc -l < "$csv")" -eq 9 ] || die "expected 8 rows: $(cat "$csv")"
# Every LP1 and LP2 against the closed form, relative 1e-9 (the location tolerance).
bad=$(awk -F, 'NR > 1 {
  h = $2; e = 2 / (3 * sqrt(3)) * h^3 / (1 + h^2)^1.5; if ($4 == "LP2") e = -e;
  if ($3 != "completed" || $5 != "limit" || $9 != 1 || ($4 != "LP1" && $4 != "LP2")) { print "row " NR ": " $0; next }
  d = ($7 - e) / e; if (d < 0) d = -d; if (d > 1e-9) print "row " NR ": lambda " $7 " vs " e
}' "$csv")
[ -z "$bad" ] || die "$bad"
[ "$(cut -d, -f1 "$csv" | tail -n +2 | sort -u | tr '\n' ' ')" = "0 1 2 3 " ] || die "indices: $(cat "$csv")"
for k in 000 001 002 003; do [ -f "$work/a/sweep/$k/summary.json" ] || die "no sweep/$k/summary.json"; done
grep -q '"dir": "sweep/002"' "$work/a/sweep.json" || die "sweep.json lacks the sub-directory"
[ -f "$work/a/sweep.gp" ] || die "no sweep.gp"
echo "ok sweep of 4 values"
# The same rows whatever the number of threads (each value is independent).
"$trace" "$cfg" --out "$work/j1" --sweep h=0.3:0.9:4 --jobs 1 --quiet > /dev/null 2>&1 || die "--jobs 1 failed"
cmp -s "$csv" "$work/j1/sweep.csv" || die "sweep.csv differs between --jobs 2 and --jobs 1"
echo "ok --jobs 1 and 2 agree"

# --quiet: no progress lines; an existing directory needs --overwrite.
"$trace" "$cfg" --out "$work/a" --sweep h=0.3:0.9:4 --quiet > "$work/q.log" 2>&1 && die "existing dir accepted"
"$trace" "$cfg" --out "$work/a" --sweep h=0.5:0.5:1 --quiet --overwrite > "$work/q.log" 2>&1 || die "overwrite: $(cat "$work/q.log")"
grep -q '^\[' "$work/q.log" && die "--quiet printed progress"
[ "$(wc -l < "$work/a/sweep.csv")" -eq 3 ] || die "overwrite kept old rows"
[ -d "$work/a/sweep/001" ] && die "overwrite kept an old value's directory"
echo "ok --quiet, --overwrite"

# A failed value is a row with its status, and the exit code 1.
"$trace" "$cfg" --out "$work/f" --sweep h=0:0.5:2 --quiet > "$work/f.log" 2>&1
rc=$?
[ $rc -eq 1 ] || die "failed value: exit $rc"
grep -q '^0,0,bad-input,,,,,,$' "$work/f/sweep.csv" || die "no bad-input row: $(cat "$work/f/sweep.csv")"
grep -q '^1,0.5,completed,LP1,limit' "$work/f/sweep.csv" || die "the good value is missing"
echo "ok failed value"

# Bad --sweep input: exit 2, nothing written.
for s in "H=0.3:0.9:4" "h=0.3:0.9" "h=1:2:0" "h=-1:1:3:log"; do
  "$trace" "$cfg" --out "$work/b" --sweep "$s" > "$work/b.log" 2>&1
  rc=$?
  [ $rc -eq 2 ] || die "--sweep $s: exit $rc"
  grep -q "key '--sweep'" "$work/b.log" || die "--sweep $s: $(cat "$work/b.log")"
  [ -e "$work/b" ] && die "--sweep $s wrote $work/b"
done
"$trace" "$cfg" --out "$work/b" --jobs 0 --sweep h=1:2:2 > /dev/null 2>&1; [ $? -eq 2 ] || die "--jobs 0 accepted"
# The swept parameter given on the command line too: refused (it was overwritten in silence).
"$trace" "$cfg" --out "$work/b" --sweep h=0.3:0.6:2 parameters.h=0.7 > "$work/b.log" 2>&1
[ $? -eq 2 ] || die "--sweep h with parameters.h accepted"
grep -q "'h' is swept, and given on the command line too" "$work/b.log" || die "--sweep h with parameters.h: $(cat "$work/b.log")"
[ -e "$work/b" ] && die "--sweep h with parameters.h wrote $work/b"
# Two studies at once, and an empty --out, are refused (before, --imperfection was
# ignored, and --out '' wrote to results/<stem>).
"$trace" "$cfg" --out "$work/b" --sweep h=1:2:2 --imperfection h=1e-3:1e-2:2 > "$work/b.log" 2>&1
[ $? -eq 2 ] || die "--sweep with --imperfection accepted: $(cat "$work/b.log")"
grep -q "one at a time" "$work/b.log" || die "--sweep with --imperfection: $(cat "$work/b.log")"
[ -e "$work/b" ] && die "--sweep with --imperfection wrote $work/b"
(cd "$work" && "$trace" "$cfg" --out '' > "$work/e.log" 2>&1); [ $? -eq 2 ] || die "--out '' accepted: $(cat "$work/e.log")"
grep -q "needs a directory name" "$work/e.log" || die "--out '': $(cat "$work/e.log")"
[ -e "$work/results" ] && die "--out '' wrote $work/results"
# A parameter override from the command line reaches the model.
"$trace" "$cfg" --out "$work/o" parameters.h=0.6 --quiet > "$work/o.log" 2>&1 || die "override: $(cat "$work/o.log")"
grep -q 'LP1   limit  *0.05241957580' "$work/o.log" || die "parameters.h=0.6 not applied"
echo "ok bad input, parameter override"

# SIGINT during the second value: exit 130, the finished value kept.
"$trace" "$src/tests/design/slow-sweep.cfg" --out "$work/i" --sweep n=10:10000000:2 --jobs 1 > "$work/i.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  [ -f "$work/i/sweep/001/path.csv" ] && [ "$(wc -l < "$work/i/sweep/001/path.csv")" -gt 20 ] && break
  sleep 0.05
done
kill -s INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || die "SIGINT: exit $rc: $(cat "$work/i.log")"
grep -q '"interrupted": true' "$work/i/sweep.json" || die "sweep.json not interrupted"
grep -q '^0,10,max-steps,,' "$work/i/sweep.csv" || die "finished value missing: $(cat "$work/i/sweep.csv")"
grep -q '^1,10000000,interrupted,' "$work/i/sweep.csv" || die "interrupted value missing: $(cat "$work/i/sweep.csv")"
echo "ok SIGINT"
