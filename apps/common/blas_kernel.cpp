#include "blas_kernel.hpp"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

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

namespace {
sigset_t stop_signals() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  return s;
}
}  // namespace

void select_blas_kernel(char** argv) {
  if (getenv("OPENBLAS_CORETYPE") != nullptr) return;
  // AT_BASE, the interpreter's load address, is 0 when ld.so was itself the program.
  if (getauxval(AT_BASE) == 0) return;
  const std::string kernel = blas_kernel_for(openblas_core(), cpu_features());
  if (kernel.empty()) return;
  if (setenv("OPENBLAS_CORETYPE", kernel.c_str(), 1) != 0) return;
  const sigset_t stop = stop_signals();
  sigset_t before;
  sigprocmask(SIG_BLOCK, &stop, &before);
  if (const auto path = reinterpret_cast<const char*>(getauxval(AT_EXECFN))) execv(path, argv);
  execv("/proc/self/exe", argv);
  sigprocmask(SIG_SETMASK, &before, nullptr);  // not executed: go on as loaded
  unsetenv("OPENBLAS_CORETYPE");
}

void unblock_stop_signals() {
  const sigset_t stop = stop_signals();
  sigprocmask(SIG_UNBLOCK, &stop, nullptr);
}

}  // namespace senda_app
