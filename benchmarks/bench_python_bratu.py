"""Callback overhead of a problem written in Python: the Bratu problem
(examples/python/bratu.py, a scipy.sparse tangent) traced by senda.trace against
the C++ Bratu of benchmarks/bratu.hpp (bench_bratu), same path options, same stop
(past the fold, below λ = 1 on the upper branch). Prints JSON; not run by ctest.

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/bench_python_bratu.py [--n 100000] [--bench build/benchmarks/bench_bratu]

ratio = Python wall time / C++ wall time, both for the whole trace including the
location of the fold (the C++ figure is the bench_bratu process's wall time, whose
start-up is negligible at this size). docs/performance.md gives the figures.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
import scipy.sparse as sp

import senda


class Bratu(senda.Problem):
    def __init__(self, n):
        super().__init__(n)
        self.h2 = 1.0 / (n + 1) ** 2
        self.L = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csc")
        self.calls = {"residual": 0, "tangent": 0, "load_derivative": 0}

    def residual(self, u, lam):
        self.calls["residual"] += 1
        return self.L @ u - self.h2 * lam * np.exp(u)

    def tangent(self, u, lam):
        self.calls["tangent"] += 1
        return (self.L - sp.diags(self.h2 * lam * np.exp(u))).tocsc()

    def load_derivative(self, u, lam):
        self.calls["load_derivative"] += 1
        return -self.h2 * np.exp(u)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--bench", default=os.path.join("build", "benchmarks", "bench_bratu"))
    a = ap.parse_args()

    # bench_bratu's path options (benchmarks/bench_bratu.cpp).
    options = {"explorer.path.constraint": senda.Constraint.PSEUDO_ARCLENGTH,
               "explorer.path.initial_load_increment": 0.1, "explorer.path.max_step_ratio": 30.0,
               "explorer.path.max_steps": 1000, "explorer.switch_branches": False}
    top = [0.0]

    def past_the_fold(p):
        top[0] = max(top[0], p["lam"])
        return not (p["lam"] < 1.0 and top[0] > 1.0)

    problem = Bratu(a.n)
    t0 = time.perf_counter()
    r = senda.trace(problem, options, progress=past_the_fold)
    python_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = subprocess.run([a.bench, "--n", str(a.n)], capture_output=True, text=True, check=True)
    cpp_s = time.perf_counter() - t0
    cpp = json.loads(out.stdout)[0]

    fold = r.critical_points[0].lam if r.critical_points else None
    cpp_fold = cpp["critical_points"][0]["lambda"] if cpp["critical_points"] else None
    json.dump({
        "problem": "bratu", "unknowns": a.n,
        "python": {"wall_s": python_s, "points": r.points, "newton_iterations": r.stats["newton_iterations"],
                   "calls": problem.calls, "fold_lambda": fold},
        "cpp": {"wall_s": cpp_s, "time_s_total": cpp["time_s"]["total"], "points": cpp["points"],
                "newton_iterations": cpp["newton_iterations"], "fold_lambda": cpp_fold},
        "ratio": python_s / cpp_s,
        "fold_relative_difference": abs(fold - cpp_fold) / cpp_fold if fold and cpp_fold else None,
    }, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
