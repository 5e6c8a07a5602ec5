"""senda.load(...).run() against the trace command: the same numbers, the same
files, the same messages (issue 18)."""
import json

import numpy as np
import pytest

import senda
from conftest import read_summary


def check_same_as_summary(r, s):
    """Every number of summary.json that the Result holds, compared exactly: both
    come from the same double (summary.json prints 17 significant digits)."""
    assert r.termination == s["termination"]
    assert r.message == s["message"]
    assert r.points == s["points"]
    assert r.unknowns == s["unknowns"]
    assert r.lambda_max == s["lambda_max"] and r.lambda_min == s["lambda_min"]
    assert r.stats["newton_iterations"] == s["newton_iterations"]
    assert r.stats["factorizations"] == s["factorizations"]
    assert [c["lambda_before"] for c in r.crossings] == [c["lambda_before"] for c in s["crossings"]]
    assert [c["branch"] for c in r.crossings] == [c["branch"] for c in s["crossings"]]
    assert [c.id for c in r.critical_points] == [c["id"] for c in s["critical_points"]]
    for c, j in zip(r.critical_points, s["critical_points"]):
        assert c.kind == j["kind"] and c.converged == j["converged"] and c.system == j["system"]
        assert c.message == j["message"]
        assert c.lam == j["lambda"], c.id  # the located λ to the last printed digit
        assert c.tracked == j["displacements"]
        assert list(c.residual_history) == j["residual_history"]
        assert c.phi_dot_r == j["phi_dot_r"] and c.gamma == j["gamma"]
        assert c.floor_lambda_spread == j["floor_lambda_spread"]
        assert c.bracket == j["bracket"]
        assert c.branches == j["branches"]
        if "abe" in j:
            for k in ("A", "B1", "B2", "C", "message", "incoming_alignment"):
                assert c.abe[k] == j["abe"][k], (c.id, k)
            for (tq, tl), jt in zip(c.abe["tangents"], j["abe"]["tangents"]):
                assert tl == jt["lambda"]
        else:
            assert c.abe is None or not c.abe["valid"]
    assert [(b.id, b.parent, b.start_point, b.termination, b.points, b.message, b.neutral, b.metric)
            for b in r.branches] == [
        (b["id"], b["parent"], b["start_point"], b["termination"], b["points"], b["message"], b["neutral"],
         b["metric"]) for b in s["branches"]]


def test_branch_metric_as_summary_json(run_trace):
    """The Euler column at the default scaling: its branches are traced in their own
    metric (docs/theory.md eq. 5.5), Branch.metric "own" as summary.json says."""
    code, err, out = run_trace("problems/euler-column.cfg", "continuation.auto_scale=true")
    assert code == 0, err
    s = read_summary(out)
    r = senda.load("problems/euler-column.cfg", overrides={"continuation.auto_scale": "true"}).run()
    check_same_as_summary(r, s)
    assert [b.metric for b in r.branches] == ["path", "own", "own"]


def path_csv(out):
    rows = [line.split(",") for line in (out / "path.csv").read_text().splitlines()]
    return rows[0], rows[1:]


@pytest.mark.parametrize("cfg", ["problems/three-bar.cfg", "problems/von-mises.cfg"])
def test_result_equals_cli_summary(cfg, run_trace):
    code, err, out = run_trace(cfg)
    assert code == 0, err
    s = read_summary(out)
    r = senda.load(cfg).run()
    check_same_as_summary(r, s)
    # The path: every point of path.csv (17 significant digits), in the same order.
    header, rows = path_csv(out)
    assert len(r.path) == len(rows) == r.points
    col = {name: i for i, name in enumerate(header)}
    assert list(r.path.branch) == [int(x[col["branch"]]) for x in rows]
    assert list(r.path.index) == [int(x[col["point"]]) for x in rows]
    assert list(r.path.lam) == [float(x[col["lambda"]]) for x in rows]
    # Empty in path.csv: undetermined (a branch's first point, a bifurcation point).
    assert list(r.path.negative_pivots) == [int(x[col["negative_pivots"]] or -1) for x in rows]
    assert list(r.path.det_sign) == [int(x[col["det_sign"]] or 0) for x in rows]
    for name in r.path.columns:
        assert list(r.path.column(name)) == [float(x[col[name]]) for x in rows]
    # Modes: φ of every point as modes/<id>.csv has it.
    for c in r.critical_points:
        phi = [float(line.split(",")[2]) for line in (out / "modes" / f"{c.id}.csv").read_text().splitlines()[1:]]
        assert list(c.phi) == phi
        assert c.q.shape == (r.unknowns,)


