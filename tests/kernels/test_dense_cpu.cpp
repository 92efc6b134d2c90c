// CPU dense and level-1 kernels (CBLAS/LAPACKE) against the loop references.
#include <gtest/gtest.h>

#include "hetsparse/error.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/syrk/syrk.hpp"
#include "kernels/trsm/trsm.hpp"
#include "kernels/vector/vector.hpp"
#include "tests/support/dense_checks.hpp"

namespace hetsparse::test {
namespace {

using namespace hetsparse::kernels;

TEST(DenseKernelsCpu, GemmMatchesReference) {
  std::uint64_t seed = 100;
  for (const GemmCase& c : gemm_cases()) {
    SCOPED_TRACE(describe(c));
    check_gemm(c, ++seed, [](const GemmCase& g, const DenseMatrix& A, const DenseMatrix& B, DenseMatrix& C) {
      gemm_cpu(g.transa, g.transb, g.m, g.n, g.k, g.alpha, A.data.data(), A.ld, B.data.data(), B.ld, g.beta,
               C.data.data(), C.ld);
    });
  }
}

TEST(DenseKernelsCpu, SyrkMatchesReference) {
  std::uint64_t seed = 200;
  for (const SyrkCase& c : syrk_cases()) {
    SCOPED_TRACE(describe(c));
    check_syrk(c, ++seed, [](const SyrkCase& s, const DenseMatrix& A, DenseMatrix& C) {
      syrk_cpu(s.uplo, s.trans, s.n, s.k, s.alpha, A.data.data(), A.ld, s.beta, C.data.data(), C.ld);
    });
  }
}

TEST(DenseKernelsCpu, TrsmMatchesReference) {
  std::uint64_t seed = 300;
  for (const TrsmCase& c : trsm_cases()) {
    SCOPED_TRACE(describe(c));
    check_trsm(c, ++seed, [](const TrsmCase& t, const DenseMatrix& A, DenseMatrix& B) {
      trsm_cpu(t.side, t.uplo, t.transa, t.diag, t.m, t.n, t.alpha, A.data.data(), A.ld, B.data.data(), B.ld);
    });
  }
}

int run_potrf_cpu(char uplo, DenseMatrix& A) { return potrf_cpu(uplo, A.rows, A.data.data(), A.ld); }

TEST(DenseKernelsCpu, PotrfMatchesReference) {
  std::uint64_t seed = 400;
  for (const PotrfCase& c : potrf_cases()) {
    SCOPED_TRACE(describe(c));
    check_potrf(c, ++seed, run_potrf_cpu);
  }
}

TEST(DenseKernelsCpu, PotrfReportsTheFailingColumn) {
  std::uint64_t seed = 500;
  for (const char uplo : {'L', 'U'}) {
    for (const auto& [n, column] : {std::pair{37, 0}, std::pair{37, 20}, std::pair{37, 36}, std::pair{257, 200}}) {
      for (const bool nan_pivot : {false, true}) {
        const PotrfCase c{uplo, n, 3};
        SCOPED_TRACE(describe(c) + " column " + std::to_string(column) + (nan_pivot ? " NaN" : " negative"));
        check_potrf_failure(c, column, nan_pivot, ++seed, run_potrf_cpu);
      }
    }
  }
}

TEST(DenseKernelsCpu, Level1MatchesReference) {
  std::uint64_t seed = 600;
  for (const int n : level1_sizes()) {
    SCOPED_TRACE("n=" + std::to_string(n));
    check_axpy(n, ++seed, [n](double alpha, const std::vector<double>& x, std::vector<double>& y) {
      axpy_cpu(n, alpha, x.data(), y.data());
    });
    check_dot(n, ++seed, [n](const std::vector<double>& x, const std::vector<double>& y) {
      return dot_cpu(n, x.data(), y.data());
    });
    for (const double scale : {1.0, 1e200, 1e-200}) {
      check_nrm2(n, scale, ++seed, [n](const std::vector<double>& x) { return nrm2_cpu(n, x.data()); });
    }
  }
}

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
