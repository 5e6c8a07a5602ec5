"""OpenBLAS's kernels chosen by ``import senda`` (senda/_blas.py), as the commands
choose them (tests/apps/blas_kernel.sh). SENDA_PRESCOTT_STUB (set by ctest; by hand,
build/tests/libblas_prescott_stub.so) is a library whose openblas_get_corename()
says "Prescott", preloaded so that the correction happens on any host."""
import os
import subprocess
import sys

import pytest

import senda
from conftest import SOURCE
from senda import _blas

STUB = os.environ.get("SENDA_PRESCOTT_STUB") or (
    str(SOURCE / "build/tests/libblas_prescott_stub.so")
    if (SOURCE / "build/tests/libblas_prescott_stub.so").exists() else None)
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
    out, _ = run_python("import senda, senda._blas as b; print(b._core_name(b._loaded_openblas()))")
    if out and HOST_KERNEL:
        assert out != "Prescott"


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_a_prescott_fallback_is_corrected_before_openblas_loads():
    out, err = run_python("import senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))",
                          LD_PRELOAD=STUB, OPENBLAS_VERBOSE="2")
    assert out == (HOST_KERNEL or "None")
    assert "BlasKernelWarning" not in err
    if HOST_KERNEL and "Core:" in err:  # OpenBLAS itself read the variable when it loaded
        assert f"Core: {HOST_KERNEL}" in err


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_a_value_the_user_set_is_kept():
    out, err = run_python("import senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))",
                          LD_PRELOAD=STUB, OPENBLAS_CORETYPE="Prescott")
    assert out == "Prescott"
    assert "BlasKernelWarning" not in err


@pytest.mark.skipif(not STUB, reason="SENDA_PRESCOTT_STUB not set (ctest sets it)")
def test_openblas_loaded_first_is_said_not_changed():
    out, err = run_python("import numpy, senda, os; print(os.environ.get('OPENBLAS_CORETYPE'))", LD_PRELOAD=STUB)
    assert out == "None"
    if HOST_KERNEL and "libopenblas" in run_python(
            "import numpy; print(open('/proc/self/maps').read())", LD_PRELOAD=STUB)[0]:
        assert "BlasKernelWarning: OpenBLAS was loaded before senda" in err
        assert f"OPENBLAS_CORETYPE={HOST_KERNEL}" in err
    else:  # numpy without the system OpenBLAS, or a CPU without AVX: nothing to say
        assert "BlasKernelWarning" not in err


# select() in this process, its inputs replaced (monkeypatch restores the environment).

@pytest.fixture
def unset(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "placeholder")  # recorded, restored after the test
    monkeypatch.delenv("OPENBLAS_CORETYPE")
    monkeypatch.delenv(_blas._PROBE_MARK, raising=False)
    monkeypatch.setattr(_blas, "_cpu_flags", lambda: {"avx", "avx2", "fma"})
    monkeypatch.setattr(_blas, "_loaded_openblas", lambda: None)
    return monkeypatch


def test_select_sets_the_kernel_when_the_probe_says_prescott(unset):
    unset.setattr(_blas, "_can_probe", lambda: True)
    unset.setattr(_blas, "_probe", lambda: "Prescott")
    assert _blas.select() == "Haswell"
    assert os.environ["OPENBLAS_CORETYPE"] == "Haswell"


@pytest.mark.parametrize("answer", ["Zen", "SkylakeX", ""])
def test_select_keeps_any_other_answer_of_the_probe(unset, answer):
    unset.setattr(_blas, "_can_probe", lambda: True)
    unset.setattr(_blas, "_probe", lambda: answer)
    assert _blas.select() is None
    assert "OPENBLAS_CORETYPE" not in os.environ


def test_a_probe_that_cannot_start_changes_nothing(unset):
    unset.setattr(_blas, "_can_probe", lambda: True)

    def refuse(*args, **kwargs):
        raise OSError("no child processes here")

    unset.setattr(subprocess, "run", refuse)
    assert _blas._probe() == ""
    assert _blas.select() is None
    assert "OPENBLAS_CORETYPE" not in os.environ


def test_an_empty_value_counts_as_set(unset):
    unset.setenv("OPENBLAS_CORETYPE", "")
    unset.setattr(_blas, "_probe", lambda: pytest.fail("probed with OPENBLAS_CORETYPE set"))
    assert _blas.select() is None
    assert os.environ["OPENBLAS_CORETYPE"] == ""


def test_no_avx_no_probe(unset):
    unset.setattr(_blas, "_cpu_flags", lambda: {"sse3", "ssse3"})
    unset.setattr(_blas, "_probe", lambda: pytest.fail("probed on a CPU without AVX"))
    assert _blas.select() is None


def test_no_child_from_a_frozen_or_embedded_program_or_from_the_probe_itself(unset):
    unset.setattr(sys, "executable", "/usr/bin/python3")
    assert _blas._can_probe()
    unset.setattr(sys, "frozen", True, raising=False)
    assert not _blas._can_probe()
    unset.delattr(sys, "frozen")
    unset.setattr(sys, "executable", "/usr/bin/uwsgi")
    assert not _blas._can_probe()
    unset.setattr(sys, "executable", "")
    assert not _blas._can_probe()
    unset.setattr(sys, "executable", "/usr/bin/python3")
    unset.setenv(_blas._PROBE_MARK, "1")
    assert not _blas._can_probe()


def test_openblas_loaded_on_prescott_is_a_warning_and_no_change(unset):
    unset.setattr(_blas, "_loaded_openblas", lambda: object())
    unset.setattr(_blas, "_core_name", lambda lib: "Prescott")
    unset.setattr(_blas, "_probe", lambda: pytest.fail("probed with OpenBLAS loaded"))
    with pytest.warns(senda.BlasKernelWarning, match="OPENBLAS_CORETYPE=Haswell"):
        assert _blas.select() is None
    assert "OPENBLAS_CORETYPE" not in os.environ
    unset.setattr(_blas, "_core_name", lambda lib: "Haswell")  # its own table's choice: nothing to say
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _blas.select() is None
