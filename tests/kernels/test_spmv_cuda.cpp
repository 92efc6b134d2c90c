// spmv_cuda (hetsparse's kernel) and spmv_cusparse against a dense reference product, on ragged
// random matrices chosen to exercise every sub-warp width, empty and very long rows, and StarPU
// sub-blocks whose offsets do not start at 0.
#include <gtest/gtest.h>

#include "kernels/spmv/spmv.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

enum class Impl { Own, Cusparse };
const char* name(Impl impl) { return impl == Impl::Own ? "spmv_cuda" : "spmv_cusparse"; }

// A CSR matrix on the device, cut into StarPU-style row blocks exactly as CsrMatrix::rows_view does.
class DeviceCsr {
 public:
  DeviceCsr(cudaStream_t stream, const CsrMatrix& A)
      : host_(A), rowptr_(stream, A.rowptr), colind_(stream, A.colind), values_(stream, A.values) {}
  CsrView rows_view(std::uint32_t first, std::uint32_t last) const {
    const std::uint32_t first_entry = host_.rowptr[first];
    return {last - first, host_.rowptr[last] - first_entry, rowptr_.get() + first, colind_.get() + first_entry,
            values_.get() + first_entry, first_entry};
  }

 private:
  const CsrMatrix& host_;
  DeviceArray<std::uint32_t> rowptr_, colind_;
  DeviceArray<double> values_;
};

class SpmvCuda : public CudaKernelTest {
 protected:
  void TearDown() override {
    if (stream_ != nullptr) {
      release_cusparse_workspace(stream_, workspace_);
    }
    CudaKernelTest::TearDown();
  }

  // y[first, last) = alpha A(first:last, :) x + beta y[first, last) with `impl`; returns that block.
  std::vector<double> run(Impl impl, const CsrMatrix& A, std::uint32_t first, std::uint32_t last,
                          const std::vector<double>& x, const std::vector<double>& y, double alpha, double beta) {
    const DeviceCsr device_A(stream_, A);
    DeviceArray<double> dx(stream_, x), dy(stream_, y);
    if (beta == 0.0) {
      dy.poison(stream_);  // y must be written without being read
    }
    const CsrView view = device_A.rows_view(first, last);
    if (impl == Impl::Own) {
      spmv_cuda(stream_, view, dx.get(), dy.get() + first, alpha, beta);
    } else {
      spmv_cusparse(cusparse_, stream_, view, A.ncols, dx.get(), dy.get() + first, alpha, beta, workspace_);
    }
    const std::vector<double> all = dy.download(stream_);
    return {all.begin() + first, all.begin() + last};
  }

  void expect_matches(Impl impl, const CsrMatrix& A, std::uint32_t first, std::uint32_t last, Rng& rng,
                      double alpha, double beta) {
    SCOPED_TRACE(std::string(name(impl)) + " rows [" + std::to_string(first) + ", " + std::to_string(last) +
                 ") beta=" + std::to_string(beta));
    const std::vector<double> x = random_vector(rng, A.ncols);
    const std::vector<double> y = random_vector(rng, A.nrows);
    const SpmvExpectation expected = expected_spmv(A, first, last, x, y, alpha, beta);
    EXPECT_TRUE(within_bounds(run(impl, A, first, last, x, y, alpha, beta), expected.values, expected.bounds));
  }

  CusparseWorkspace workspace_;
};

// Mean row lengths 3, 6, 12, 24, 48 and 100 select each of the kernel's six launch shapes (sub-warps
// of 2 to 32 lanes); rows up to twice the mean also run the loop past the peeled passes.
TEST_F(SpmvCuda, EverySubwarpWidth) {
  Rng rng(21);
  for (const std::uint32_t max_length : {6u, 12u, 24u, 48u, 96u, 200u}) {
    SCOPED_TRACE("row lengths 0.." + std::to_string(max_length));
    const CsrMatrix A = random_csr(rng, 2000, random_row_lengths(rng, 3001, 0, max_length));
    expect_matches(Impl::Own, A, 0, A.nrows, rng, 1.3, -0.4);
    expect_matches(Impl::Own, A, 0, A.nrows, rng, -0.6, 0.0);
  }
}

