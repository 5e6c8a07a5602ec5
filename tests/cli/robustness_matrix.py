#!/usr/bin/env python3
"""Robustness matrix (issue 19): each structure's primary path traced with every
arc-length constraint, displacement control where a natural control dof exists,
and two initial steps (the file's and half of it) locates the same critical points
(kind, lambda to 1e-8 relative) as the file's own run, within the lambda range both
runs cover. A point that a combination cannot locate must be reported not located
with a bracket that holds it, never dropped, never replaced by another.

usage: robustness_matrix.py TRACE SOURCE_DIR WORK_DIR STRUCTURE [--table]
  --table prints the docs/validation.md rows of that structure instead of failing.
Only the standard library: the .json files are read with json."""
import json
import os
import re
import subprocess
import sys

# name: (cfg, natural control dof or None, extra overrides)
STRUCTURES = {
    "three-bar": ("problems/three-bar.cfg", "3 ux", []),
    "von-mises": ("problems/von-mises.cfg", "2 uy", []),
    "euler-column": ("problems/euler-column.cfg", None, []),
    "leaning-column": ("problems/leaning-column.cfg", None, []),
    # the columns at the default scaling (the files turn it off): round-off rotations
    # measured as lengths (docs/theory.md eq. 2.10)
    "euler-column-default-scaling": ("problems/euler-column.cfg", None, ["continuation.auto_scale=true"]),
    "leaning-column-default-scaling": ("problems/leaning-column.cfg", None, ["continuation.auto_scale=true"]),
    "roorda-frame": ("problems/roorda-frame.cfg", None, []),
    "lee-frame": ("problems/lee-frame.cfg", None, []),
    # the file's run ends at its lambda bounds in 117 steps; cylindrical steps at half
    # the file's first step (a load increment of 25, its length in the displacements
    # alone) need more than the file's 200 to come back past LP2 to BP5 and BP6
    "eriksson-frame": ("problems/eriksson-frame.cfg", None, ["stop.max_steps=400"]),
    "star-dome": ("problems/star-dome.cfg", None, []),
    "three-bar-imperfect": ("problems/three-bar-imperfect.cfg", None, []),
    "von-mises-sway": ("tests/continuation/cfg/von-mises-sway.cfg", "2 uy", []),
    # the pair of bifurcation points that cancel in one grown step (the eigenvalue monitor)
    "von-mises-sway-log": ("tests/continuation/cfg/von-mises-sway.cfg", "2 uy",
                           ["parameters.EA=1", "model.strain=logarithmic"]),
    "williams-toggle": ("tests/continuation/cfg/williams-toggle.cfg", None, []),
    "dadeppo-arch": ("tests/continuation/cfg/dadeppo-arch.cfg", None, []),
}
CONSTRAINTS = ["spherical", "cylindrical", "pseudo-arclength"]
# Combinations that follow another path than the file's run, by design: (structure,
# constraint) -> (more overrides, the points they must locate instead, as (kind,
# lambda)). Roorda's frame: the file's long steps step over the unfolded corner onto
# the complementary path and locate the perfect frame's BP1 (14.006, the .cfg
# header); cylindrical steps, whose first load increment is initial_step, follow the
# model's own path to its limit point LP1 = 13.9174526315 (the value the header gives
# for short steps), which takes 555 steps at the half step.
OTHER_PATH = {
    ("roorda-frame", "cylindrical"): (["stop.max_steps=700"], [("limit", 13.9174526315)]),
}
REL = 1e-8


def initial_step(cfg):
    with open(cfg) as f:
        for line in f:
            m = re.match(r"\s*initial_step\s*=\s*([0-9.eE+-]+)", line)
            if m:
                return float(m.group(1))
    return 0.05  # the default (docs/config.md)


