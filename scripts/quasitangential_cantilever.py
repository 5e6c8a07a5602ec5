#!/usr/bin/env python3
"""Cantilevers under a quasitangential end moment (docs/notes/beam3d.md S.14).

A quasitangential moment is what two couples of dead forces on levers fixed to
the loaded node apply: its spatial value at the node's rotation R is
m(R) = (1/2)(tr R I - R^T) m0. With no end force the section force of the rod
is zero and its section moment is the same vector m at every s.

1. In the plane (m0 = M e_z, member along x): the rod is an arc turning the
   tip by alpha with EI alpha / L = lambda M cos(alpha) (m(R) = M cos(alpha)
   e_z for a rotation about e_z). Its out-of-plane stability, for the data of
   scripts/circle_cantilever.py (L = 10, EI3 = 2, EI2 = 3.5, GJ = 1.5,
   M = 2 pi EI3/L): the linearised rod equations of that script about the arc
   of curvature alpha/L, with the tip condition of this moment,
   dm = (1/2) tr(th^ R) m + (1/2) R^T (th x m0)  (R the tip's rotation; the
   first term has no part out of the plane). Prints its sign changes for
   lambda in (0, 6]: none.
2. In space (isotropic bending EI, torsion GJ != EI, member along e1 with
   section axes e1 e2 e3, m0 = M (cos beta e1 + sin beta e2)): a constant m
   gives R(s) = exp(s (m/EI)^) exp(s c e1^), c = (1/GJ - 1/EI)(e1.m), which
   satisfies R' = k^ R with k = R C^-1 R^T m, the rod's equations with n = 0;
   its centreline is the circular helix about m/|m| (the tangent precesses
   about m at the rate |m|/EI). The tip moment closes the problem:
   m = lambda (1/2)(tr R(L) I - R(L)^T) m0, solved by Newton from lambda = 0
   upward. Prints the tip position (local axes) at lambda = 0.5 and 1.
Independent of Senda. Requires numpy and scipy.
"""
import numpy as np
from scipy.linalg import expm
from scipy.optimize import brentq, fsolve

from circle_cantilever import EI3, L, arc_det


def hat(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def planar_alpha(lam, mu):
    """Tip rotation alpha = lam mu cos(alpha), mu = M L/EI."""
    return brentq(lambda a: a - lam * mu * np.cos(a), 0.0, np.pi / 2)


def planar_det(lam):
    M0 = 2 * np.pi * EI3 / L
    a = planar_alpha(lam, M0 * L / EI3)
    Rt = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])  # R^T, (x, y) block
    return arc_det(a / L, EI3 * a / L, 0.5 * Rt @ np.array([[0, lam * M0], [-lam * M0, 0]]))


def helix_tip(lam, Lh, EI, GJh, m0):
    e1 = np.array([1.0, 0.0, 0.0])

    def RL(m):
        c = (1 / GJh - 1 / EI) * (e1 @ m)
        return expm(Lh * hat(m / EI)) @ expm(Lh * c * hat(e1))

    def residual(m, x):
        R = RL(m)
        return m - x * 0.5 * (np.trace(R) * np.eye(3) - R.T) @ m0

    m = np.zeros(3)
    for x in np.linspace(0, lam, 201)[1:]:
        m = fsolve(residual, m, args=(x,), xtol=1e-13)
    w, n = np.linalg.norm(m) / EI, m / np.linalg.norm(m)
    ep = e1 - (e1 @ n) * n
    tip = Lh * (e1 @ n) * n + np.sin(w * Lh) / w * ep + (1 - np.cos(w * Lh)) / w * np.cross(n, ep)
    return tip, m, np.linalg.norm(residual(m, lam))


if __name__ == "__main__":
    grid = np.linspace(0.01, 6.0, 300)
    d = [planar_det(x) for x in grid]
    print("planar, out-of-plane sign changes in (0, 6]:",
          [float(brentq(planar_det, grid[i], grid[i + 1])) for i in range(len(grid) - 1)
           if np.sign(d[i]) != np.sign(d[i + 1])],
          "; tip rotation at lambda = 6:", planar_alpha(6.0, 2 * np.pi))
    # The test's helix: L = 3, EI = 2, GJ = 1.2, M = 4 EI/L, beta = 60 deg.
    Lh, EI, GJh, beta = 3.0, 2.0, 1.2, np.pi / 3
    M = 4 * EI / Lh
    m0 = M * np.array([np.cos(beta), np.sin(beta), 0.0])
    for lam in (0.5, 1.0):
        tip, m, r = helix_tip(lam, Lh, EI, GJh, m0)
        print(f"helix lambda {lam}: tip (local) {tip[0]:.15f} {tip[1]:.15f} {tip[2]:.15f}; "
              f"m {m[0]:.12f} {m[1]:.12f} {m[2]:.12f}; |residual| {r:.1e}")
