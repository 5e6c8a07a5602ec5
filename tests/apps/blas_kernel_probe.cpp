// For ctest apps.blas_kernel (tests/apps/blas_kernel.sh): runs the commands' first
// steps, select_blas_kernel() then unblock_stop_signals(), around a small
// factorization as the commands do (so that the BLAS of MUMPS and CHOLMOD is loaded,
// as in trace), and prints what the script checks, one "key=value" per line:
// OpenBLAS's kernels, whether the CPU has AVX, the kernels select_blas_kernel() would
// ask for after a Prescott fallback, OPENBLAS_CORETYPE, the process's name, whether
// SIGINT and SIGTERM were blocked after select_blas_kernel() and after
// unblock_stop_signals(), and its own arguments.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "blas_kernel.hpp"
#include "senda/linalg/factorization.hpp"

namespace {
int stop_signals_blocked() {
  sigset_t now;
  sigprocmask(SIG_BLOCK, nullptr, &now);
  return sigismember(&now, SIGINT) && sigismember(&now, SIGTERM) ? 1 : 0;
}
}  // namespace

int main(int argc, char** argv) {
  senda_app::select_blas_kernel(argv);
  const int held = stop_signals_blocked();
  senda_app::unblock_stop_signals();
  const int held_after = stop_signals_blocked();
  senda::SparseMatrix K(2, 2);
  K.insert(0, 0) = 2.0;
  K.insert(1, 0) = -1.0;
  K.insert(0, 1) = -1.0;
  K.insert(1, 1) = 2.0;
  K.makeCompressed();
  senda::linalg::SymmetricFactorization f(K);
  if (f.factorize(K) != senda::linalg::FactorStatus::Ok) return 1;
  const senda_app::CpuFeatures cpu = senda_app::cpu_features();
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  std::string comm;
  std::getline(std::ifstream("/proc/self/comm"), comm);
  std::printf("core=%s\navx=%d\nexpected=%s\ncoretype=%s\ncomm=%s\nheld=%d\nheld_after=%d\n",
              senda_app::openblas_core().c_str(), cpu.avx ? 1 : 0,
              senda_app::blas_kernel_for("Prescott", cpu).c_str(), coretype ? coretype : "(unset)", comm.c_str(),
              held, held_after);
  for (int i = 1; i < argc; ++i) std::printf("arg=%s\n", argv[i]);
  return 0;
}
