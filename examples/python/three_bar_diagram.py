"""The load–displacement diagram of the three-bar structure (problems/three-bar.cfg):
the primary path and the two sway branches of BP1, the critical points marked.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/three_bar_diagram.py [out.png]

Without matplotlib (Debian python3-matplotlib) it prints the table instead.
"""
import sys

import senda

result = senda.load("problems/three-bar.cfg").run()
print(result.brief_report())

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

if plt is None:
    print("matplotlib not installed: the points of each branch instead")
    for b in result.branches:
        p = result.path.on_branch(b.id)
        print(f"branch {b.id} ({b.start_point or 'primary'}): {len(p)} points, lambda "
              f"{p.lam.min():.4f} .. {p.lam.max():.4f}, {b.termination}")
    sys.exit(0)

fig, ax = plt.subplots(figsize=(6, 4.5))
for b in result.branches:
    p = result.path.on_branch(b.id)
    ax.plot(p.column("u_3_ux"), p.lam, "-" if b.id == 0 else "--",
            label="primary" if b.id == 0 else f"branch {b.id} from {b.start_point}")
for c in result.critical_points:
    ax.plot(c.tracked["u_3_ux"], c.lam, "o" if c.kind == "bifurcation" else "s", color="k")
    ax.annotate(c.id, (c.tracked["u_3_ux"], c.lam), textcoords="offset points", xytext=(5, 5))
ax.set_xlabel("u3 (x)")
ax.set_ylabel("load factor λ")
ax.legend()
out = sys.argv[1] if len(sys.argv) > 1 else "three-bar.png"
fig.savefig(out, dpi=120, bbox_inches="tight")
print(f"wrote {out}")
