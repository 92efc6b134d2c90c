// Random operands and tolerance-aware comparisons shared by the kernel tests (every back end).
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/spmv/spmv.hpp"
#include "sparse/random.hpp"

namespace hetsparse::test {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Column-major rows x cols matrix stored with leading dimension ld >= rows. The rows ld - rows of
// padding hold a value a kernel must never change.
struct DenseMatrix {
  int rows = 0;
  int cols = 0;
  int ld = 1;
  std::vector<double> data;

  double& operator()(int i, int j) { return data[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld]; }
  double operator()(int i, int j) const {
    return data[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld];
  }
};

// Entries uniform on [-1, 1); `padding` extra rows filled with `padding_value`.
DenseMatrix random_matrix(Rng& rng, int rows, int cols, int padding, double padding_value = -7.25);
std::vector<double> random_vector(Rng& rng, std::size_t n, double lo = -1.0, double hi = 1.0);
DenseMatrix absolute(const DenseMatrix& m);
std::vector<double> absolute(const std::vector<double>& v);

// Passes when every entry satisfies |actual - expected| <= bound (a NaN result fails), except that
// where `expected` is NaN, and in matrix padding, `actual` must hold the very same bits: those are
// entries the kernel must neither read into its results nor overwrite.
::testing::AssertionResult within_bounds(const std::vector<double>& actual, const std::vector<double>& expected,
                                         const std::vector<double>& bound);
::testing::AssertionResult within_bounds(const DenseMatrix& actual, const DenseMatrix& expected,
                                         const DenseMatrix& bound);
// Bit-for-bit equality of one stored entry; used for entries a kernel must leave alone.
bool same_bits(double a, double b);

// CSR matrix with sorted, distinct column indices per row, zero-based, 32-bit as StarPU stores it.
struct CsrMatrix {
  std::uint32_t nrows = 0;
  std::uint32_t ncols = 0;
  std::vector<std::uint32_t> rowptr{0};
  std::vector<std::uint32_t> colind;
  std::vector<double> values;

  std::uint32_t nnz() const { return rowptr.back(); }
  kernels::CsrView view() const { return rows_view(0, nrows); }
  // Rows [first, last) as StarPU's vertical block filter hands them out: colind/values start at the
  // block's first entry, rowptr keeps the whole matrix's offsets, first_entry = rowptr[first].
  kernels::CsrView rows_view(std::uint32_t first, std::uint32_t last) const;
};

// Row lengths uniform on [min_length, max_length].
std::vector<std::uint32_t> random_row_lengths(Rng& rng, std::uint32_t nrows, std::uint32_t min_length,
                                              std::uint32_t max_length);
// Each row gets its length's worth of distinct random columns and values uniform on [-1, 1).
CsrMatrix random_csr(Rng& rng, std::uint32_t ncols, const std::vector<std::uint32_t>& row_lengths);

// What y[first, last) must hold after y = alpha A(first:last, :) x + beta y, and how far a correct
// kernel may be from it. Computed with ref::gemm on densified blocks of rows, so it shares no code
// with any SpMV kernel. y_in is the whole y before the product (not read when beta == 0).
struct SpmvExpectation {
  std::vector<double> values;
  std::vector<double> bounds;
};
SpmvExpectation expected_spmv(const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                              const std::vector<double>& x, const std::vector<double>& y_in, double alpha,
                              double beta);

// A kernel applying y[first, last) = alpha A(first:last, :) x + beta y[first, last) to host operands,
// y the whole vector, updated in place.
using SpmvRunner = std::function<void(const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                                      const std::vector<double>& x, std::vector<double>& y, double alpha,
                                      double beta)>;
// Runs `run` on rows [first, last) of A with random x and y (NaN when beta == 0: y must be written
// without being read) and compares the block with expected_spmv.
void check_spmv(const CsrMatrix& A, std::uint32_t first, std::uint32_t last, Rng& rng, double alpha, double beta,
                const SpmvRunner& run);

}  // namespace hetsparse::test
