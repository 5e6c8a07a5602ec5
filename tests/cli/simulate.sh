#!/usr/bin/env bash
# The simulate command (docs/config.md "The simulate command"; docs/validation.md
# "Dynamics"):
#  - the von Mises truss under a step load above the threshold P_dyn = 0.0265015
#    snaps: the apex passes the mirror configuration uy = -1 (the event), energy kept;
#    below it (0.025) it does not pass w = h;
#  - released at rest from trace's own LP1 (states/LP1.json) under 1.05 lambda_LP with
#    Rayleigh damping, it comes to rest on the far stable branch that trace computes
#    at that load (path.csv interpolated) and on its closed form;
#  - trace continues from the final state of that release (continuation.start_state): its
#    first point is the state, its path the plain trace's (u at equal lambda), its limit
#    points the plain trace's; with --from too it is refused (exit 2);
#  - a kick along trace's mode of LP1 plus a velocity gives v(0) = 0.1 phi + v;
#  - a run of 1e-10 says "reached t = 1e-10"; an explicit run whose motion overflows
#    says its state is not finite;
#  - SIGINT: exit 130, summary "interrupted", every step's row; kill -9: whole rows;
#  - the bad-input corpus entries of [dynamics] (tests/bad-input/2[0-2][0-9]-dynamics-*)
#    exit 2 naming file, line and key, nothing written; --help lists the keys.
# usage: simulate.sh SIMULATE TRACE SOURCE_DIR WORK_DIR
set -u
sim=$1; trace=$2; src=$3; work=$4
rm -rf "$work"; mkdir -p "$work"
cd "$src" || exit 1
die() { echo "FAIL: $*"; exit 1; }
cfg=tests/dynamics/von-mises-step.cfg

# Above the threshold: snap-through, the mirror configuration passed.
"$sim" $cfg --out "$work/snap" --quiet > "$work/snap.log" 2>&1 || die "snap: exit $?: $(cat "$work/snap.log")"
rows=$(($(wc -l < "$work/snap/history.csv") - 1))
[ "$rows" -eq 1001 ] || die "snap: $rows rows, expected 1001 (t = 0 and 1000 steps)"
grep -q '"end": "completed"' "$work/snap/summary.json" || die "snap: not completed"
grep -q '"event": "u_2_uy = -1.0"' "$work/snap/summary.json" || die "snap: the mirror configuration was not passed"
# Energy–momentum keeps the energy: largest |relative error| below 1e-9 (Newton at 1e-12).
awk -F, 'NR > 1 { e = $12 < 0 ? -$12 : $12; if (e > m) m = e } END { exit !(m < 1e-9) }' "$work/snap/history.csv" \
  || die "snap: relative energy error above 1e-9"
[ -f "$work/snap/states/final.json" ] || die "snap: no final state"
echo "ok snap-through above P_dyn: mirror passed, $rows rows"

# An event at the start value (the apex starts at uy = 0 and never comes back above
# it): no passage (it was reported "at t = 0 (falling)"); an event given beside it on
# the command line, and the file's mirror, are passed as before.
"$sim" $cfg --out "$work/event0" "dynamics.event=2 uy 0" "dynamics.event=2 uy -0.5" > "$work/event0.log" 2>&1 \
  || die "event0: exit $?"
/usr/bin/python3 - "$work/event0/summary.json" <<'PY' || die "event0: $(grep -A12 '"events"' "$work/event0/summary.json")"
import json, sys
s = json.load(open(sys.argv[1]))
ev = s["events"]
assert not [e for e in ev if e["event"] == "u_2_uy = 0"], ev
assert [e["direction"] for e in ev if e["event"] == "u_2_uy = -0.5"] == ["falling"], ev
assert [e["direction"] for e in ev if e["event"] == "u_2_uy = -1.0"] == ["falling", "rising"], ev
PY
grep -q 'u_2_uy = 0' "$work/event0.log" && die "event0: an event at the start value: $(cat "$work/event0.log")"
echo "ok an event at its start value: no passage at t = 0"