def test_three_bar_values():
    # The closed forms of problems/three-bar.cfg: BP1 at P = 1/3, u = 1/6, a pitchfork.
    r = senda.load("problems/three-bar.cfg").run()
    bp1 = r.critical("BP1")
    assert bp1.kind == "bifurcation" and bp1.converged
    assert abs(bp1.lam - 1 / 3) <= 1e-12
    assert abs(bp1.tracked["u_3_ux"] - 1 / 6) <= 1e-12
    assert bp1.abe["symmetric"] and bp1.abe["valid"]
    assert isinstance(bp1.phi, np.ndarray) and abs(bp1.phi[1]) == 1.0
    assert [b.start_point for b in r.branches][:3] == ["", "BP1", "BP1"]
    assert [len(r.path.on_branch(b.id)) for b in r.branches] == [b.points for b in r.branches]
    with pytest.raises(KeyError, match="no critical point 'XP9'"):
        r.critical("XP9")


def test_out_writes_the_cli_directory(run_trace, tmp_path):
    code, err, cli = run_trace("problems/three-bar.cfg")
    assert code == 0, err
    py = tmp_path / "py"
    senda.load("problems/three-bar.cfg").run(out=py)
    names = sorted(str(p.relative_to(cli)) for p in cli.rglob("*"))
    assert sorted(str(p.relative_to(py)) for p in py.rglob("*")) == names
    for name in names:
        a, b = cli / name, py / name
        if a.is_dir():
            continue
        if a.suffix == ".json":  # timings differ: compare everything else
            ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
            for j in (ja, jb):
                j.pop("wall_time_s", None)
                j.pop("timing", None)
            assert ja == jb, name
        else:
            assert a.read_bytes() == b.read_bytes(), name
    # An existing directory is refused before anything is computed, as without --overwrite.
    with pytest.raises(senda.DirectoryRefused) as e:
        senda.load("problems/three-bar.cfg").run(out=py)
    code, err, _ = run_trace("problems/three-bar.cfg", out=py)
    assert code == 2 and err == f"trace: {e.value}\n"
    senda.load("problems/three-bar.cfg").run(out=py, overwrite=True)
    assert (py / "summary.json").exists()


def test_overrides_as_on_the_command_line(run_trace):
    over = {"stop.max_steps": 20, "continuation.initial_step": 0.01, "critical.locate": False}
    r = senda.load("problems/three-bar.cfg", overrides=over).run()
    code, err, out = run_trace("problems/three-bar.cfg", "stop.max_steps=20", "continuation.initial_step=0.01",
                               "critical.locate=false")
    assert code == 0, err
    check_same_as_summary(r, read_summary(out))
    assert r.termination == "max-steps"


@pytest.mark.parametrize("cfg, overrides, args", [
    ("problems/three-bar.cfg", {"stop.max_stepz": 5}, ["stop.max_stepz=5"]),          # unknown key
    ("problems/three-bar.cfg", {"stop.max_steps": "many"}, ["stop.max_steps=many"]),  # malformed value
    ("problems/three-bar.cfg", {"stop.max_steps": 0}, ["stop.max_steps=0"]),          # out of range
    ("problems/three-bar.cfg", {"continuation.constraint": "circle"}, ["continuation.constraint=circle"]),
    ("problems/no-such-file.cfg", {}, []),                                            # missing file
    ("tests/bad-input/06-unknown-key-typo.cfg", {}, []),                              # bad file
    ("tests/bad-input/48-zero-length-truss.cfg", {}, []),                              # bad model
])
def test_errors_have_the_cli_message(cfg, overrides, args, run_trace):
    code, err, _ = run_trace(cfg, *args)
    assert code == 2
    with pytest.raises(senda.ConfigError) as e:
        senda.load(cfg, overrides=overrides)
    assert err == f"trace: {e.value}\n"
    assert isinstance(e.value, ValueError)
    assert e.value.file in (cfg, "<command line>")


def test_overrides_not_a_mapping_is_a_type_error():
    # A list of pairs was an AttributeError from inside the module.
    with pytest.raises(TypeError, match="overrides must be a mapping"):
        senda.load("problems/three-bar.cfg", overrides=[("stop.max_steps", 5)])


def test_overrides_with_items_but_not_a_mapping():
    # A pandas Series of values by key is no collections.abc.Mapping but has items().
    class ByKey:
        def __init__(self, d):
            self._d = d

        def items(self):
            return self._d.items()

    m = senda.load("problems/three-bar.cfg", overrides=ByKey({"stop.max_steps": 5}))
    assert m.run().branches[0].points == 6  # the start point and max_steps = 5


