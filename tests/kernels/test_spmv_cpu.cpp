// spmv_cpu against a dense product computed with the loop references.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/spmv/spmv.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using kernels::spmv_cpu;

// Runs spmv_cpu on rows [first, last) of A, as a StarPU sub-block, and compares with the reference.
void expect_rows_match(const CsrMatrix& A, std::uint32_t first, std::uint32_t last, Rng& rng, double alpha,
                       double beta) {
  const std::vector<double> x = random_vector(rng, A.ncols);
  std::vector<double> y = random_vector(rng, A.nrows);
  if (beta == 0.0) {
    std::fill(y.begin(), y.end(), kNaN);  // must not be read
  }
  const SpmvExpectation expected = expected_spmv(A, first, last, x, y, alpha, beta);
  spmv_cpu(A.rows_view(first, last), x.data(), y.data() + first, alpha, beta);
  const std::vector<double> block(y.begin() + first, y.begin() + last);
  EXPECT_TRUE(within_bounds(block, expected.values, expected.bounds));
}

TEST(SpmvCpu, RaggedRandomMatrix) {
  Rng rng(11);
  const CsrMatrix A = random_csr(rng, 1500, random_row_lengths(rng, 1200, 0, 200));
  for (const double beta : {-0.4, 1.0, 0.0}) {
    SCOPED_TRACE("beta=" + std::to_string(beta));
    expect_rows_match(A, 0, A.nrows, rng, 1.3, beta);
  }
}

TEST(SpmvCpu, SubBlockWithNonZeroFirstEntry) {
  Rng rng(12);
  const CsrMatrix A = random_csr(rng, 900, random_row_lengths(rng, 1100, 0, 120));
  ASSERT_GT(A.rowptr[300], 0u);
  expect_rows_match(A, 300, 1000, rng, -0.7, 0.25);
  expect_rows_match(A, 300, 1000, rng, 2.0, 0.0);
  expect_rows_match(A, 1099, 1100, rng, 1.0, 0.5);  // a single trailing row
}

TEST(SpmvCpu, EmptyRowsAndEmptyMatrix) {
  Rng rng(13);
  const CsrMatrix empty_rows = random_csr(rng, 50, std::vector<std::uint32_t>(100, 0));
  expect_rows_match(empty_rows, 0, 100, rng, 1.5, -3.0);  // y = beta y exactly
  expect_rows_match(empty_rows, 0, 100, rng, 1.5, 0.0);   // y = 0, NaN overwritten

  const CsrMatrix no_rows = random_csr(rng, 10, {});
  double untouched = 42.0;
  spmv_cpu(no_rows.view(), nullptr, &untouched, 1.0, 0.0);
  EXPECT_EQ(untouched, 42.0);
}

}  // namespace
}  // namespace hetsparse::test
