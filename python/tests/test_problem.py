"""Problems written in Python (senda.Problem) traced by Senda: the same critical
points as the C++ models and the closed forms, errors from callbacks re-raised."""
import json
import math
import re
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import senda
from conftest import BENCH_BRATU


class VonMises(senda.Problem):
    """Two Green-Lagrange bars from (±a, 0) to the apex (0, h), EA, load −λ at the apex
    in y. free = ("uy",): the apex ux held (problems/von-mises.cfg); ("ux", "uy"): free
    to sway. Bar from support s to apex x: ε = (|x − s|² − L0²)/(2 L0²), force on the
    apex (EA/L0) ε (x − s), tangent (EA/L0) [ε I + (x − s)(x − s)ᵀ/L0²]."""

    proportional = True

    def __init__(self, h, a=1.0, EA=1.0, free=("uy",)):
        super().__init__(len(free))
        self.h, self.a, self.EA = h, a, EA
        self.L0 = math.hypot(a, h)
        self.idx = [("ux", "uy").index(c) for c in free]

    def _bars(self, q):
        u = np.zeros(2)
        u[self.idx] = q
        for s in (-self.a, self.a):
            d = np.array([0.0 - s, self.h]) + u
            eps = (d @ d - self.L0**2) / (2 * self.L0**2)
            yield d, eps

    def residual(self, q, lam):
        f = np.zeros(2)
        for d, eps in self._bars(q):
            f += self.EA / self.L0 * eps * d
        f[1] += lam  # − λ r with r = (0, −1)
        return f[self.idx]

    def tangent(self, q, lam):
        K = np.zeros((2, 2))
        for d, eps in self._bars(q):
            K += self.EA / self.L0 * (eps * np.eye(2) + np.outer(d, d) / self.L0**2)
        return K[np.ix_(self.idx, self.idx)]

    def load_derivative(self, q, lam):
        return np.array([0.0, 1.0])[self.idx]


def test_python_von_mises_equals_cpp_and_closed_form():
    cpp = senda.load("problems/von-mises.cfg").run()
    options = {"explorer.path.initial_load_increment": 0.005, "explorer.path.max_step_ratio": 2.0,
               "explorer.path.max_steps": 400, "explorer.path.monitor_dof": 0,
               "explorer.path.max_displacement": 1.1}
    py = senda.trace(VonMises(0.5), options, track=[0])
    assert py.termination == "completed" and py.message == cpp.message
    assert [c.id for c in py.critical_points] == [c.id for c in cpp.critical_points] == ["LP1", "LP2"]
    h, L0 = 0.5, math.hypot(1, 0.5)
    p_max = 2 / (3 * math.sqrt(3)) * (h / L0) ** 3  # closed form (problems/von-mises.cfg)
    for c, ref in zip(py.critical_points, cpp.critical_points):
        assert c.converged and c.kind == "limit"
        # The same point as the C++ truss element's to 1e-10 (both are located to ~1e-14).
        assert abs(c.lam - ref.lam) <= 1e-10 * abs(ref.lam)
        assert np.max(np.abs(c.q - ref.q)) <= 1e-10
        assert abs(abs(c.lam) - p_max) <= 1e-10 * p_max
    w = -py.critical("LP1").q[0]
    assert abs(w - h * (1 - 1 / math.sqrt(3))) <= 1e-10
    assert py.critical("LP1").tracked == {"q0": py.critical("LP1").q[0]}


