#!/usr/bin/env python3
"""Out-of-plane stability of the cantilever rolled into a circle (problems/circle-cantilever.cfg).

A cantilever of length L along x, clamped at s = 0, under an end moment
lambda M e_z, M = 2 pi EI3/L, bends into the arc of curvature k = lambda 2 pi/L
(t = (cos ks, sin ks)); the internal moment is m0 = lambda M e_z, the force n0 = 0.
Linearised about that arc, out of the plane (inextensible, shear-rigid):

    w'  = (th x t)_z,   th' = Cg^-1 (m1 - th x m0),   n1' = 0,   m1' = -t x n1

Cg = GJ t t^T + EI2 e2 e2^T (e2 = e_z x t). Clamp: w = th = 0; tip: n1 = 0 and
m1 = K th, K the change of the applied spatial moment per spin of the tip, which
is what the moment type decides:
  psi  the load of Senda (potential -lambda r.psi): m = T(psi)^-T r =
       r + psi x r/2 + c psi x (psi x r), c = (1 - (th/2) cot(th/2))/th^2,
       differentiated along psi and mapped by T(psi)^-1 (spin -> d psi)
  AX   axial moment (fixed in space): K = 0
  ST   semitangential: dm = (1/2) th x m
  FT   follower (turns with the tip): dm = th x m
Prints the bifurcation loads lambda in (0, 1) of each. Requires numpy, scipy.
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

L, EI3, EI2, GJ = 10.0, 2.0, 3.5, 1.5


def hat(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def c_of(th):
    return (1 - (th / 2) / np.tan(th / 2)) / th**2


def moment_psi(psi, r):
    th = np.linalg.norm(psi)
    return r + 0.5 * np.cross(psi, r) + c_of(th) * np.cross(psi, np.cross(psi, r))


def t_inverse(psi):
    P = hat(psi)
    return np.eye(3) - 0.5 * P + c_of(np.linalg.norm(psi)) * P @ P


def load_stiffness(lam, kind):
    M = lam * 2 * np.pi * EI3 / L
    if kind == "psi":
        psi, r, h = np.array([0, 0, 2 * np.pi * lam]), np.array([0, 0, M]), 1e-6
        J = np.column_stack([(moment_psi(psi + h * e, r) - moment_psi(psi - h * e, r)) / (2 * h) for e in np.eye(3)])
        return (J @ t_inverse(psi))[:2, :2]
    skew = np.array([[0, M], [-M, 0]])  # th x (M e_z), (x, y) block
    return {"AX": 0 * skew, "ST": 0.5 * skew, "FT": skew}[kind]


def arc_det(k, M, K):
    """Determinant of the out-of-plane problem about the arc of curvature k with
    section moment M e_z, the tip condition m1 = K th (2 x 2, x y parts)."""

    def f(s, y):
        w, thx, thy, nz, mx, my = y
        t = np.array([np.cos(k * s), np.sin(k * s)])
        e2 = np.array([-t[1], t[0]])
        dth = np.linalg.solve(GJ * np.outer(t, t) + EI2 * np.outer(e2, e2), [mx - M * thy, my + M * thx])
        return [thx * t[1] - thy * t[0], dth[0], dth[1], 0.0, -t[1] * nz, t[0] * nz]

    cols = []
    for v in np.eye(3):
        y = solve_ivp(f, (0, L), [0, 0, 0, *v], rtol=1e-12, atol=1e-15).y[:, -1]
        cols.append([y[3], *(y[4:] - K @ y[1:3])])
    return np.linalg.det(np.array(cols).T)


def det(lam, kind):
    return arc_det(lam * 2 * np.pi / L, lam * 2 * np.pi * EI3 / L, load_stiffness(lam, kind))


if __name__ == "__main__":
    grid = np.linspace(0.02, 0.99, 120)
    for kind in ["psi", "AX", "ST", "FT"]:
        d = [det(x, kind) for x in grid]
        roots = [brentq(lambda x: det(x, kind), grid[i], grid[i + 1], xtol=1e-13)
                 for i in range(len(grid) - 1) if np.sign(d[i]) != np.sign(d[i + 1])]
        print(kind, ["%.6f" % x for x in roots])