def test_config_error_fields():
    with pytest.raises(senda.ConfigError) as e:
        senda.load("problems/three-bar.cfg", overrides={"stop.max_stepz": 5})
    assert e.value.file == "<command line>" and e.value.key == "stop.max_stepz" and e.value.line == 0
    assert "stop.max_steps" in str(e.value)  # the nearest key is suggested


def test_progress_sees_every_point_and_can_stop():
    seen = []
    r = senda.load("problems/von-mises.cfg").run(progress=seen.append)
    assert [p["lam"] for p in seen] == list(r.path.lam)
    assert [p["tracked"]["u_2_uy"] for p in seen] == list(r.path.column("u_2_uy"))
    assert seen[0]["index"] == 0 and seen[0]["branch"] == 0

    def stop_after_ten(p):
        return p["index"] < 10

    r = senda.load("problems/von-mises.cfg").run(progress=stop_after_ten)
    assert r.interrupted and r.termination == "interrupted"
    assert len(r.path) == 11  # the start point, ten steps: stopped before the eleventh


def test_keyboard_interrupt_keeps_what_was_computed(tmp_path):
    full = senda.load("problems/von-mises.cfg").run()
    lp1, lp2 = full.critical("LP1"), full.critical("LP2")
    k = (lp1.bracket["point_after"] + lp2.bracket["point_after"]) // 2  # between the two limit points

    def ctrl_c(p):
        if p["index"] == k:
            raise KeyboardInterrupt

    out = tmp_path / "vm"
    r = senda.load("problems/von-mises.cfg").run(out=out, progress=ctrl_c)
    assert r.termination == "interrupted" and r.message == "interrupted"
    assert len(r.path) == k + 1 and list(r.path.lam) == list(full.path.lam[:k + 1])
    assert [(c.id, c.lam) for c in r.critical_points] == [("LP1", lp1.lam)]
    s = json.loads((out / "summary.json").read_text())
    assert s["termination"] == "interrupted" and s["points"] == k + 1
    assert [c["id"] for c in s["critical_points"]] == ["LP1"]
    assert len((out / "path.csv").read_text().splitlines()) == k + 2


def test_progress_exception_propagates():
    class Boom(RuntimeError):
        pass

    def boom(p):
        if p["index"] == 5:
            raise Boom("stop it")

    with pytest.raises(Boom, match="stop it"):
        senda.load("problems/von-mises.cfg").run(progress=boom)


def test_states():
    r = senda.load("problems/three-bar.cfg", overrides={"stop.max_steps": 10}).run(states=True)
    assert r.path.q.shape == (len(r.path), r.unknowns)
    assert list(r.path.q[:, 0]) == list(r.path.column("u_3_ux"))


def test_docstrings():
    for name in ("overrides", "path"):
        assert name in senda.load.__doc__
    for name in ("out", "progress", "overwrite", "states"):
        assert name in senda.Model.run.__doc__
    for name in ("problem", "options", "progress", "track", "states"):
        assert name in senda.trace.__doc__


def test_sigint_during_the_run_stops_it(tmp_path):
    # A real SIGINT while the C++ path runs with the GIL released: seen by the poll
    # before the next step (PyErr_CheckSignals), the run ends as interrupted with its
    # points and files (the slow star dome of tests/cli/interrupt.sh, 1e5 steps at most).
    import os
    import signal
    import threading

    slow = {"continuation.initial_step": 1e-3, "continuation.max_step_ratio": 1, "stop.displacement": "1 uz 1e9",
            "stop.max_steps": 100000}
    m = senda.load("problems/star-dome.cfg", overrides=slow)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = m.run(out=tmp_path / "dome")
    finally:
        timer.cancel()
    assert r.termination == "interrupted" and r.message == "interrupted"
    assert 1 < len(r.path) < 100000
    s = json.loads((tmp_path / "dome" / "summary.json").read_text())
    assert s["termination"] == "interrupted" and s["points"] == len(r.path)


