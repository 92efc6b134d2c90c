// CUDA dense and level-1 kernels (cuBLAS/cuSOLVER) against the loop references.
#include <gtest/gtest.h>

#include <functional>

#include "hetsparse/error.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"
#include "kernels/vector/vector.hpp"
#include "tests/support/cuda_test_support.hpp"
#include "tests/support/dense_checks.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

class DenseKernelsCuda : public CudaKernelTest {
 protected:
  int run_potrf(char uplo, DenseMatrix& A) {
    DeviceArray<double> a(stream_, A.data);
    const int bytes = potrf_cuda_workspace_size(cusolver_, uplo, A.rows, a.get(), A.ld);
    const int elems = bytes / static_cast<int>(sizeof(double));
    DeviceArray<double> workspace(static_cast<std::size_t>(elems));
    DeviceArray<int> info(1);
    info.poison(stream_);
    potrf_cuda(cusolver_, stream_, uplo, A.rows, a.get(), A.ld, workspace.get(), elems, info.get());
    const int result = potrf_cuda_info(stream_, info.get());
    A.data = a.download(stream_);
    return result;
  }

  double run_scalar(const std::function<void(double* result)>& kernel) {
    DeviceArray<double> result(1);
    result.poison(stream_);
    kernel(result.get());
    return result.download(stream_)[0];
  }
};

TEST_F(DenseKernelsCuda, GemmMatchesReference) {
  std::uint64_t seed = 100;
  for (const GemmCase& c : gemm_cases()) {
    SCOPED_TRACE(describe(c));
    check_gemm(c, ++seed, [&](const GemmCase& g, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) {
      DeviceArray<double> a(stream_, A.data), b(stream_, B.data), out(stream_, C.data);
      gemm_cuda(cublas_, g.transa, g.transb, g.m, g.n, g.k, g.alpha, a.get(), A.ld, b.get(), B.ld, g.beta, out.get(),
                C.ld);
      C.data = out.download(stream_);
    });
  }
}

TEST_F(DenseKernelsCuda, SyrkMatchesReference) {
  std::uint64_t seed = 200;
  for (const SyrkCase& c : syrk_cases()) {
    SCOPED_TRACE(describe(c));
    check_syrk(c, ++seed, [&](const SyrkCase& s, const DenseMatrix& A, DenseMatrix& C) {
      DeviceArray<double> a(stream_, A.data), out(stream_, C.data);
      syrk_cuda(cublas_, s.uplo, s.trans, s.n, s.k, s.alpha, a.get(), A.ld, s.beta, out.get(), C.ld);
      C.data = out.download(stream_);
    });
  }
}

TEST_F(DenseKernelsCuda, TrsmMatchesReference) {
  std::uint64_t seed = 300;
  for (const TrsmCase& c : trsm_cases()) {
    SCOPED_TRACE(describe(c));
    check_trsm(c, ++seed, [&](const TrsmCase& t, const DenseMatrix& A, DenseMatrix& B) {
      DeviceArray<double> a(stream_, A.data), b(stream_, B.data);
      trsm_cuda(cublas_, t.side, t.uplo, t.transa, t.diag, t.m, t.n, t.alpha, a.get(), A.ld, b.get(), B.ld);
      B.data = b.download(stream_);
    });
  }
}

TEST_F(DenseKernelsCuda, PotrfMatchesReference) {
  std::uint64_t seed = 400;
  for (const PotrfCase& c : potrf_cases()) {
    SCOPED_TRACE(describe(c));
    check_potrf(c, ++seed, [&](char uplo, DenseMatrix& A) { return run_potrf(uplo, A); });
  }
}

TEST_F(DenseKernelsCuda, PotrfReportsTheFailingColumn) {
  std::uint64_t seed = 500;
  for (const char uplo : {'L', 'U'}) {
    for (const auto& [n, column] : {std::pair{37, 0}, std::pair{37, 20}, std::pair{257, 200}}) {
      for (const bool nan_pivot : {false, true}) {
        const PotrfCase c{uplo, n, 3};
        SCOPED_TRACE(describe(c) + " column " + std::to_string(column) + (nan_pivot ? " NaN" : " negative"));
        check_potrf_failure(c, column, nan_pivot, ++seed, [&](char u, DenseMatrix& A) { return run_potrf(u, A); });
      }
    }
  }
}

TEST_F(DenseKernelsCuda, Level1MatchesReference) {
  std::uint64_t seed = 600;
  for (const int n : level1_sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    check_axpy(n, ++seed, [&](double alpha, const std::vector<double>& x, std::vector<double>& y) {
      DeviceArray<double> dx(stream_, x), dy(stream_, y);
      axpy_cuda(cublas_, n, alpha, dx.get(), dy.get());
      y = dy.download(stream_);
    });
    check_dot(n, ++seed, [&](const std::vector<double>& x, const std::vector<double>& y) {
      DeviceArray<double> dx(stream_, x), dy(stream_, y);
      return run_scalar([&](double* result) { dot_cuda(cublas_, n, dx.get(), dy.get(), result); });
    });
    for (const double scale : {1.0, 1e200, 1e-200}) {
      check_nrm2(n, scale, ++seed, [&](const std::vector<double>& x) {
        DeviceArray<double> dx(stream_, x);
        return run_scalar([&](double* result) { nrm2_cuda(cublas_, n, dx.get(), result); });
      });
    }
  }
}

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
  EXPECT_EQ(run_scalar([&](double* result) { dot_cuda(cublas_, 16, a.get(), a.get(), result); }), 4.0);
  ASSERT_EQ(cublasGetPointerMode(cublas_, &mode), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(mode, CUBLAS_POINTER_MODE_HOST);

  DenseMatrix spd{2, 2, 2, {4.0, 2.0, 2.0, 5.0}};
  EXPECT_EQ(run_potrf('L', spd), 0);
  cudaStream_t bound = stream_;
  ASSERT_EQ(cusolverDnGetStream(cusolver_, &bound), CUSOLVER_STATUS_SUCCESS);
  EXPECT_EQ(bound, nullptr);  // the fixture never bound it; potrf_cuda bound it only for its call
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