def test_python_steep_truss_bifurcation_and_branches():
    # Steep truss, apex free to sway: a symmetric bifurcation before the limit point
    # at λ_B = 2√(h² − 2)/(1 + h²)^{3/2} (docs/api.md, tests/analysis/api_analysis_test.cpp).
    h = 2.0
    lam_b = 2 * math.sqrt(h * h - 2) / (1 + h * h) ** 1.5
    r = senda.trace(VonMises(h, free=("ux", "uy")),
                    {"explorer.path.initial_load_increment": 0.02, "explorer.path.max_steps": 60,
                     "explorer.path.lambda_max": 0.5, "explorer.max_depth": 1})
    bp = r.critical("BP1")
    assert bp.converged and bp.kind == "bifurcation" and bp.system == "SPB"
    assert abs(bp.lam - lam_b) <= 1e-10 * lam_b
    assert abs(bp.q[0]) <= 1e-10  # on the symmetric path
    assert abs(bp.phi[0]) == 1.0 and abs(bp.phi[1]) <= 1e-8  # the sway mode
    assert bp.abe["valid"] and bp.abe["symmetric"]
    sway = [b for b in r.branches if b.start_point == "BP1"]
    assert len(sway) == 2 and {b.direction for b in sway} == {-1, 1}
    for b in sway:  # the sway branches leave the symmetric path: ux ≠ 0 on them
        assert b.points > 2
    assert np.all(r.path.branch[: r.branches[0].points] == 0)


class Bratu(senda.Problem):
    """g_i = 2u_i − u_{i−1} − u_{i+1} − h²λe^{u_i} (benchmarks/bratu.hpp, eq. B.1), a
    scipy.sparse tangent."""

    def __init__(self, n):
        super().__init__(n)
        self.h2 = 1.0 / (n + 1) ** 2
        self.L = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csc")

    def residual(self, u, lam):
        return self.L @ u - self.h2 * lam * np.exp(u)

    def tangent(self, u, lam):
        return (self.L - sp.diags(self.h2 * lam * np.exp(u))).tocsc()

    def load_derivative(self, u, lam):
        return -self.h2 * np.exp(u)


def fold_by_newton(p, u, lam):
    """The fold of the discrete Bratu problem, independently: Newton on
    [g; Kφ; φ_c − 1] = 0 with its exact Jacobian, sparse direct solves."""
    n, c = p.size, p.size // 2
    phi = np.sin(np.pi * np.arange(1, n + 1) / (n + 1))
    phi /= phi[c]
    for _ in range(30):
        e = np.exp(u)
        K = p.tangent(u, lam)
        F = np.concatenate([p.residual(u, lam), K @ phi, [phi[c] - 1.0]])
        if np.linalg.norm(F) < 1e-15:
            break
        ec = sp.csr_matrix(([1.0], ([0], [c])), shape=(1, n))
        J = sp.bmat([[K, sp.csr_matrix(-p.h2 * e[:, None]), None],
                     [sp.diags(-p.h2 * lam * e * phi), sp.csr_matrix(-p.h2 * (e * phi)[:, None]), K],
                     [None, None, ec]], format="csc")
        d = spla.spsolve(J, -F)
        u, lam, phi = u + d[:n], lam + d[n], phi + d[n + 1:]
    return u, lam, np.linalg.norm(F)


BRATU_OPTIONS = {"explorer.path.constraint": senda.Constraint.PSEUDO_ARCLENGTH,
                 "explorer.path.initial_load_increment": 0.1, "explorer.path.max_step_ratio": 30.0,
                 "explorer.path.max_steps": 200, "explorer.path.max_displacement": 2.0}


@pytest.fixture(scope="module")
def bratu1000():
    p = Bratu(1000)
    options = dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": 500})
    return p, senda.trace(p, options, track=[500])


def test_python_bratu_fold_equals_independent_newton(bratu1000):
    p, r = bratu1000
    assert r.termination == "completed"  # |u_c| > 2: past the fold, on the upper branch
    assert [c.id for c in r.critical_points] == ["LP1"]
    lp = r.critical("LP1")
    assert lp.converged and lp.kind == "limit" and lp.system == "SPL"
    u, lam, res = fold_by_newton(p, lp.q * 0.9, lp.lam * 0.99)
    assert res < 1e-13
    assert abs(lp.lam - lam) <= 1e-10 * lam
    assert np.max(np.abs(lp.q - u)) <= 1e-10 * np.max(np.abs(u))
    # The continuum fold 3.51383071912 is within O(h²) of the discrete one.
    assert abs(lp.lam - 3.51383071912) < 1e-5
    # The mode is the fold's null vector: K φ = 0.
    assert np.linalg.norm(p.tangent(lp.q, lp.lam) @ lp.phi) <= 1e-10 * np.linalg.norm(lp.phi)


