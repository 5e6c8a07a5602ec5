"""senda.build(...): models from Python data, against senda.load of the same .cfg
(the same reader and builder read both, so every number must be the same double),
and the errors of bad data (issue 18)."""
import json
import math
import re

import numpy as np
import pytest

import senda


def assert_same_result(a, b):
    """Two runs of the same model: every number equal, not close."""
    assert (a.termination, a.message, a.points, a.unknowns) == (b.termination, b.message, b.points, b.unknowns)
    assert a.lambda_max == b.lambda_max and a.lambda_min == b.lambda_min
    assert a.path.columns == b.path.columns
    for k in ("branch", "index", "lam", "tracked", "iterations", "residual", "step_length", "negative_pivots"):
        assert np.array_equal(getattr(a.path, k), getattr(b.path, k)), k
    assert [c.id for c in a.critical_points] == [c.id for c in b.critical_points]
    for c, d in zip(a.critical_points, b.critical_points):
        assert (c.kind, c.converged, c.system, c.message) == (d.kind, d.converged, d.system, d.message)
        assert c.lam == d.lam, c.id  # the located λ to the last digit
        assert c.tracked == d.tracked and c.bracket == d.bracket and c.branches == d.branches
        assert list(c.residual_history) == list(d.residual_history)
        if c.converged:
            assert np.array_equal(c.q, d.q) and np.array_equal(c.phi, d.phi)
        assert (c.abe is None) == (d.abe is None)
        if c.abe is not None:
            assert all(c.abe[k] == d.abe[k] for k in ("A", "B1", "B2", "C", "symmetric", "valid")), c.id
    assert [(x.id, x.parent, x.start_point, x.points, x.termination) for x in a.branches] == [
        (x.id, x.parent, x.start_point, x.points, x.termination) for x in b.branches]


def von_mises(**kw):
    # problems/von-mises.cfg as data; its [continuation] and [stop] as options.
    args = dict(
        nodes=np.array([[1, -1.0, 0.0], [2, 0.0, 0.5], [3, 1.0, 0.0]]),
        trusses=[(1, 1, 2, 1.0), (2, 2, 3, 1.0)],
        fix={1: "all", 3: "all", 2: "ux"},
        loads=[(2, "uy", -1.0)],
        track=[(2, "uy")],
        name="von-mises",
        options={"model.strain": "green-lagrange", "continuation.constraint": "spherical",
                 "continuation.initial_step": 0.005, "continuation.max_step_ratio": 2,
                 "stop.max_steps": 400, "stop.displacement": "2 uy 1.1"})
    args.update(kw)
    return senda.build(**args)


A = 0.408248290463863  # problems/three-bar.cfg


def three_bar(**kw):
    args = dict(
        nodes=[(1, -A, 0.0), (2, A, 0.0), (3, 0.0, 0.0), (4, 0.0, -A)],
        trusses=[(1, 1, 3, A), (2, 3, 2, A)],
        springs=[(3, 3, 4, "uy", 0.4)],
        fix=[(1, "all"), (2, "all"), (4, "all")],
        loads=[(3, "ux", 1.0)],
        track=[(3, "ux"), (3, "uy")],
        name="three-bar",
        options={"problem.title": "three-bar structure (reconstruction), perfect",
                 "model.strain": "engineering", "continuation.initial_step": 0.02,
                 "continuation.max_step_ratio": 2, "stop.max_steps": 200, "stop.lambda_min": -0.5,
                 "stop.lambda_max": 0.5})
    args.update(kw)
    return senda.build(**args)


@pytest.mark.parametrize("make, cfg", [(von_mises, "problems/von-mises.cfg"), (three_bar, "problems/three-bar.cfg")])
def test_built_equals_loaded(make, cfg):
    m = make()
    assert isinstance(m, senda.Model) and m.config_file == "<senda.build>"
    built, loaded = m.run(), senda.load(cfg).run()
    assert built.critical_points and all(c.converged for c in built.critical_points)
    assert_same_result(built, loaded)


