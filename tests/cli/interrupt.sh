#!/usr/bin/env bash
# SIGINT and SIGTERM end the run after the current step: exit 130, summary.json
# with termination "interrupted", path.csv with every point. After kill -9,
# path.csv holds whole rows only (each flushed when computed). Two signals sent
# together (what `timeout` does: the child, then its process group) are one request:
# trace, simulate and cosim still end as interrupted with their summary.json (the
# second signal used to _exit(130) at once, losing it and the message). The pair is
# SIGINT then SIGTERM, back to back: two different signals are both delivered,
# where a second SIGINT sent while the first is still pending merges with it and
# would test nothing.
# usage: interrupt.sh TRACE SOURCE_DIR WORK_DIR [SIMULATE COSIM]
set -u
trace=$1; src=$2; work=$3; simulate=${4:-}; cosim=${5:-}
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
# A long run: tiny fixed steps on the star dome.
slow=(continuation.initial_step=1e-3 continuation.max_step_ratio=1 "stop.displacement=1 uz 1e9" stop.max_steps=10000000 --quiet)
wait_rows() {  # file rows
  for _ in $(seq 1 600); do
    [ -f "$1" ] && [ "$(wc -l < "$1")" -gt "$2" ] && return 0
    sleep 0.05
  done
  return 1
}
for sig in INT TERM; do
  "$trace" "$src/problems/star-dome.cfg" --out "$work/$sig" "${slow[@]}" > "$work/$sig.log" 2>&1 &
  pid=$!
  wait_rows "$work/$sig/path.csv" 5 || { kill -9 $pid; die "$sig: no progress"; }
  kill -s $sig $pid
  wait $pid; rc=$?
  [ $rc -eq 130 ] || die "SIG$sig: exit $rc, expected 130: $(cat "$work/$sig.log")"
  grep -q '"termination": "interrupted"' "$work/$sig/summary.json" || die "SIG$sig: summary not interrupted"
  points=$(sed -n 's/^  "points": \([0-9]*\).*/\1/p' "$work/$sig/summary.json")
  rows=$(($(wc -l < "$work/$sig/path.csv") - 1))
  [ "$rows" = "$points" ] || die "SIG$sig: $rows rows, $points points"
  echo "ok SIG$sig after $rows points"
done
"$trace" "$src/problems/star-dome.cfg" --out "$work/KILL" "${slow[@]}" > /dev/null 2>&1 &
pid=$!
wait_rows "$work/KILL/path.csv" 20 || { kill -9 $pid; die "KILL: no progress"; }
kill -9 $pid; wait $pid 2>/dev/null
cols=$(head -n 1 "$work/KILL/path.csv" | awk -F, '{print NF}')
bad=$(awk -F, -v n="$cols" 'NF != n' "$work/KILL/path.csv" | wc -l)
last=$(tail -c 1 "$work/KILL/path.csv" | od -An -c | tr -d ' ')
rows=$(($(wc -l < "$work/KILL/path.csv") - 1))
[ "$bad" -eq 0 ] && [ "$last" = '\n' ] || die "kill -9 left a partial row"
[ "$rows" -ge 20 ] || die "kill -9: only $rows rows"
[ ! -e "$work/KILL/summary.json" ] || die "kill -9: a summary.json appeared"
echo "ok kill -9 after $rows whole rows"

# Two signals microseconds apart: one request. Each command ends at its next poll with
# exit 130 and summary.json saying so.
double_signal() {  # name file-to-wait-for rows summary-pattern command...
  local name=$1 rows_file=$2 rows=$3 pattern=$4; shift 4
  "$@" > "$work/$name.log" 2>&1 &
  local pid=$!
  wait_rows "$rows_file" "$rows" || { kill -9 $pid; die "$name: no progress"; }
  kill -s INT $pid; kill -s TERM $pid
  wait $pid; local rc=$?
  [ $rc -eq 130 ] || die "$name: two signals: exit $rc, expected 130: $(cat "$work/$name.log")"
  grep -q "$pattern" "$work/$name/summary.json" 2> /dev/null || die "$name: two signals: no summary.json saying interrupted"
  echo "ok $name: SIGINT and SIGTERM together, summary.json says interrupted"
}
double_signal trace-double "$work/trace-double/path.csv" 5 '"termination": "interrupted"' \
  "$trace" "$src/problems/star-dome.cfg" --out "$work/trace-double" "${slow[@]}"
if [ -n "$simulate" ]; then
  double_signal simulate-double "$work/simulate-double/history.csv" 50 '"end": "interrupted"' \
    "$simulate" "$src/tests/dynamics/von-mises-step.cfg" --out "$work/simulate-double" --quiet \
    dynamics.dt=1e-5 dynamics.t_end=1000 dynamics.max_steps=100000000
  [ -f "$work/simulate-double/states/final.json" ] || die "simulate-double: no states/final.json"
fi
if [ -n "$cosim" ]; then
  double_signal cosim-double "$work/cosim-double/cosim_history.csv" 50 '"termination": "interrupted"' \
    "$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/cosim-double" --quiet cosim.end_time=10000
fi