# A time step longer than the run: one step (it was 0 steps, "completed" at t = 0).
"$sim" $cfg --out "$work/onestep" --quiet dynamics.dt=1e12 > "$work/onestep.log" 2>&1
rows=$(($(wc -l < "$work/onestep/history.csv") - 1))
grep -q '"steps_requested": 1,' "$work/onestep/summary.json" || die "onestep: not one step asked for"
echo "ok dt above t_end: one step asked for ($rows rows)"

# A run of 1e-10 time units: the summary's message shows its time (it read "reached
# t = 0.000000", a %f).
"$sim" $cfg --out "$work/tiny" --quiet dynamics.dt=1e-12 dynamics.t_end=1e-10 > "$work/tiny.log" 2>&1 || die "tiny: exit $?"
grep -q '"message": "reached t = 1e-10"' "$work/tiny/summary.json" || die "tiny: $(grep message "$work/tiny/summary.json")"
grep -q 'reached t = 1e-10' "$work/tiny.log" || die "tiny: the report does not show t: $(cat "$work/tiny.log")"
echo "ok a run of 1e-10: reached t = 1e-10"

# index1-rk4 whose motion overflows (a damping of 1e300, finite): exit 1, the step's
# state said not finite (it blamed "redundant or degenerate rigid links" on a model
# that has none).
"$sim" $cfg --out "$work/overflow" --quiet dynamics.integrator=index1-rk4 dynamics.damping_stiffness=1e300 \
  > "$work/overflow.log" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'not finite in a stage of the step at t = 0.02' "$work/overflow.log" \
  && ! grep -q 'rigid links' "$work/overflow.log" && grep -q '"step_status": "not-finite"' "$work/overflow/summary.json" \
  || die "overflow: exit $rc: $(cat "$work/overflow.log")"
echo "ok index1-rk4 overflowing: exit 1, the state not finite"

# Below the threshold: the apex stays above w = h (uy > -0.5) and no event.
"$sim" $cfg --out "$work/below" --quiet dynamics.lambda=0.025 > "$work/below.log" 2>&1 || die "below: exit $?"
awk -F, 'NR > 1 && $4 < -0.5 { bad = 1 } END { exit bad }' "$work/below/history.csv" || die "below: snapped"
grep -q '"events": \[\]' "$work/below/summary.json" || die "below: an event"
echo "ok below P_dyn: no snap"

# Released from trace's LP1 at 1.05 lambda_LP, damped: rest on the far stable branch.
"$trace" problems/von-mises.cfg --out "$work/trace" --quiet > "$work/trace.log" 2>&1 || die "trace: exit $?"
[ -f "$work/trace/states/LP1.json" ] || die "trace wrote no states/LP1.json"
printf '%s\n' '[model]' 'strain = green-lagrange' 'node = 1 -1.0 0.0' 'node = 2 0.0 0.5' 'node = 3 1.0 0.0' \
  'truss = 1 1 2 1.0' 'truss = 2 2 3 1.0' 'fix = 1 all' 'fix = 3 all' 'fix = 2 ux' 'load = 2 uy -1.0' \
  '[dynamics]' 'mass = 2 1.0' "initial_state = $work/trace/states/LP1.json 1.05" 'damping_mass = 1.0' \
  'dt = 0.05' 't_end = 150' 'output_every = 10' '[output]' 'track = 2 uy' > "$work/release.cfg"
