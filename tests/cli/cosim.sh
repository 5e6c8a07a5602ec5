#!/usr/bin/env bash
# The cosim command (docs/config.md "The cosim command"): a run of seed 002's
# Jacobi f-d configuration and its files, overrides, --plot, the refusals (an
# existing DIR, a trace file, a bad command line), --help, SIGINT: exit 130
# with summary.json "interrupted" and every finished macro step in the history; a
# unit beyond its own stability limit refused (exit 2); an unstable coupling stopped
# (exit 1, "unstable"); every committed problems/cosim file completes.
# usage: cosim.sh COSIM SOURCE_DIR WORK_DIR
set -u
cosim=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
fail=0
py=/usr/bin/python3
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# 1. Table 3, Jacobi f-d ZOH: exit 0, 10 000 rows, the library's numbers (tests/cosim/seed_test.cpp).
"$cosim" "$src/problems/cosim/seed002-fd.cfg" --out "$work/fd" --plot > "$work/fd.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "seed002-fd exit 0" || bad "seed002-fd exit $rc: $(cat "$work/fd.out")"
rows=$(($(wc -l < "$work/fd/cosim_history.csv") - 1))
[ "$rows" -eq 10001 ] && ok "history has 10001 rows (t = 0 and 10 000 macro steps)" || bad "history has $rows rows"
$py - "$work/fd" <<'PY' && ok "summary.json and the history agree; E(10 s) = 16 783.67 J" || fail=1
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
rows = list(csv.DictReader(open(d + "/cosim_history.csv")))
assert s["termination"] == "completed" and s["steps"] == 10000, s
last = rows[-1]
assert abs(float(last["E_total"]) - s["energy"]["final"]) < 1e-9, (last["E_total"], s["energy"]["final"])
assert abs(s["energy"]["final"] - 16783.67314) < 1e-3, s["energy"]["final"]   # tests/cosim/seed_test.cpp
assert abs(float(last["residual_sum"]) - s["residual_sum"]) < 1e-9
# E_total is the sum of the units' energies in every row.
for r in rows[::500]:
    assert abs(float(r["E_ss1"]) + float(r["E_ss2"]) - float(r["E_total"])) < 1e-9 * float(r["E_total"])
PY
if command -v gnuplot > /dev/null; then
  [ -s "$work/fd/energy.png" ] && [ -s "$work/fd/energy.svg" ] && ok "--plot rendered energy.png/.svg" || bad "--plot: no figure"
fi

# 2. Overrides: Table 4's FOH y1 + FOH u2 (multirate) is accurate (band < 60 J).
"$cosim" "$src/problems/cosim/seed002-fd.cfg" --out "$work/ff" --quiet parameters.h2=1e-4 parameters.y1=1 parameters.u2=1 > /dev/null 2>&1
$py -c "
import json, sys; s = json.load(open('$work/ff/summary.json'))
sys.exit(0 if s['energy']['max_deviation'] < 60 and s['units'][1]['micro_step'] == 1e-4 else 1)" \
  && ok "overrides: FOH y1 + FOH u2 multirate within 60 J" || bad "overrides run"

# 3. Refusals: exit 2, nothing written.
"$cosim" "$src/problems/cosim/seed002-fd.cfg" --out "$work/fd" > /dev/null 2> "$work/exists.err"
[ $? -eq 2 ] && grep -q "overwrite" "$work/exists.err" && ok "existing DIR refused" || bad "existing DIR: $(cat "$work/exists.err")"
"$cosim" "$src/problems/von-mises.cfg" --out "$work/vm" > /dev/null 2> "$work/vm.err"
[ $? -eq 2 ] && grep -q "not a co-simulation file" "$work/vm.err" && [ ! -e "$work/vm" ] && ok "a trace file refused" \
  || bad "trace file: $(cat "$work/vm.err")"
