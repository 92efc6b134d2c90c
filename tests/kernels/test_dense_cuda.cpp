// CUDA-only checks of the dense kernels (the shared cases are in test_dense.cpp): library handles
// given back as found, and argument checks.
#include <gtest/gtest.h>

#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"
#include "tests/kernels/backend_cuda.hpp"
#include "tests/support/cuda_test_support.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

using DenseKernelsCuda = CudaKernelTest;

// StarPU workers share their handles between tasks: a kernel must hand them back as it found them.
TEST_F(DenseKernelsCuda, HandlesComeBackUnchanged) {
  DeviceArray<double> a(stream_, std::vector<double>(16, 0.5));
  DeviceArray<double> c(16);
  cublasPointerMode_t mode{};
  ASSERT_EQ(cublasSetPointerMode(cublas_, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
  gemm_cuda(cublas_, 'N', 'T', 4, 4, 4, 2.0, a.get(), 4, a.get(), 4, 0.0, c.get(), 4);  // host scalars work
  ASSERT_EQ(cublasGetPointerMode(cublas_, &mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(mode, CUBLAS_POINTER_MODE_DEVICE);
  const std::vector<double> product = c.download(stream_);
  for (const double value : product) {
    EXPECT_EQ(value, 2.0);  // 2 * sum of four 0.25
  }

  ASSERT_EQ(cublasSetPointerMode(cublas_, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(backend().dot(std::vector<double>(16, 0.5), std::vector<double>(16, 0.5)), 4.0);
  ASSERT_EQ(cublasGetPointerMode(cublas_, &mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(mode, CUBLAS_POINTER_MODE_HOST);

  DenseMatrix spd{2, 2, 2, {4.0, 2.0, 2.0, 5.0}};
  EXPECT_EQ(backend().potrf('L', spd), 0);
  cudaStream_t bound = stream_;
  ASSERT_EQ(cusolverDnGetStream(cusolver_, &bound), CUSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(bound, nullptr);  // the back end never bound it; potrf_cuda bound it only for its call
  EXPECT_EQ(spd(1, 1), 2.0);  // L = [2 0; 1 2]
}

TEST_F(DenseKernelsCuda, RejectsInvalidArguments) {
  EXPECT_THROW(gemm_cuda(cublas_, 'N', 'X', 4, 4, 4, 1.0, nullptr, 4, nullptr, 4, 0.0, nullptr, 4), InvalidArgument);
  EXPECT_THROW(gemm_cuda(cublas_, 'N', 'N', 4, 4, 4, 1.0, nullptr, 2, nullptr, 4, 0.0, nullptr, 4), InvalidArgument);
  EXPECT_THROW(syrk_cuda(cublas_, 'X', 'N', 4, 4, 1.0, nullptr, 4, 0.0, nullptr, 4), InvalidArgument);
  EXPECT_THROW(trsm_cuda(cublas_, 'L', 'L', 'N', 'N', 8, 4, 1.0, nullptr, 4, nullptr, 8), InvalidArgument);
  EXPECT_THROW(potrf_cuda_workspace_size(cusolver_, 'L', 8, nullptr, 4), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
