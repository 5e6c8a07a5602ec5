#!/usr/bin/env bash
# A rigid pendulum by a Lagrange multiplier under simulate (tests/dynamics/pendulum-link.cfg:
# L = g = m = 1, released at rest at theta0 = 60 degrees; docs/theory.md §9, docs/validation.md
# "Dynamics"), with the index1-rk4 integrator:
#  - Baumgarte (alpha = beta = 5) at dt = 0.01 and 0.005: the half period against the rigid
#    pendulum's 2 sqrt(L/g) K(sin(theta0/2)), its order measured (4, RK4), |Phi| bounded,
#    no projection;
#  - no stabilisation (the control): |Phi| drifts above 1e-10;
#  - periodic re-imposition (when-violated, tolerances 1e-10): |Phi| and |Phi'| of every
#    row under them, the count of projections > 0 in history.csv and summary.json;
#  - the projection of every step with W = I: |Phi| at the projection's tolerance, one
#    correction a step;
#  - trace refuses the rigid link: exit 2 naming file, line and key, nothing written.
# usage: pendulum_link.sh SIMULATE TRACE SOURCE_DIR WORK_DIR
set -u
sim=$1; trace=$2; src=$3; work=$4
rm -rf "$work"; mkdir -p "$work"
cd "$src" || exit 1
die() { echo "FAIL: $*"; exit 1; }
cfg=tests/dynamics/pendulum-link.cfg
run() {  # name overrides...
  local name=$1; shift
  "$sim" $cfg --out "$work/$name" --quiet "$@" > "$work/$name.log" 2>&1 || die "$name: exit $?: $(cat "$work/$name.log")"
}
run baumgarte
run baumgarte-half dynamics.dt=0.005
run plain "dynamics.baumgarte=0 0"
run periodic "dynamics.baumgarte=0 0" dynamics.projection=when-violated dynamics.phi_tolerance=1e-10 \
  dynamics.phi_dot_tolerance=1e-10
run every dynamics.projection=every-step dynamics.projection_weight=identity
/usr/bin/python3 - "$work" <<'PY' || die "pendulum: see above"
import csv, json, math, sys
import numpy as np
work = sys.argv[1]
# K(k) by the arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1 - k^2))).
a, b = 1.0, math.sqrt(1.0 - math.sin(math.pi / 6) ** 2)
for _ in range(40):
    a, b = 0.5 * (a + b), math.sqrt(a * b)
half = 2.0 * math.pi / (2.0 * a)  # 2 sqrt(L/g) K(sin 30 deg) = 3.3715007096...
ok = True
def check(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok = ok and cond
def load(name):
    rows = list(csv.DictReader(open(f"{work}/{name}/history.csv")))
    return rows, json.load(open(f"{work}/{name}/summary.json"))
def half_period(rows):
    # The first turning point after the release: v_x = L cos(theta) theta' changes sign from
    # - to + at theta' = 0. Its zero by the cubic through the four rows around the sign
    # change (error O(dt^4), below RK4's; the linear interpolation would be O(dt^3)).
    t = [float(r["t"]) for r in rows]; v = [float(r["v_2_ux"]) for r in rows]
    for i in range(2, len(rows) - 1):
        if v[i - 1] < 0.0 <= v[i]:
            s = np.array(t[i - 2:i + 2]) - t[i]
            roots = [x.real + t[i] for x in np.roots(np.polyfit(s, v[i - 2:i + 2], 3))
                     if abs(x.imag) < 1e-12 and t[i - 1] <= x.real + t[i] <= t[i]]
            return roots[0]
    return None
col = lambda rows, c: [float(r[c]) for r in rows]

# Baumgarte. RK4's global error is C dt^4 (C of order the time scale, ~1 here); the
# tolerance 5 dt^4 (5e-8 at dt = 0.01) leaves a factor 5 over the measured 1e-8, and the
# order from dt = 0.01 to 0.005 must be RK4's 4 (within 0.6). |Phi| stays at the
# truncation level: below 1e-8 (measured 3.6e-9); the energy error is RK4's (< 1e-7).
errs = []
for name, dt in (("baumgarte", 0.01), ("baumgarte-half", 0.005)):
    rows, s = load(name)
    e = half_period(rows) - half
    errs.append(e)
    check(abs(e) <= 5 * dt ** 4, f"{name}: T/2 - rigid = {e:.3e} (bound {5 * dt ** 4:.1e})")
    check(max(col(rows, "phi_norm")) < 1e-8, f"{name}: max |Phi| {max(col(rows, 'phi_norm')):.3e} < 1e-8")
    check(s["constraints"]["corrections"] == 0 and rows[-1]["projections"] == "0", f"{name}: no projection")
    check(s["energy"]["max_relative_error"] < 1e-7, f"{name}: energy error {s['energy']['max_relative_error']:.2e}")
order = math.log2(abs(errs[0] / errs[1]))
check(abs(order - 4.0) < 0.6, f"half-period error order {order:.2f} (RK4: 4)")

# No stabilisation: the drift exceeds the re-imposition's tolerance below (else that test
# could not fail).
rows, s = load("plain")
check(max(col(rows, "phi_norm")) > 1e-10, f"plain: |Phi| drifts to {max(col(rows, 'phi_norm')):.3e} > 1e-10")

# Periodic re-imposition at 1e-10: every written state under both tolerances; some
# projections, counted alike in history.csv and summary.json; the half period kept.
rows, s = load("periodic")
c = s["constraints"]
check(max(col(rows, "phi_norm")) <= 1e-10 and max(col(rows, "phi_dot_norm")) <= 1e-10,
      f"periodic: max |Phi| {max(col(rows, 'phi_norm')):.3e}, |Phi'| {max(col(rows, 'phi_dot_norm')):.3e} <= 1e-10")
p = col(rows, "projections")
check(p[-1] > 0 and p[-1] == c["corrections"] and all(x <= y for x, y in zip(p, p[1:])),
      f"periodic: {int(p[-1])} projections (summary {c['corrections']}), non-decreasing")
e = half_period(rows) - half
check(abs(e) <= 5 * 0.01 ** 4, f"periodic: T/2 - rigid = {e:.3e}")

# Every step, W = I: |Phi| at the projection's tolerance (1e-13) after each step.
rows, s = load("every")
check(max(col(rows, "phi_norm")) <= 1e-13 and s["constraints"]["corrections"] == 350,
      f"every-step: max |Phi| {max(col(rows, 'phi_norm')):.2e}, {s['constraints']['corrections']} projections in 350 steps")
e = half_period(rows) - half
check(abs(e) <= 5 * 0.01 ** 4, f"every-step: T/2 - rigid = {e:.3e}")
sys.exit(0 if ok else 1)
PY

# trace keeps multipliers out: exit 2 at the line of the key, nothing written.
line=$(grep -n '^rigid_link' $cfg | cut -d: -f1)
"$trace" $cfg --out "$work/trace" > /dev/null 2> "$work/trace.err"; rc=$?
[ $rc -eq 2 ] || die "trace: exit $rc, expected 2"
grep -qF "$cfg:$line: key 'dynamics.rigid_link'" "$work/trace.err" || die "trace: message: $(cat "$work/trace.err")"
[ -e "$work/trace" ] && die "trace wrote results"
echo "ok   trace refuses the rigid link: $(cat "$work/trace.err")"
