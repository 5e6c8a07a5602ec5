#!/usr/bin/env bash
# Path following must not give a silent wrong answer (issue 19, items 1-7): each
# case is a structure of tests/continuation/cfg/ with the options that broke it.
# usage: path_following.sh TRACE SOURCE_DIR WORK_DIR [CASE]
#   CASE: control-refused, runaway, monotone-control, control-turning-point,
#         no-return, no-jump, close-points, outside-bracket, unlocated-null,
#         stiff-shear, cancelling-pair, few-steps, load-jump, follow-bad-start,
#         bound-inside-step, from-other-model, switch-unknown, loose-tolerance,
#         load-control-branches, displacement-back, km-units, sensitivity-error,
#         follow-meets-bp, length-units, psi-zero, first-step-jump (all when omitted)
set -u
trace=$1; src=$2; work=$3; only=${4:-}
rm -rf "$work"; mkdir -p "$work"
cfg="$src/tests/continuation/cfg"
fail=0
die() { echo "FAIL $case: $*"; fail=1; case_failed=1; }
ok() { [ $case_failed -eq 1 ] || echo "ok $case"; case_failed=0; }
case_failed=0
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
# run NAME CFG ARGS...: exit code in $rc
run() { local name=$1 file=$2; shift 2; "$trace" "$file" --out "$work/$name" --quiet "$@" > "$work/$name.log" 2>&1; rc=$?; }
termination() { sed -n 's/^  "termination": "\([^"]*\)".*/\1/p' "$work/$1/summary.json"; }
message() { sed -n 's/^  "message": "\(.*\)",$/\1/p' "$work/$1/summary.json"; }
# column NAME HEADER: the values of one path.csv column
column() { awk -F, -v h="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == h) c = i; next } { print $c }' "$work/$1/path.csv"; }
# No non-finite or runaway number (|x| > 1e10: the structures here have |lambda| < 1e4
# and displacements < 1e3) anywhere in path.csv or summary.json.
sane() {
  awk -F, 'NR > 1 { for (i = 1; i <= NF; ++i) { x = $i + 0; if ($i ~ /nan|inf/ || x > 1e10 || x < -1e10) { print "path.csv row " NR ": " $0; exit 1 } } }' "$work/$1/path.csv" ||
    return 1
  ! grep -n -i -E '(nan|inf)[,}]?$|[0-9]e\+(1[0-9]|[2-9][0-9]|[0-9]{3})' "$work/$1/summary.json" | grep -v '"lambda_m' | head -3 | grep .
}

# Item 4: a control dof the load does not move (the toggle's apex rotation, zero by
# symmetry) is refused by name before the first step; it used to end "completed",
# exit 0, with lambda = 1e167.
case=control-refused
if want $case; then
  run $case "$cfg/williams-toggle.cfg" continuation.constraint=displacement "continuation.control=2 rz" model.beam_formulation=corotational continuation.initial_step=0.5
  [ $rc -eq 1 ] || die "exit $rc, expected 1"
  [ "$(termination $case)" = diverged ] || die "termination $(termination $case)"
  message $case | grep -q 'displacement control: node 2 rz does not move along the initial tangent' || die "message: $(message $case)"
  sane $case || die "runaway value"
  ok
fi

# Item 4: Newton iterates that run away are not converged: Lee's frame (corotational)
# with control = 3 ux accepted lambda = 1e186 after one iteration, exit 0. The load
# point's ux hardly moves at first (the control is ill-posed there): the run may end
# early (exit 1), but with finite values, and a completed run stays near the path.
case=runaway
if want $case; then
  for st in 0.05 0.2 1; do
    run $case-$st "$src/problems/lee-frame.cfg" continuation.constraint=displacement "continuation.control=3 ux" model.beam_formulation=corotational continuation.initial_step=$st
    sane $case-$st || die "initial_step $st: runaway value (exit $rc, $(termination $case-$st))"
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || die "initial_step $st: exit $rc"
    max=$(column $case-$st lambda | awk '{ x = $1 < 0 ? -$1 : $1; if (x > m) m = x } END { print m + 0 }')
    [ $rc -ne 0 ] || awk -v m="$max" 'BEGIN { exit !(m < 3) }' || die "initial_step $st: exit 0 with |lambda| up to $max on a frame whose limit load is 1.86"
  done
  ok
fi

# Item 5: under displacement control the controlled dof moves one way; the fold in
# lambda is passed (it used to cycle between three displacements for 400 steps).
case=monotone-control
if want $case; then
  run $case "$cfg/von-mises-dc.cfg"
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  message $case | grep -q 'displacement limit reached' || die "message: $(message $case)"
  column $case u_2_uy | awk 'NR > 1 && !($1 < prev) { print "not decreasing at row " NR ": " prev " -> " $1; bad = 1; exit } { prev = $1 } END { exit bad }' || die "u_2_uy not monotone"
  n=$(grep -c '"id": "LP' "$work/$case/summary.json")
  [ "$n" -eq 2 ] || die "$n limit points, expected 2 (the maximum and the minimum of lambda)"
  sane $case || die "runaway value"
  ok
fi

# Item 5: a true turning point of the controlled dof (Lee's frame snaps back: the
# load point's uy turns) is reported as such, not passed by going back.
case=control-turning-point
if want $case; then
  run $case "$src/problems/lee-frame.cfg" continuation.constraint=displacement "continuation.control=3 uy" continuation.initial_step=0.05
  [ $rc -eq 1 ] || die "exit $rc, expected 1 ($(termination $case))"
  message $case | grep -q 'displacement control: node 3 uy reaches a turning point' || die "message: $(message $case)"
  column $case u_3_uy | awk 'NR > 1 && !($1 < prev) { print "not decreasing at row " NR; bad = 1; exit } { prev = $1 } END { exit bad }' || die "u_3_uy not monotone"
  sane $case || die "runaway value"
  ok
fi

# Item 6: cylindrical arc length on the 215-degree arch past its limit point: no
# point equals the point two steps back (the path used to run backwards from there).
case=no-return
if want $case; then
  for c in cylindrical spherical; do
    run $case-$c "$cfg/dadeppo-arch.cfg" continuation.constraint=$c
    [ $rc -eq 0 ] || die "$c: exit $rc: $(message $case-$c)"
    awk -F, 'NR > 1 { l[NR] = $3; u[NR] = $4; if (NR > 3) { d = (l[NR] - l[NR-2]); e = (u[NR] - u[NR-2]); if (d * d < 1e-12 && e * e < 1e-12) { print "row " NR " returns to row " NR - 2; exit 1 } } }' "$work/$case-$c/path.csv" || die "$c: the path returns"
    grep -q '"id": "LP1"' "$work/$case-$c/summary.json" || die "$c: no LP1"
    # Published P R^2/EI = 8.97: LP1 = 897 (80 elements: 897.8).
    lp=$(awk '/"id": "LP1"/ { f = 1 } f && /"lambda":/ { gsub(/[^0-9.eE+-]/, "", $2); print $2; exit }' "$work/$case-$c/summary.json")
    awk -v x="$lp" 'BEGIN { exit !(x > 896 && x < 899) }' || die "$c: LP1 at $lp"
    sane $case-$c || die "$c: runaway value"
  done
  ok
fi

# Item 7: the toggle with auto_scale = false jumped across the snap-through in one
# step (apex uy -0.23 -> -0.50, no crossing); it must find both limit points, as with
# the automatic scaling (34.329, 31.816), and no step may move the apex by more
# than 0.1. The tangent-turn bound (continuation.max_turn) is what cuts that step:
# with it off the jump comes back.
case=no-jump
if want $case; then
  run $case "$cfg/williams-toggle.cfg" continuation.auto_scale=false
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  column $case u_2_uy | awk 'NR > 1 { d = $1 - prev; if (d < 0) d = -d; if (d > 0.1) { print "step to row " NR " moves uy by " d; bad = 1 } } { prev = $1 } END { exit bad }' || die "a step jumps"
  for want_lp in 34.329 31.816; do
    awk -v w=$want_lp '/"kind": "limit"/ { k = 1 } k && /"lambda":/ { gsub(/[^0-9.eE+-]/, "", $2); x = $2 + 0; if (x > w - 0.001 && x < w + 0.001) found = 1; k = 0 } END { exit !found }' "$work/$case/summary.json" ||
      die "no limit point at $want_lp"
  done
  sane $case || die "runaway value"
  run $case-off "$cfg/williams-toggle.cfg" continuation.auto_scale=false continuation.max_turn=180
  column $case-off u_2_uy | awk 'NR > 1 { d = $1 - prev; if (d < 0) d = -d; if (d > 0.1) bad = 1 } { prev = $1 } END { exit !bad }' ||
    die "with continuation.max_turn = 180 no step jumps: the case no longer tests the bound"
  ok
fi

# points NAME: "kind converged lambda" for each critical point of summary.json.
points() {
  awk '/^      "id": "(LP|BP|MP)/ { p = 1 } p && /^      "kind":/ { k = $2 } p && /^      "converged":/ { c = $2 }
       p && /^      "lambda":/ { l = $2; gsub(/[",]/, "", k); gsub(/,/, "", c); gsub(/,/, "", l); print k, c, l; p = 0 }' "$work/$1/summary.json"
}
# same_points NAME "KIND LAMBDA ...": each expected point located to 1e-8 relative,
# and no other point reported (located elsewhere, or not located).
same_points() {
  points "$1" | awk -v want="$2" '
    BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i += 2) { m++; ek[m] = w[i]; el[m] = w[i + 1] } }
    { g++; line[g] = $0; gk[g] = $1; gc[g] = $2; gl[g] = $3 }
    END {
      for (i = 1; i <= m; ++i) {
        f = 0
        for (j = 1; j <= g && !f; ++j)
          if (!used[j] && gc[j] == "true" && gk[j] == ek[i] && (gl[j] - el[i]) ^ 2 <= (1e-8 * el[i]) ^ 2) { used[j] = 1; f = 1 }
        if (!f) { print "missing " ek[i] " " el[i]; bad = 1 }
      }
      for (j = 1; j <= g; ++j) if (!used[j]) { print "extra: " line[j]; bad = 1 }
      exit bad
    }'
}
# A point that was not located has no lambda in summary.json (item 3).
null_unlocated() {
  points "$1" | awk '$2 == "false" && $3 != "null" { print "not located, lambda " $3; bad = 1 } END { exit bad }'
}

# The closed form of tests/continuation/cfg/von-mises-sway.cfg: the symmetric path of
# the deep truss, and the same points mirrored (lambda < 0).
sway_points() {  # EA STRAIN
  awk -v ea="$1" -v strain="$2" 'BEGIN {
    if (strain == "engineering") { s = ea / sqrt(10); printf "bifurcation %.12g limit %.12g bifurcation %.12g", 0.783498066739 * s, 2.48075598901 * s, 2.38631275401 * s
                                   printf " bifurcation %.12g limit %.12g bifurcation %.12g", -0.783498066739 * s, -2.48075598901 * s, -2.38631275401 * s }
    else { printf "bifurcation 0.547512103285 bifurcation 1.04397555949 limit 2.82837280174"
           printf " bifurcation -0.547512103285 bifurcation -1.04397555949 limit -2.82837280174" } }'
}

# Item 1: a fold and a bifurcation point in one step (negative pivots 1 -> 1, det K
# unchanged, the bordered determinant changed) were read as one bifurcation "at a
# lambda extremum": the fold was never reported. Every point of the closed form is
# located, with each constraint, the file's step and EA = 1 with initial_step 0.02.
case=close-points
if want $case; then
  run $case "$cfg/von-mises-sway.cfg"
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  same_points $case "$(sway_points 3.1622776601683795 engineering)" || die "the file's run"
  for c in spherical pseudo-arclength cylindrical displacement; do
    extra=""; [ $c = displacement ] && extra="continuation.control=2 uy"
    run $case-$c "$cfg/von-mises-sway.cfg" parameters.EA=1 continuation.initial_step=0.02 continuation.constraint=$c ${extra:+"$extra"}
    [ $rc -eq 0 ] || die "$c: exit $rc: $(message $case-$c)"
    same_points $case-$c "$(sway_points 1 engineering)" || die "$c, EA = 1, initial_step 0.02"
    sane $case-$c || die "$c: runaway value"
  done
  ok
fi

# Item 2: with the logarithmic measure and auto_scale = false a bifurcation point
# was "located" outside its bracket (another one), the next bracket "converged to" it
# again, and the point crossed there was never reported. Each located point must lie
# in its bracket: every point of the closed form is found, and none twice.
case=outside-bracket
if want $case; then
  for c in spherical pseudo-arclength cylindrical; do
    for st in 0.1 0.05 0.02; do
      run $case-$c-$st "$cfg/von-mises-sway.cfg" parameters.EA=1 model.strain=logarithmic continuation.auto_scale=false continuation.constraint=$c continuation.initial_step=$st
      [ $rc -eq 0 ] || die "$c $st: exit $rc: $(message $case-$c-$st)"
      same_points $case-$c-$st "$(sway_points 1 logarithmic)" || die "$c, initial_step $st"
      null_unlocated $case-$c-$st || die "$c $st: a point not located has a lambda"
    done
  done
  ok
fi

# Item 1, crossings that cancel: with the logarithmic measure and EA = 1 the two
# bifurcation points of each half of the sway truss are 0.41 apart in w; grown
# cylindrical or displacement-controlled steps hold both (negative pivots 0 -> 1 -> 0,
# no sign changes at the ends) and both were dropped. The eigenvalue monitor must
# find them with every step; with it off (critical.monitor_eigenvalues = false) the
# same runs must still lose them (the test's own check that it tests something).
case=cancelling-pair
if want $case; then
  bps="bifurcation 0.547512103285 bifurcation 1.04397555949 bifurcation -0.547512103285 bifurcation -1.04397555949"
  lost=0
  # Displacement control with initial_step 0.2 and 0.3 still loses the mirrored pair:
  # its steps have grown to 1.6-3 (a third of the apex's travel) and the sway
  # eigenvalue falls from 5.6 to 0.03 in the step with a dip to -0.01 that the cubic
  # fit cannot see (docs/validation.md, issue 19 left open); those runs are not here.
  for run_case in cylindrical:0.1 cylindrical:0.2 cylindrical:0.3 displacement:0.05 displacement:0.1 \
                  displacement:0.15 displacement:0.25; do
    c=${run_case%%:*}; st=${run_case##*:}
    {
      extra=""; [ $c = displacement ] && extra="continuation.control=2 uy"
      name=$case-$c-$st
      run $name "$cfg/von-mises-sway.cfg" parameters.EA=1 model.strain=logarithmic continuation.constraint=$c \
        continuation.initial_step=$st ${extra:+"$extra"}
      [ $rc -eq 0 ] || die "$c $st: exit $rc: $(message $name)"
      if [ $c = cylindrical ]; then
        same_points $name "$(sway_points 1 logarithmic)" || die "$c, initial_step $st"
      else
        # Under displacement control the folds in lambda may be reported not located
        # (issue 19, left open); the bifurcation points must all be there.
        points $name | awk '$1 == "limit" && $2 == "false" { next } { print }' > "$work/$name.located"
        awk -v want="$bps" 'BEGIN { n = split(want, w, " ") }
          { g++; k[g] = $1; c[g] = $2; l[g] = $3 }
          END { for (i = 1; i <= n; i += 2) { f = 0; for (j = 1; j <= g; ++j) if (k[j] == w[i] && c[j] == "true" && (l[j] - w[i + 1]) ^ 2 <= (1e-8 * w[i + 1]) ^ 2) f = 1
                  if (!f) { print "missing " w[i] " " w[i + 1]; bad = 1 } }
                for (j = 1; j <= g; ++j) if (k[j] == "limit" && c[j] == "true" && (l[j] ^ 2 - 2.82837280174 ^ 2) ^ 2 > 1e-14) { print "wrong limit " l[j]; bad = 1 }
                exit bad }' "$work/$name.located" || die "$c, initial_step $st"
      fi
      null_unlocated $name || die "$c $st: a point not located has a lambda"
      sane $name || die "$c $st: runaway value"
      run $name-off "$cfg/von-mises-sway.cfg" parameters.EA=1 model.strain=logarithmic continuation.constraint=$c \
        continuation.initial_step=$st ${extra:+"$extra"} critical.monitor_eigenvalues=false
      n=$(points $name-off | awk '$1 == "bifurcation" && $2 == "true"' | wc -l)
      [ "$n" -lt 4 ] && lost=$((lost + 1))
    }
  done
  [ $lost -ge 2 ] || die "without the monitor only $lost runs lost bifurcation points (the case no longer tests the monitor)"
  ok
fi

# Item 3: a point that was not located carries no lambda nor displacements in
# summary.json, no mode file, and an empty lambda in critical.csv (the plot does not
# draw it). The star dome's double points are not located (multiple).
case=unlocated-null
if want $case; then
  run $case "$src/problems/star-dome.cfg" --primary-only --plot
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  n=$(points $case | awk '$2 == "false"' | wc -l)
  [ "$n" -ge 1 ] || die "no point not located: the case tests nothing"
  null_unlocated $case || die "a point not located has a lambda"
  grep -A12 '"converged": false' "$work/$case/summary.json" | grep -q '"displacements": null' || die "displacements not null"
  for id in $(awk -F, '$NF == 0 { print $1 }' "$work/$case/critical.csv"); do
    [ ! -e "$work/$case/modes/$id.csv" ] || die "$id: a mode file for a point not located"
  done
  awk -F, '$NF == 0 && $4 != "" { print; bad = 1 } END { exit bad }' "$work/$case/critical.csv" || die "critical.csv gives a lambda to a point not located"
  grep -q "not located (not drawn" "$work/$case/plot.gp" || die "plot.gp: no key entry for the points not located"
  # Simple points whose Newton fails (the toggle with GA_s = 1e14: round-off in the
  # derivative of K), with --vtk: no mode file, no mode .vtu, no lambda.
  sed 's/1.8849e6 6.0445e5 9270 10/1.8849e6 1e14 9270 10/' "$cfg/williams-toggle.cfg" > "$work/toggle-1e14.cfg"
  run $case-simple "$work/toggle-1e14.cfg" --vtk
  n=$(points $case-simple | awk '$1 == "limit" && $2 == "false"' | wc -l)
  [ "$n" -ge 1 ] || die "toggle GA_s = 1e14: no limit point not located: the case tests nothing"
  null_unlocated $case-simple || die "toggle: a point not located has a lambda"
  for id in $(awk '/^      "id": "(LP|BP|MP)/ { gsub(/[",]/, "", $2); id = $2 } /^      "converged": false/ { print id }' "$work/$case-simple/summary.json"); do
    [ ! -e "$work/$case-simple/modes/$id.csv" ] || die "toggle $id: a mode file for a point not located"
    [ ! -e "$work/$case-simple/modes/mode_$id.vtu" ] || die "toggle $id: a mode .vtu for a point not located"
  done
  ok
fi
# Item 9: a very stiff shear (Simo-Reissner, GA_s = 1e10 on the toggle) left both
# limit points "not located" after 20 wandering iterations, with a message nested in
# another; with central differences for the derivative of K (docs/theory.md eq. 6.1)
# both converge quadratically.
case=stiff-shear
if want $case; then
  sed 's/1.8849e6 6.0445e5 9270 10/1.8849e6 1e10 9270 10/' "$cfg/williams-toggle.cfg" > "$work/toggle-stiff.cfg"
  run $case "$work/toggle-stiff.cfg"
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  n=$(points $case | awk '$1 == "limit" && $2 == "true"' | wc -l)
  [ "$n" -eq 2 ] || die "$n located limit points, expected 2"
  awk '/^      "newton_iterations":/ { gsub(/,/, "", $2); if ($2 + 0 > 6) { print "iterations " $2; bad = 1 } } END { exit bad }' "$work/$case/summary.json" ||
    die "more than 6 Newton iterations"
  ! grep '^      "message":' "$work/$case/summary.json" | grep -q '(after.*(after\|failed:.*failed:' || die "a nested message"
  ok
fi
case=few-steps
if want $case; then
  # The default first step steps over both limit points of the shallow truss: the run
  # ends in 2 steps and says that such steps cannot see a snap-through; a twentieth of
  # the critical load as first step finds both limit points, and no such note.
  run $case "$cfg/von-mises-shallow.cfg"
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  message $case | grep -q 'in only 2 steps: a snap-through whose two limit points' || die "no few-steps note: $(message $case)"
  run $case-short "$cfg/von-mises-shallow.cfg" continuation.initial_step=1.5e-4
  [ $rc -eq 0 ] || die "short steps: exit $rc"
  for want_lp in 0.0029033 -0.0029033; do
    awk -v w=$want_lp '/"kind": "limit"/ { k = 1 } k && /"lambda":/ { gsub(/[^0-9.eE+-]/, "", $2); x = $2 + 0; if (x > w - 1e-7 && x < w + 1e-7) found = 1; k = 0 } END { exit !found }' "$work/$case-short/summary.json" ||
      die "short steps: no limit point at $want_lp"
  done
  ! message $case-short | grep -q 'in only' || die "short steps: a few-steps note"
  ok
fi
case=load-jump
if want $case; then
  # Load control across von Mises' LP1: the corrector at fixed lambda lands on the far
  # branch (uy -0.20 -> -1.08). The points are equilibria and both limit points are
  # located (the eigenvalue monitor), but the run says the curve jumped; spherical
  # steps follow the path and say nothing of the kind. The file's initial step times
  # sqrt 2: under load control the first increment is initial_step itself (it was
  # sqrt 2 times it, the arc-length step's Delta s0), and at the file's 0.005 the
  # steps reach LP1 and the run ends there, saying so.
  run $case-first "$src/problems/von-mises.cfg" continuation.constraint=load
  awk -F, 'NR == 3 { exit !($3 == 0.005) }' "$work/$case-first/path.csv" ||
    die "the first increment is not initial_step: $(sed -n 3p "$work/$case-first/path.csv")"
  message $case-first | grep -q 'load control: the path reaches a limit point near lambda = 0.0344265' ||
    die "at the file's step: $(message $case-first)"
  run $case "$src/problems/von-mises.cfg" continuation.constraint=load continuation.initial_step=0.00707106781186548
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  message $case | grep -q 'under load control 1 step jumped (the first from point 7' || die "no jump said: $(message $case)"
  run $case-arc "$src/problems/von-mises.cfg"
  ! message $case-arc | grep -q 'jumped' || die "spherical: a jump said"
  ok
fi
case=follow-bad-start
if want $case; then
  # A curve asked for that cannot start (no LP9 on the path) is exit 1, said on
  # stderr; the path's results are complete (exit 0 before, both curves bad-start).
  run $case "$src/tests/design/von-mises-h.cfg" --follow LP9
  [ $rc -eq 1 ] || die "exit $rc, expected 1"
  grep -q 'the curve of LP9 could not start' "$work/$case.log" || die "not said: $(cat "$work/$case.log")"
  grep -q '"termination": "bad-start"' "$work/$case/summary.json" || die "no bad-start curve in summary.json"
  run $case-ok "$src/tests/design/von-mises-h.cfg" --follow LP1 design.mu_max=0.6 design.mu_min=0.4
  [ $rc -eq 0 ] || die "a curve that starts: exit $rc"
  # Down to h -> 0 the builder refuses the rise: the curve ends invalid-model (it said
  # step-too-small, "the critical point may cease to exist there").
  run $case-h0 "$src/tests/design/von-mises-h.cfg" --follow LP1 design.direction=down
  grep -q '"termination": "invalid-model"' "$work/$case-h0/summary.json" || die "h -> 0: not invalid-model"
  # A run whose parameter lies outside [mu_min, mu_max]: its curves cannot start (they
  # ended after one step each, mu-range, exit 0).
  run $case-range "$src/tests/design/von-mises-h.cfg" --follow LP1 design.mu_min=0.6
  [ $rc -eq 1 ] || die "start outside the range: exit $rc, expected 1"
  grep -q 'the curve starts at h = 0.5, outside \[design.mu_min, design.mu_max\] = \[0.6, inf\]' "$work/$case-range.log" ||
    die "start outside the range: not said: $(cat "$work/$case-range.log")"
  # A curve that cannot leave its point because the parameter breaks the bifurcation
  # (a sway force at the apex: no sensitivity) is exit 1 too (it was 0).
  run $case-imp "$src/tests/design/von-mises-imperfect.cfg" --follow BP1 design.parameter=eps branches.switch=false
  [ $rc -eq 1 ] || die "imperfection parameter: exit $rc, expected 1"
  grep -q 'the curve of BP1 could not start (no sensitivity at the start point' "$work/$case-imp.log" ||
    die "imperfection parameter: not said: $(cat "$work/$case-imp.log")"
  # The sensitivities take the file's critical.bifurcation_tolerance, as the curves
  # do: Roorda's frame sets 1e-2 (its own model unfolds the bifurcation: phi^T r =
  # 1.9e-3), and its joint force (phi^T g_mu = 1.8e-6 relative) keeps the bifurcation
  # there. The sensitivities used 1e-6 always, and called it an imperfection.
  run $case-tol "$src/tests/design/roorda-imperfect.cfg" design.parameter=eps branches.switch=false
  grep -q '"dlambda_dmu": -0.1767' "$work/$case-tol/summary.json" || die "roorda: no sensitivity at the file's tolerance"
  ok
fi
case=bound-inside-step
if want $case; then
  # stop.lambda_max just below von Mises' LP1 (0.0344265): the step across LP1 ends
  # below the bound on the descending branch. The path ends there, with LP1 located,
  # not on through the snap (it went on to LP2 and up the far branch to 0.042).
  run $case "$src/problems/von-mises.cfg" stop.lambda_max=0.0344
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  [ "$(termination $case)" = completed ] || die "termination $(termination $case)"
  message $case | grep -q 'load factor crossed lambda_max inside the last step: LP1 at lambda = 0.034426518' ||
    die "not said: $(message $case)"
  column $case lambda | awk '$1 > 0.0344 || $1 < 0 { bad = 1 } END { exit bad }' || die "a point beyond the bound or past the snap"
  ! grep -q '"id": "LP2"' "$work/$case/summary.json" || die "LP2 reached"
  # The same bound from below on the way back (lambda_min above LP2's -0.0344265).
  run $case-min "$src/problems/von-mises.cfg" stop.lambda_min=-0.0344
  message $case-min | grep -q 'load factor crossed lambda_min inside the last step: LP2 at lambda = -0.034426518' ||
    die "lambda_min: not said: $(message $case-min)"
  ok
fi
case=from-other-model
if want $case; then
  # --from a bifurcation point saved by another version of the model (three-bar with
  # its spring halved: the same unknowns, so the fingerprint agrees) is refused, exit 1:
  # its BP1 was reported "located" at the old 1/3 and branches were traced from it.
  run $case-path "$src/problems/three-bar.cfg" --primary-only
  sed 's/^spring = 3 3 4 uy 0.4/spring = 3 3 4 uy 0.2/' "$src/problems/three-bar.cfg" > "$work/three-bar-soft.cfg"
  run $case "$work/three-bar-soft.cfg" --from "$work/$case-path/states/BP1.json"
  [ $rc -eq 1 ] || die "exit $rc, expected 1"
  message $case | grep -q 'the saved point BP1 (lambda = 0.333333333333) is not a bifurcation point of this model' ||
    die "not said: $(message $case)"
  grep -qF '"critical_points": []' "$work/$case/summary.json" || die "a point reported"
  # The model that wrote it starts its branches as before.
  run $case-same "$src/problems/three-bar.cfg" --from "$work/$case-path/states/BP1.json"
  [ $rc -eq 0 ] || die "the same model: exit $rc: $(message $case-same)"
  # A spring 2.5 % stiffer (BP1 1 % higher): another model too, refused (a first
  # version took any point within 1e-2 of where SPB re-located it for this model's).
  sed 's/^spring = 3 3 4 uy 0.4/spring = 3 3 4 uy 0.41/' "$src/problems/three-bar.cfg" > "$work/three-bar-041.cfg"
  run $case-041 "$work/three-bar-041.cfg" --from "$work/$case-path/states/BP1.json"
  [ $rc -eq 1 ] || die "spring 0.41: exit $rc, expected 1"
  # A state of this model located at a looser critical.tolerance (1e-5: lambda 4e-8
  # off) is accepted, and re-located to this run's (it was refused as another model's).
  run $case-loose "$src/problems/three-bar.cfg" --primary-only critical.tolerance=1e-5
  run $case-relocated "$src/problems/three-bar.cfg" --from "$work/$case-loose/states/BP1.json"
  [ $rc -eq 0 ] || die "a looser state: exit $rc: $(message $case-relocated)"
  grep -q 're-located in this model: lambda 0.333333371367 -> 0.333333333333; the state was located at a looser critical.tolerance' \
    "$work/$case-relocated/summary.json" || die "a looser state: re-location not said"
  # A first step asked for on the command line does not apply to branches from a
  # saved point (it was ignored in silence): refused, naming the ratio that does.
  run $case-step "$src/problems/three-bar.cfg" --from "$work/$case-path/states/BP1.json" continuation.initial_step=0.01
  [ $rc -eq 2 ] || die "initial_step with --from: exit $rc"
  grep -q "key 'continuation.initial_step': does not apply to a run from a saved state" "$work/$case-step.log" ||
    die "initial_step with --from: $(cat "$work/$case-step.log")"
  ok
fi
case=switch-unknown
if want $case; then
  # --switch names a point no branch started from: said in the message (it was
  # passed over in silence). BP1 is switched at as asked; BP7 does not exist.
  run $case "$src/problems/three-bar.cfg" --switch BP7,BP1
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  message $case | grep -q 'branches.at names points no branch started from: BP7 (not found on this run' ||
    die "not said: $(message $case)"
  grep -q '"start_point": "BP1"' "$work/$case/summary.json" || die "no branch from BP1"
  run $case-all "$src/problems/three-bar.cfg"
  ! message $case-all | grep -q 'branches.at' || die "said without --switch"
  ok
fi
case=loose-tolerance
if want $case; then
  # At critical.tolerance = 1e-2 the radius within which two located points are one
  # was 100 tol = the whole structure: von Mises' LP2 was "Newton converged to LP1".
  run $case "$src/problems/von-mises.cfg" critical.tolerance=1e-2
  [ $rc -eq 0 ] || die "exit $rc: $(message $case)"
  n=$(points $case | awk '$1 == "limit" && $2 == "true"' | wc -l)
  [ "$n" -eq 2 ] || die "$n located limit points, expected 2"
  # Eriksson's frame at 1e-3 (radius 0.1 before: BP3, 1 % below LP1, was dropped as
  # LP1's) and at 1e-4 (a radius of 1e-3, tried: the branches from BP1 no longer knew
  # BP6 again, and 8 more points were reported): its 8 points, both branches rejoined.
  for t in 1e-3 1e-4; do
    run $case-e$t "$src/problems/eriksson-frame.cfg" critical.tolerance=$t
    n=$(points $case-e$t | wc -l)
    [ "$n" -eq 8 ] || die "eriksson at $t: $n points, expected 8"
    [ "$(grep -c '"termination": "rejoined"' "$work/$case-e$t/summary.json")" -ge 2 ] || die "eriksson at $t: not rejoined"
  done
  # Three-bar at 1e-3: SPL stopped after one iteration 5.5e-3 from BP2 with phi^T r =
  # 0.028 and a residual of 6e-4, and BP2 was reported as a limit point "LP2". A
  # point is now classified only once phi^T r stands clear of its residual.
  run $case-tb "$src/problems/three-bar.cfg" critical.tolerance=1e-3
  [ $rc -eq 0 ] || die "three-bar: exit $rc"
  points $case-tb | awk '$2 == "true" { n[$1]++ } END { exit !(n["bifurcation"] == 2 && n["limit"] == 2) }' ||
    die "three-bar at 1e-3: $(points $case-tb | tr '\n' ';')"
  ok
fi
case=load-control-branches
if want $case; then
  # Load control on secondary branches. Three-bar: each branch from BP1 jumped over its
  # loop's top (lambda 0.42 -> 0.43, onto the path beyond the support line), the
  # corrector moving the displacements 2.1 times what the predictor did: said (the
  # bound was 10 times, and nothing was said). The predictor of that step moved the
  # structure 14 times the branch's longest arc-length step; such steps are now cut,
  # the branches reach their limit points LP1 and LP2 (as under arc-length steps) and
  # BP2 where branch 2 rejoins, and the jump past LP1, which load control cannot
  # follow, is said. The steps of that run: a branch's first step scales from the
  # primary path's measured in (q, lambda), sqrt 2 times its load increment here, so
  # the ratio 1/sqrt 2 keeps it.
  run $case "$src/problems/three-bar.cfg" continuation.constraint=load continuation.initial_step=0.0282842712474619 \
    branches.switch_step_ratio=0.7071067811865476
  [ $rc -eq 0 ] || die "three-bar: exit $rc: $(message $case)"
  same_points $case "bifurcation 0.333333333333 limit 0.422225741278 bifurcation 0.408248290464 limit 0.422225741278" ||
    die "three-bar: $(points $case | tr '\n' ';')"
  grep -q 'under load control 1 step jumped (the first from point 9 at lambda = 0.418' "$work/$case/summary.json" ||
    die "three-bar: the jump past LP1 not said"
  grep -q 'under load control 1 step jumped' "$work/$case.log" || die "three-bar: the branch's note not on the console"
  # Its mirror, branch 2, met BP2 inside the same snap and ended "rejoined", saying
  # nothing of the jump: a rejoining in a step that jumped is said, with the notes.
  grep -q 'rejoined the path of branch 1 at BP2, reached in a step that jumped (under load control' \
    "$work/$case/summary.json" || die "three-bar: branch 2's jump into BP2 not said"
  # Euler column: a step of the branch crossed the primary path onto its mirror (ux
  # -0.05 -> +0.51) and the branch was said to rejoin at BP1; it is refused (the
  # displacements turned back against the tangent) and halved steps stay on it.
  run $case-euler "$src/problems/euler-column.cfg" continuation.constraint=load
  ! grep -q '"termination": "rejoined"' "$work/$case-euler/summary.json" || die "euler: a branch rejoined"
  grep -q '"id": "BP2"' "$work/$case-euler/summary.json" && die "euler: a BP2"
  awk -F, 'NR > 1 && $2 == 1 && $4 + 0 > 1e-9 { bad = 1 } END { exit bad }' "$work/$case-euler/path.csv" ||
    die "euler: branch 1 changed sides"
  # Leaning column at psi = 0.01: one step from BP1 the branch's tangent is nearly
  # singular along it, and the load-controlled predictor moved the structure by 7.9
  # (the longest arc-length step: 0.02): both branches converged onto a collapsed frame
  # (ux 3.5e-4 -> 0.98, 6 and 11 negative pivots) and six "critical points" of that
  # state were located at lambda 4 to 45. Such a step is cut; the branches creep up the
  # flat sway branch (ux below 0.05, stable, lambda within 1e-4 of BP1).
  run $case-leaning "$src/problems/leaning-column.cfg" continuation.constraint=load continuation.psi=0.01
  [ $rc -eq 0 ] || die "leaning: exit $rc: $(message $case-leaning)"
  [ "$(points $case-leaning | wc -l)" -eq 1 ] || die "leaning: $(points $case-leaning | tr '\n' ';')"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) h[$i] = i; next }
           $h["branch"] > 0 && ($h["u_3_ux"] * $h["u_3_ux"] > 0.0025 || $h["negative_pivots"] > 0 ||
                                $h["lambda"] > 1.3656) { bad = 1; print } END { exit bad }' \
    "$work/$case-leaning/path.csv" || die "leaning: a branch left the sway branch"
  # Roorda's frame (its own model has a limit point at 13.9174526 before the
  # bifurcation): load control ends there, and says why.
  run $case-roorda "$src/problems/roorda-frame.cfg" continuation.constraint=load
  message $case-roorda | grep -q 'load control: the path reaches a limit point near lambda = 13.91745' ||
    die "roorda: not said: $(message $case-roorda)"
  ok