def run(trace, cfg, out, overrides):
    args = [trace, cfg, "--out", out, "--overwrite", "--quiet", "--primary-only"] + overrides
    r = subprocess.run(args, capture_output=True, text=True)
    path = os.path.join(out, "summary.json")
    if not os.path.exists(path):
        return r.returncode, None
    with open(path) as f:
        return r.returncode, json.load(f)


def same(a, b):
    return abs(a - b) <= REL * max(1.0, abs(a))


def path_rows(out):
    """(branch, point) -> {column: value} of out/path.csv."""
    rows = {}
    path = os.path.join(out, "path.csv")
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        header = f.readline().strip().split(",")
        for line in f:
            cells = line.strip().split(",")
            row = {h: c for h, c in zip(header, cells)}
            try:
                rows[(int(row["branch"]), int(row["point"]))] = row
            except (KeyError, ValueError):
                continue
    return rows


def bracket_holds(c, bracket, rows):
    """Whether a not-located point's bracket holds the file's point c: in lambda, or
    (a fold is an extremum of lambda, outside its bracket's lambda range) in every
    displacement tracked at the point and at the bracket's ends."""
    b = bracket
    lo, hi = min(b["lambda_before"], b["lambda_after"]), max(b["lambda_before"], b["lambda_after"])
    if lo - REL * max(1, abs(lo)) <= c["lambda"] <= hi + REL * max(1, abs(hi)):
        return True
    ra, rb = rows.get((b["branch"], b["point_before"])), rows.get((b["branch"], b["point_after"]))
    shown = c.get("displacements") or {}
    if not ra or not rb or not shown:
        return False
    for name, value in shown.items():
        try:
            u, v = float(ra[name]), float(rb[name])
        except (KeyError, ValueError):
            return False
        if not (min(u, v) - REL * max(1, abs(value)) <= value <= max(u, v) + REL * max(1, abs(value))):
            return False
    return True


def compare(ref, got, got_dir, strict=False):
    """Problems of `got` against `ref`, within the lambda range both traced (strict:
    every point of `ref` must be located, wherever the path ended)."""
    problems = []
    rows = path_rows(got_dir)
    if got["termination"] not in ("completed", "max-steps"):
        problems.append("ended %s: %s" % (got["termination"], got.get("message", "")))
    if None in (ref["lambda_min"], ref["lambda_max"], got["lambda_min"], got["lambda_max"]):
        return problems + ["no lambda range (a run without points)"]
    lo = max(ref["lambda_min"], got["lambda_min"])
    hi = min(ref["lambda_max"], got["lambda_max"])
    inside = lambda l: lo - REL * max(1, abs(lo)) <= l <= hi + REL * max(1, abs(hi))
    located = [(c["kind"], c["lambda"]) for c in got["critical_points"] if c["converged"]]
    brackets = [c["bracket"] for c in got["critical_points"] if not c["converged"]]
    # One to one: each located point of `got` stands for one point of the file's run
    # (two points at the same lambda, e.g. mirror images, need two).
    used = [False] * len(located)

    def take(kind, lam):
        for i, (k, l) in enumerate(located):
            if not used[i] and k == kind and same(lam, l):
                used[i] = True
                return True
        return False

    # The combination must have traced as far as the file's run past every point the
    # file's run located, else it checks nothing: the point is located, or reported
    # not located with a bracket that holds it, or lies in the lambda range the path
    # covered (a limit point is an extremum of lambda: the path's points come near
    # it, within a step, not to it; 5 % of the lambda range covered).
    margin = 0.05 * (got["lambda_max"] - got["lambda_min"])
    for c in ref["critical_points"]:
        if not c["converged"]:
            continue
        if take(c["kind"], c["lambda"]):
            continue
        if strict:
            problems.append("%s at %.10g not located (lambda in [%.6g, %.6g])"
                            % (c["kind"], c["lambda"], got["lambda_min"], got["lambda_max"]))
            continue
        if any(bracket_holds(c, b, rows) for b in brackets):
            continue  # reported not located, with a bracket that holds it
        if not (got["lambda_min"] - margin <= c["lambda"] <= got["lambda_max"] + margin):
            problems.append("%s at %.10g not reached (lambda in [%.6g, %.6g])"
                            % (c["kind"], c["lambda"], got["lambda_min"], got["lambda_max"]))
        elif inside(c["lambda"]):
            problems.append("%s at %.10g dropped" % (c["kind"], c["lambda"]))
    for i, (k, l) in enumerate(located):
        if inside(l) and not used[i]:
            problems.append("%s at %.10g not in the file's run (or once more than there)" % (k, l))
    for c in got["critical_points"]:
        if not c["converged"] and c["lambda"] is not None:
            problems.append("%s not located, with a lambda" % c["id"])
    return problems


