#!/usr/bin/env python3
"""Continuum reference for the lateral-torsional buckling of a cantilever under a
dead tip load at the centroid (Michell 1899, Prandtl 1899; problems/ltb-cantilever.cfg).

Narrow section, in-plane deflection before buckling neglected: with the lateral
deflection eliminated, the twist phi(x) (x from the clamp) obeys
    GJ phi'' + P^2 (L - x)^2 / EI_z phi = 0,   phi(0) = 0,   phi'(L) = 0
(Timoshenko & Gere, Theory of Elastic Stability, 2nd ed. 1961, sec. 6.4). With
s = L - x and phi = sqrt(s) J_{-1/4}(gamma s^2/L^2), gamma = P L^2 / (2 sqrt(EI_z GJ)),
phi'(s=0) = 0 holds and phi(s=L) = 0 is J_{-1/4}(gamma) = 0: P_cr = 2 gamma_1
sqrt(EI_z GJ)/L^2. The dead load keeps its direction: no load stiffness, no
moment type. Computed twice: the Bessel root, and by shooting the ODE.
"""
from scipy.special import jv
from scipy.optimize import brentq
from scipy.integrate import solve_ivp

gamma1 = brentq(lambda g: jv(-0.25, g), 1.5, 2.5, xtol=1e-15)


def shoot(c):
    # s = L - x, L = 1: phi'' + c^2 s^2 phi = 0 from the free end, phi(0) = 1, phi'(0) = 0.
    sol = solve_ivp(lambda s, y: [y[1], -c * c * s * s * y[0]], [0.0, 1.0], [1.0, 0.0], rtol=1e-13, atol=1e-14)
    return sol.y[0, -1]


c_shoot = brentq(shoot, 3.0, 5.0, xtol=1e-14)
print(f"gamma_1 = {gamma1:.15f}, coefficient 2 gamma_1 = {2 * gamma1:.15f}")
print(f"shooting: coefficient = {c_shoot:.15f} (difference {c_shoot - 2 * gamma1:.1e})")
print(f"cfg (EI_z = 1, GJ = 1.6, L = 1): P_cr = {2 * gamma1 * 1.6 ** 0.5:.12f}")
