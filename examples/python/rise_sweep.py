"""Critical loads of the von Mises truss against its rise h, one run per value in a
plain loop (as trace --sweep does, but scripted): a table of h, the kind of the
first critical point, λ_cr and the closed forms.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/rise_sweep.py

tests/design/von-mises-h.cfg holds the apex ux, so every point is a limit point:
λ_L = (2 / (3√3)) (h / L0)³, L0 = √(1 + h²). With pandas installed the rows also
become a DataFrame.
"""
import math

import senda

rows = []
for h in [0.2 + 0.1 * k for k in range(11)]:
    model = senda.load("tests/design/von-mises-h.cfg", overrides={"parameters.h": h})
    r = model.run()
    lp = r.critical("LP1")
    closed = 2 / (3 * math.sqrt(3)) * (h / math.hypot(1, h)) ** 3
    rows.append({"h": h, "kind": lp.kind, "lambda_cr": lp.lam, "closed_form": closed,
                 "rel_error": abs(lp.lam - closed) / closed, "dlambda_dh": lp.sensitivities[0]["dlambda_dmu"]})

print(f"{'h':>5} {'kind':>6} {'lambda_cr':>20} {'closed form':>20} {'rel. error':>10} {'dlambda/dh':>12}")
for x in rows:
    print(f"{x['h']:5.2f} {x['kind']:>6} {x['lambda_cr']:20.15f} {x['closed_form']:20.15f} "
          f"{x['rel_error']:10.1e} {x['dlambda_dh']:12.6f}")

try:
    import pandas as pd
except ImportError:
    pd = None
if pd is not None:
    print(pd.DataFrame(rows).set_index("h"))