def test_von_mises_closed_form():
    # P_max = (2 / (3 √3)) (h / L0)³ at w = h (1 − 1/√3), h = 0.5 (problems/von-mises.cfg):
    # SPL converges to 1e-10 relative, the closed form of the discrete model is exact.
    r = von_mises().run()
    h = 0.5
    lp1 = r.critical("LP1")
    assert lp1.kind == "limit"
    assert abs(lp1.lam - 2 / (3 * math.sqrt(3)) * (h / math.sqrt(1 + h * h)) ** 3) <= 1e-12
    assert abs(-lp1.tracked["u_2_uy"] - h * (1 - 1 / math.sqrt(3))) <= 1e-9


def test_out_writes_the_same_directory(tmp_path):
    """run(out=) writes the results directory through the library's Recorder: the same
    files as the loaded .cfg, byte for byte but for the config name and the timings."""
    three_bar().run(out=tmp_path / "built")
    senda.load("problems/three-bar.cfg").run(out=tmp_path / "loaded")
    a, b = tmp_path / "built", tmp_path / "loaded"
    names = sorted(str(p.relative_to(b)) for p in b.rglob("*"))
    assert sorted(str(p.relative_to(a)) for p in a.rglob("*")) == names
    for name in names:
        if (b / name).is_dir():
            continue
        if name.endswith(".json"):
            ja, jb = json.loads((a / name).read_text()), json.loads((b / name).read_text())
            assert ja.pop("config", None) == ("<senda.build>" if "config" in jb else None)
            for j in (ja, jb):
                for k in ("config", "wall_time_s", "timing"):
                    j.pop(k, None)
            assert ja == jb, name
        else:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


LEE = dict(
    nodes=[(1, 0.0, 0.0), (2, 0.0, 120.0), (3, 24.0, 120.0), (4, 120.0, 120.0)],
    beams=[(1, 1, 2, 4320, 1384.6154, 1440, 20), (21, 2, 3, 4320, 1384.6154, 1440, 4),
           (25, 3, 4, 4320, 1384.6154, 1440, 16)],
    fix=[(1, "ux", "uy"), (4, "ux", "uy")],
    loads=[(3, "uy", -1.0)],
    track=[(3, "uy"), (3, "ux")],
    name="lee-frame")
LEE_OPTIONS = {"model.beam_formulation": "simo-reissner", "continuation.initial_step": 0.2,
               "continuation.max_step_ratio": 3, "stop.lambda_max": 2.5}


def test_frame_equals_cfg():
    # Lee's frame (problems/lee-frame.cfg) to its limit point: 40 steps of 300.
    steps = {"stop.max_steps": 40}
    built = senda.build(**LEE, options={**LEE_OPTIONS, **steps}).run()
    loaded = senda.load("problems/lee-frame.cfg", overrides=steps).run()
    assert built.unknowns == 3 * 41 - 4
    assert built.critical("LP1").converged and abs(built.critical("LP1").lam - 1.8606) < 1e-4
    assert_same_result(built, loaded)


def test_config_text_reads_back(tmp_path):
    """config_text is a .cfg: senda.load of it (with the options) is the same model."""
    m = von_mises(options={"stop.max_steps": 30})
    f = tmp_path / "vm.cfg"
    f.write_text(m.config_text)
    assert_same_result(m.run(), senda.load(f, overrides={"stop.max_steps": 30}).run())
    assert "truss = 1 1 2 1" in m.config_text


def test_fields_of_arrays_and_numpy_scalars():
    # Integer ids from a float array, numpy ints and floats: the same model.
    m = von_mises(trusses=np.array([[1, 1, 2, 1.0], [2, 2, 3, 1.0]]), loads=[(np.int64(2), "uy", np.float64(-1.0))])
    assert m.unknowns == 1 and m.track_columns == ["u_2_uy"]


def error(match, **kw):
    with pytest.raises(senda.ConfigError) as e:
        von_mises(**kw)
    assert isinstance(e.value, ValueError)
    assert match in str(e.value), str(e.value)
    return e.value