fi
case=first-step-jump
if want $case; then
  # Roorda's frame at branches.switch_step_ratio = 10: the first step of branch 1 from
  # BP1 (asymmetric, lambda 14.006) converged on the primary path at lambda = 11.6 (rz
  # 1.7e-4, where the branch has 0.13), and its 60 points, the primary path's down to
  # lambda = -1405, were reported as the branch. The first step is now taken again at
  # half the length it was taken at (the corrector had cut 7 to 1.75) until it leaves
  # the primary path, and the branch says so.
  # first_points DIR: every secondary branch's first point off the primary path (|rz| >= 0.01; the
  # primary path has 1e-4 to 7e-4 there), two of them
  first_points() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "u_2_rz") c = i; next }
             $2 + 0 >= 1 && $1 == 1 { n++; r = $c + 0; if (r < 0) r = -r; if (r < 0.01) { print "branch " $2 ": rz " $c " at lambda " $3; bad = 1 } }
             END { exit bad || !c || n != 2 }' "$work/$1/path.csv"
  }
  run $case "$src/problems/roorda-frame.cfg" branches.switch_step_ratio=10
  [ $rc -eq 0 ] || die "exit $rc"
  first_points $case || die "a branch's first point is on the primary path (or not two branches)"
  grep -q 'its first step was 0.875 instead of 7 (branches.switch_step_ratio): steps of 1.75 landed on the path of branch 0 it starts from' \
    "$work/$case/summary.json" || die "the shortened first step not said"
  # 100: the corrector cut 70 to 1.09, still on the primary path; 0.547, cut to 0.273, leaves it.
  run $case-100 "$src/problems/roorda-frame.cfg" branches.switch_step_ratio=100
  [ $rc -eq 0 ] || die "ratio 100: exit $rc"
  first_points $case-100 || die "ratio 100: a branch's first point is on the primary path"
  grep -q 'its first step was 0.273 instead of 70 (branches.switch_step_ratio): steps of 1.09 landed' \
    "$work/$case-100/summary.json" || die "ratio 100: the shortened first step not said"
  # From the saved point, with one step per branch: the landed attempt's end (max-steps
  # at its one step) is not the branch's; the branch takes its step, and the message
  # names the path through BP1, not a "branch -1".
  run $case-from "$src/problems/roorda-frame.cfg" --from "$work/$case/states/BP1.json" branches.switch_step_ratio=10 stop.max_steps=1
  [ $rc -eq 0 ] || die "--from: exit $rc"
  first_points $case-from || die "--from: a branch without its first point, or on the primary path"
  grep -q 'landed on the path through BP1 (not traced in this run) it starts from' "$work/$case-from/summary.json" ||
    die "--from: the path not named"
  ! grep -q 'branch -1' "$work/$case-from/summary.json" || die "--from: a 'branch -1'"
  # The file's own settings, and other catalogue frames: no first step is cut.
  for c in roorda-frame three-bar lee-frame; do
    run $case-$c "$src/problems/$c.cfg"
    [ $rc -eq 0 ] || die "$c: exit $rc"
    [ -f "$work/$case-$c/summary.json" ] && ! grep -q 'its first step was\|not traced: its first step' "$work/$case-$c/summary.json" ||
      die "$c: a first step cut at the file's settings"
  done
  # Roorda's frame at branches.switch_step_ratio = 0.1: its BP1 is the perfect frame's,
  # unfolded by the model (gamma = -2.5e-4), no equilibrium of it; first steps that
  # short converge nowhere, and the branches said only "no convergence in 15 iterations".
  run $case-short "$src/problems/roorda-frame.cfg" branches.switch_step_ratio=0.1
  n=$(grep -c 'step-too-small' "$work/$case-short/summary.json")
  m=$(grep -c 'BP1 is no equilibrium of this model: its residual is .* a larger branches.switch_step_ratio' \
    "$work/$case-short/summary.json")
  [ "$m" -eq 2 ] || die "roorda at 0.1: the unfolding said on $m branches ($n step-too-small)"
  ok