"$sim" "$work/release.cfg" --out "$work/release" --quiet > "$work/release.log" 2>&1 || die "release: exit $?: $(cat "$work/release.log")"
/usr/bin/python3 - "$work" <<'PY' || die "release: not at rest on the far branch"
import csv, json, math, sys
work = sys.argv[1]
s = json.load(open(f"{work}/release/summary.json"))
lam = float(s["load"].split("=")[1])
w_end, v_end = -s["final"]["u_2_uy"], s["final"]["v_2_uy"]
# Closed form (problems/von-mises.cfg): P(w) = EA (h - w) w (2h - w) / L0^3; the far
# stable root (P' > 0, w > h (1 + 1/sqrt 3)) by bisection.
h, L0 = 0.5, math.sqrt(1.25)
P = lambda w: (h - w) * w * (2 * h - w) / L0**3
a, b = h * (1 + 1 / math.sqrt(3)), 2.5
for _ in range(200):
    m = 0.5 * (a + b)
    a, b = (m, b) if P(m) < lam else (a, m)
w_exact = 0.5 * (a + b)
# trace's path: the stable far branch (negative_pivots 0, w > 0.79), linear interpolation in lambda.
rows = [r for r in csv.DictReader(open(f"{work}/trace/path.csv"))
        if r["negative_pivots"] == "0" and -float(r["u_2_uy"]) > 0.79]
w_path = None
for p, q in zip(rows, rows[1:]):
    l0, l1 = float(p["lambda"]), float(q["lambda"])
    if (l0 - lam) * (l1 - lam) <= 0 and l0 != l1:
        w0, w1 = -float(p["u_2_uy"]), -float(q["u_2_uy"])
        w_path = w0 + (w1 - w0) * (lam - l0) / (l1 - l0)
print(f"lambda {lam:.10g}: rest w {w_end:.12g} v {v_end:.2e}; closed form {w_exact:.12g}; trace path {w_path}")
# Damped for 150 time units (C = M: zeta = 1/(2 omega) ~ 0.7 on the far branch): at rest to 1e-8; linear interpolation of
# the path (steps ~0.01 in w) is good to ~1e-4.
ok = abs(v_end) < 1e-8 and abs(w_end - w_exact) < 1e-8 and w_path is not None and abs(w_end - w_path) < 1e-3
sys.exit(0 if ok else 1)
PY
echo "ok released from LP1: at rest on the far stable branch"

# trace continues statically from the final state (continuation.start_state): downwards
# (direction -1) through the load minimum, up the unstable branch through the limit point,
# down the near branch to lambda = -0.05, in fixed steps fine enough to interpolate.
"$trace" problems/von-mises.cfg --out "$work/continued" --quiet "continuation.start_state=$work/release/states/final.json" \
  continuation.direction=-1 continuation.initial_step=1e-3 continuation.max_step_ratio=1 stop.lambda_min=-0.05 stop.max_steps=1000 \
  > "$work/continued.log" 2>&1 || die "continued: exit $?: $(cat "$work/continued.log")"
/usr/bin/python3 - "$work" <<'PY' || die "continued: not the static path of the plain trace"
import csv, json, math, sys
work = sys.argv[1]
final = json.load(open(f"{work}/release/states/final.json"))
new = list(csv.DictReader(open(f"{work}/continued/path.csv")))
plain = list(csv.DictReader(open(f"{work}/trace/path.csv")))
ok = True
# The first point is the final state: Newton at its lambda (kept exactly) from its q. The
# state is at rest to 1e-8 (above), so Newton may move it by about that; its residual is
# then below the Newton tolerance, 1e-10 max(1, |lambda|) ||r|| (||r|| = 1).
p0 = new[0]
dq = abs(float(p0["u_2_uy"]) - final["q"][0])
print(f"first point: lambda {p0['lambda']} (state {final['lambda']!r}), |u - q| = {dq:.2e}, residual {p0['residual']}")
ok &= float(p0["lambda"]) == final["lambda"] and dq < 1e-8 and float(p0["residual"]) < 1e-10
# Every point of the plain trace away from the folds lies on the new path: u at its lambda,
# interpolated (cubic Lagrange in lambda) through the 4 points of the new path around the
# segment of the same branch (negative_pivots) that brackets it, nearest in u. Skipped
# where u(lambda) is not smooth on the scale of a step: |du/dlambda| > 10 near a fold.
# Measured: the largest |du| is 1.7e-8 with these steps (2.2e-7 with steps twice as long:
# the interpolation error, order 4); linear interpolation would leave 1e-5.
L = [float(p["lambda"]) for p in new]
U = [float(p["u_2_uy"]) for p in new]
N = [p["negative_pivots"] for p in new]
worst, compared, branches = 0.0, 0, set()
for p in plain:
    lam, u, npiv = float(p["lambda"]), float(p["u_2_uy"]), p["negative_pivots"]
    segments = [k for k in range(len(new) - 1)
                if N[k] == npiv == N[k + 1] and L[k] != L[k + 1] and (L[k] - lam) * (L[k + 1] - lam) <= 0]
    if not segments:
        continue
    k = min(segments, key=lambda k: abs(U[k] - u))
    around = range(k - 1, k + 3)
    if k < 1 or k + 2 >= len(new) or any(N[i] != npiv for i in around):
        continue
    steps = [L[i + 1] - L[i] for i in around[:-1]]
    if not (all(d > 0 for d in steps) or all(d < 0 for d in steps)):
        continue
    if max(abs((U[i + 1] - U[i]) / (L[i + 1] - L[i])) for i in around[:-1]) > 10:
        continue
    ui = sum(U[i] * math.prod((lam - L[j]) / (L[i] - L[j]) for j in around if j != i) for i in around)
    worst = max(worst, abs(ui - u))
    compared += 1
    branches.add(npiv)
