"""OpenBLAS's kernels chosen by ``import senda`` (senda/_blas.py), as the commands
choose them (tests/apps/blas_kernel.sh). SENDA_PRESCOTT_STUB (set by ctest) is a
library whose openblas_get_corename() says "Prescott", preloaded so that the
correction happens on any host."""
import os
import subprocess
import sys

import pytest

from senda import _blas

STUB = os.environ.get("SENDA_PRESCOTT_STUB")
HOST_KERNEL = _blas.kernel_for("Prescott", _blas._cpu_flags())  # "" on a CPU without AVX


def run_python(code, **env):
    """stdout and stderr of a fresh interpreter importing from this build; env values
    None unset the variable."""
    e = dict(os.environ)
    e.pop("OPENBLAS_CORETYPE", None)
    for k, v in env.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    p = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip(), p.stderr


def test_kernel_for_the_cpu_features():
    avx512 = {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}
    assert _blas.kernel_for("Prescott", avx512 | {"avx", "avx2", "fma"}) == "SkylakeX"
    assert _blas.kernel_for("Prescott", {"avx", "avx2", "fma", "avx512f"}) == "Haswell"  # partial AVX-512
    assert _blas.kernel_for("Prescott", {"avx", "avx2"}) == "Sandybridge"  # AVX2 without FMA
    assert _blas.kernel_for("Prescott", {"sse3", "ssse3"}) == ""
    # A choice OpenBLAS made from its table is kept.
    assert _blas.kernel_for("Zen", avx512 | {"avx", "avx2", "fma"}) == ""
    assert _blas.kernel_for("", {"avx"}) == ""


def test_the_hosts_openblas_is_not_left_on_prescott():
    out, _ = run_python("import senda, senda._blas as b; print(b._loaded_core())")
    if out and HOST_KERNEL:
        assert out != "Prescott"


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_a_prescott_fallback_is_corrected_before_openblas_loads():
    out, err = run_python("import senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))",
                          LD_PRELOAD=STUB, OPENBLAS_VERBOSE="2")
    assert out == (HOST_KERNEL or "None")
    assert "RuntimeWarning" not in err
    if HOST_KERNEL and "Core:" in err:  # OpenBLAS itself read the variable when it loaded
        assert f"Core: {HOST_KERNEL}" in err


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_a_value_the_user_set_is_kept():
    out, err = run_python("import senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))",
                          LD_PRELOAD=STUB, OPENBLAS_CORETYPE="Prescott")
    assert out == "Prescott"
    assert "RuntimeWarning" not in err


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_openblas_loaded_first_is_said_not_changed():
    out, err = run_python("import numpy, senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))", LD_PRELOAD=STUB)
    assert out == "None"
    if HOST_KERNEL and "libopenblas" in run_python(
            "import numpy; print(open('/proc/self/maps').read())", LD_PRELOAD=STUB)[0]:
        assert "RuntimeWarning: OpenBLAS was loaded before senda" in err
        assert f"OPENBLAS_CORETYPE={HOST_KERNEL}" in err
    else:  # numpy without the system OpenBLAS, or a CPU without AVX: nothing to say
        assert "RuntimeWarning" not in err