fi
case=displacement-back
if want $case; then
  # Displacement control of a dof that is a small share of the tangent and grows as
  # lambda^2 from rest (Lee's frame, node 3 ux): its value is met on both sides of
  # lambda = 0, and the first step went to lambda = -0.031 and on down the negative-
  # load side; the step that goes back along the path is now refused. The increments
  # were then tested against ds, 1/100 of the step, and the path crawled (steps of
  # 1e-6, lambda 0.07 after 40 steps); against the predictor's length it reaches LP1.
  run $case "$src/problems/lee-frame.cfg" continuation.constraint=displacement "continuation.control=3 ux" stop.max_steps=200
  column $case lambda | head -40 | awk '$1 < 0 { bad = 1 } END { exit bad }' || die "lee: a point at negative lambda"
  points $case | awk '$1 == "limit" && $2 == "true" && ($3 - 1.86055919518)^2 < 1e-16 { f = 1 } END { exit !f }' ||
    die "lee: LP1 not located at 1.86055919518: $(points $case)"
  # The star dome, apex uz: a step past the apex's turning point jumped a whole loop
  # of the path (u_2_uz -6.1 -> -12.5, six eigenvalues crossed in one step, LP4-LP6
  # and BP2 dropped) and the run said "completed". The tangent's turn is now checked
  # as for arc-length steps, and the run ends at the turning point, saying so.
  run $case-dome "$src/problems/star-dome.cfg" --primary-only continuation.constraint=displacement "continuation.control=1 uz"
  [ "$(termination $case-dome)" = step-too-small ] || die "dome: termination $(termination $case-dome)"
  message $case-dome | grep -q 'displacement control: node 1 uz reaches a turning point near lambda = -1.0' ||
    die "dome: not said: $(message $case-dome)"
  ! grep -q '6 eigenvalues crossed zero in one step' "$work/$case-dome/summary.json" || die "dome: the loop jumped"
  ok