@pytest.mark.skipif(BENCH_BRATU is None, reason="bench_bratu not built (SENDA_BUILD_BENCHMARKS=OFF)")
def test_python_bratu_fold_equals_cpp_bratu(bratu1000):
    _, r = bratu1000
    out = subprocess.run([str(BENCH_BRATU), "--n", "1000"], capture_output=True, text=True, timeout=120, check=True)
    cpp = json.loads(out.stdout)[0]["critical_points"]
    assert len(cpp) == 1
    assert abs(r.critical("LP1").lam - cpp[0]["lambda"]) <= 1e-10 * cpp[0]["lambda"]


def test_exception_in_residual_propagates():
    class Broken(VonMises):
        calls = 0

        def residual(self, q, lam):
            Broken.calls += 1
            if Broken.calls == 25:
                raise ZeroDivisionError("residual blew up at call 25")
            return super().residual(q, lam)

    with pytest.raises(ZeroDivisionError, match="residual blew up at call 25"):
        senda.trace(Broken(0.5), {"explorer.path.initial_load_increment": 0.005})
    assert Broken.calls == 25  # nothing called after the error


def test_exception_in_tangent_and_bad_returns():
    class BadTangent(VonMises):
        def tangent(self, q, lam):
            if lam > 0.01:
                raise LookupError("no tangent here")
            return super().tangent(q, lam)

    with pytest.raises(LookupError, match="no tangent here"):
        senda.trace(BadTangent(0.5))

    class WrongSize(VonMises):
        def residual(self, q, lam):
            return np.zeros(3)

    with pytest.raises(ValueError, match=r"residual\(\) returned 3 values, expected 1"):
        senda.trace(WrongSize(0.5))

    class OutsidePattern(Bratu):
        def tangent(self, u, lam):
            K = super().tangent(u, lam).tolil()
            if lam > 0:
                K[0, 5] = K[5, 0] = 1.0
            return K

    with pytest.raises(ValueError, match=r"entry \(5, 0\) is outside the sparsity pattern"):
        senda.trace(OutsidePattern(10))


def test_keyboard_interrupt_in_a_callback_keeps_the_points():
    class CtrlC(Bratu):
        calls = 0

        def residual(self, u, lam):
            CtrlC.calls += 1
            if CtrlC.calls == 40:
                raise KeyboardInterrupt
            return super().residual(u, lam)

    options = dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": 10})
    r = senda.trace(CtrlC(20), options)
    assert r.termination == "interrupted" and "KeyboardInterrupt" in r.message
    assert len(r.path) >= 2 and r.path.lam[0] == 0.0
    full = senda.trace(Bratu(20), options)
    assert list(r.path.lam) == list(full.path.lam[: len(r.path)])


def test_options_are_checked():
    with pytest.raises(ValueError, match="initial_load_increment"):
        senda.trace(VonMises(0.5), {"explorer.path.initial_load_increment": -1.0})
    with pytest.raises(ValueError, match="option 'explorer.path.max_stepz': explorer.path has no field 'max_stepz'"):
        senda.trace(VonMises(0.5), {"explorer.path.max_stepz": 3})
    # A value of the wrong type names the option and what it must be (it was pybind11's
    # "incompatible function arguments" without the option's name).
    with pytest.raises(TypeError, match="option 'explorer.path.max_steps': 'abc' is not an int"):
        senda.trace(VonMises(0.5), {"explorer.path.max_steps": "abc"})
    with pytest.raises(TypeError, match="option 'explorer.path.max_steps': 2.5 is not an int"):
        senda.trace(VonMises(0.5), {"explorer.path.max_steps": 2.5})
    with pytest.raises(TypeError, match="option 'explorer.switch_branches': 'yes' is not a bool"):
        senda.trace(VonMises(0.5), {"explorer.switch_branches": "yes"})
    with pytest.raises(TypeError, match=r"'explorer.path.constraint': 'foo' is not a Constraint \(one of senda.Constraint.SPHERICAL"):
        senda.trace(VonMises(0.5), {"explorer.path.constraint": "foo"})
    o = senda.AnalysisOptions()
    o.explorer.path.max_steps = 5
    r = senda.trace(VonMises(0.5), o, track=[0])
    assert r.termination == "max-steps" and len(r.path) == 6
    assert o.track == []  # the caller's options are not changed by track=


