#!/usr/bin/env python3
"""Continuum reference for Argyris's right-angle frame under in-plane end moments
(problems/argyris-frame-moments.cfg).

The L frame of scripts/argyris_frame.py (legs of length L along x from A = 0 to the
corner, then along y to B = (L, L, 0)), supported at A and B with the out-of-plane
displacement w held at both, loaded by in-plane end moments M_B = M e_z at B and
M_A = -M e_z at A. The pair is self-equilibrated, so with statically determinate
in-plane supports (pinned at A, a roller at B) the prestress is n0 = 0 and
m0 = M e_z on both legs: uniform strong-axis bending. Linearised about the planar
state with the in-plane deflection neglected (rigid in the strong axis,
inextensible, shear-rigid); perturbation w, (th_x, th_y), n1_z, (m1_x, m1_y):

    w'  = (th x t)_z,   th' = C^-1 (m1 - th x m0),   n1_z' = 0,   m1' = -t x n1

(C = diag(GJ, EI_w) on leg 1, diag(EI_w, GJ) on leg 2; a rigid joint at the
corner). At an end, each out-of-plane rotation component is either held (a
reaction takes the moment) or free, where the moment condition reads
m1(B) = dM_B, m1(A) = -dM_A with dM = c th x M_end: c = 0 an axial (fixed)
moment, 1/2 Argyris's semitangential moment, 1 a follower moment. M_cr: det = 0
of the 3 x 3 map from the unknown end values at A to the conditions at B.

With both out-of-plane rotations held (a hinge about z at each end: the
catalogued case) dM has no free component, so the moment type does not enter,
and M_cr = +-(pi/L) sqrt(EI_w GJ), the single fork-supported leg's value, for
both signs. With the twist alone held (forks), the free component of dM is
c M th_x at A and c M th_y at B, th_x (th_y) being leg 1's (leg 2's) held twist:
zero, so again independent of c, but M_cr differs for the two signs. With free
end rotations the rigid rotation of the frame about the line AB has zero
energy (at M = 0 a mechanism; for c = 1/2 it is not in the kernel, th x M - dM
= th x M / 2 at each end, so the planar state is indefinite for every M != 0; derived, not run):
not a buckling problem, not printed.
Requires numpy, scipy (/usr/bin/python3).
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

E, NU, B, T, L = 71240.0, 0.31, 30.0, 0.6, 240.0
G = E / (2 * (1 + NU))
EI_W = E * B * T**3 / 12  # out-of-plane bending (weak axis)
GJ = G * B * T**3 / 3
KW = dict(rtol=1e-12, atol=1e-15)


def leg(t, C, M):
    tx, ty = t

    def f(s, y):
        w, thx, thy, nz, mx, my = y
        return [thx * ty - thy * tx, (mx - M * thy) / C[0], (my + M * thx) / C[1], 0.0, -ty * nz, tx * nz]

    return f


def det(M, c, hold_a, hold_b):
    """hold_a, hold_b: the out-of-plane rotation components ('x', 'y') held at A, B."""
    starts = []
    for p in ["nz"] + [k for k in "xy"]:
        thx = thy = nz = 0.0
        react = {"x": 0.0, "y": 0.0}
        if p == "nz":
            nz = 1.0
        elif p in hold_a:
            react[p] = 1.0  # the reaction moment is the unknown
        elif p == "x":
            thx = 1.0
        else:
            thy = 1.0
        mx = react["x"] if "x" in hold_a else c * M * thy
        my = react["y"] if "y" in hold_a else -c * M * thx
        starts.append([0.0, thx, thy, nz, mx, my])
    rows = []
    for y0 in starts:
        s1 = solve_ivp(leg((1, 0), (GJ, EI_W), M), (0, L), y0, **KW)
        s2 = solve_ivp(leg((0, 1), (EI_W, GJ), M), (0, L), s1.y[:, -1], **KW)
        w, thx, thy, nz, mx, my = s2.y[:, -1]
        rows.append([w, thx if "x" in hold_b else mx - c * M * thy, thy if "y" in hold_b else my + c * M * thx])
    return np.linalg.det(np.array(rows).T)


def roots(sign, c, hold_a, hold_b, hi=1300.0, n=261, count=2):
    m = np.linspace(1.0, hi, n)
    d = [det(sign * x, c, hold_a, hold_b) for x in m]
    out = [sign * brentq(lambda x: det(sign * x, c, hold_a, hold_b), m[i], m[i + 1], xtol=1e-12)
           for i in range(n - 1) if np.sign(d[i]) != np.sign(d[i + 1])]
    return out[:count]


def show(label, c, hold_a, hold_b):
    print("%-48s +M: %s   -M: %s" % (label, ["%.6f" % r for r in roots(+1, c, hold_a, hold_b)],
                                       ["%.6f" % r for r in roots(-1, c, hold_a, hold_b)]))


if __name__ == "__main__":
    print("single fork-supported leg (pi/L) sqrt(EI_w GJ) = %.6f" % (np.pi / L * np.sqrt(EI_W * GJ)))
    show("hinges about z (w, th_x, th_y held), any type", 0.5, "xy", "xy")
    show("forks (w and the twist held), any type", 0.5, "x", "y")
