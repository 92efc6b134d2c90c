// CPU-only checks of the dense kernels (the shared cases are in test_dense.cpp): argument checks.
#include <gtest/gtest.h>

#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

TEST(DenseKernelsCpu, RejectsInvalidArguments) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 0.0);
  EXPECT_THROW(gemm_cpu('X', 'N', 4, 4, 4, 1.0, a.data(), 4, b.data(), 4, 0.0, c.data(), 4), InvalidArgument);
  EXPECT_THROW(gemm_cpu('N', 'N', 4, 4, 4, 1.0, a.data(), 3, b.data(), 4, 0.0, c.data(), 4), InvalidArgument);
  EXPECT_THROW(gemm_cpu('N', 'T', -1, 4, 4, 1.0, a.data(), 4, b.data(), 4, 0.0, c.data(), 4), InvalidArgument);
  EXPECT_THROW(syrk_cpu('A', 'N', 4, 4, 1.0, a.data(), 4, 0.0, c.data(), 4), InvalidArgument);
  EXPECT_THROW(syrk_cpu('L', 'T', 4, 8, 1.0, a.data(), 4, 0.0, c.data(), 4), InvalidArgument);
  EXPECT_THROW(trsm_cpu('L', 'L', 'N', 'X', 4, 4, 1.0, a.data(), 4, b.data(), 4), InvalidArgument);
  EXPECT_THROW(trsm_cpu('R', 'L', 'N', 'N', 4, 8, 1.0, a.data(), 4, b.data(), 4), InvalidArgument);
  EXPECT_THROW(potrf_cpu('Q', 4, a.data(), 4), InvalidArgument);
  EXPECT_THROW(potrf_cpu('L', 8, a.data(), 4), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::test
