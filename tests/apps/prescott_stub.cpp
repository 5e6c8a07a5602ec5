// For ctest apps.blas_kernel: preloaded (LD_PRELOAD), this openblas_get_corename()
// answers "Prescott" as OpenBLAS 0.3.21 does on a CPU it does not know, so that the
// re-execution of select_blas_kernel() is exercised on every host.
extern "C" const char* openblas_get_corename() { return "Prescott"; }
