#!/usr/bin/env bash
# The co-simulation figures of docs/validation.md (issue 17, seed 002): runs the
# seed's configurations with the cosim command and draws, with `cosim --plot
# --compare`, the total energy against time of the schemes each of the seed's
# figures compares, copied to DEST as cosim-seed002-<name>.png; then the measured
# order of the coupling error in H (Jacobi d-d, exact subsystems, ZOH and FOH, T = 1 s)
# against the closed-form modal solution, drawn by scripts/cosim-order.gp as
# DEST/cosim-order.png (data in DEST/cosim-order.dat). About 5 s.
# usage: scripts/cosim-figures.sh [COSIM [DEST]]
set -euo pipefail
cd "$(dirname "$0")/.."
cosim=${1:-build/apps/cosim}
dest=${2:-docs/figures}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fd=problems/cosim/seed002-fd.cfg
dd=problems/cosim/seed002-dd.cfg
gs=(cosim.scheme=gauss-seidel)
mr=(parameters.h2=1e-4)
run() {  # name cfg overrides...  (a results directory named after the curve)
  local name=$1 cfg=$2; shift 2
  "$cosim" "$cfg" --out "$work/$name" --quiet "$@"
}
figure() {  # figure-name run-dirs... : the last directory's run is redone with --plot --compare the others
  local fig=$1; shift
  local dirs=("$@") n=$#
  local last=${dirs[$((n - 1))]} others=""
  for d in "${dirs[@]:0:$((n - 1))}"; do others+="${others:+,}$work/$d"; done
  "$cosim" "$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['config'])" "$work/$last/summary.json")" --out "$work/$last" --overwrite --quiet --plot \
    ${others:+--compare "$others"} $(cat "$work/$last.args")
  cp "$work/$last/energy.png" "$dest/cosim-seed002-$fig.png"
}
record() { local name=$1; shift; echo "${@:2}" > "$work/$name.args"; run "$name" "$@"; }
# Table 3 (single rate)
record "Jacobi d-d SR (= monolithic)" $dd
record "Jacobi f-d SR" $fd
record "G-S f-d SR SS1 first" $fd "${gs[@]}"
record "G-S d-d SR SS1 first" $dd "${gs[@]}"
# Table 4 (multirate, h2 = H/10)
record "Jacobi f-d MR ZOH" $fd "${mr[@]}"
record "Jacobi f-d MR FOH y1" $fd "${mr[@]}" parameters.y1=1
record "Jacobi f-d MR FOH u2" $fd "${mr[@]}" parameters.u2=1
record "Jacobi f-d MR FOH y1+u2" $fd "${mr[@]}" parameters.y1=1 parameters.u2=1
record "Jacobi d-d MR FOH u2" $dd "${mr[@]}" parameters.u2=1
figure fig20-21 "Jacobi d-d SR (= monolithic)" "Jacobi f-d SR"
figure fig18-22 "Jacobi d-d SR (= monolithic)" "G-S d-d SR SS1 first" "G-S f-d SR SS1 first"
figure fig24 "Jacobi f-d SR" "Jacobi f-d MR ZOH"
figure fig25-27 "Jacobi d-d SR (= monolithic)" "Jacobi f-d MR FOH y1" "Jacobi f-d MR FOH y1+u2"
figure fig26 "Jacobi f-d MR ZOH" "Jacobi f-d MR FOH u2"
figure fig28 "Jacobi d-d SR (= monolithic)" "Jacobi d-d MR FOH u2"

# The order of the coupling error.
for order in 0 1; do
  for H in 4e-3 2e-3 1e-3 5e-4 2.5e-4; do
    "$cosim" problems/cosim/seed002-dd-exact.cfg --out "$work/order-$order-$H" --quiet parameters.H=$H parameters.order=$order
  done
done
/usr/bin/python3 - "$work" "$dest/cosim-order.dat" <<'PY'
import csv, math, sys
import numpy as np
work, out = sys.argv[1], sys.argv[2]
K = np.array([[10.0 + 100.0, -100.0], [-100.0, 1000.0 + 100.0]])  # seed 002, M = I
w2, phi = np.linalg.eigh(K)
v0 = np.array([100.0, -100.0])
x1 = sum(phi[:, i] * (phi[:, i] @ v0) * math.sin(math.sqrt(w2[i]) * 1.0) / math.sqrt(w2[i]) for i in range(2))
with open(out, "w") as f:
    f.write("# H  error_zoh  error_foh   (|x(1 s) - closed form|, Jacobi d-d, exact subsystems; scripts/cosim-figures.sh)\n")
    for H in ["4e-3", "2e-3", "1e-3", "5e-4", "2.5e-4"]:
        e = []
        for order in (0, 1):
            last = list(csv.DictReader(open(f"{work}/order-{order}-{H}/cosim_history.csv")))[-1]
            e.append(math.hypot(float(last["ss1.x"]) - x1[0], float(last["ss2.x"]) - x1[1]))
        f.write(f"{float(H):.6g} {e[0]:.6e} {e[1]:.6e}\n")
PY
(cd "$dest" && gnuplot "$OLDPWD/scripts/cosim-order.gp")
echo "figures in $dest: cosim-seed002-*.png, cosim-order.png"