def test_neutral_path_reported_as_summary_json(tmp_path, run_trace):
    """A thin-walled column without the Wagner quartic term (EK4 = 0): its branches
    are neutral paths (docs/theory.md §5), reported in Branch.neutral as in
    summary.json."""
    cfg = tmp_path / "neutral.cfg"
    cfg.write_text("[model]\ndim = 3\nnode = 1 0 0 0\nnode = 2 0 0 10\n"
                   "beam = 1 1 2 1e4 1e4 1e4 1.0 1e3 1e3 1 0 0 8\nthin_walled = 1 10.0 100.0\n"
                   "fix = 1 ux uy uz rz\nfix = 2 ux uy rz\nload = 2 uz -1\n"
                   "[branches]\nmax_depth = 1\nat = BP1\n[continuation]\ninitial_step = 1.0\n"
                   "[stop]\nmax_steps = 10\nlambda_max = 15\n")
    code, err, out = run_trace(str(cfg))
    assert code == 0, err
    s = read_summary(out)
    r = senda.load(str(cfg)).run()
    check_same_as_summary(r, s)
    secondary = [b for b in r.branches if b.id > 0]
    assert len(secondary) == 2
    for b in secondary:
        assert len(b.neutral) == 1 and b.neutral[0]["crossings"] >= 2, b.message
        assert b.neutral[0]["last_point"] == b.points - 1  # to the branch's last point
        assert abs(b.neutral[0]["lambda"] / r.critical_points[0].lam - 1) <= 1e-8


def test_arguments_that_would_be_misread_are_refused(tmp_path):
    # A list for a scalar key kept only its last value; "no" is a true string; an
    # unknown branch id gave an empty path.
    with pytest.raises(senda.ConfigError, match=r"<command line>: key 'stop.max_steps': a list of 2 value\(s\) for a key "
                                                r"that is not repeatable"):
        senda.load("problems/von-mises.cfg", overrides={"stop.max_steps": [5, 6]})
    with pytest.raises(senda.ConfigError, match=r"options: key 'stop.max_steps': a list of 2 value"):
        senda.build([(1, -1, 0), (2, 0, 0.5), (3, 1, 0)], trusses=[(1, 1, 2, 1.0), (2, 2, 3, 1.0)],
                    fix=[(1, "all"), (3, "all"), (2, "ux")], loads=[(2, "uy", -1.0)],
                    options={"stop.max_steps": (5, 6)})
    # A repeatable key still takes a list (two dead loads, zero).
    tb = senda.load("problems/three-bar.cfg", overrides={"model.dead_load": ["3 uy 0", "3 ux 0"]})
    assert tb.unknowns == 2
    m = senda.load("problems/von-mises.cfg", overrides={"stop.max_steps": 5})
    for name in ("states", "overwrite"):
        with pytest.raises(TypeError, match=f"{name}: expected True or False, found 'no'"):
            m.run(**{name: "no"})
    assert len(m.run(states=np.True_).path.q) == 6
    path = m.run().path
    assert len(path.on_branch(0)) == 6
    with pytest.raises(ValueError, match=r"99 is no branch of this run \(branches: 0\)"):
        path.on_branch(99)
    # A branch of the run with no point (the primary path whose first step was refused)
    # is an empty path, not an error: on_branch over r.branches works on every run.
    failed = senda.load("problems/von-mises.cfg", overrides={"continuation.initial_step": 1e-200}).run()
    assert [len(failed.path.on_branch(b.id)) for b in failed.branches] == [0]
    with pytest.raises(TypeError, match="a branch id is an integer"):
        path.on_branch("0")


def test_progress_false_values_stop_the_run():
    # Any false value but None stops (numpy.False_, as a comparison of numpy values gives).
    for answer in (np.False_, 0):
        r = senda.load("problems/von-mises.cfg").run(progress=lambda p, a=answer: a if p["index"] == 2 else None)
        assert r.interrupted and len(r.path) == 3
    r = senda.load("problems/von-mises.cfg", overrides={"stop.max_steps": 5}).run(progress=lambda p: p["lam"] > -1)
    assert r.termination == "max-steps"  # numpy.True_ goes on


def test_unused_keys_are_the_notes_trace_prints(run_trace):
    # design.step acts on curves of critical points only: without design.follow it is
    # kept (a later --follow run may use it) but said, by trace on stderr and by load()
    # as a UserWarning, in the same words.
    over = {"design.step": 0.02, "stop.max_steps": 2}
    code, err, _ = run_trace("problems/three-bar.cfg", "design.step=0.02", "stop.max_steps=2")
    assert code == 0, err
    printed = [line[len("note: "):] for line in err.splitlines() if line.startswith("note: ")]
    assert printed and all("design.step has no effect" in n for n in printed)
    with pytest.warns(UserWarning) as caught:
        m = senda.load("problems/three-bar.cfg", overrides=over)
    assert [str(w.message) for w in caught] == printed
    assert m.notes == printed
    assert senda.load("problems/three-bar.cfg", overrides={"stop.max_steps": 2}).notes == []
