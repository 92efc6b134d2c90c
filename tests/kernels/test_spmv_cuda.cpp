// CUDA-only checks of the SpMV kernels (the shared cases, on spmv_cuda and spmv_cusparse, are in
// test_spmv.cpp): every sub-warp width of spmv_cuda, its agreement with cuSPARSE, and cuSPARSE's
// workspace reused with the handle given back as found.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/spmv/spmv.hpp"
#include "tests/kernels/backend_cuda.hpp"

namespace hetsparse::test {
namespace {

using SpmvCuda = CudaKernelTest;

// Mean row lengths 3, 6, 12, 24, 48 and 100 select each of the kernel's six launch shapes (sub-warps
// of 2 to 32 lanes); rows up to twice the mean also run the loop past the peeled passes.
TEST_F(SpmvCuda, EverySubwarpWidth) {
  Rng rng(21);
  const SpmvRunner own = backend().spmv_runner("spmv_cuda");
  for (const std::uint32_t max_length : {6u, 12u, 24u, 48u, 96u, 200u}) {
    SCOPED_TRACE("row lengths 0.." + std::to_string(max_length));
    const CsrMatrix A = random_csr(rng, 2000, random_row_lengths(rng, 3001, 0, max_length));
    check_spmv(A, 0, A.nrows, rng, 1.3, -0.4, own);
    check_spmv(A, 0, A.nrows, rng, -0.6, 0.0, own);
  }
}

TEST_F(SpmvCuda, OwnKernelAgreesWithCusparse) {
  Rng rng(24);
  const CsrMatrix A = random_csr(rng, 4000, random_row_lengths(rng, 5000, 2, 12));
  const std::vector<double> x = random_vector(rng, A.ncols);
  const std::vector<double> y = random_vector(rng, A.nrows);
  const SpmvExpectation expected = expected_spmv(A, 0, A.nrows, x, y, 0.75, -0.25);
  std::vector<double> own = y, library = y;
  backend().spmv("spmv_cuda", A, 0, A.nrows, x, own, 0.75, -0.25);
  backend().spmv("spmv_cusparse", A, 0, A.nrows, x, library, 0.75, -0.25);
  std::vector<double> twice = expected.bounds;
  for (double& bound : twice) bound *= 2.0;
  EXPECT_TRUE(within_bounds(own, library, twice));
}

TEST_F(SpmvCuda, CusparseWorkspaceIsReusedAndHandleRestored) {
  Rng rng(26);
  const CsrMatrix A = random_csr(rng, 700, random_row_lengths(rng, 900, 1, 30));
  const SpmvRunner library = backend().spmv_runner("spmv_cusparse");
  ASSERT_EQ(cusparseSetPointerMode(cusparse_, CUSPARSE_POINTER_MODE_DEVICE), CUSPARSE_STATUS_SUCCESS);
  check_spmv(A, 100, 900, rng, 1.0, 0.5, library);  // host scalars despite device mode
  const kernels::CusparseWorkspace after_first = cuda().cusparse_workspace();
  check_spmv(A, 100, 900, rng, -1.0, 0.0, library);
  const kernels::CusparseWorkspace& workspace = cuda().cusparse_workspace();
  EXPECT_EQ(workspace.ptr, after_first.ptr);
  EXPECT_EQ(workspace.bytes, after_first.bytes);
  EXPECT_GE(workspace.bytes, std::size_t{801} * sizeof(std::uint32_t));  // holds the rebased offsets

  cusparsePointerMode_t mode{};
  cudaStream_t bound = stream_;
  ASSERT_EQ(cusparseGetPointerMode(cusparse_, &mode), CUSPARSE_STATUS_SUCCESS);
  ASSERT_EQ(cusparseGetStream(cusparse_, &bound), CUSPARSE_STATUS_SUCCESS);
  EXPECT_EQ(mode, CUSPARSE_POINTER_MODE_DEVICE);
  EXPECT_EQ(bound, nullptr);
}

}  // namespace
}  // namespace hetsparse::test
