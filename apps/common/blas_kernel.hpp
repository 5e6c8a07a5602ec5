#pragma once
// The BLAS kernels OpenBLAS runs MUMPS's dense fronts (and CHOLMOD's supernodes) with.
//
// OpenBLAS built with DYNAMIC_ARCH (Debian's libopenblas0-pthread) picks its kernels
// when it is loaded, from the CPU's family and model, and for a model missing from
// its table from the CPU's features (since 0.3.19). Up to 0.3.24 an Intel model
// missing from the table skipped that fallback and got "Prescott", the SSE3 kernels
// of 2004 (OpenMathLib/OpenBLAS issue 4267, fixed by pull request 4268 in 0.3.25).
// Debian 12 ships 0.3.21: on an Emerald Rapids Xeon (family 6, model 207, AVX-512)
// every dense front ran without AVX (docs/performance.md, "OpenBLAS's kernels").
//
// OpenBLAS reads OPENBLAS_CORETYPE once, in its constructor, before main(); so a
// program that finds the Prescott fallback on a CPU with AVX sets the variable to the
// kernels its features support and executes itself again. A variable the user set
// (any value, "Prescott" included) is left alone: it is the way to opt out.
#include <string>

namespace senda_app {

// What the CPU supports (as the OS enables it), for blas_kernel_for().
struct CpuFeatures {
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool avx512 = false;  // F, CD, BW, DQ and VL: what OpenBLAS's SkylakeX kernels use
};

CpuFeatures cpu_features();

// The OPENBLAS_CORETYPE to run with, given the kernels OpenBLAS chose (its
// openblas_get_corename()) and the CPU's features; "" to keep OpenBLAS's choice.
// Only the Prescott fallback is corrected: SkylakeX with AVX-512, Haswell with AVX2
// and FMA, Sandybridge with AVX.
std::string blas_kernel_for(const std::string& chosen, const CpuFeatures& cpu);

// The kernels of the OpenBLAS loaded in this process ("" when the BLAS is not
// OpenBLAS, e.g. the reference BLAS of libblas3).
std::string openblas_core();

// First thing in main(): when OPENBLAS_CORETYPE is unset and blas_kernel_for() names a
// kernel, sets the variable and executes the program again with the same argv (by the
// path it was started with, so that its name stays the same; /proc/self/exe when that
// fails). Not when the program was started by the dynamic loader (ld.so PROGRAM):
// executing again would run ld.so. Returns only when there is nothing to change or
// the execution failed (the run then goes on with OpenBLAS's own choice).
//
// SIGINT and SIGTERM are blocked across the execution, so that a Ctrl-C while the
// program loads again stays pending instead of killing it: the new image must call
// unblock_stop_signals(), which install_stop_handler() (common.hpp) does once its
// handler is in place.
void select_blas_kernel(char** argv);

// Unblocks SIGINT and SIGTERM (a pending one is delivered now).
void unblock_stop_signals();

}  // namespace senda_app
