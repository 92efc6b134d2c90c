// Every codelet through StarPU on CPU workers, under several schedulers, against the references.
#include <gtest/gtest.h>

#include "tests/support/codelet_checks.hpp"

namespace hetsparse::test {
namespace {

class CpuCodelets : public ::testing::TestWithParam<const char*> {};

TEST_P(CpuCodelets, AllAgainstReference) {
  rt::Runtime r(test_runtime_options(GetParam(), 2, 0));
  ASSERT_EQ(r.cpu_workers(), 2);
  check_spmv(r, rt::Where::Cpu, codelets::SpmvCudaImpl::Own, 5, 11);
  check_gemm_syrk_trsm(r, rt::Where::Cpu, 12);
  check_potrf(r, rt::Where::Cpu, 13);
  check_vector_ops(r, rt::Where::Cpu, 14);
  check_tiled_cholesky(r, 300, 64, 0, 15);
}

INSTANTIATE_TEST_SUITE_P(Schedulers, CpuCodelets, ::testing::Values("eager", "lws", "dmda", "dmdas"),
                         [](const auto& p) { return std::string(p.param); });

}  // namespace
}  // namespace hetsparse::test
