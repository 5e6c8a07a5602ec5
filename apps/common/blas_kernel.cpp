#include "blas_kernel.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace senda_app {

CpuFeatures cpu_features() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  // libgcc's checks include the OS's support (XGETBV) for the AVX and AVX-512 state.
  __builtin_cpu_init();
  f.avx = __builtin_cpu_supports("avx");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
#endif
  return f;
}

std::string blas_kernel_for(const std::string& chosen, const CpuFeatures& cpu) {
  if (chosen != "Prescott") return "";
  if (cpu.avx512 && cpu.avx2 && cpu.fma) return "SkylakeX";
  if (cpu.avx2 && cpu.fma) return "Haswell";
  if (cpu.avx) return "Sandybridge";
  return "";
}

std::string openblas_core() {
  using CoreName = char* (*)();
  // Looked up, not linked: the BLAS is whichever Debian's alternatives point at.
  const auto name = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const char* core = name ? name() : nullptr;
  return core ? std::string(core) : std::string();
}

void select_blas_kernel(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  const std::string kernel = blas_kernel_for(openblas_core(), cpu_features());
  if (kernel.empty()) return;
  if (setenv("OPENBLAS_CORETYPE", kernel.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");  // not executed: go on as loaded
}

}  // namespace senda_app
