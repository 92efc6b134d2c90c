// The dense and level-1 kernels (CPU: CBLAS/LAPACKE; CUDA: cuBLAS/cuSOLVER) against the loop
// references of reference/, on every back end (kernel_backend.hpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "tests/kernels/kernel_backend.hpp"

namespace hetsparse::test {
namespace {

using DenseKernels = KernelTest;

TEST_F(DenseKernels, GemmMatchesReference) {
  std::uint64_t seed = 100;
  for (const GemmCase& c : gemm_cases()) {
    SCOPED_TRACE(describe(c));
    check_gemm(c, ++seed, [&](const GemmCase& g, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) {
      backend().gemm(g, A, B, C);
    });
  }
}

TEST_F(DenseKernels, SyrkMatchesReference) {
  std::uint64_t seed = 200;
  for (const SyrkCase& c : syrk_cases()) {
    SCOPED_TRACE(describe(c));
    check_syrk(c, ++seed, [&](const SyrkCase& s, const DenseMatrix& A, DenseMatrix& C) { backend().syrk(s, A, C); });
  }
}

TEST_F(DenseKernels, TrsmMatchesReference) {
  std::uint64_t seed = 300;
  for (const TrsmCase& c : trsm_cases()) {
    SCOPED_TRACE(describe(c));
    check_trsm(c, ++seed, [&](const TrsmCase& t, const DenseMatrix& A, DenseMatrix& B) { backend().trsm(t, A, B); });
  }
}

TEST_F(DenseKernels, PotrfMatchesReference) {
  std::uint64_t seed = 400;
  for (const PotrfCase& c : potrf_cases()) {
    SCOPED_TRACE(describe(c));
    check_potrf(c, ++seed, [&](char uplo, DenseMatrix& A) { return backend().potrf(uplo, A); });
  }
}

TEST_F(DenseKernels, PotrfReportsTheFailingColumn) {
  std::uint64_t seed = 500;
  for (const char uplo : {'L', 'U'}) {
    for (const auto& [n, column] : {std::pair{37, 0}, std::pair{37, 20}, std::pair{37, 36}, std::pair{257, 200}}) {
      for (const bool nan_pivot : {false, true}) {
        const PotrfCase c{uplo, n, 3};
        SCOPED_TRACE(describe(c) + " column " + std::to_string(column) + (nan_pivot ? " NaN" : " negative"));
        check_potrf_failure(c, column, nan_pivot, ++seed,
                            [&](char u, DenseMatrix& A) { return backend().potrf(u, A); });
      }
    }
  }
}

TEST_F(DenseKernels, Level1MatchesReference) {
  std::uint64_t seed = 600;
  for (const int n : level1_sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    check_axpy(n, ++seed, [&](double alpha, const std::vector<double>& x, std::vector<double>& y) {
      backend().axpy(alpha, x, y);
    });
    check_dot(n, ++seed, [&](const std::vector<double>& x, const std::vector<double>& y) { return backend().dot(x, y); });
    for (const double scale : {1.0, 1e200, 1e-200}) {
      check_nrm2(n, scale, ++seed, [&](const std::vector<double>& x) { return backend().nrm2(x); });
    }
  }
}

}  // namespace
}  // namespace hetsparse::test
