#!/usr/bin/env bash
# trace --plot with a curve of critical points runs gnuplot twice, on plot.gp and
# on curves.gp: each run writes its own log (plot.log, curves.log), so the second
# does not overwrite the first one's messages. A stand-in for gnuplot
# (SENDA_GNUPLOT) echoes the script it was given and draws nothing, so this needs
# no gnuplot. --overwrite removes curves.log with Senda's other files.
# usage: plot_logs.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
die() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"; mkdir -p "$work"
fake="$work/fake-gnuplot"
printf '#!/bin/sh\necho "fake gnuplot: $1"\necho "fake gnuplot warns about $1" >&2\n' > "$fake"
chmod +x "$fake"
d="$work/r"
SENDA_GNUPLOT="$fake" "$trace" "$src/tests/design/von-mises-h.cfg" --out "$d" --quiet --plot \
  --follow LP1 design.direction=up design.mu_max=1.2 > "$work/out.log" 2> "$work/err.log"
rc=$?
[ $rc -eq 0 ] || die "exit $rc (expected 0: the trace completed): $(cat "$work/err.log")"
[ -s "$d/curves.gp" ] || die "no curves.gp: $(cat "$work/out.log" "$work/err.log")"
[ "$(cat "$d/plot.log")" = "fake gnuplot: plot.gp
fake gnuplot warns about plot.gp" ] || die "plot.log: $(cat "$d/plot.log")"
[ "$(cat "$d/curves.log")" = "fake gnuplot: curves.gp
fake gnuplot warns about curves.gp" ] || die "curves.log: $(cat "$d/curves.log")"
grep -q "trace: --plot: curves: .*curves.log" "$work/err.log" || die "the curves message names no curves.log: $(cat "$work/err.log")"
echo "ok plot.log and curves.log"
"$trace" "$src/tests/design/von-mises-h.cfg" --out "$d" --quiet --overwrite > /dev/null 2>&1 || die "--overwrite run: exit $?"
[ ! -e "$d/curves.log" ] && [ ! -e "$d/plot.log" ] && [ ! -e "$d/curves.gp" ] || die "--overwrite left old figure files: $(ls "$d")"
echo "ok --overwrite removes them"
