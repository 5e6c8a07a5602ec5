#!/usr/bin/env python3
"""Scans every results directory the suite's CLI tests wrote (issue 19): a run that
ended with exit 0 (termination completed or max-steps, not interrupted) has no
non-finite value and no runaway number (|x| > 1e12) in summary.json or in any
.csv it wrote (path.csv, critical.csv, design-study curves, modes; the Newton
diagnostics of a point not located excepted), and no sweep (sweep.json, sweep.csv)
has one either. The structures of the suite have |lambda| < 1e4 and displacements
< 1e3; a value beyond 1e12 is an iterate that ran away and was accepted.

usage: scan_outputs.py WORK_DIR [MIN_RUNS]"""
import json
import math
import os
import sys

LIMIT = 1e12
SKIP_KEYS = {"lambda_min", "lambda_max"}  # of a run with no point: +-inf, written as null


def numbers(x, path=""):
    if isinstance(x, bool) or x is None:
        return
    if isinstance(x, (int, float)):
        yield path, x
    elif isinstance(x, dict):
        for k, v in x.items():
            if k in SKIP_KEYS or k in ("timing", "wall_time_s"):
                continue
            yield from numbers(v, path + "." + k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from numbers(v, "%s[%d]" % (path, i))


def scan_csv(path):
    """1 (and a message) if a cell of the .csv is non-finite or beyond LIMIT."""
    with open(path) as f:
        next(f, None)
        for n, line in enumerate(f, start=2):
            for cell in line.strip().split(","):
                try:
                    x = float(cell)
                except ValueError:
                    continue
                if not math.isfinite(x) or abs(x) > LIMIT:
                    print("%s line %d: %s" % (path, n, line.strip()[:200]))
                    return 1
    return 0


def run_csv_files(root):
    """The .csv results of the run in root: path.csv, critical.csv, the curves of the
    design studies and the like, in root and in its subdirectories that are not
    runs of their own (no summary.json); the modes are unit vectors, scanned too."""
    for entry in sorted(os.listdir(root)):
        full = os.path.join(root, entry)
        if entry.endswith(".csv") and os.path.isfile(full):
            yield full
        elif os.path.isdir(full) and not os.path.exists(os.path.join(full, "summary.json")):
            for sub_root, _dirs, files in os.walk(full):
                if "summary.json" in files:
                    continue
                for name in sorted(files):
                    if name.endswith(".csv"):
                        yield os.path.join(sub_root, name)


def load_json(path):
    """The parsed file, or None (a test that writes a broken file on purpose checks
    it itself)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def scan_json(path, s):
    """1 (and a message) if a number of the parsed file s is non-finite or beyond LIMIT."""
    for where, x in numbers(s):
        if not math.isfinite(x) or abs(x) > LIMIT:
            print("%s%s = %r" % (path, where, x))
            return 1
    return 0


def main():
    work = sys.argv[1]
    min_runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    runs = bad = 0
    for root, _dirs, files in os.walk(work):
        if "summary.json" in files:
            path = os.path.join(root, "summary.json")
            s = load_json(path)
            if isinstance(s, dict) and s.get("termination") in ("completed", "max-steps"):
                runs += 1
                # A point not located reports its failed Newton (a residual that grew
                # is the reason it failed): diagnostics, not results; its lambda is null.
                for c in s.get("critical_points", []):
                    if isinstance(c, dict) and c.get("converged") is False:
                        for k in ("residual", "residual_history", "gamma", "phi_dot_r"):
                            c.pop(k, None)
                bad += scan_json(path, s)
                for csv in run_csv_files(root):
                    bad += scan_csv(csv)
        # Sweeps (--sweep): sweep.json and sweep.csv; a run of the sweep that failed
        # has null/empty values, never a runaway one.
        if "sweep.json" in files:
            path = os.path.join(root, "sweep.json")
            s = load_json(path)
            if s is not None:
                runs += 1
                bad += scan_json(path, s)
                if "sweep.csv" in files:
                    bad += scan_csv(os.path.join(root, "sweep.csv"))
    print("%d runs scanned, %d with a runaway or non-finite value" % (runs, bad))
    if runs < min_runs:
        print("fewer runs than %d: the CLI tests have not run yet; skipped" % min_runs)
        return 77
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
