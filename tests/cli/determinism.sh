#!/usr/bin/env bash
# The same input twice: path.csv byte-identical, summary.json identical apart
# from the timing fields (wall_time_s and timing, the last fields of the file).
# usage: determinism.sh TRACE SOURCE_DIR WORK_DIR CFG
set -u
trace=$1; src=$2; work=$3; cfg=$4
rm -rf "$work"; mkdir -p "$work"
for run in 1 2; do
  "$trace" "$src/$cfg" --out "$work/$run" --quiet > /dev/null 2>&1 || { echo "FAIL: run $run exit $?"; exit 1; }
done
cmp "$work/1/path.csv" "$work/2/path.csv" || { echo "FAIL: path.csv differs"; exit 1; }
strip() { sed '/"wall_time_s"/,$d' "$1"; }
diff <(strip "$work/1/summary.json") <(strip "$work/2/summary.json") || { echo "FAIL: summary.json differs"; exit 1; }
[ "$(strip "$work/1/summary.json" | wc -l)" -gt 10 ] || { echo "FAIL: summary too short"; exit 1; }
echo "ok: $(wc -l < "$work/1/path.csv") lines identical"