fi
case=km-units
if want $case; then
  # The LTB cantilever written in km (lengths 1e-3, EI and GJ 1e-6, the warping
  # term 1e-12): the same structure, not a mechanism. The check compared a rotational
  # pivot with a translational one (ratio 9e-15 in km) and refused it, exit 2.
  sed -e 's/^node = 2 1.0 0.0 0.0/node = 2 0.001 0.0 0.0/' \
      -e 's/^beam = 1 1 2 3e6 1e6 1e6 1.6 1.0 2500  0 0 1  20/beam = 1 1 2 3e6 1e6 1e6 1.6e-06 1e-06 0.0025 0 0 1 20/' \
      "$src/problems/ltb-cantilever.cfg" > "$work/ltb-km.cfg"
  grep -q '^beam = 1 1 2 3e6 1e6 1e6 1.6e-06' "$work/ltb-km.cfg" || die "the km file was not made"
  run $case "$work/ltb-km.cfg" --primary-only stop.lambda_max=6
  [ $rc -eq 0 ] || die "exit $rc: $(cat "$work/$case.log")"
  same_points $case "bifurcation 5.0894297147" || die "BP1 not at 5.0894297147"
  ok
fi
case=sensitivity-error
if want $case; then
  # dlambda/dEA and dlambda/dGA of the Euler column are (P/EA)^2-small remainders of
  # terms of P/EA: the difference quotients give them to tens of percent (dP/dEA
  # -8.47e-10 against Haringx's -6.11e-10), and ten digits were printed as if exact.
  # Each value now carries the error estimated with halved steps; dlambda/dEI
  # (= lambda/EI) is exact to 1e-6 and carries none.
  run $case "$src/tests/design/euler-column-ei.cfg" branches.switch=false design.parameter=EA design.parameter=GA
  [ $rc -eq 0 ] || die "exit $rc: $(cat "$work/$case.log")"
  grep -q 'BP1   EA = 100000: -.*(estimated error' "$work/$case.log" || die "EA: no error said: $(grep EA "$work/$case.log")"
  grep -q 'BP1   EI = 1: +2.4713[0-9]*e+00$' "$work/$case.log" || die "EI: $(grep 'EI =' "$work/$case.log")"
  grep -q '"dlambda_dmu_error": [0-9]' "$work/$case/summary.json" || die "no dlambda_dmu_error in summary.json"
  ok
