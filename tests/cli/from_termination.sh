#!/usr/bin/env bash
# A run from a saved state (--from) ends as its branches did (issue 20 item 6): it
# was "completed", exit 0, even when every branch had failed. The Euler column's
# BP1 (tests/golden/euler-column/states/BP1.json) with one Newton iteration per
# step: on the curved elastica every step fails, both secondary branches end
# step-too-small, and so must the run (exit 1). The three-bar truss from its BP1
# (the golden case three-bar-from: branches completed and rejoined) stays completed.
# usage: from_termination.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
cd "$src" || die "no source dir"
"$trace" problems/euler-column.cfg --from tests/golden/euler-column/states/BP1.json --out "$work/failing" --quiet \
  continuation.max_iterations=1 continuation.target_iterations=1 > "$work/failing.log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || die "every branch failed: exit $rc, expected 1: $(cat "$work/failing.log")"
run=$(sed -n 's/^  "termination": "\(.*\)",$/\1/p' "$work/failing/summary.json" | head -n 1)
[ "$run" = "step-too-small" ] || die "every branch failed: termination '$run', expected step-too-small"
branches=$(grep -c '"termination": "step-too-small"' "$work/failing/summary.json")
[ "$branches" -ge 3 ] || die "expected the run and at least two branches step-too-small, found $branches"
echo "ok --from, every branch step-too-small: termination $run, exit $rc"
"$trace" problems/three-bar.cfg --from tests/golden/three-bar/states/BP1.json --out "$work/good" --quiet > /dev/null 2>&1
rc=$?
run=$(sed -n 's/^  "termination": "\(.*\)",$/\1/p' "$work/good/summary.json" | head -n 1)
[ "$rc" -eq 0 ] && [ "$run" = "completed" ] || die "--from with good branches: exit $rc, termination '$run'"
echo "ok --from, branches completed or rejoined: termination $run, exit $rc"
