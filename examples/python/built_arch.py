"""A shallow pinned circular arch built from numpy arrays (senda.build, no .cfg):
its nodes are computed, one beam element between consecutive nodes, a point load at
the crown; then the same arch for a few rises in a loop, with the first critical
point of each (a limit point for a shallow arch, a bifurcation into the
antisymmetric mode once the arch is high enough).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/built_arch.py [OUT_DIR]

With OUT_DIR the first arch's results directory is written there (path.csv,
summary.json, modes/, as trace --out writes it); model.config_text is the
equivalent .cfg, which `trace` runs as well.
"""
import sys

import numpy as np

import senda

SPAN = 10.0
N = 20                                       # elements (even: a node at the crown)
EA, GAS, EI = 1.0e4, 4.0e3, 1.0              # a slender section


def arch(rise, steps=80):
    # The circle through both supports and the crown at height `rise`.
    radius = (SPAN**2 / 4 + rise**2) / (2 * rise)
    half = np.arcsin(SPAN / (2 * radius))
    theta = np.linspace(-half, half, N + 1)
    ids = np.arange(1, N + 2)
    nodes = np.column_stack([ids, radius * np.sin(theta), radius * np.cos(theta) - (radius - rise)])
    beams = [(k, k, k + 1, EA, GAS, EI) for k in range(1, N + 1)]
    crown = N // 2 + 1
    return senda.build(
        nodes=nodes, beams=beams,
        fix={1: ("ux", "uy"), N + 1: ("ux", "uy")},   # pinned ends (rz free)
        loads=[(crown, "uy", -1.0)],
        track=[(crown, "uy"), (N // 4 + 1, "uy")],
        name=f"arch-h{rise:g}",
        options={"continuation.initial_step": 0.02, "stop.max_steps": steps,
                 "stop.displacement": f"{crown} uy {2.2 * rise!r}", "branches.switch": False})


model = arch(0.5)
print(model, "\n" + model.config_text.splitlines()[3], "...")
result = model.run(out=sys.argv[1] if len(sys.argv) > 1 else None, overwrite=True)
print(result.brief_report())

print(f"\n{'rise':>5} {'first critical point':>22} {'lambda':>14}")
for rise in (0.02, 0.05, 0.1, 0.25, 0.5, 1.0):
    r = arch(rise).run()
    first = r.critical_points[0] if r.critical_points else None
    if first is None:
        print(f"{rise:5.2f} {'none':>22}")
    else:
        lam = f"{first.lam:14.8f}" if first.converged else f"{'not located':>14}"
        print(f"{rise:5.2f} {first.id + ' ' + first.kind:>22} {lam}")