fi
case=follow-meets-bp
if want $case; then
  # The curve of three-bar's LP1 in the spring stiffness: the limit point meets BP1
  # near k34 = 1 and BP2 near 0.2414, where phi^T r vanishes. The curve ends there,
  # met-bifurcation, with a coincidence event (it went on along the bifurcation point
  # labelled "limit", uy at +-1e-6, and ended step-too-small, "may cease to exist").
  # Steps of 0.05 (the default) and 0.03: the second met the bifurcation point with
  # phi^T r below the tolerance, a point "of another kind", and was cut to the
  # minimum step (a first version ended step-too-small there).
  for step in 0.05 0.03; do
    run $case-$step "$src/tests/design/three-bar-k.cfg" --follow LP1 design.mu_min=0.01 design.mu_max=5 design.step=$step
    [ $rc -eq 0 ] || die "step $step: exit $rc: $(cat "$work/$case-$step.log")"
    [ "$(grep -c '"termination": "met-bifurcation"' "$work/$case-$step/summary.json")" -eq 2 ] ||
      die "step $step: not met-bifurcation twice: $(grep 'k34 ' "$work/$case-$step.log")"
    grep -q 'LP1 k34 up: .* met-bifurcation, ends at k34 = 1.00' "$work/$case-$step.log" || die "step $step: up"
    grep -q 'LP1 k34 down: .* met-bifurcation, ends at k34 = 0.241' "$work/$case-$step.log" || die "step $step: down"
    grep -q '"kind": "coincidence"' "$work/$case-$step/summary.json" || die "step $step: no coincidence event"
  done
  ok
