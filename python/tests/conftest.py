"""Shared fixtures: the source tree, the trace command of the same build, and a
helper that runs trace into a scratch directory and reads its summary.json.

ctest (python/CMakeLists.txt) sets SENDA_SOURCE_DIR, SENDA_TRACE and PYTHONPATH;
run by hand from the source directory with
    PYTHONPATH=build/python /usr/bin/python3 -m pytest python/tests
"""
import json
import os
import pathlib
import subprocess

import pytest

# First, before any test module's numpy: OpenBLAS's kernels are chosen when it loads
# (senda/_blas.py), and the suite runs with the same kernels as trace.
import senda  # noqa: F401

SOURCE = pathlib.Path(os.environ.get("SENDA_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def _tool(env, relative):
    p = pathlib.Path(os.environ.get(env, SOURCE / "build" / relative))
    return p if p.exists() else None


TRACE = _tool("SENDA_TRACE", "apps/trace")
BENCH_BRATU = _tool("SENDA_BENCH_BRATU", "benchmarks/bench_bratu")


@pytest.fixture
def source():
    return SOURCE


@pytest.fixture(autouse=True)
def _in_source_dir(monkeypatch):
    # Config paths in messages and summary.json are as given: relative to the source dir, as trace's.
    monkeypatch.chdir(SOURCE)


@pytest.fixture
def run_trace(tmp_path):
    """run_trace(cfg, *args) -> (exit code, stderr, out dir) of trace CFG --out DIR --quiet ARGS."""
    if TRACE is None:
        pytest.fail("the trace command was not found (build it, or set SENDA_TRACE)")

    def run(cfg, *args, out=None):
        out = out or tmp_path / "cli"
        p = subprocess.run([str(TRACE), str(cfg), "--out", str(out), "--quiet", *args], cwd=SOURCE,
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stderr, out

    return run


def read_summary(out):
    with open(pathlib.Path(out) / "summary.json") as f:
        return json.load(f)
