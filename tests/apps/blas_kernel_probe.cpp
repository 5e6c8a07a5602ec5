// For ctest apps.blas_kernel (tests/apps/blas_kernel.sh): runs the commands' first
// step, select_blas_kernel(), factorizes a small matrix as the commands do (so that
// the BLAS of MUMPS and CHOLMOD is loaded, as in trace), then prints OpenBLAS's
// kernels, whether the CPU has AVX and its own arguments, one per line: the script
// checks that the kernels were corrected and that a re-execution kept argv.
#include <cstdio>

#include "blas_kernel.hpp"
#include "senda/linalg/factorization.hpp"

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);
  senda::SparseMatrix K(2, 2);
  K.insert(0, 0) = 2.0;
  K.insert(1, 0) = -1.0;
  K.insert(0, 1) = -1.0;
  K.insert(1, 1) = 2.0;
  K.makeCompressed();
  senda::linalg::SymmetricFactorization f(K);
  if (f.factorize(K) != senda::linalg::FactorStatus::Ok) return 1;
  const senda_app::CpuFeatures cpu = senda_app::cpu_features();
  std::printf("core=%s\navx=%d\n", senda_app::openblas_core().c_str(), cpu.avx ? 1 : 0);
  for (int i = 1; i < argc; ++i) std::printf("arg=%s\n", argv[i]);
  return 0;
}