def test_unknowns_named_by_the_options_are_the_problems():
    # track, monitor_dof and control_dof name unknowns: one outside [0, n) is refused
    # (it gave a column of zeros, or read past q), and so is a track that is not a
    # sequence of integers ("25" is not [2, 5], 1.5 is not 1).
    p = Bratu(50)
    opts = dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": 25})
    for track in ([50], [-1], [1000000], [3, 50]):
        with pytest.raises(ValueError, match=r"track\[\d\] = -?\d+: not an unknown of the problem \(valid: \[0, 50\)"):
            senda.trace(p, opts, track=track)
    for track in ("25", b"25", 25):
        with pytest.raises(TypeError, match="track: expected a sequence of unknown indices"):
            senda.trace(p, opts, track=track)
    for track in ([1.5], [True], [np.float64(2.0)]):
        with pytest.raises(TypeError, match=r"track\[0\]: an unknown index is an integer"):
            senda.trace(p, opts, track=track)
    assert senda.trace(p, dict(opts, **{"explorer.path.max_steps": 3}),
                       track=np.array([0, 49])).path.columns == ["q0", "q49"]
    with pytest.raises(ValueError, match=r"track\[1\] = 3: given twice"):
        senda.trace(p, opts, track=[3, 3])
    # The same through the options (AnalysisOptions.track): the library's check.
    o = senda.AnalysisOptions()
    o.track = [50]
    with pytest.raises(ValueError, match=r"analysis options: track\[0\] = 50: not an unknown of the problem"):
        senda.trace(p, o)
    for dof in (50, 500, -2):
        with pytest.raises(ValueError, match=r"explorer.path.monitor_dof"):
            senda.trace(p, dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": dof}))
    # -1 is "no monitor": then a finite bound would bound nothing.
    with pytest.raises(ValueError, match=r"explorer.path.max_displacement = 2 bounds no unknown"):
        senda.trace(p, dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": -1}))
    with pytest.raises(ValueError, match=r"explorer.path.control_dof = 50: not an unknown of the problem"):
        senda.trace(p, {"explorer.path.constraint": senda.Constraint.DISPLACEMENT_CONTROL,
                        "explorer.path.control_dof": 50})
    for bound in (float("nan"), 0.0, -1.0):
        with pytest.raises(ValueError, match=r"explorer.path.max_displacement must be > 0"):
            senda.trace(p, dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": 25,
                                                  "explorer.path.max_displacement": bound}))


def test_a_callback_returning_none_is_named():
    class NoReturn(Bratu):
        def residual(self, u, lam):
            super().residual(u, lam)  # the return forgotten

    with pytest.raises(TypeError, match=r"residual\(\) returned None, expected an array of 10 numbers"):
        senda.trace(NoReturn(10))

    class NoTangent(Bratu):
        def tangent(self, u, lam):
            return None

    with pytest.raises(TypeError, match=r"tangent\(\) returned None"):
        senda.trace(NoTangent(10))


