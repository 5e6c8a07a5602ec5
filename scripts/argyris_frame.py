#!/usr/bin/env python3
"""Continuum reference for Argyris's right-angle frame (problems/argyris-frame.cfg).

Lateral buckling of an L frame (legs of length L along x, then y, in the xy
plane), clamped at A = (0, 0, 0), loaded at the free end B = (L, L, 0) by a dead
force P e_x. Linearised about the planar state with the in-plane deflection
neglected (rigid in the strong axis, inextensible, shear-rigid). Prestress:
n0 = P e_x everywhere, m0 = m0z e_z with m0z = -L P on leg 1 and -(L - s) P on
leg 2 (s from the corner). Perturbation (out of the plane only): w = u_z, the
rotation components (th_x, th_y), the force n1_z and the moments (m1_x, m1_y):

    w'   = (th x t)_z
    th'  = C^-1 (m1 - th x m0)            (m = R m_section, linearised)
    n1'  = 0
    m1'  = -(w' e_z) x n0 - t x n1

C = diag(GJ, EI_w) on leg 1 (axes x, y), diag(EI_w, GJ) on leg 2. A rigid joint
at the corner (continuity of every component). Clamp: w = th = 0 at A; free end:
n1 = m1 = 0 at B (dead force, no applied moment). P_cr: det of the 3 x 3 map
from (n1_z, m1_x, m1_y) at A to the same at B. Requires numpy, scipy
(/usr/bin/python3). Prints the two lowest P of each sign.
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

E, NU, B, T, L = 71240.0, 0.31, 30.0, 0.6, 240.0
G = E / (2 * (1 + NU))
EI_W = E * B * T**3 / 12  # out-of-plane bending (weak axis)
GJ = G * B * T**3 / 3


def leg(t, C, m0z, n0):
    tx, ty = t

    def f(s, y):
        w, thx, thy, nz, mx, my = y
        dw = thx * ty - thy * tx
        mz = m0z(s)
        return [dw, (mx - mz * thy) / C[0], (my + mz * thx) / C[1], 0.0,
                dw * n0[1] - ty * nz, -dw * n0[0] + tx * nz]

    return f


def det(P):
    cols = []
    for y0 in np.eye(3):
        n0 = (P, 0.0)
        kw = dict(rtol=1e-12, atol=1e-15)
        s1 = solve_ivp(leg((1, 0), (GJ, EI_W), lambda s: -L * P, n0), (0, L), [0, 0, 0, *y0], **kw)
        s2 = solve_ivp(leg((0, 1), (EI_W, GJ), lambda s: -(L - s) * P, n0), (0, L), s1.y[:, -1], **kw)
        cols.append(s2.y[3:, -1])
    return np.linalg.det(np.array(cols).T)


def roots(sign, hi=4.0, n=400):
    p = np.linspace(1e-3, hi, n)
    d = [det(sign * x) for x in p]
    return [sign * brentq(lambda x: det(sign * x), p[i], p[i + 1], xtol=1e-14)
            for i in range(n - 1) if np.sign(d[i]) != np.sign(d[i + 1])]


if __name__ == "__main__":
    print("P along +x:", ["%.6f" % r for r in roots(+1)[:2]])
    print("P along -x:", ["%.6f" % r for r in roots(-1)[:2]])
