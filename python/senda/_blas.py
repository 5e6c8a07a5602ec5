"""OpenBLAS's kernels for this process, chosen before OpenBLAS is loaded.

The commands do this in C++ (apps/common/blas_kernel.hpp). Debian 12's OpenBLAS
0.3.21 gives an Intel CPU that is missing from its table its "Prescott" (SSE3)
kernels and does not use the CPU's own features (OpenMathLib/OpenBLAS issue 4267,
fixed in 0.3.25). An Emerald Rapids Xeon is such a CPU: every dense front of MUMPS
then runs without AVX, and factorizations take 30-60 % longer (docs/performance.md,
"OpenBLAS's kernels"). OpenBLAS reads ``OPENBLAS_CORETYPE`` only once, when it is
loaded. So the variable must be set before ``import numpy`` or the ``_core``
extension loads OpenBLAS.

:func:`select` runs first in ``senda/__init__.py``:

* When ``OPENBLAS_CORETYPE`` is set, it does nothing. A value the user set is kept,
  ``Prescott`` and the empty string included.
* When the CPU has no AVX, it does nothing: no better kernels exist.
* When the system's OpenBLAS (``libopenblas.so.0``, which MUMPS links and Debian's
  ``libblas.so.3`` of OpenBLAS depends on) is not loaded yet, a child interpreter
  loads the BLAS libraries and reports OpenBLAS's choice. Only a ``Prescott`` choice
  is corrected: the variable is set to the kernels the CPU's features support
  (SkylakeX with AVX-512, Haswell with AVX2 and FMA, Sandybridge with AVX), in
  ``os.environ``, so processes started from here inherit it, as they do from the
  commands.
* When that OpenBLAS is already loaded with ``Prescott`` (``numpy`` imported first),
  a :class:`BlasKernelWarning` says what to set before starting Python.
* A frozen application, an interpreter that is not ``python*``, or the probe's own
  child asks no child: OpenBLAS keeps its own choice.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import warnings
from typing import Iterable, Optional

# Set in the probe's child, so that it never probes in turn.
_PROBE_MARK = "SENDA_BLAS_PROBE"

# Loads the BLAS libraries globally (whichever exist) and asks the global scope for
# OpenBLAS's choice: an openblas_get_corename() preloaded (LD_PRELOAD, the tests'
# stub) is found first, as the commands' dlsym(RTLD_DEFAULT) finds it.
_PROBE = (
    "import ctypes\n"
    "for name in ('libopenblas.so.0', 'libblas.so.3', 'liblapack.so.3'):\n"
    "    try:\n"
    "        ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)\n"
    "    except OSError:\n"
    "        pass\n"
    "f = ctypes.CDLL(None).openblas_get_corename\n"
    "f.restype = ctypes.c_char_p\n"
    "print(f().decode())\n"
)


class BlasKernelWarning(RuntimeWarning):
    """OpenBLAS was loaded before senda and runs kernels older than the CPU."""


def kernel_for(chosen: str, flags: Iterable[str]) -> str:
    """The OPENBLAS_CORETYPE to run with, given OpenBLAS's choice and the CPU's flags
    (as /proc/cpuinfo names them); "" to keep OpenBLAS's choice."""
    if chosen != "Prescott":
        return ""
    f = set(flags)
    if {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx2", "fma"} <= f:
        return "SkylakeX"
    if {"avx2", "fma"} <= f:
        return "Haswell"
    if "avx" in f:
        return "Sandybridge"
    return ""


def _cpu_flags() -> set:
    # The kernel lists a feature here only when the OS saves its registers.
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _loaded_openblas() -> Optional[ctypes.CDLL]:
    """The system's OpenBLAS when this process has loaded it already (RTLD_NOLOAD:
    asking loads nothing), else None."""
    try:
        return ctypes.CDLL("libopenblas.so.0", mode=os.RTLD_NOLOAD)
    except (OSError, AttributeError):
        return None


def _core_name(lib: Optional[ctypes.CDLL]) -> str:
    """OpenBLAS's kernels: from the global scope first (a preloaded library), then
    from lib ("" when neither has openblas_get_corename)."""
    for handle in (ctypes.CDLL(None), lib):
        if handle is None:
            continue
        try:
            f = handle.openblas_get_corename
        except AttributeError:
            continue
        f.restype = ctypes.c_char_p
        core = f()
        return core.decode() if core else ""
    return ""


def _can_probe() -> bool:
    if os.environ.get(_PROBE_MARK) or getattr(sys, "frozen", False) or not sys.executable:
        return False
    # An embedding program (uWSGI, a frozen bundle) may name itself here: starting it
    # again would start the application, not an interpreter.
    return os.path.basename(sys.executable).startswith("python")


def _probe() -> str:
    """The kernels OpenBLAS chooses when loaded with this environment ("" when the
    child could not say)."""
    env = dict(os.environ)
    env[_PROBE_MARK] = "1"
    env["OPENBLAS_NUM_THREADS"] = "1"  # the choice does not depend on it; the start-up does
    try:
        p = subprocess.run([sys.executable, "-I", "-S", "-c", _PROBE], env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=10, check=False)
    except (OSError, ValueError, subprocess.SubprocessError):
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


def select() -> Optional[str]:
    """Sets OPENBLAS_CORETYPE when OpenBLAS would run its Prescott kernels on a CPU
    with AVX. Returns the value set, or None when nothing was set."""
    if "OPENBLAS_CORETYPE" in os.environ or not sys.platform.startswith("linux"):
        return None
    flags = _cpu_flags()
    if not kernel_for("Prescott", flags):
        return None  # no AVX: nothing better to choose
    lib = _loaded_openblas()
    if lib is not None:
        kernel = kernel_for(_core_name(lib), flags)
        if kernel:
            warnings.warn(
                "OpenBLAS was loaded before senda (by numpy?) and runs its Prescott (SSE3) kernels on "
                "this CPU, which it does not know (OpenBLAS issue 4267): factorizations of large models "
                f"take 30-60 % longer. Start Python with OPENBLAS_CORETYPE={kernel}, or import senda "
                "first (docs/python.md)",
                BlasKernelWarning,
                stacklevel=2,
            )
        return None
    if not _can_probe():
        return None
    kernel = kernel_for(_probe(), flags)
    if not kernel:
        return None
    os.environ["OPENBLAS_CORETYPE"] = kernel
    return kernel
