// Every codelet's CUDA implementation through StarPU (tasks restricted to CUDA workers), and a mixed
// CPU+GPU tiled Cholesky. Skips with a message where there is no CUDA worker.
#include <gtest/gtest.h>

#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

class GpuCodelets : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuCodelets, CudaImplementationsAgainstReference) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  check_spmv(r, rt::Where::Cuda, codelets::SpmvCudaImpl::Own, 3, 21);
  check_spmv(r, rt::Where::Cuda, codelets::SpmvCudaImpl::Cusparse, 3, 22);
  check_gemm_syrk_trsm(r, rt::Where::Cuda, 23);
  check_potrf(r, rt::Where::Cuda, 24);
  check_vector_ops(r, rt::Where::Cuda, 25);
}

TEST_P(GpuCodelets, MixedCpuGpuTiledCholesky) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 1));
  if (r.cuda_workers() == 0) GTEST_SKIP() << "no CUDA worker (no GPU, or a CPU-only build)";
  check_tiled_cholesky(r, 1500, 250, 200, 26);
  check_spmv(r, rt::Where::Any, codelets::SpmvCudaImpl::Own, 8, 27);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, GpuCodelets, ::testing::Values("eager", "dmdas"),
                         [](const auto& p) { return std::string(p.param); });

}  // namespace
}  // namespace hetsparse::test
