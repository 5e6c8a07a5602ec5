#!/usr/bin/env bash
# trace --vtk and output.drawings: the files appear, --overwrite removes them;
# the progress output: plain lines when stdout is not a terminal (format
# unchanged), a single updating line on a terminal (run under script(1); that
# part is skipped where script is missing), nothing with --quiet.
# usage: outputs.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
die() { echo "FAIL: $*"; exit 1; }
cfg="$src/problems/von-mises.cfg"

# Plain lines (stdout is a file): a header, one 'step' line per point, no control characters.
"$trace" "$cfg" --out "$work/a" --vtk output.drawings=true > "$work/a.log" 2>&1 || die "exit $?: $(cat "$work/a.log")"
[ "$(sed -n 1p "$work/a.log")" = "von-mises: 1 unknowns, constraint spherical" ] || die "header: $(sed -n 1p "$work/a.log")"
[ "$(sed -n 2p "$work/a.log")" = "step     0  lambda=+0.000000000e+00  u_2_uy=+0.000000e+00  it= 0  ds=0.000e+00  neg=0" ] \
  || die "first step line: $(sed -n 2p "$work/a.log")"
points=$(sed -n 's/^  "points": \([0-9]*\).*/\1/p' "$work/a/summary.json")
steps=$(grep -c '^step ' "$work/a.log")
[ "$steps" = "$points" ] || die "$steps step lines for $points points"
bad=$(grep -c -v -E '^step +[0-9]+  lambda=[+-][0-9]\.[0-9]{9}e[+-][0-9]{2}  u_2_uy=[+-][0-9]\.[0-9]{6}e[+-][0-9]{2}  it=[ 0-9]{2}  ds=[0-9]\.[0-9]{3}e[+-][0-9]{2}  neg=[0-9]+$' <(grep '^step ' "$work/a.log"))
[ "$bad" = 0 ] || die "$bad step lines of another format"
grep -q $'\r' "$work/a.log" && die "carriage return in the plain output"
grep -q $'\e' "$work/a.log" && die "escape sequence in the plain output"
grep -q '^  LP1 limit point: lambda = 0.034426518633' "$work/a.log" || die "LP1 line missing"
echo "ok plain progress: $steps lines"

# The files: one .vtu per point, the indexes, the drawings.
[ "$(ls "$work/a/vtk" | grep -c '^b0_p[0-9]*\.vtu$')" = "$points" ] || die "not one .vtu per point"
[ "$(grep -c '<DataSet ' "$work/a/vtk/branch0.pvd")" = "$points" ] || die "branch0.pvd does not list every point"
for f in vtk/modes.pvd vtk/mode_LP1.vtu vtk/mode_LP2.vtu drawings/structure.svg drawings/LP1_shape.svg \
         drawings/LP1_mode.svg drawings/LP2_shape.svg drawings/LP2_mode.svg; do
  [ -s "$work/a/$f" ] || die "missing $f"
done
if command -v xmllint > /dev/null; then
  xmllint --noout "$work/a/vtk/branch0.pvd" "$work/a/vtk/mode_LP1.vtu" "$work/a/drawings/LP1_mode.svg" \
    || die "not well-formed XML"
fi
echo "ok vtk and drawings"

# --overwrite without them: the old vtk/ and drawings/ are gone.
"$trace" "$cfg" --out "$work/a" --overwrite --quiet > /dev/null 2>&1 || die "--overwrite: exit $?"
[ ! -e "$work/a/vtk" ] || die "--overwrite left vtk/"
[ ! -e "$work/a/drawings" ] || die "--overwrite left drawings/"
echo "ok overwrite"

# --quiet: no progress at all, only the closing summary.
"$trace" "$cfg" --out "$work/q" --quiet > "$work/q.log" 2>&1 || die "--quiet: exit $?"
grep -q -E '^step |^points ' "$work/q.log" && die "--quiet printed progress"
grep -q '^von-mises: 35 points' "$work/q.log" || die "--quiet: no summary: $(cat "$work/q.log")"

# A terminal: one line redrawn in place, no 'step' lines, the messages above it.
if ! command -v script > /dev/null; then echo "skip terminal part: no script(1)"; exit 0; fi
script -qec "'$trace' '$cfg' --out '$work/t'" /dev/null > "$work/t.log" 2>&1 || die "under script: exit $?: $(cat "$work/t.log")"
grep -q '^step ' "$work/t.log" && die "step lines on a terminal"
grep -q $'\r\e\[K' "$work/t.log" || die "no line erase on a terminal"
grep -q -E 'points [0-9]+  lambda=[+-][0-9.]+e[+-][0-9]+  ds=[0-9.]+e[+-][0-9]+  critical 2  elapsed 0:[0-9]{2}\.[0-9]' "$work/t.log" \
  || die "no progress line with both critical points: $(cat -v "$work/t.log" | head -5)"
grep -q 'LP1 limit point: lambda = 0.034426518633' "$work/t.log" || die "LP1 message missing on a terminal"
grep -q 'von-mises: 35 points, termination completed' "$work/t.log" || die "summary missing on a terminal"
script -qec "'$trace' '$cfg' --out '$work/tq' --quiet" /dev/null > "$work/tq.log" 2>&1 || die "quiet under script: exit $?"
grep -q -E 'points [0-9]+  lambda' "$work/tq.log" && die "--quiet drew a progress line on a terminal"
echo "ok terminal progress"