def main():
    trace, src, work, name = sys.argv[1:5]
    table = "--table" in sys.argv[5:]
    cfg_rel, control, extra = STRUCTURES[name]
    cfg = os.path.join(src, cfg_rel)
    step = initial_step(cfg)
    os.makedirs(work, exist_ok=True)
    rc, ref = run(trace, cfg, os.path.join(work, name + "-file"), extra)
    if ref is None or rc not in (0, 1):
        print("FAIL %s: the file's run: exit %d" % (name, rc))
        return 1
    ref_points = sum(1 for c in ref["critical_points"] if c["converged"])
    combos = [(c, s) for c in CONSTRAINTS for s in (step, step / 2)]
    if control:
        combos += [("displacement", s) for s in (step, step / 2)]
    failed = 0
    rows = []
    spread = 0.0  # largest relative difference of a located lambda from the file's
    for constraint, s in combos:
        overrides = extra + ["continuation.constraint=" + constraint, "continuation.initial_step=%.17g" % s]
        if constraint == "displacement":
            overrides.append("continuation.control=" + control)
        label = "%s, initial_step %g" % (constraint, s)
        expected = ref
        if (name, constraint) in OTHER_PATH:
            more, points = OTHER_PATH[(name, constraint)]
            overrides = overrides + more
            lams = [l for _, l in points]
            expected = {"lambda_min": min([0.0] + lams), "lambda_max": max(lams),
                        "critical_points": [{"kind": k, "lambda": l, "converged": True} for k, l in points]}
        rc, got = run(trace, cfg, os.path.join(work, "%s-%s-%g" % (name, constraint, s)), overrides)
        if got is None or rc not in (0, 1):
            print("FAIL %s %s: exit %d, no summary" % (name, label, rc))
            failed += 1
            rows.append((constraint, s, "exit %d" % rc, "-", "-"))
            continue
        problems = compare(expected, got, os.path.join(work, "%s-%s-%g" % (name, constraint, s)),
                           strict=expected is not ref)
        for c in got["critical_points"]:
            if c["converged"]:
                for r in expected["critical_points"]:
                    if r["converged"] and r["kind"] == c["kind"] and same(r["lambda"], c["lambda"]):
                        spread = max(spread, abs(r["lambda"] - c["lambda"]) / max(1.0, abs(r["lambda"])))
        located = sum(1 for c in got["critical_points"] if c["converged"])
        unlocated = sum(1 for c in got["critical_points"] if not c["converged"])
        rows.append((constraint, s, got["termination"], located, unlocated))
        if problems:
            failed += 1
            print("FAIL %s %s: %s" % (name, label, "; ".join(problems[:6])))
    if table:
        cells = []
        for constraint, s, term, located, unlocated in rows:
            cells.append("%s %g: %s%s" % (constraint, s, located, "" if not unlocated else " + %s not located" % unlocated))
        print("| %s | %d | %s | %.1e | %s |" % (name, ref_points, "; ".join(cells), spread,
                                                "ok" if failed == 0 else "%d failed" % failed))
        return 0
    if failed == 0:
        print("ok %s: %d combinations, %d located points in the file's run, largest spread %.1e"
              % (name, len(combos), ref_points, spread))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