print(f"{compared} points of the plain trace on the new path (negative pivots {sorted(branches)}), largest |du| {worst:.2e}")
ok &= compared >= 20 and branches == {"0", "1"} and worst < 1e-6
# The limit points it passes are the plain trace's: located lambda to 1e-9 (critical.tolerance
# 1e-10; the robustness matrix of docs/validation.md spreads a located lambda by 1e-10).
def located(d):
    return [c["lambda"] for c in json.load(open(f"{d}/summary.json"))["critical_points"]]
a, b = located(f"{work}/trace"), located(f"{work}/continued")
print(f"limit points: plain {a}, continued {b}")
ok &= len(b) == 2 and all(min(abs(l - m) for m in a) < 1e-9 for l in b)
sys.exit(0 if ok else 1)
PY
echo "ok trace continued from simulate's final state: on the static path, through LP2 and LP1"
# The state and --from (branches.from) together: refused, exit 2, nothing written.
"$trace" problems/von-mises.cfg --out "$work/both" "continuation.start_state=$work/release/states/final.json" \
  --from "$work/trace/states/LP1.json" > /dev/null 2> "$work/both.err"; rc=$?
[ $rc -eq 2 ] && grep -qF "start_state is given with branches.from (trace --from)" "$work/both.err" && [ ! -e "$work/both" ] \
  || die "start_state with --from: exit $rc: $(cat "$work/both.err")"
echo "ok start_state with --from: exit 2"

# A kick along trace's mode of LP1 (max |phi| = 1: the apex uy) plus a velocity: v(0).
"$sim" $cfg --out "$work/kick" --quiet --vtk --plot dynamics.t_end=0.1 "dynamics.kick=$work/trace/modes/LP1.csv 0.1" \
  "dynamics.velocity=2 uy -0.25" > "$work/kick.log" 2>&1 || die "kick: exit $?: $(cat "$work/kick.log")"
v0=$(awk -F, 'NR == 2 { print $5 }' "$work/kick/history.csv")
awk -v v="$v0" 'BEGIN { d1 = v + 0.35; d2 = v + 0.15; exit !((d1 < 1e-15 && d1 > -1e-15) || (d2 < 1e-15 && d2 > -1e-15)) }' \
  || die "kick: v(0) = $v0, expected -0.25 -+ 0.1"
