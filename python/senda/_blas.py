"""OpenBLAS's kernels for this process, chosen before OpenBLAS is loaded.

The commands do this in C++ (apps/common/blas_kernel.hpp). Debian 12's OpenBLAS
0.3.21 gives an Intel CPU that is missing from its table its "Prescott" (SSE3)
kernels and does not use the CPU's own features (OpenMathLib/OpenBLAS issue 4267,
fixed in 0.3.25). An Emerald Rapids Xeon is such a CPU: every dense front of MUMPS
then runs without AVX, and factorizations take 20–35 % longer (docs/performance.md,
"OpenBLAS's kernels"). OpenBLAS reads ``OPENBLAS_CORETYPE`` only once, when it is
loaded. So the variable must be set before ``import numpy`` or the ``_core``
extension loads OpenBLAS.

:func:`select` runs first in ``senda/__init__.py``:

* When ``OPENBLAS_CORETYPE`` is set, it does nothing. A value the user set is kept,
  ``Prescott`` included.
* When the CPU has no AVX, it does nothing: no better kernels exist.
* When OpenBLAS is not loaded yet, a child interpreter loads it and reports its
  choice. Only a ``Prescott`` choice is corrected: the variable is set to the kernels
  the CPU's features support (SkylakeX with AVX-512, Haswell with AVX2 and FMA,
  Sandybridge with AVX), in ``os.environ``, so processes started from here inherit
  it, as they do from the commands.
* When OpenBLAS is already loaded with ``Prescott`` (``numpy`` imported first), a
  RuntimeWarning says what to set before starting Python.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import warnings
from typing import Iterable, Optional

# Loads OpenBLAS globally and asks the global scope for its choice: an
# openblas_get_corename() preloaded (LD_PRELOAD, the tests' stub) is found first,
# as the commands' dlsym(RTLD_DEFAULT) finds it.
_PROBE = (
    "import ctypes\n"
    "ctypes.CDLL('libopenblas.so.0', mode=ctypes.RTLD_GLOBAL)\n"
    "f = ctypes.CDLL(None).openblas_get_corename\n"
    "f.restype = ctypes.c_char_p\n"
    "print(f().decode())\n"
)


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


def _openblas_loaded() -> bool:
    try:
        with open("/proc/self/maps", encoding="ascii", errors="replace") as f:
            return any("libopenblas" in line for line in f)
    except OSError:
        return False


def _loaded_core() -> str:
    """The kernels of the OpenBLAS this process has loaded ("" when not found)."""
    for name in (None, "libopenblas.so.0"):
        try:
            f = ctypes.CDLL(name).openblas_get_corename
        except (OSError, AttributeError):
            continue
        f.restype = ctypes.c_char_p
        core = f()
        return core.decode() if core else ""
    return ""


def select() -> Optional[str]:
    """Sets OPENBLAS_CORETYPE when OpenBLAS would run its Prescott kernels on a CPU
    with AVX. Returns the value set, or None when nothing was set."""
    if "OPENBLAS_CORETYPE" in os.environ or not sys.platform.startswith("linux"):
        return None
    flags = _cpu_flags()
    if not kernel_for("Prescott", flags):
        return None  # no AVX: nothing better to choose
    if _openblas_loaded():
        kernel = kernel_for(_loaded_core(), flags)
        if kernel:
            warnings.warn(
                "OpenBLAS was loaded before senda (by numpy?) and runs its Prescott (SSE3) kernels on "
                "this CPU, which it does not know (OpenBLAS issue 4267): factorizations of large models "
                f"take 20-35 % longer. Start Python with OPENBLAS_CORETYPE={kernel}, or import senda "
                "first (docs/python.md)",
                RuntimeWarning,
                stacklevel=2,
            )
        return None
    if not sys.executable:
        return None  # an embedded interpreter: no child to ask
    try:
        probe = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _PROBE],
            capture_output=True, text=True, timeout=60, check=False,
        )
    except (OSError, ValueError, subprocess.SubprocessError):
        return None  # no child process here: OpenBLAS keeps its own choice
    kernel = kernel_for(probe.stdout.strip() if probe.returncode == 0 else "", flags)
    if not kernel:
        return None
    os.environ["OPENBLAS_CORETYPE"] = kernel
    return kernel
