// CPU-only check of spmv_cpu (the shared cases are in test_spmv.cpp): a matrix without rows reads
// and writes nothing, not even through null operands.
#include <gtest/gtest.h>

#include "kernels/spmv/spmv.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

TEST(SpmvCpu, EmptyMatrixTouchesNothing) {
  Rng rng(13);
  const CsrMatrix no_rows = random_csr(rng, 10, {});
  double untouched = 42.0;
  kernels::spmv_cpu(no_rows.view(), nullptr, &untouched, 1.0, 0.0);
  EXPECT_EQ(untouched, 42.0);
}

}  // namespace
}  // namespace hetsparse::test