TEST_F(SpmvCuda, EmptyAndVeryLongRows) {
  Rng rng(22);
  std::vector<std::uint32_t> lengths = random_row_lengths(rng, 2000, 0, 10);
  for (const std::uint32_t row : {5u, 700u, 1999u}) lengths[row] = 5000;
  for (std::uint32_t row = 1000; row < 1100; ++row) lengths[row] = 0;
  lengths[0] = 0;
  const CsrMatrix A = random_csr(rng, 6000, lengths);
  for (const Impl impl : {Impl::Own, Impl::Cusparse}) {
    expect_matches(impl, A, 0, A.nrows, rng, 0.9, 1.1);
    expect_matches(impl, A, 0, A.nrows, rng, 2.5, 0.0);
  }
}

TEST_F(SpmvCuda, SubBlocksWithNonZeroFirstEntry) {
  Rng rng(23);
  const CsrMatrix A = random_csr(rng, 1800, random_row_lengths(rng, 2500, 0, 200));
  ASSERT_GT(A.rowptr[300], 0u);
  for (const Impl impl : {Impl::Own, Impl::Cusparse}) {
    expect_matches(impl, A, 300, 1700, rng, -1.2, 0.3);
    expect_matches(impl, A, 1700, 2500, rng, 0.5, 0.0);
    expect_matches(impl, A, 2499, 2500, rng, 1.0, -1.0);
  }
}

TEST_F(SpmvCuda, OwnKernelAgreesWithCusparse) {
  Rng rng(24);
  const CsrMatrix A = random_csr(rng, 4000, random_row_lengths(rng, 5000, 2, 12));
  const std::vector<double> x = random_vector(rng, A.ncols);
  const std::vector<double> y = random_vector(rng, A.nrows);
  const SpmvExpectation expected = expected_spmv(A, 0, A.nrows, x, y, 0.75, -0.25);
  const std::vector<double> own = run(Impl::Own, A, 0, A.nrows, x, y, 0.75, -0.25);
  const std::vector<double> library = run(Impl::Cusparse, A, 0, A.nrows, x, y, 0.75, -0.25);
  std::vector<double> twice = expected.bounds;
  for (double& bound : twice) bound *= 2.0;
  EXPECT_TRUE(within_bounds(own, library, twice));
}

TEST_F(SpmvCuda, EmptyRowsAndEmptyMatrix) {
  Rng rng(25);
  const CsrMatrix empty_rows = random_csr(rng, 64, std::vector<std::uint32_t>(100, 0));
  for (const Impl impl : {Impl::Own, Impl::Cusparse}) {
    expect_matches(impl, empty_rows, 0, 100, rng, 1.5, -3.0);
    expect_matches(impl, empty_rows, 0, 100, rng, 1.5, 0.0);
    expect_matches(impl, empty_rows, 40, 40, rng, 1.0, 0.0);  // no rows at all: nothing to do
  }
}

TEST_F(SpmvCuda, CusparseWorkspaceIsReusedAndHandleRestored) {
  Rng rng(26);
  const CsrMatrix A = random_csr(rng, 700, random_row_lengths(rng, 900, 1, 30));
  ASSERT_EQ(cusparseSetPointerMode(cusparse_, CUSPARSE_POINTER_MODE_DEVICE), CUSPARSE_STATUS_SUCCESS);
  expect_matches(Impl::Cusparse, A, 100, 900, rng, 1.0, 0.5);  // host scalars despite device mode
  const CusparseWorkspace after_first = workspace_;
  expect_matches(Impl::Cusparse, A, 100, 900, rng, -1.0, 0.0);
  EXPECT_EQ(workspace_.ptr, after_first.ptr);
  EXPECT_EQ(workspace_.bytes, after_first.bytes);
  EXPECT_GE(workspace_.bytes, std::size_t{801} * sizeof(std::uint32_t));  // holds the rebased offsets

  cusparsePointerMode_t mode{};
  cudaStream_t bound = stream_;
  ASSERT_EQ(cusparseGetPointerMode(cusparse_, &mode), CUSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(cusparseGetStream(cusparse_, &bound), CUSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(mode, CUSPARSE_POINTER_MODE_DEVICE);
  EXPECT_EQ(bound, nullptr);
}

}  // namespace
}  // namespace hetsparse::test