echo "ok kick along LP1's mode and a velocity: v(0) = $v0"
# --vtk: a frame per row, the index's timesteps are the rows' t; --plot: the script.
frames=$(grep -c '<DataSet ' "$work/kick/vtk/simulation.pvd")
[ "$frames" -eq 6 ] || die "--vtk: $frames frames, expected 6 (t = 0 .. 0.1)"
grep -q 'timestep="0.1' "$work/kick/vtk/simulation.pvd" || die "--vtk: no frame at t = 0.1"
[ -f "$work/kick/history.gp" ] || die "--plot: no history.gp"
echo "ok --vtk ($frames frames) and --plot"

# SIGINT: exit 130, interrupted, a row for every step taken; kill -9: whole rows only.
long=(dynamics.dt=1e-4 dynamics.t_end=1000 dynamics.max_steps=100000000 --quiet)
# (up to 30 s for the first 50 rows: the first run of a cold build under ctest -j shares the cores)
wait_rows() { for _ in $(seq 1 600); do [ -f "$1" ] && [ "$(wc -l < "$1")" -gt "$2" ] && return 0; sleep 0.05; done; return 1; }
"$sim" $cfg --out "$work/int" "${long[@]}" > "$work/int.log" 2>&1 &
pid=$!
wait_rows "$work/int/history.csv" 50 || { kill -9 $pid; die "INT: no progress"; }
kill -s INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] || die "INT: exit $rc, expected 130"
grep -q '"end": "interrupted"' "$work/int/summary.json" || die "INT: summary not interrupted"
steps=$(sed -n 's/^  "steps": \([0-9]*\).*/\1/p' "$work/int/summary.json")
rows=$(($(wc -l < "$work/int/history.csv") - 1))
[ "$rows" -eq $((steps + 1)) ] || die "INT: $rows rows for $steps steps"
echo "ok SIGINT after $steps steps"
"$sim" $cfg --out "$work/kill" "${long[@]}" > /dev/null 2>&1 &
pid=$!
wait_rows "$work/kill/history.csv" 50 || { kill -9 $pid; die "KILL: no progress"; }
kill -9 $pid; wait $pid 2>/dev/null
cols=$(head -n 1 "$work/kill/history.csv" | awk -F, '{print NF}')
bad=$(awk -F, -v n="$cols" 'NF != n' "$work/kill/history.csv" | wc -l)
last=$(tail -c 1 "$work/kill/history.csv" | od -An -c | tr -d ' ')
[ "$bad" -eq 0 ] && [ "$last" = '\n' ] || die "kill -9 left a partial row"
echo "ok kill -9: $(($(wc -l < "$work/kill/history.csv") - 1)) whole rows"

# Bad input: exit 2, the file named, nothing written.
n=0
for f in tests/bad-input/2[0-2][0-9]-dynamics-*.cfg; do
  expect=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
  name=$(basename "$f" .cfg)
  "$sim" "$f" --out "$work/bad-$name" > /dev/null 2> "$work/bad.err"; rc=$?
  [ $rc -eq 2 ] || die "$name: exit $rc, expected 2"
  grep -qF -- "$expect" "$work/bad.err" || die "$name: message lacks '$expect': $(cat "$work/bad.err")"
  grep -qF -- "$f" "$work/bad.err" || die "$name: message does not name the file"
  [ -e "$work/bad-$name" ] && die "$name: wrote results"
  n=$((n + 1))
done
[ $n -eq 30 ] || die "$n bad-input cases, expected 30"
# No [dynamics] at all: bad input too.
"$sim" problems/von-mises.cfg --out "$work/none" > /dev/null 2> "$work/none.err"; rc=$?
[ $rc -eq 2 ] && grep -q "no \[dynamics\] section" "$work/none.err" || die "no [dynamics]: exit $rc: $(cat "$work/none.err")"
echo "ok $n bad inputs and a file without [dynamics]: exit 2"

"$sim" --help > "$work/help.txt" || die "--help: exit $?"
for k in dynamics.integrator dynamics.dt dynamics.initial_state dynamics.kick dynamics.event; do
  grep -q "$k" "$work/help.txt" || die "--help lacks $k"
done
echo "ok --help"