fi
case=length-units
if want $case; then
  # The same structure with every length times s (coordinates; springs / s, EI s^2,
  # moments s, controlled translations s) has the same critical loads. A star dome
  # 1e-8 across located none: the bordering's 2 x 2 systems mix the units of dlambda
  # and mu, and the LU's rank test set dlambda to 0. 1e-6 across took 10 SPL
  # iterations where 4 do: the derivative's difference step was an absolute 1, the
  # whole structure. Lee's frame 1000 times larger stopped at its start, "no
  # equilibrium": the moments' round-off (cos(pi/2) = 6e-17 in the column's shear
  # strain) was not in the floor.
  scale_cfg() {  # FILE S OUT
    awk -v s="$2" '
      function show(k, f, n,   i, o) { o = k " ="; for (i = 1; i <= n; ++i) o = o " " f[i]; print o }
      {
        line = $0; sub(/#.*/, "", line)
        if (!match(line, /^[a-z_]+ *=/)) { print line; next }
        k = line; sub(/ *=.*/, "", k); rest = line; sub(/^[a-z_]+ *= */, "", rest); n = split(rest, f, " ")
        if (k == "dim") dim = f[1]
        if (k == "node") for (i = 2; i <= n; ++i) f[i] = sprintf("%.17g", f[i] * s)
        else if (k == "spring") f[n] = sprintf("%.17g", f[n] / s)
        else if (k == "load" && f[2] ~ /^r/) f[n] = sprintf("%.17g", f[n] * s)
        else if (k == "displacement" && f[2] ~ /^u/) f[n] = sprintf("%.17g", f[n] * s)
        else if (k == "beam" && dim != 3) f[6] = sprintf("%.17g", f[6] * s * s)
        else if (k == "beam") { exit 3 }
        show(k, f, n)
      }' "$1" > "$3"
  }
  # lambdas NAME: "ID LAMBDA" of every located point, by id.
  lambdas() { awk '/^      "id": "(LP|BP|MP)/ { id = $2 } /^      "lambda":/ && id != "" { print id, $2; id = "" }' "$work/$1/summary.json" | tr -d '",' | sort; }
  for spec in star-dome:1e-8 star-dome:1e-6 three-bar:1e-8 lee-frame:1e3; do
    p=${spec%%:*}; s=${spec##*:}
    scale_cfg "$src/problems/$p.cfg" "$s" "$work/$p-$s.cfg" || { die "$p: not scaled"; continue; }
    [ -f "$work/$case-$p-1/summary.json" ] || run $case-$p-1 "$src/problems/$p.cfg" --primary-only
    run $case-$p-$s "$work/$p-$s.cfg" --primary-only
    [ $rc -eq 0 ] || { die "$p at $s: exit $rc: $(tail -3 "$work/$case-$p-$s.log")"; continue; }
    # Every point as in the unscaled run: the same ids, located at the same load
    # (the star dome's multiple points are not located in either: null in both).
    join <(lambdas $case-$p-1) <(lambdas $case-$p-$s) -a 1 -a 2 -e missing -o 0,1.2,2.2 |
      awk -v what="$p at $s" '$2 == "null" && $3 == "null" { next }
        $2 == "missing" || $3 == "missing" || $2 == "null" || $3 == "null" { print what ": " $0; bad = 1; next }
        { d = $2 - $3; if (d < 0) d = -d; a = $2 < 0 ? -$2 : $2; if (d > 1e-10 * a) { print what ": " $0; bad = 1 } }
        END { exit bad }' || die "$p at $s: the critical loads differ"
    [ "$(lambdas $case-$p-1 | grep -vc null)" -ge 1 ] || die "$p: no point located"
  done
  ok
fi
case=psi-zero
if want $case; then
  # continuation.psi = 0 with auto_scale = false: lambda is not in the step's norm.
  # Three-bar's branch from BP2 (-) walks towards the zero length of bar 2; a step of
  # 0.02 went through it, lambda 0.028 -> 0.80 where its predictor moved lambda by
  # -0.04, and the branch ended "completed". Now the step is refused as a jump in
  # lambda, the branch ends step-too-small saying so, and no step of it jumps.
  # psi = 1e-3 (lambda still hardly in the norm) jumped the same way.
  for psi in 0 1e-3; do
    run $case-$psi "$src/problems/three-bar.cfg" continuation.auto_scale=false continuation.psi=$psi
    [ $rc -eq 0 ] || die "psi $psi: exit $rc: $(tail -3 "$work/$case-$psi.log")"
    # At psi = 0 the branch ends at the refused jump, saying so; at 1e-3 the refusals
    # cut its steps until it ends at the bar's zero length (complex roots there).
    [ "$psi" != 0 ] || grep -q 'the step jumped in lambda' "$work/$case-$psi/summary.json" || die "psi 0: the jump is not said"
    grep -q '"termination": "step-too-small"' "$work/$case-$psi/summary.json" || die "psi $psi: no branch ends step-too-small"
    awk -F, 'NR > 1 && $2 == 4 { if (seen && ($3 - prev > 0.1 || prev - $3 > 0.1)) { print "row " NR ": " prev " -> " $3; bad = 1 } prev = $3; seen = 1 }
             END { exit bad }' "$work/$case-$psi/path.csv" || die "psi $psi: a step of branch 4 jumped in lambda"
    same_points $case-$psi "bifurcation 0.333333333333 limit 0.422225741278 bifurcation 0.408248290464 limit 0.422225741278" ||
      die "psi $psi: the points changed"
  done
  # Not a jump: the corrector's round-off in lambda on a pitchfork branch, where the
  # predicted and the steps' load increments are ~0 (the Euler column's branches at
  # psi = 0: 2e-11; a first version refused it and both ended step-too-small).
  run $case-euler "$src/problems/euler-column.cfg" continuation.psi=0
  [ $rc -eq 0 ] || die "euler: exit $rc"
  ! grep -q 'jumped in lambda' "$work/$case-euler/summary.json" || die "euler: a step refused as a jump"
  [ "$(grep -c '"termination": "max-steps"' "$work/$case-euler/summary.json")" -eq 2 ] || die "euler: the branches did not run to max-steps"
  ok
fi
exit $fail
