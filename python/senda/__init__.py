"""Senda from Python: path following and bifurcation analysis (docs/python.md).

Three ways in:

* ``senda.load(path, overrides)`` reads a ``.cfg`` file exactly as the ``trace``
  command does; ``run()`` on the model returns a :class:`Result` in memory and,
  with ``out=``, writes the usual results directory.
* ``senda.build(nodes=..., trusses=..., beams=..., fix=..., loads=..., options=...)``
  makes the same :class:`Model` from Python lists or numpy arrays, without a file.
* Subclass :class:`Problem` with ``residual(q, lam)`` and ``tangent(q, lam)``
  and give it to :func:`trace`: Senda's arc-length path follower, critical-point
  location (SPL/SPB) and branch switching run on it.

Errors in the input raise :class:`ConfigError` (a ``ValueError``) whose text is
the one ``trace`` prints after ``trace: ``. Numerical outcomes (no convergence,
step too small) are statuses in the result (``Result.termination``), never
exceptions. Ctrl-C stops a run, keeping what was computed (termination
``"interrupted"``).
"""

from __future__ import annotations

import copy
import math
import numbers
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from . import _blas

# Before numpy or _core loads OpenBLAS, which reads OPENBLAS_CORETYPE only then.
_blas.select()

import numpy as np  # noqa: E402

from . import _core  # noqa: E402
from ._core import (  # noqa: E402, F401  (re-exported)
    AnalysisOptions,
    Constraint,
    DetectTest,
    ExplorerOptions,
    FinderOptions,
    LocateOptions,
    PathOptions,
)

BlasKernelWarning = _blas.BlasKernelWarning
BlasKernelWarning.__module__ = "senda"

__all__ = [
    "load", "build", "trace", "Problem", "Model", "Result", "Path", "CriticalPoint", "Branch", "Curve",
    "ConfigError", "OutputError", "DirectoryRefused", "BlasKernelWarning", "AnalysisOptions", "ExplorerOptions",
    "PathOptions", "FinderOptions", "LocateOptions", "Constraint", "DetectTest",
]

ConfigError = _core.ConfigError
ConfigError.__doc__ = """Bad input: a .cfg file, an override, a missing file.

str(e) is the message ``trace`` prints (after ``trace: ``): ``FILE:LINE: key 'K':
what is wrong (valid: ...)``. Attributes ``file``, ``line`` (0: none) and ``key``."""
OutputError = _core.OutputError
OutputError.__doc__ = "Writing the results directory failed (an OSError)."
DirectoryRefused = _core.DirectoryRefused
for _e in (ConfigError, OutputError, _core.DirectoryRefused):
    _e.__module__ = "senda"
DirectoryRefused.__doc__ = ("The results directory cannot be used: it exists and overwrite is False, or it is "
                            "a file (an OutputError, raised before anything is computed).")


# ---------------------------------------------------------------------------
# Results

