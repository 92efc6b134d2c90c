// Every SpMV kernel of the back end (CPU: spmv_cpu; CUDA: spmv_cuda and spmv_cusparse) against a
// dense reference product, on ragged random matrices with empty and very long rows, and on
// StarPU-style sub-blocks whose offsets do not start at 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {
namespace {

using SpmvKernels = KernelTest;

TEST_F(SpmvKernels, RaggedRandomMatrix) {
  for (const std::string& kernel : backend().spmv_kernels()) {
    SCOPED_TRACE(kernel);
    Rng rng(11);
    const CsrMatrix A = random_csr(rng, 1500, random_row_lengths(rng, 1200, 0, 200));
    for (const double beta : {-0.4, 1.0, 0.0}) {
      check_spmv(A, 0, A.nrows, rng, 1.3, beta, backend().spmv_runner(kernel));
    }
  }
}

TEST_F(SpmvKernels, EmptyAndVeryLongRows) {
  Rng rng(22);
  std::vector<std::uint32_t> lengths = random_row_lengths(rng, 2000, 0, 10);
  for (const std::uint32_t row : {5u, 700u, 1999u}) lengths[row] = 5000;
  for (std::uint32_t row = 1000; row < 1100; ++row) lengths[row] = 0;
  lengths[0] = 0;
  const CsrMatrix A = random_csr(rng, 6000, lengths);
  for (const std::string& kernel : backend().spmv_kernels()) {
    SCOPED_TRACE(kernel);
    check_spmv(A, 0, A.nrows, rng, 0.9, 1.1, backend().spmv_runner(kernel));
    check_spmv(A, 0, A.nrows, rng, 2.5, 0.0, backend().spmv_runner(kernel));
  }
}

TEST_F(SpmvKernels, SubBlocksWithNonZeroFirstEntry) {
  Rng rng(12);
  const CsrMatrix A = random_csr(rng, 900, random_row_lengths(rng, 1100, 0, 120));
  ASSERT_GT(A.rowptr[300], 0u);
  Rng rng_b(23);
  const CsrMatrix B = random_csr(rng_b, 1800, random_row_lengths(rng_b, 2500, 0, 200));
  ASSERT_GT(B.rowptr[300], 0u);
  for (const std::string& kernel : backend().spmv_kernels()) {
    SCOPED_TRACE(kernel);
    const SpmvRunner run = backend().spmv_runner(kernel);
    check_spmv(A, 300, 1000, rng, -0.7, 0.25, run);
    check_spmv(A, 300, 1000, rng, 2.0, 0.0, run);
    check_spmv(A, 1099, 1100, rng, 1.0, 0.5, run);  // a single trailing row
    check_spmv(B, 300, 1700, rng_b, -1.2, 0.3, run);
    check_spmv(B, 1700, 2500, rng_b, 0.5, 0.0, run);
    check_spmv(B, 2499, 2500, rng_b, 1.0, -1.0, run);
  }
}

TEST_F(SpmvKernels, EmptyRowsAndEmptyMatrix) {
  Rng rng(13);
  const CsrMatrix empty_rows = random_csr(rng, 50, std::vector<std::uint32_t>(100, 0));
  Rng rng_b(25);
  const CsrMatrix wider = random_csr(rng_b, 64, std::vector<std::uint32_t>(100, 0));
  for (const std::string& kernel : backend().spmv_kernels()) {
    SCOPED_TRACE(kernel);
    const SpmvRunner run = backend().spmv_runner(kernel);
    check_spmv(empty_rows, 0, 100, rng, 1.5, -3.0, run);  // y = beta y exactly
    check_spmv(empty_rows, 0, 100, rng, 1.5, 0.0, run);   // y = 0, NaN overwritten
    check_spmv(wider, 0, 100, rng_b, 1.5, -3.0, run);
    check_spmv(wider, 0, 100, rng_b, 1.5, 0.0, run);
    check_spmv(wider, 40, 40, rng_b, 1.0, 0.0, run);  // no rows at all: nothing to do
  }
}

}  // namespace
}  // namespace hetsparse::test