def test_progress_stops_on_any_false_value():
    # None or a true value goes on; False, numpy.False_, 0 stop the run (docs/python.md).
    opts = dict(BRATU_OPTIONS, **{"explorer.path.monitor_dof": 5})
    for answer in (False, np.False_, 0, 0.0):
        r = senda.trace(Bratu(10), opts, progress=lambda p, a=answer: a if p["index"] == 3 else None)
        assert r.termination == "interrupted", answer
        assert len(r.path) == 4
    for answer in (None, True, np.True_, 1):
        r = senda.trace(Bratu(10), dict(opts, **{"explorer.path.max_steps": 6}), progress=lambda p, a=answer: a)
        assert r.termination == "max-steps", answer

    def ambiguous(p):
        return np.array([True, False])  # no truth value: the callback's error

    with pytest.raises(ValueError, match="truth value"):
        senda.trace(Bratu(10), opts, progress=ambiguous)
    with pytest.raises(TypeError, match="states: expected True or False, found 'no'"):
        senda.trace(Bratu(10), opts, states="no")


def test_size_must_be_an_integral_number_of_unknowns():
    # size was cast by pybind11 ("Unable to cast Python instance to C++ type", a
    # RuntimeError) and super().__init__(2.5) truncated it to 2 without a word.
    class Sized(VonMises):
        def __init__(self, size):
            super().__init__(0.5)
            self.size = size  # set after the constructor, as a subclass may

    for bad in (2.5, "1", np.float64(1.0), True, np.True_, None, [1]):
        with pytest.raises(TypeError, match=rf"size: the number of unknowns must be an integer, found "
                                            rf"{re.escape(repr(bad))} \({type(bad).__name__}\)"):
            senda.trace(Sized(bad))
        if bad is not None:  # Problem(None): no size given, the subclass sets it
            with pytest.raises(TypeError, match=r"size: the number of unknowns must be an integer"):
                senda.Problem(bad)
    for bad in (0, -1, 10**20, 2**31, np.int64(2**40)):
        with pytest.raises(ValueError, match=rf"size: {int(bad)} is not a number of unknowns \(valid: an integer in "
                                             rf"\[1, 2147483647\]"):
            senda.trace(Sized(bad))
        with pytest.raises(ValueError, match=rf"size: {int(bad)} is not a number of unknowns"):
            senda.Problem(bad)
    assert senda.Problem().size == 0  # no size given: the subclass sets it
    assert senda.Problem(np.int32(3)).size == 3 and type(senda.Problem(np.int64(3)).size) is int

    assert senda.trace(Sized(np.int64(1)), {"explorer.path.max_steps": 3}).termination == "max-steps"


class Quartic(senda.Problem):
    """V = q0²/2 + 2 q0 q1 + 5/2 q1² − q0⁴/4 − λ q0: g = ∇V = [q0 + 2 q1 − q0³ − λ,
    2 q0 + 5 q1], K = ∇²V = [[1 − 3 q0², 2], [2, 5]], positive definite at q = 0
    (det 1). On the path q1 = −2 q0/5 and λ = q0/5 − q0³: a limit point where
    dλ/dq0 = 1/5 − 3 q0² = 0, q0 = 1/√15, λ = 2 q0/15."""

    size = 2
    proportional = True

    def residual(self, q, lam):
        return np.array([q[0] + 2 * q[1] - q[0] ** 3 - lam, 2 * q[0] + 5 * q[1]])

    def tangent(self, q, lam):
        return sp.csc_matrix(np.array([[1 - 3 * q[0] ** 2, 2.0], [2.0, 5.0]]))


QUARTIC_OPTIONS = {"explorer.path.initial_load_increment": 0.01, "explorer.path.max_steps": 60,
                   "explorer.switch_branches": False}