"$cosim" > /dev/null 2> "$work/none.err"
[ $? -eq 2 ] && grep -q "no configuration file given" "$work/none.err" && ok "no file: exit 2" || bad "no file"
"$cosim" "$src/problems/cosim/seed002-fd.cfg" cosim.macro_step > /dev/null 2> "$work/ov.err"
[ $? -eq 2 ] && grep -q "is not an override" "$work/ov.err" && ok "bad override: exit 2" || bad "bad override"

# --compare: earlier runs in the same figure; refused without --plot or without a history.
"$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/cmp" --quiet --plot --compare "$work/fd,$work/ff" > /dev/null 2>&1
[ $? -eq 0 ] && grep -q "$work/fd/cosim_history.csv" "$work/cmp/energy.gp" && grep -q "$work/ff/cosim_history.csv" "$work/cmp/energy.gp" \
  && ok "--compare: three curves in energy.gp" || bad "--compare: $(cat "$work/cmp/energy.gp" 2>&1)"
"$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/cmp2" --compare "$work/fd" > /dev/null 2> "$work/cmp2.err"
[ $? -eq 2 ] && grep -q "goes with --plot" "$work/cmp2.err" && [ ! -e "$work/cmp2" ] && ok "--compare without --plot: exit 2" || bad "--compare without --plot"
"$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/cmp3" --plot --compare "$work/nothing" > /dev/null 2> "$work/cmp3.err"
[ $? -eq 2 ] && grep -q "holds no cosim_history.csv" "$work/cmp3.err" && [ ! -e "$work/cmp3" ] && ok "--compare of no results: exit 2" || bad "--compare of no results"

# 4. --help lists every [cosim] key.
"$cosim" --help > "$work/help.txt"
for k in end_time macro_step scheme order max_iterations tolerance unit connect plot; do
  grep -q "cosim\.$k" "$work/help.txt" || bad "--help lacks cosim.$k"
done
ok "--help lists the [cosim] keys"

# 5. A full disk (a 64 kB tmpfs; needs root, skipped otherwise): exit 1, the
# message names the file with the system's reason, the history ends in whole rows.
mkdir -p "$work/disk"
if mount -t tmpfs -o size=64k tmpfs "$work/disk" 2> /dev/null; then
  "$cosim" "$src/problems/cosim/seed002-fd.cfg" --out "$work/disk/run" --quiet > "$work/disk.log" 2>&1
  rc=$?
  h="$work/disk/run/cosim_history.csv"
  cols=$(head -n 1 "$h" | awk -F, '{print NF}')
  partial=$(awk -F, -v n="$cols" 'NF != n' "$h" | wc -l)
  last=$(tail -c 1 "$h" | od -An -c | tr -d ' ')
  if [ $rc -eq 1 ] && grep -q "cosim_history.csv: write failed: No space left on device" "$work/disk.log"      && [ "$partial" -eq 0 ] && [ "$last" = '\n' ]; then
    ok "full disk: exit 1, $(($(wc -l < "$h") - 1)) whole rows kept"
  else
    bad "full disk: exit $rc, $partial partial rows: $(cat "$work/disk.log")"
  fi
  umount "$work/disk"
else
  echo "skip full disk: cannot mount a tmpfs (not root?)"
fi

# 6. SIGINT: a long run stops at the next macro step, exit 130, results kept.
"$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/int" --quiet cosim.end_time=10000 > /dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$work/int/cosim_history.csv" ] && break; sleep 0.05; done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && ok "SIGINT: exit 130" || bad "SIGINT: exit $rc"
$py - "$work/int" <<'PY' && ok "SIGINT: summary.json interrupted, the history holds every finished step" || fail=1
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
n = sum(1 for _ in open(d + "/cosim_history.csv")) - 1
assert s["termination"] == "interrupted" and 0 < s["steps"] < 10**8, s
assert n == s["steps"] + 1, (n, s["steps"])
PY

