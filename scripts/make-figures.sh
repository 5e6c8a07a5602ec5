#!/usr/bin/env bash
# Regenerates the figures of the manual: traces the catalogue problems below with
# --plot and copies their PNGs (lambda_<column>.png, 800x600) into docs/figures/
# as <problem>-lambda_<column>.png, and the SVG drawings of the structure and of
# its first critical point (DIR/drawings/structure.svg, <ID>_shape.svg,
# <ID>_mode.svg) as <problem>-structure.svg, <problem>-<ID>_shape.svg, ...
# (ltb-fork-beam, argyris-frame, argyris-frame-moments, ltb-cantilever: planar paths and lateral
# branches, docs/validation.md.)
# Then the two sweeps of the user guide (docs/user-guide.md section 7; trace
# --sweep): the rise h of tests/design/von-mises-h.cfg (0.2:1.4:13) and the apex
# height H of tests/design/eriksson-frame-h.cfg (30:45:16); their sweep.png is
# copied as <cfg name>-sweep.png, i.e. von-mises-h-sweep.png and
# eriksson-frame-H-sweep.png (H upper case: the parameter's name).
# Every run uses its cfg as committed, no overrides: the whole script takes a few
# seconds (the slowest run, the Eriksson frame with its branches, under 1 s; the
# Eriksson sweep about 1 s on 2 cores), so it runs in the test suite
# (ctest cli.plot.catalogue_figures).
# Then review and commit docs/figures/.
#
# usage: scripts/make-figures.sh [TRACE [DEST]]
#   TRACE  the trace program (default: build/apps/trace; build it first, e.g.
#          ./scripts/setup.sh)
#   DEST   where the PNGs go (default: docs/figures)
# The results of each run are kept in $WORK (default: a temporary directory,
# removed at the end unless KEEP=1).
set -euo pipefail
cd "$(dirname "$0")/.."
trace=${1:-build/apps/trace}
dest=${2:-docs/figures}
problems=(three-bar von-mises euler-column lee-frame roorda-frame eriksson-frame three-bar-imperfect ltb-fork-beam argyris-frame
          argyris-frame-moments ltb-cantilever)
# The sweeps: cfg, parameter=first:last:count, name of the figure in DEST.
sweeps=("tests/design/von-mises-h.cfg h=0.2:1.4:13 von-mises-h-sweep.png"
        "tests/design/eriksson-frame-h.cfg H=30:45:16 eriksson-frame-H-sweep.png")

[ -x "$trace" ] || { echo "make-figures: $trace is not a program; build Senda first (./scripts/setup.sh)" >&2; exit 2; }
command -v gnuplot > /dev/null || { echo "make-figures: gnuplot not found (Debian package gnuplot-nox)" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
[ "${KEEP:-0}" = 1 ] || [ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"

for p in "${problems[@]}"; do
  out="$work/$p"
  echo "make-figures: $p"
  rc=0
  "$trace" "problems/$p.cfg" --out "$out" --overwrite --quiet --plot > "$work/$p.log" 2>&1 || rc=$?
  # Exit 1 (a branch ended with step-too-small) still leaves complete results and figures.
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "make-figures: trace $p exited $rc:" >&2; cat "$work/$p.log" >&2; exit 1
  fi
  if grep -q "^trace: --plot:" "$work/$p.log"; then
    echo "make-figures: $p: $(grep "^trace: --plot:" "$work/$p.log")" >&2; exit 1
  fi
  n=0
  for png in "$out"/lambda_*.png; do
    [ -s "$png" ] || { echo "make-figures: $p: no figure in $out" >&2; exit 1; }
    cp "$png" "$dest/$p-$(basename "$png")"
    echo "  $dest/$p-$(basename "$png")"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || { echo "make-figures: $p: no figure" >&2; exit 1; }
  first=$(sed -n '2s/,.*//p' "$out/critical.csv")
  for svg in structure ${first:+${first}_shape ${first}_mode}; do
    [ -s "$out/drawings/$svg.svg" ] || { echo "make-figures: $p: no drawing $svg.svg" >&2; exit 1; }
    cp "$out/drawings/$svg.svg" "$dest/$p-$svg.svg"
    echo "  $dest/$p-$svg.svg"
  done
done
# The imperfect three-bar path over the perfect diagram (issue 4; docs/validation.md):
# every branch of the perfect structure in grey, the imperfect path in red.
if [ -s "$work/three-bar/path.csv" ] && [ -s "$work/three-bar-imperfect/path.csv" ]; then
  overlay="$dest/three-bar-overlay-lambda_u_3_uy.png"
  gnuplot -e "perfect='$work/three-bar/path.csv'; imperfect='$work/three-bar-imperfect/path.csv'; out='$overlay'" \
    scripts/three-bar-overlay.gp
  [ -s "$overlay" ] || { echo "make-figures: overlay not produced" >&2; exit 1; }
  echo "  $overlay"
fi
for entry in "${sweeps[@]}"; do
  read -r cfg range name <<< "$entry"
  out="$work/sweep-${name%.png}"
  log="$work/sweep-${name%.png}.log"
  echo "make-figures: sweep $cfg $range"
  rc=0
  "$trace" "$cfg" --sweep "$range" --jobs 2 --out "$out" --overwrite --quiet > "$log" 2>&1 || rc=$?
  # Exit 1 here means a value failed: the figure would miss it, so it is an error.
  if [ "$rc" -ne 0 ]; then
    echo "make-figures: sweep $cfg $range exited $rc:" >&2; cat "$log" >&2
    [ -s "$out/sweep.csv" ] && grep -v ',completed,' "$out/sweep.csv" >&2
    exit 1
  fi
  [ -s "$out/sweep.png" ] || { echo "make-figures: sweep $cfg: no sweep.png in $out" >&2; cat "$log" >&2; exit 1; }
  cp "$out/sweep.png" "$dest/$name"
  echo "  $dest/$name"
done
echo "make-figures: done; figures in $dest"