def test_tangent_must_be_symmetric():
    q0 = 1 / math.sqrt(15)
    lam_lp = q0 / 5 - q0**3  # = 2/(15 √15) = 0.0344265186...
    r = senda.trace(Quartic(), QUARTIC_OPTIONS)
    lp = r.critical("LP1")
    # Located to critical.tolerance = 1e-10 (relative), the default.
    assert lp.converged and lp.kind == "limit" and abs(lp.lam - lam_lp) <= 1e-10 * lam_lp
    assert abs(lp.q[0] - q0) <= 1e-8 and abs(lp.q[1] + 2 * q0 / 5) <= 1e-8

    # One triangle only (the factorization reads the lower one): triu ended
    # step-too-small with no critical point, tril and [[1, 0], [3, 1]] were read as
    # the symmetric matrices of their lower triangles. Each is refused at its first call.
    class Upper(Quartic):
        def tangent(self, q, lam):
            return sp.triu(super().tangent(q, lam), format="csr")

    class Lower(Quartic):
        def tangent(self, q, lam):
            return np.tril(super().tangent(q, lam).toarray())

    class NotSymmetric(Quartic):
        def residual(self, q, lam):
            return np.array([q[0] - lam, 3 * q[0] + q[1]])

        def tangent(self, q, lam):
            return np.array([[1.0, 0.0], [3.0, 1.0]])

    for problem, kij, kji in ((Upper(), "0", "2"), (Lower(), "2", "0"), (NotSymmetric(), "3", "0")):
        with pytest.raises(ValueError, match=rf"tangent\(\): K is not symmetric: entry \(1, 0\): K\[1, 0\] = {kij} but "
                                             rf"K\[0, 1\] = {kji} .*return both triangles"):
            senda.trace(problem, QUARTIC_OPTIONS)

    # Relative to each pair's scale, not to max |K|: one stiff unknown does not hide a
    # missing triangle among the others (with a 1e-10 max |K| test, K_00 = 1e12 let
    # [[1, 0], [3, 1]] in rows 1-2 through, read as [[1, 3], [3, 1]]).
    class StiffThenNotSymmetric(senda.Problem):
        size = 3

        def residual(self, q, lam):
            return np.array([1e12 * q[0], q[1] - lam, 3 * q[1] + q[2]])

        def tangent(self, q, lam):
            return np.array([[1e12, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 3.0, 1.0]])

    with pytest.raises(ValueError, match=r"K is not symmetric: entry \(2, 1\): K\[2, 1\] = 3 but K\[1, 2\] = 0"):
        senda.trace(StiffThenNotSymmetric(), QUARTIC_OPTIONS)

    # Every call is checked, not only the first: an asymmetric term that vanishes at q = 0.
    class LaterAsymmetric(Quartic):
        calls = 0

        def tangent(self, q, lam):
            LaterAsymmetric.calls += 1
            K = super().tangent(q, lam).toarray()
            K[0, 1] += q[0]
            return K

    with pytest.raises(ValueError, match=r"K is not symmetric: entry \(1, 0\)"):
        senda.trace(LaterAsymmetric(), QUARTIC_OPTIONS)
    assert LaterAsymmetric.calls > 1

    # Rounding-size differences are not asymmetries (1e-13 relative: below 1e-10 of the pair's scale),
    # and the run is that of the symmetric tangent.
    class Rounded(Quartic):
        def tangent(self, q, lam):
            K = super().tangent(q, lam).toarray()
            K[1, 0] *= 1 + 1e-13
            return K

    assert abs(senda.trace(Rounded(), QUARTIC_OPTIONS).critical("LP1").lam - lam_lp) <= 1e-10 * lam_lp


def test_pattern_is_made_symmetric_with_the_diagonal():
    # An empty pattern() failed in CHOLMOD's analysis (a RuntimeError): the diagonal is
    # always part of the pattern, so a one-unknown problem runs with it...
    class EmptyPattern(VonMises):
        def pattern(self):
            return sp.csc_matrix((1, 1))

    r = senda.trace(EmptyPattern(0.5), {"explorer.path.initial_load_increment": 0.005, "explorer.path.max_steps": 100})
    h, L0 = 0.5, math.hypot(1, 0.5)
    p_max = 2 / (3 * math.sqrt(3)) * (h / L0) ** 3
    assert abs(r.critical("LP1").lam - p_max) <= 1e-10 * p_max

    # ... and a coupling outside it is named at the first tangent, before any factorization.
    class EmptyPattern2(Quartic):
        def pattern(self):
            return sp.csc_matrix((2, 2))

    with pytest.raises(ValueError, match=r"tangent\(\): entry \(1, 0\) is outside the sparsity pattern"):
        senda.trace(EmptyPattern2(), QUARTIC_OPTIONS)

    # A pattern of one triangle stands for both (K is symmetric).
    class UpperPattern(Quartic):
        def pattern(self):
            return sp.csc_matrix(np.array([[1.0, 1.0], [0.0, 1.0]]))

    q0 = 1 / math.sqrt(15)
    assert abs(senda.trace(UpperPattern(), QUARTIC_OPTIONS).critical("LP1").lam - 2 * q0 / 15) <= 1e-10 * 2 * q0 / 15


