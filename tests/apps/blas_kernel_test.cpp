// The choice of OpenBLAS's kernels (apps/common/blas_kernel.hpp): only the Prescott
// fallback of OpenBLAS ≤ 0.3.24 on a CPU it does not know is corrected, to the
// newest kernels the CPU's features support. tests/apps/blas_kernel_probe.cpp
// checks the re-execution itself (ctest apps.blas_kernel).
#include <catch2/catch.hpp>
#include <string>

#include "blas_kernel.hpp"

TEST_CASE("BLAS kernels: the Prescott fallback is replaced by the CPU's features", "[apps][blas]") {
  using senda_app::blas_kernel_for;
  using senda_app::CpuFeatures;
  const CpuFeatures none{};
  const CpuFeatures avx{true, false, false, false};
  const CpuFeatures avx2{true, true, true, false};
  const CpuFeatures avx512{true, true, true, true};
  CHECK(blas_kernel_for("Prescott", avx512) == "SkylakeX");  // e.g. Emerald Rapids (family 6, model 207)
  CHECK(blas_kernel_for("Prescott", avx2) == "Haswell");
  CHECK(blas_kernel_for("Prescott", avx) == "Sandybridge");
  CHECK(blas_kernel_for("Prescott", none).empty());  // a CPU that has only SSE3: Prescott is right
  CHECK(blas_kernel_for("Prescott", CpuFeatures{true, true, false, false}) == "Sandybridge");  // AVX2 without FMA
  // A choice OpenBLAS made from its table is kept, whatever the features.
  CHECK(blas_kernel_for("Haswell", avx512).empty());
  CHECK(blas_kernel_for("Zen", avx512).empty());
  CHECK(blas_kernel_for("SkylakeX", avx2).empty());
  CHECK(blas_kernel_for("", avx512).empty());  // not OpenBLAS
}
