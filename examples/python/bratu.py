"""The Bratu problem u'' + λ e^u = 0, u(0) = u(1) = 0, written in Python: a
senda.Problem with a scipy.sparse tangent, traced over its fold.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/bratu.py [N]

Finite differences on N interior points (the same equations as the C++
benchmarks/bratu.hpp): g_i = 2u_i − u_{i−1} − u_{i+1} − h²λe^{u_i}, K tridiagonal.
The fold tends to λ_c = 3.51383071912 as N grows.
"""
import sys

import numpy as np
import scipy.sparse as sp

import senda


class Bratu(senda.Problem):
    def __init__(self, n):
        super().__init__(n)  # size = n unknowns
        self.h2 = 1.0 / (n + 1) ** 2
        self.L = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csc")

    def residual(self, u, lam):
        return self.L @ u - self.h2 * lam * np.exp(u)

    def tangent(self, u, lam):
        return (self.L - sp.diags(self.h2 * lam * np.exp(u))).tocsc()

    def load_derivative(self, u, lam):  # ∂g/∂λ; without it, central differences of residual()
        return -self.h2 * np.exp(u)


n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
mid = n // 2
result = senda.trace(
    Bratu(n),
    {"explorer.path.constraint": senda.Constraint.PSEUDO_ARCLENGTH,
     "explorer.path.initial_load_increment": 0.1, "explorer.path.max_step_ratio": 30.0,
     "explorer.path.monitor_dof": mid, "explorer.path.max_displacement": 4.0},
    track=[mid],
    progress=lambda p: print(f"\r{p['index']:4d}  lambda = {p['lam']:.6f}  u(1/2) = {p['tracked'][f'q{mid}']:.6f}",
                             end="", flush=True))
print()
print(result.brief_report())
fold = result.critical("LP1")
print(f"fold: lambda_c = {fold.lam:.12f}, u(1/2) = {fold.q[mid]:.10f}, "
      f"SPL residuals {', '.join(f'{x:.1e}' for x in fold.residual_history)}")