def test_lambda_bounds_must_hold_the_start():
    # The path stops where lambda crosses a bound: a bound on the wrong side of the
    # start (lambda = 0) was never crossed and the path ran past it. trace refuses
    # the same .cfg (stop.lambda_max = -1: "the trace starts at lambda = 0, above lambda_max").
    with pytest.raises(ValueError, match=r"analysis options: explorer.path.lambda_max must be >= the start's lambda: "
                                         r"the trace starts at lambda = 0, above lambda_max = -1"):
        senda.trace(VonMises(0.5), {"explorer.path.lambda_max": -1.0})
    with pytest.raises(ValueError, match=r"explorer.path.lambda_min must be <= the start's lambda: the trace starts "
                                         r"at lambda = 0, below lambda_min = 0.01"):
        senda.trace(VonMises(0.5), {"explorer.path.lambda_min": 0.01})
    # A bound at the start itself is a bound: the start is within [lambda_min, lambda_max].
    r = senda.trace(VonMises(0.5), {"explorer.path.initial_load_increment": 0.005, "explorer.path.lambda_min": 0.0,
                                    "explorer.path.lambda_max": 0.01})
    assert r.termination == "completed" and r.path.lam.max() < 0.02


def test_complex_values_are_refused():
    # numpy casts complex to float with a ComplexWarning only, and the run went on with
    # the real parts: a residual or tangent with complex values is a TypeError.
    class ComplexResidual(Quartic):
        def residual(self, q, lam):
            return super().residual(q, lam) + 0j

    class ComplexTangent(Quartic):
        def tangent(self, q, lam):
            return super().tangent(q, lam).astype(complex)

    class ComplexDenseTangent(Quartic):
        def tangent(self, q, lam):
            return super().tangent(q, lam).toarray() + 1e-3j

    for problem, what in ((ComplexResidual(), "residual"), (ComplexTangent(), "tangent"),
                          (ComplexDenseTangent(), "tangent")):
        with pytest.raises(TypeError, match=rf"{what}\(\) returned complex numbers"):
            senda.trace(problem, QUARTIC_OPTIONS)


class NanBeyond(senda.Problem):
    """g = (q0 + q0³/3 − λ, 2 q1), not a number for λ > 0.5 (a callback that fails in
    part of its domain); dg/dλ by differences."""

    def __init__(self):
        super().__init__(2)

    def residual(self, q, lam):
        g = np.array([q[0] + q[0] ** 3 / 3 - lam, 2 * q[1]])
        if lam > 0.5:
            g[0] = np.nan
        return g

    def tangent(self, q, lam):
        return np.array([[1 + q[0] ** 2, 0.0], [0.0, 2.0]])


def test_a_residual_not_finite_mid_path_is_said_as_such():
    # The step across lambda = 0.5 failed as "constraint has no real solution (complex
    # roots)": the difference for dg/dlambda reached the NaN while g at the iterate was
    # finite. The run ends there, saying what was not finite and where.
    r = senda.trace(NanBeyond(), {"explorer.path.max_steps": 20, "explorer.path.lambda_max": 2.0})
    assert r.termination == "step-too-small"
    assert "not finite at lambda = 0.5" in r.message, r.message
    assert "complex roots" not in r.message
    assert max(r.path.lam) <= 0.5