def test_errors_name_the_row():
    e = error("trusses[1]: key 'model.truss': NODE_B: node 7 does not exist (valid: a node id defined by model.node)",
              trusses=[(1, 1, 2, 1.0), (2, 2, 7, 1.0)])
    assert (e.file, e.line, e.key) == ("trusses[1]", 0, "model.truss")
    error("trusses[0]: key 'model.truss': EA must be positive, found 0 (valid: (0, inf))", trusses=[(1, 1, 2, 0.0), (2, 2, 3, 1.0)])
    error("EA must be positive, found -1", trusses=[(1, 1, 2, -1.0), (2, 2, 3, 1.0)])
    error("trusses[1]: key 'model.truss': zero length: nodes 2 and 4 are at the same position",
          nodes=[(1, -1.0, 0.0), (2, 0.0, 0.5), (3, 1.0, 0.0), (4, 0.0, 0.5)], trusses=[(1, 1, 2, 1.0), (2, 2, 4, 1.0), (3, 2, 3, 1.0)])
    error("nodes[2]: key 'model.node': node 1 defined twice (first at nodes[0]) (valid: unique node ids)",
          nodes=[(1, -1.0, 0.0), (2, 0.0, 0.5), (1, 1.0, 0.0)])
    error("trusses[1]: key 'model.truss': element id 1 already used by model.truss at trusses[0]",
          trusses=[(1, 1, 2, 1.0), (1, 2, 3, 1.0)])
    error("trusses[0]: key 'model.truss': expected 4 to 5 fields, found 3 (valid: ID NODE_A NODE_B EA [STRAIN])",
          trusses=[(1, 1, 2), (2, 2, 3, 1.0)])
    error("trusses[0]: key 'model.truss': NODE_A: expected an integer", trusses=[(1, 1.5, 2, 1.0), (2, 2, 3, 1.0)])
    error("nodes[1]: key 'model.node': Y: NaN is not a valid number", nodes=[(1, -1.0, 0.0), (2, 0.0, math.nan), (3, 1.0, 0.0)])
    error("loads[0]: key 'model.load': node 1 uy is fixed", loads=[(1, "uy", -1.0)])
    error("loads[0]: key 'model.load': unknown component 'uw'", loads=[(2, "uw", -1.0)])
    error("fix[2]: key 'model.fix': unknown component 'uxx'", fix={1: "all", 3: "all", 2: "uxx"})
    # A dict value that is neither a component nor a sequence of them: a TypeError
    # naming fix and the forms (it was "'int' object is not iterable", from list(5)).
    for bad in (5, 5.0, None, b"ux"):
        with pytest.raises(TypeError, match=r"fix\[2\]: expected a component name or a sequence of them, found "
                                            rf"{re.escape(repr(bad))} \(fix is rows \(NODE, COMP, ...\) or a dict"):
            von_mises(fix={1: "all", 3: "all", 2: bad})
    assert von_mises(fix={1: "all", 3: "all", 2: ["ux"]}).unknowns == 1
    error("loads[0]: field 'u y' is not a name", loads=[(2, "u y", -1.0)])
    error("loads[0]: True is not a field", loads=[(2, "uy", True)])
    error("senda.build: key 'model.load': no load", loads=[])
    error("nodes[1]: key 'model.node': the structure is a mechanism", fix={1: "all", 3: "all"},
          trusses=[(1, 1, 2, 1.0), (2, 2, 3, 1.0)], options={"stop.max_steps": 5},
          nodes=[(1, -1.0, 0.0), (2, 0.0, 0.0), (3, 1.0, 0.0)])


def test_option_errors_are_the_cli_messages():
    e = error("options: key 'stop.max_stepz': unknown key; did you mean 'stop.max_steps'?", options={"stop.max_stepz": 5})
    assert e.key == "stop.max_stepz"
    error("options: key 'continuation.initial_step': value -0.1 is out of range (valid: (0, inf))",
          options={"continuation.initial_step": -0.1})
    error("options: key 'stop.displacement': NODE: node 9 does not exist", options={"stop.displacement": "9 uy 1"})
    error("options: key 'model.node': given by the argument 'nodes' of senda.build", options={"model.node": "4 0 0"})
    error("key 'model.dim': expected 2 or 3, found 'x'", dim="x")
    error("dim: key 'model.dim': value 4 is out of range (valid: {2, 3})", dim=4)