@dataclass(frozen=True)
class Path:
    """Every converged point of every branch, in the order they were computed.

    One entry per point; the start point (λ = 0) is the first. Arrays:

    branch           branch id (0 = primary path)
    index            point number on its branch (0 = its start point)
    lam              load factor λ
    tracked          (points, k) array: the tracked displacements, columns named by ``columns``
    columns          names of the tracked columns ("u_3_ux", ...; "q0", ... for a Python problem)
    iterations       Newton iterations of the step
    residual         ‖g‖ at the point
    step_length      arc length Δs of the step
    det_sign         sign of det K (0: undetermined, at the first point of a secondary branch)
    negative_pivots  negative pivots of the LDLᵀ of K (its number of negative eigenvalues);
                     −1: undetermined, at the first point of a secondary branch (a
                     bifurcation point: empty in path.csv)
    bordered_sign    sign of the bordered determinant (docs/theory.md eq. 3.2)
    q                (points, n) array of the whole states, or None (``run(states=False)``)
    branch_ids       the ids of the run's branches, those with no point too (a branch whose
                     first step failed)
    """

    branch: np.ndarray
    index: np.ndarray
    lam: np.ndarray
    tracked: np.ndarray
    columns: list
    iterations: np.ndarray
    residual: np.ndarray
    step_length: np.ndarray
    det_sign: np.ndarray
    negative_pivots: np.ndarray
    bordered_sign: np.ndarray
    q: Optional[np.ndarray]
    branch_ids: tuple = ()

    def __len__(self) -> int:
        return len(self.lam)

    def column(self, name: str) -> np.ndarray:
        """The tracked displacement ``name`` (one of ``columns``) at every point."""
        try:
            return self.tracked[:, self.columns.index(name)]
        except ValueError:
            raise KeyError(f"no tracked column {name!r} (columns: {', '.join(self.columns)})") from None

    def on_branch(self, branch: int) -> "Path":
        """The points of one branch only (empty for a branch of the run with no point);
        ValueError for an id that is no branch of the run (the message lists them)."""
        if isinstance(branch, (bool, np.bool_)) or not isinstance(branch, numbers.Integral):
            raise TypeError(f"on_branch: a branch id is an integer, found {branch!r}")
        m = self.branch == branch
        if not m.any() and branch not in self.branch_ids:
            known = sorted(set(self.branch_ids) | set(int(b) for b in np.unique(self.branch)))
            ids = ", ".join(str(b) for b in known) or "none"
            raise ValueError(f"on_branch: {branch} is no branch of this run (branches: {ids})")
        return Path(**{k: (v[m] if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()})


@dataclass(frozen=True)
class CriticalPoint:
    """A critical point: located with SPL/SPB (converged) or only bracketed.

    id, kind         "LP1"/"BP1"/"MP1"; "limit", "bifurcation" or "multiple"
    converged        located to the tolerance (message says how, or why not)
    system           "SPL" or "SPB", the augmented system that converged
    lam, q, phi      λ, the state and the null vector φ of K (φ_pivot = 1), numpy arrays;
                     None when not converged (the last Newton iterate means nothing:
                     ``bracket`` says where the point is)
    tracked          {column: value} of the tracked displacements at the point (None
                     when not converged)
    residual, newton_iterations, residual_history   the location's Newton
    phi_dot_r        |φᵀr| / (‖φ‖ r_s), small at a bifurcation point
    floor_lambda_spread  None: located to critical.tolerance; a float: accepted at the
                     residual's round-off floor, λ's relative spread over the last
                     iterates, or how far one more (check) update moved λ when that
                     is more than the tolerance (what λ holds to, up to √tol)
    gamma            SPB unfolding parameter at the solution (≈ 0)
    bracket          {"branch", "point_before", "point_after", "lambda_before", "lambda_after", "start_point"}
    abe              the algebraic bifurcation equation of a bifurcation point, or None:
                     {"A", "B1", "B2", "C", "symmetric", "valid", "message",
                      "tangents": [(q array, λ̇), (q array, λ̇)], "tangents_tracked", "incoming", ...}
    branches         ids of the branches it was found on (the first located it)
    sensitivities    [{"parameter", "value", "valid", "dlambda_dmu", "dlambda_dmu_error", "phi_dot_dg_dmu", "message"}]
    """

    id: str
    kind: str
    converged: bool
    message: str
    system: str
    lam: Optional[float]
    q: Optional[np.ndarray]
    phi: Optional[np.ndarray]
    tracked: Optional[dict]
    gamma: float
    residual: float
    newton_iterations: int
    residual_history: np.ndarray
    phi_dot_r: float
    floor_lambda_spread: Optional[float]
    evidence: str
    bracket: dict
    negative_pivots_change: int
    multiplicity: int
    factorizations: int
    pivot: int
    penalty: float
    branches: list
    switched: bool
    abe: Optional[dict]
    sensitivities: list

    def __repr__(self) -> str:
        state = "converged" if self.converged else "not located"
        return f"CriticalPoint({self.id}, {self.kind}, lam={self.lam!r}, {state})"


@dataclass(frozen=True)
class Branch:
    """A traced branch: id (0 = primary), parent, depth, start_point (a BP id, "" for
    the primary), direction, points (its start point included, as in summary.json),
    termination ("completed", "max-steps",
    "step-too-small", "diverged", "interrupted", "stalled", "rejoined", "jumped",
    "not-traced"), message, end_point (the point where it rejoined another branch, or
    where a branch that jumped onto the path it left met that path), neutral (its neutral
    stretches, where λ is constant and every point critical: dicts of first_point,
    last_point, lambda, lambda_spread, arc_length, crossings, lambda_left, located;
    see docs/theory.md §5), metric ("path": the primary path's scaling; "own": the
    branch's own, the structure's size and the critical load, docs/theory.md §5)."""

    id: int
    parent: int
    depth: int
    start_point: str
    direction: int
    points: int
    termination: str
    message: str
    end_point: str
    neutral: list
    metric: str


@dataclass(frozen=True)
class Curve:
    """A curve λ_cr(μ) of a critical point ([design] follow): point, parameter,
    direction (+1/−1 in μ at the start), followed, termination, message, arrays
    mu and lam, kind of each point, events (turns in μ, coincidences)."""

    point: str
    parameter: str
    direction: int
    followed: bool
    termination: str
    message: str
    mu: np.ndarray
    lam: np.ndarray
    kind: list
    events: list


@dataclass(frozen=True)
class Result:
    """What a run computed (the content of summary.json, and the path).

    termination   "completed", "max-steps", "step-too-small", "diverged" or "interrupted"
    message       why it ended
    points        converged points of every branch, the start points included
    unknowns      n
    lambda_max, lambda_min   over the points
    path          :class:`Path`, every point as numpy arrays
    critical_points   [:class:`CriticalPoint`] in the order they were found
    branches      [:class:`Branch`], the primary path first
    crossings     [dict]: every step where det K, the inertia or the bordered sign changed
    curves        [:class:`Curve`] (design studies)
    stats         {"newton_iterations", "failed_steps", "factorizations", "wall_time_s", ...}
    """

    termination: str
    message: str
    points: int
    unknowns: int
    lambda_max: float
    lambda_min: float
    path: Path
    critical_points: list
    branches: list
    crossings: list
    curves: list
    stats: dict

    @property
    def interrupted(self) -> bool:
        """True when Ctrl-C (or a progress callback returning a false value) stopped the run."""
        return self.termination == "interrupted"

    def critical(self, id: str) -> CriticalPoint:
        """The critical point with this id ("LP1", "BP1", ...); KeyError when there is none."""
        for c in self.critical_points:
            if c.id == id:
                return c
        raise KeyError(f"no critical point {id!r} (found: {', '.join(c.id for c in self.critical_points) or 'none'})")

    def brief_report(self) -> str:
        """One line: points, termination, the critical points and their λ."""
        cps = ", ".join((f"{c.id} {c.kind} at lambda = {c.lam:.10g}" if c.converged else
                         f"{c.id} {c.kind} not located, lambda in [{c.bracket['lambda_before']:.10g}, "
                         f"{c.bracket['lambda_after']:.10g}]")
                        for c in self.critical_points)
        return f"{self.points} points, {self.termination}: {self.message}" + (f"; {cps}" if cps else "")


def _result(d: dict) -> Result:
    d = dict(d)
    d["path"] = Path(**d["path"], branch_ids=tuple(b["id"] for b in d["branches"]))
    d["critical_points"] = [CriticalPoint(**c) for c in d["critical_points"]]
    d["branches"] = [Branch(**b) for b in d["branches"]]
    d["curves"] = [Curve(**c) for c in d["curves"]]
    return Result(**d)


# ---------------------------------------------------------------------------
# Models from .cfg files

def _override_text(key: str, value: Any) -> list:
    if isinstance(value, (bool, np.bool_)):
        return [f"{key}={'true' if value else 'false'}"]
    if isinstance(value, (list, tuple)):  # a repeatable key: one override per value
        # A scalar key takes one value: a list would leave only its last (an unknown
        # key is left to the reader, which names it).
        if _core.repeatable(key) is False:
            e = ConfigError(f"<command line>: key '{key}': a list of {len(value)} value(s) for a key that is not "
                            f"repeatable (valid: one value)")
            e.file, e.line, e.key = "<command line>", 0, key
            raise e
        return [t for v in value for t in _override_text(key, v)]
    if isinstance(value, float):
        return [f"{key}={value!r}"]  # shortest text that reads back as the same double
    return [f"{key}={value}"]


def _flag(value: Any, name: str) -> bool:
    """A True/False argument: a bool (or numpy.bool_), nothing else ("no" is true in Python)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected True or False, found {value!r}")
    return bool(value)


class Model:
    """A structure read from a .cfg file (returned by :func:`load`) or built from
    Python data (returned by :func:`build`).

    Attributes: name, title, description, config_file (``"<senda.build>"`` for a
    built model), unknowns (n), track_columns (the tracked displacements),
    design_parameters, options (a copy of the ExplorerOptions the file set),
    notes (the keys set that a run does not use, "FILE:LINE: KEY has no effect:
    ...", as ``trace`` prints them), model_notes (what the model itself may get
    wrong: members of one Simo-Reissner element, "FILE:LINE: model.beam: ...");
    :func:`load` and :func:`build` also give each as a UserWarning,
    config_text (a built model: the .cfg text it was read from, without its
    options; None for a loaded file)."""

    def __init__(self, core: "_core.LoadedModel", config_text: Optional[str] = None):
        self._core = core
        self.config_text = config_text

    def __getattr__(self, name: str):
        return getattr(self._core, name)

    def __repr__(self) -> str:
        if self.config_text is not None:
            return f"senda.Model(<built> {self._core.name!r}, {self._core.unknowns} unknowns)"
        return f"senda.Model({self._core.config_file!r}, {self._core.unknowns} unknowns)"

    def run(self, out: Optional[os.PathLike | str] = None, progress: Optional[Callable[[dict], Any]] = None,
            overwrite: bool = False, states: bool = False) -> Result:
        """Traces the paths, locates the critical points, follows the branches and runs
        the design studies of the file, as ``trace`` does; returns a :class:`Result`.

        out        None (nothing written), or the results directory to write, exactly
                   as ``trace FILE --out DIR`` writes it: path.csv, summary.json,
                   modes/, states/ (and vtk/, drawings/ when the file asks for them;
                   the gnuplot figures of ``--plot`` are not rendered).
        progress   None, or a callable called with a dict after every converged point:
                   {"branch", "index", "lam", "tracked": {column: value},
                   "iterations", "residual", "step_length", "det_sign",
                   "negative_pivots"}. Returning None (no return) or a true value goes
                   on; returning a false value (False, numpy.False_, 0, "") stops the
                   run (as Ctrl-C does); an exception it raises (its truth test
                   included) ends the run and is re-raised.
        overwrite  with out: reuse an existing results directory (Senda's own files
                   in it are removed first), as ``--overwrite``; without it an existing
                   directory raises :class:`DirectoryRefused` before anything is computed.
        states     True: keep the whole state q of every point (``Result.path.q``).
        overwrite and states must be bools (TypeError otherwise).

        Ctrl-C (KeyboardInterrupt) during the run stops it at the next step: the
        result (termination "interrupted") and the files keep what was computed.
        Raises OutputError when writing fails."""
        overwrite, states = _flag(overwrite, "overwrite"), _flag(states, "states")
        return _result(self._core.run(None if out is None else os.fspath(out), overwrite, progress, states))



def _mapping(value, name: str) -> Mapping:
    """`value` as the {"section.key": value} mapping an argument `name` takes (None:
    empty; an object with ``items()`` that is not a ``Mapping``, a pandas Series of
    values by key, as ``dict(value.items())``). A list of pairs was an AttributeError
    ("'list' object has no attribute 'items'") from inside the module."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        # Mapping-like without the ABC (a pandas Series of values by key): its items.
        items = getattr(value, "items", None)
        if callable(items):
            return dict(items())
        raise TypeError(f"{name} must be a mapping {{\"section.key\": value}}, not {type(value).__name__} "
                        f"(a list of pairs: dict(...) of it)")
    return value

def load(path: os.PathLike | str, overrides: Optional[Mapping[str, Any]] = None) -> Model:
    """Reads and builds the structure of a .cfg file, as ``trace`` does (docs/config.md).

    path       the .cfg file; messages name it as given.
    overrides  {"section.key": value} applied after the file in order, as the
               command line's ``section.key=value`` arguments: a scalar key's value
               replaces the file's, a repeatable key's is added (a list gives several).
               Values: int, float (written with repr, so the double is the same),
               bool (true/false) or str (as on the command line: "3 uy 1.1").

    Returns a :class:`Model`; ``model.run()`` traces it. A key the run does not use
    (``design.step`` without ``design.follow``, say) is a UserWarning with the note
    ``trace`` prints (``model.notes`` keeps them).
    Raises :class:`ConfigError` (a ValueError) for a missing or bad file, an unknown
    key, a malformed value or a structure that is a mechanism, with the message
    ``trace`` prints (after ``trace: ``)."""
    texts = []
    for k, v in _mapping(overrides, "overrides").items():
        texts += _override_text(str(k), v)
    model = Model(_core.load(os.fspath(path), texts))
    for note in model.model_notes + model.notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return model


# ---------------------------------------------------------------------------
# Models built from Python data
#
# build() writes its arguments as the records of a .cfg [model] section and has
# the library read and build that text (input::Config::parse, input::build,
# input::check_mechanism) and apply the options as overrides: every check, default
# and message is the one of a file. Only the location is translated: an error at
# line N of the text names the argument row that wrote line N ("trusses[1]").

_BUILD_FILE = "<senda.build>"
_NAME = re.compile(r"[A-Za-z0-9_.+\-]+")  # a text field: a component, "all", "ground", a strain
# Keys the arguments of build() write; refused in its options.
_BUILD_KEYS = {"model.node": "nodes", "model.truss": "trusses", "model.beam": "beams", "model.spring": "springs",
               "model.hinge": "hinges", "model.fix": "fix", "model.load": "loads", "model.dead_load": "dead_loads",
               "model.dim": "dim", "output.track": "track", "output.name": "name"}


def _build_error(where: str, message: str, key: str = "") -> ConfigError:
    e = ConfigError(f"{where}: " + (f"key '{key}': " if key else "") + message)
    e.file, e.line, e.key = where, 0, key
    return e


def _field(v: Any, where: str) -> str:
    """One field of a record as the .cfg text that reads back as the same value."""
    if isinstance(v, (bool, np.bool_)):
        raise _build_error(where, f"{v!r} is not a field (a number, an id or a name such as 'ux')")
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        x = float(v)
        # An integral float (ids of a float array) as an integer: the same double for a real field.
        if math.isfinite(x) and x.is_integer() and abs(x) < 2.0**53 and math.copysign(1.0, x) > 0:
            return str(int(x))
        return repr(x)  # shortest text of the same double; nan/inf are refused by the reader
    if isinstance(v, str):
        if not _NAME.fullmatch(v):
            raise _build_error(where, f"field {v!r} is not a name (letters, digits, '_', '.', '+', '-')")
        return v
    raise _build_error(where, f"field {v!r} of type {type(v).__name__} is not a number or a name")


def _rows(value: Any, arg: str) -> list:
    """The rows of an argument: a sequence of rows or a 2D array (a scalar row is one field)."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise _build_error(arg, f"expected a list of rows or a 2D array, found {value!r}")
    rows = []
    for i, row in enumerate(value):
        where = f"{arg}[{i}]"
        fields = [row] if isinstance(row, str) or not hasattr(row, "__iter__") else list(row)
        rows.append((where, " ".join(_field(v, where) for v in fields)))
    return rows


def _fix_rows(fix: Any) -> list:
    if isinstance(fix, Mapping):  # {node: "all" | "ux" | ("ux", "uy")}
        rows = []
        for node, comps in fix.items():
            where = f"fix[{node}]"
            if isinstance(comps, str):
                comps = [comps]
            elif isinstance(comps, (bytes, Mapping)) or not hasattr(comps, "__iter__"):
                raise TypeError(f"{where}: expected a component name or a sequence of them, found {comps!r} "
                                f"(fix is rows (NODE, COMP, ...) or a dict {{NODE: \"all\" | \"ux\" | (\"ux\", \"uy\")}})")
            else:
                comps = list(comps)
            rows.append((where, " ".join(_field(v, where) for v in [node, *comps])))
        return rows
    return _rows(fix, "fix")


def _relocate(e: Exception, labels: dict) -> ConfigError:
    """A ConfigError of the text or the overrides, located at the argument that caused it."""
    text = str(e)
    if e.file == _BUILD_FILE:
        head = f"{e.file}:{e.line}: " if e.line > 0 else f"{e.file}: "
        where = labels.get(e.line, "senda.build") if e.line > 0 else "senda.build"
    elif e.file == "<command line>":
        head, where = f"{e.file}: ", "options"
    else:  # another file (a mode file, a saved state): its own location
        return e
    rest = text[len(head):] if text.startswith(head) else text
    # "(first at line 4)", "the member of line 7": the row that wrote that line.
    rest = re.sub(r"\bline (\d+)\b", lambda m: labels.get(int(m.group(1)), m.group(0)), rest)
    r = ConfigError(f"{where}: {rest}")
    r.file, r.line, r.key = where, 0, e.key
    return r


def build(nodes: Any, *, trusses: Any = None, beams: Any = None, springs: Any = None, hinges: Any = None,
          fix: Any = None, loads: Any = None, dead_loads: Any = None, track: Any = None, dim: int = 2,
          name: str = "model", options: Optional[Mapping[str, Any]] = None) -> Model:
    """Builds a structure from Python data, as :func:`load` builds a .cfg file; returns
    the same :class:`Model` (``run()``, ``run(out=...)`` write the same results).

    Every argument but dim, name and options is a list of rows (tuples or lists) or a
    2D numpy array, each row the fields of one .cfg record of [model] (docs/config.md),
    in the same order. Ids are integers (integral floats of an array are accepted);
    components are "ux", "uy", "rz" in 2D, "ux", "uy", "uz", "rx", "ry", "rz" in 3D.

    nodes       (ID, X, Y) in 2D, (ID, X, Y, Z) in 3D
    trusses     (ID, NODE_A, NODE_B, EA) or (ID, NODE_A, NODE_B, EA, STRAIN), STRAIN one
                of "green-lagrange", "engineering", "logarithmic" (default: the option
                "model.strain", green-lagrange)
    beams       (ID, NODE_A, NODE_B, EA, GAS, EI) or (..., N): a plane beam member meshed
                into N elements (default 1) with ids ID ... ID+N-1 (element from the
                option "model.beam_formulation", simo-reissner); in 3D (ID, NODE_A,
                NODE_B, EA, GA2, GA3, GJ, EI2, EI3, VX, VY, VZ) or (..., N), the space
                beam of docs/config.md (VX VY VZ: the reference vector of the section)
    springs     (ID, NODE_A, NODE_B, COMPONENT, K): NODE_B a node id or "ground",
                COMPONENT a component or "axial" (along the line between the nodes)
    hinges      (NODE, MEMBER, ...) or (NODE, MEMBER, ..., "spring", K): moment releases
                of beam members (by their ID) at NODE
    fix         rows (NODE, COMP, ...) with COMP a component or "all" (every
                translation), or a dict {NODE: "all" | "ux" | ("ux", "uy")}
    loads       (NODE, COMP, VALUE): the reference load pattern, scaled by λ
    dead_loads  (NODE, COMP, VALUE): loads not scaled by λ
    track       (NODE, COMP): the displacements the path and the critical points
                keep (columns "u_NODE_COMP"); NODE may be an intermediate node of a
                meshed beam (numbered above the largest node id); default: the first
                load's dof
    dim         2 or 3
    name        the problem's name (summary.json, the progress lines)
    options     {"section.key": value} of every other key of a .cfg, with the same
                defaults, ranges and messages, applied as :func:`load`'s overrides:
                {"continuation.initial_step": 0.005, "stop.max_steps": 400,
                "stop.displacement": "2 uy 1.1", "model.strain": "engineering",
                "problem.title": "..."}. The keys the arguments write (model.node, ...,
                output.track, output.name) are refused.

    Raises :class:`ConfigError` (a ValueError) for anything the .cfg reader refuses:
    a node id that does not exist, a duplicate id, EA <= 0, a zero-length member, a
    load on a fixed or unused dof, an unknown option key or a bad value, a mechanism.
    Its text is the reader's message, located at the argument row instead of a line:
    ``trusses[1]: key 'model.truss': NODE_B: node 7 does not exist (valid: a node id
    defined by model.node)``; ``options: key ...`` for an option (``e.file`` is
    "trusses[1]", "options" or "senda.build", ``e.key`` the .cfg key)."""
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral):
        raise _build_error("dim", f"expected 2 or 3, found {dim!r}", "model.dim")
    if not isinstance(name, str) or not name or any(c in name for c in "#\n\r"):
        raise _build_error("name", f"expected a non-empty one-line text without '#', found {name!r}", "output.name")
    for k in (options or {}):
        if str(k) in _BUILD_KEYS:
            raise _build_error("options", f"given by the argument '{_BUILD_KEYS[str(k)]}' of senda.build, not an option",
                               str(k))
    lines = ["# written by senda.build", "[model]", f"dim = {int(dim)}"]
    labels = {3: "dim"}
    for key, rows in (("node", _rows(nodes, "nodes")), ("truss", _rows(trusses, "trusses")),
                      ("beam", _rows(beams, "beams")), ("spring", _rows(springs, "springs")),
                      ("hinge", _rows(hinges, "hinges")), ("fix", _fix_rows(fix)), ("load", _rows(loads, "loads")),
                      ("dead_load", _rows(dead_loads, "dead_loads")), ("[output]", None),
                      ("track", _rows(track, "track"))):
        if rows is None:
            lines.append(key)
            continue
        for where, text in rows:
            lines.append(f"{key} = {text}")
            labels[len(lines)] = where
    lines.append(f"name = {name}")
    labels[len(lines)] = "name"
    text = "\n".join(lines) + "\n"
    try:
        overrides = []
        for k, v in _mapping(options, "options").items():
            overrides += _override_text(str(k), v)
        core = _core.load_text(text, _BUILD_FILE, overrides)
    except ConfigError as e:
        raise _relocate(e, labels) from None
    model = Model(core, text)
    # Located as the errors are (_relocate): the options, or the argument row.
    def located(notes):
        return [re.sub(r"^<command line>: ", "options: ",
                       re.sub(rf"^{re.escape(_BUILD_FILE)}:(\d+): ",
                              lambda m: labels.get(int(m.group(1)), "senda.build") + ": ", n))
                for n in notes]
    model.notes = located(core.notes)
    model.model_notes = located(core.model_notes)
    for note in model.model_notes + model.notes:
        warnings.warn(note, UserWarning, stacklevel=2)
    return model


# ---------------------------------------------------------------------------
# Problems written in Python

class Problem:
    """A smooth one-parameter system g(q, λ) = 0 written in Python (core::Problem).

    Subclass it, set ``size`` (n, the number of unknowns) and define:

    residual(q, lam) -> array (n,)      g(q, λ), zero at equilibrium
    tangent(q, lam)  -> K = ∂g/∂q        symmetric: a scipy.sparse matrix (any format)
                                         or a dense (n, n) array
    load_derivative(q, lam) -> ∂g/∂λ     optional: central differences of residual
                                         otherwise (for g = f(q) − λ r it is −r)
    pattern() -> scipy.sparse            optional: the fixed sparsity of K (both
                                         triangles); default the structure of tangent(0, 0),
                                         the full matrix for a dense tangent
    proportional = True                  optional: g = f(q) − λ r, K independent of λ

    size is an integer (a Python or numpy int, not a bool) in [1, 2**31 - 1];
    anything else raises TypeError or ValueError naming size. The pattern is made
    symmetric and holds the whole diagonal (explicit zeros where K has none).
    q is a fresh float64 array at every call. A tangent entry outside the pattern
    raises ValueError, and so does a tangent that is not symmetric, at every call
    (K_ij and K_ji differing by more than 1e-10 of the pair's scale, sqrt(|K_ii K_jj|) or more: return both triangles).
    ∇(Kφ)h, needed to locate critical points, is taken by finite differences of
    tangent() as in C++ (docs/theory.md §6). Any exception raised in a method stops
    the run and is re-raised by :func:`trace`."""

    size: int = 0
    proportional: bool = False
    load_derivative = None
    pattern = None

    def __init__(self, size: Optional[int] = None):
        if size is not None:
            self.size = _problem_size(size)

    def residual(self, q: np.ndarray, lam: float) -> np.ndarray:
        raise NotImplementedError("Problem.residual(q, lam) must be defined by the subclass")

    def tangent(self, q: np.ndarray, lam: float):
        raise NotImplementedError("Problem.tangent(q, lam) must be defined by the subclass")


_MAX_SIZE = 2**31 - 1  # the library's unknowns are numbered by a C++ int


def _problem_size(size: Any) -> int:
    """A Problem's size, checked: an integer (numbers.Integral, numpy's too; not a
    bool) in [1, 2**31 - 1]. A float is refused, not truncated (2.5 is not 2)."""
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Integral):
        raise TypeError(f"size: the number of unknowns must be an integer, found {size!r} "
                        f"({type(size).__name__})")
    if not 1 <= size <= _MAX_SIZE:
        raise ValueError(f"size: {int(size)} is not a number of unknowns (valid: an integer in [1, {_MAX_SIZE}]; "
                         f"set it with super().__init__(n) or a class attribute size)")
    return int(size)


def _set_options(opts: "_core.AnalysisOptions", values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        target = opts
        parts = key.split(".")
        for i, part in enumerate(parts):
            if not hasattr(target, part) or part.startswith("_"):
                where = ".".join(parts[:i]) or "AnalysisOptions"
                valid = ", ".join(n for n in dir(target) if not n.startswith("_") and n != "validate")
                raise ValueError(f"option '{key}': {where} has no field '{part}' (valid: {valid})")
            if i + 1 < len(parts):
                target = getattr(target, part)
            else:
                try:
                    setattr(target, part, value)
                except TypeError:
                    raise TypeError(f"option '{key}': {value!r} is not {_expected(getattr(target, part))}") from None


def _expected(current: Any) -> str:
    """What an option's value must be, from its current value (for a TypeError)."""
    members = getattr(type(current), "__members__", None)
    if members:  # a pybind11 enum
        return f"a {type(current).__name__} (one of {', '.join('senda.' + type(current).__name__ + '.' + m for m in members)})"
    if isinstance(current, bool):
        return "a bool"
    if isinstance(current, int):
        return "an int"
    if isinstance(current, float):
        return "a float (or an int)"
    if isinstance(current, list):
        return "a list like its default " + repr(current)
    return f"a {type(current).__name__}"


def trace(problem: Problem, options: Optional[AnalysisOptions | Mapping[str, Any]] = None,
          progress: Optional[Callable[[dict], Any]] = None, track: Optional[Sequence[int]] = None,
          states: bool = False) -> Result:
    """Runs Senda's analysis on a Python :class:`Problem`: the path from (q = 0, λ = 0)
    (an equilibrium, found by Newton first), its critical points located with SPL/SPB,
    the secondary branches of its bifurcation points. Returns a :class:`Result`.

    problem    a :class:`Problem` (any object with size, residual and tangent)
    options    None (the C++ defaults), an :class:`AnalysisOptions`, or a dict of its
               fields by dotted name, e.g. {"explorer.path.initial_load_increment":
               0.1, "explorer.path.lambda_max": 4.0, "explorer.switch_branches": False}
               (the fields and their defaults are those of analysis::AnalysisOptions,
               docs/api.md). A value out of range raises ValueError with the reason.
    progress   as in :meth:`Model.run`: called with a dict after every point;
               returning a false value (False, numpy.False_, 0) stops the run,
               None or a true value goes on.
    track      a sequence of integer indices of unknowns, each in [0, size), whose
               values the path and the critical points keep (columns "q<i>");
               replaces options.track when given. A string or a non-integer index
               raises TypeError, an index out of range or given twice ValueError.
    states     True: keep the whole state of every point (``Result.path.q``); a bool.

    Exceptions raised in the problem's methods or in progress end the run and are
    re-raised with their type and message; Ctrl-C (KeyboardInterrupt) returns the
    result so far with termination "interrupted"."""
    if not hasattr(problem, "size"):
        raise TypeError(f"size: the problem {problem!r} has no attribute size (the number of unknowns)")
    size = problem.size() if callable(problem.size) else problem.size
    _problem_size(size)  # before the C++ side reads it (as an int)
    if isinstance(options, AnalysisOptions):
        opts = copy.copy(options)
    else:
        opts = AnalysisOptions()
        _set_options(opts, options or {})
    if track is not None:
        opts.track = _track(track, problem)
    states = _flag(states, "states")
    why = opts.validate()
    if why:
        raise ValueError(f"analysis options: {why}")
    # The unknowns the options name (track, monitor_dof, control_dof) are checked
    # against the problem's size by analysis::Analysis (ValueError).
    return _result(_core.run_problem(problem, opts, progress, states))


def _track(track: Any, problem: Any) -> list:
    """trace()'s track argument as a list of unknown indices: integers (numpy's too)
    in [0, size); a string is not a sequence of indices ("25" is not [2, 5])."""
    if isinstance(track, (str, bytes)) or not hasattr(track, "__iter__"):
        raise TypeError(f"track: expected a sequence of unknown indices (integers), found {track!r}")
    size = getattr(problem, "size", None)
    size = size() if callable(size) else size
    out = []
    for k, i in enumerate(track):
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
            raise TypeError(f"track[{k}]: an unknown index is an integer, found {i!r}")
        i = int(i)
        if isinstance(size, numbers.Integral) and not 0 <= i < size:
            raise ValueError(f"track[{k}] = {i}: not an unknown of the problem (valid: [0, {size}), n = {size})")
        if i in out:  # two columns of one name, as output.track refuses
            raise ValueError(f"track[{k}] = {i}: given twice (valid: each unknown once)")
        out.append(i)
    return out