# 7. A unit beyond its own stability limit (symplectic Euler at omega h = 3.3, known
# from K_eff and the mass before the run): bad input, exit 2, the unit's line, omega_max
# and the largest stable step; nothing written. It ran: "diverged" at t = 16.2 s (and
# before that check, "completed" with 946 rows of NaN).
"$cosim" "$src/problems/cosim/seed002-dd.cfg" --out "$work/div" --quiet cosim.end_time=300 cosim.macro_step=0.3 \
  parameters.h1=0.1 parameters.h2=0.1 > "$work/div.log" 2>&1
rc=$?
[ $rc -eq 2 ] && [ ! -e "$work/div" ] && ok "unstable unit: exit 2, nothing written" || bad "unstable unit: exit $rc: $(cat "$work/div.log")"
grep -qF "seed002-dd.cfg:16: key 'cosim.unit': unit 'ss2': symplectic Euler is unstable at this micro step: omega_max h = 3.31662 >= 2 (omega_max = 33.1662 rad/s" "$work/div.log" &&
  grep -qF "the largest stable step is below 2/omega_max = 0.0603023 s, e.g. h = 0.06 (macro_step/5)" "$work/div.log" &&
  ok "unstable unit: the message names the unit's line, omega_max and the largest stable step" || bad "unstable unit: $(cat "$work/div.log")"

# 8. A coupling that creates energy, each unit stable alone (Jacobi f-d with ZOH at
# H = 0.1 s, micro steps 0.01 s): the run stops at the first macro step where the
# energy the coupling created, the interface residual sum(delta_n), exceeds the initial
# energy, exit 1, summary.json "unstable" with it, the history up to that step. It ran
# to its end, exit 0.
"$cosim" "$src/problems/cosim/seed002-fd.cfg" --out "$work/unstable" --quiet cosim.macro_step=0.1 cosim.end_time=2 \
  parameters.h1=0.01 parameters.h2=0.01 > "$work/unstable.log" 2>&1
rc=$?
[ $rc -eq 1 ] && ok "unstable coupling: exit 1" || bad "unstable coupling: exit $rc: $(cat "$work/unstable.log")"
grep -qF "cosim: unstable: the coupling created 13876 J at t = 0.3 s (macro step 3) (the interface energy residual, the sum of delta_n), more than the 10000 J the run started with; the total energy is now 29781.2 J" "$work/unstable.log" &&
  ok "unstable coupling: said on stderr" || bad "unstable coupling: not said: $(cat "$work/unstable.log")"
$py - "$work/unstable" <<'PY' && ok "unstable coupling: summary.json unstable, the history ends at that step" || fail=1
import csv, json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
rows = list(csv.DictReader(open(d + "/cosim_history.csv")))
assert s["termination"] == "unstable" and s["steps"] == 3 and "the coupling created 13876 J" in s["message"], s
assert len(rows) == 1 + 3, len(rows)
E = [float(r["E_total"]) for r in rows]
created = [float(r["residual_sum"]) for r in rows]
assert created[-1] > E[0] and all(c <= E[0] for c in created[:-1]), created
assert abs(s["residual_sum"] - created[-1]) <= 1e-9 * abs(created[-1]), s["residual_sum"]
assert abs(s["energy"]["final"] - E[-1]) < 1e-9 * E[-1] and s["energy"]["max"] == s["energy"]["final"], s["energy"]
PY

# 9. The co-simulations of problems/cosim as committed complete (exit 0): seed002-fd
# (above, +68 %, the seed's demonstrated energy gain, below the limit) and the others.
for f in seed002-dd seed002-dd-exact truss-absorber; do
  "$cosim" "$src/problems/cosim/$f.cfg" --out "$work/committed-$f" --quiet > "$work/committed-$f.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] && grep -q '"termination": "completed"' "$work/committed-$f/summary.json" && ok "problems/cosim/$f.cfg completes" \
    || bad "problems/cosim/$f.cfg: exit $rc: $(cat "$work/committed-$f.log")"
done
exit $fail