def test_docstring():
    doc = senda.build.__doc__
    for word in ("nodes", "trusses", "beams", "springs", "hinges", "fix", "loads", "dead_loads", "track", "dim",
                 "name", "options", "ConfigError"):
        assert word in doc, word


def test_hinged_frame_equals_cfg():
    # problems/leaning-column.cfg: beams meshed into 8, two hinges, a clamp (rz fixed);
    # 20 steps, past its sway bifurcation (P_cr = 1.36552 with 8 elements per member, the
    # file's header), without the branches.
    opts = {"stop.max_steps": 20, "branches.switch": False}
    built = senda.build(
        nodes=[(1, 0.0, 0.0), (2, 1.0, 0.0), (3, 0.0, 1.0), (4, 1.0, 1.0)],
        beams=[(1, 1, 3, 1e5, 1e5, 1.0, 8), (101, 3, 4, 1e5, 1e5, 1.0, 8), (201, 2, 4, 1e5, 1e5, 1.0, 8)],
        hinges=[(3, 101), (4, 201)],
        fix=[(1, "ux", "uy", "rz"), (2, "ux", "uy")],
        loads=[(3, "uy", -1.0), (4, "uy", -1.0)],
        track=[(3, "ux"), (3, "uy"), (3, "rz")],
        name="leaning-column",
        options={"continuation.initial_step": 0.2, "continuation.max_step_ratio": 4, "continuation.auto_scale": False,
                 "continuation.residual_tolerance": 1e-9, "stop.lambda_max": 2.5, "branches.max_depth": 1, **opts}).run()
    loaded = senda.load("problems/leaning-column.cfg", overrides=opts).run()
    assert built.critical("BP1").converged and abs(built.critical("BP1").lam - 1.36552) < 1e-5
    assert_same_result(built, loaded)


def test_3d_truss_and_ground_spring():
    # A tripod: three bars from the ground to an apex held sideways by ground springs.
    # Built only (no .cfg): 3 unknowns, the default track (the load's dof).
    m = senda.build(
        dim=3,
        nodes=[(1, 1.0, 0.0, 0.0), (2, -0.5, 0.866, 0.0), (3, -0.5, -0.866, 0.0), (4, 0.0, 0.0, 0.3)],
        trusses=[(1, 1, 4, 1.0), (2, 2, 4, 1.0), (3, 3, 4, 1.0)],
        springs=[(4, 4, "ground", "ux", 0.1), (5, 4, "ground", "uy", 0.1)],
        fix=[(1, "all"), (2, "all"), (3, "all")],
        loads=[(4, "uz", -1.0)],
        options={"stop.max_steps": 15})
    assert m.unknowns == 3 and m.track_columns == ["u_4_uz"]
    r = m.run()
    assert r.points == 16 and r.unknowns == 3
    with pytest.raises(senda.ConfigError, match=r"nodes\[0\]: key 'model.node': Z is required in a 3D model"):
        senda.build(dim=3, nodes=[(1, 0.0, 0.0)], trusses=[], loads=[])


def test_unused_options_are_warned_at_the_options():
    rows = dict(trusses=[(1, 1, 2, 1.0), (2, 2, 3, 1.0)], fix=[(1, "all"), (3, "all")], loads=[(2, "uy", -1.0)])
    with pytest.warns(UserWarning, match=r"^options: design\.mu_max has no effect: no critical point is followed"):
        m = senda.build([(1, 0.0, 0.0), (2, 1.0, 0.5), (3, 2.0, 0.0)], **rows, options={"design.mu_max": 3.0})
    assert len(m.notes) == 1 and m.notes[0].startswith("options: design.mu_max has no effect")
    assert senda.build([(1, 0.0, 0.0), (2, 1.0, 0.5), (3, 2.0, 0.0)], **rows).notes == []
