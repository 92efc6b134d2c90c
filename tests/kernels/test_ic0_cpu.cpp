// IC(0) and the Krylov vector kernels on the host: ic0_cpu against ref::ic0 (another loop order on a
// dense copy) and against the defining property L L^T = A on the pattern; the first failing pivot;
// the structure checks; the level sets the CUDA version runs by; xpby, diag_scale and fill.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hetsparse/error.hpp"
#include "kernels/ic0/ic0.hpp"
#include "kernels/krylov/krylov.hpp"
#include "sparse/random.hpp"
#include "tests/support/ic0_checks.hpp"

namespace hetsparse::test {
namespace {

TEST(Ic0Cpu, MatchesReferenceAndReproducesA) {
  for (const auto& [name, A] : ic0_matrices()) {
    SCOPED_TRACE(name);
    Lower32 L(A);
    ASSERT_GT(L.n, 32u);
    kernels::ic0_check_structure(L.n, L.rowptr.data(), L.colind.data());
    ASSERT_EQ(kernels::ic0_cpu(L.n, L.rowptr.data(), L.colind.data(), L.values.data()), 0);
    EXPECT_TRUE(matches_reference_ic0(A, L.values));
    EXPECT_TRUE(reproduces_a_on_pattern(A, L));
  }
}

TEST(Ic0Cpu, ReportsTheFirstNonPositivePivot) {
  const Csr A = indefinite_at_row_2();
  Lower32 L(A);
  EXPECT_EQ(kernels::ic0_cpu(L.n, L.rowptr.data(), L.colind.data(), L.values.data()), 3);
  try {
    ref::ic0(A);
    FAIL() << "ref::ic0 accepted an indefinite matrix";
  } catch (const NotPositiveDefinite& e) {
    EXPECT_EQ(e.column(), 2);
  }
}

TEST(Ic0Cpu, StructureChecksNameTheRow) {
  // Rows: {0}, {0, 1}, {1} (no diagonal in row 2).
  const std::vector<std::uint32_t> rowptr = {0, 1, 3, 4}, missing = {0, 0, 1, 1};
  try {
    kernels::ic0_check_structure(3, rowptr.data(), missing.data());
    FAIL() << "missing diagonal accepted";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), 2);
  }
  const std::vector<std::uint32_t> unsorted = {0, 1, 0, 2};  // row 1: columns 1, 0
  EXPECT_THROW(kernels::ic0_check_structure(3, rowptr.data(), unsorted.data()), StructureError);
  const std::vector<std::uint32_t> upper = {1, 0, 1, 2};  // row 0 holds column 1
  EXPECT_THROW(kernels::ic0_check_structure(3, rowptr.data(), upper.data()), StructureError);
}

TEST(Ic0Cpu, LevelsFollowTheDependencies) {
  for (const auto& [name, A] : ic0_matrices()) {
    SCOPED_TRACE(name);
    const Lower32 L(A);
    const kernels::Ic0Levels lv = kernels::ic0_levels(L.n, L.rowptr.data(), L.colind.data());
    ASSERT_EQ(lv.rows.size(), L.n);
    ASSERT_EQ(lv.level_ptr.back(), L.n);
    std::vector<int> level(L.n, -1);
    for (int l = 0; l < lv.num_levels(); ++l) {
      ASSERT_LT(lv.level_ptr[l], lv.level_ptr[l + 1]) << "empty level " << l;
      for (std::uint32_t k = lv.level_ptr[l]; k < lv.level_ptr[l + 1]; ++k) level[lv.rows[k]] = l;
    }
    for (std::uint32_t i = 0; i < L.n; ++i) {
      int expected = 0;
      for (std::uint32_t t = L.rowptr[i]; t + 1 < L.rowptr[i + 1]; ++t)
        expected = std::max(expected, level[L.colind[t]] + 1);
      EXPECT_EQ(level[i], expected) << "row " << i;
    }
  }
  // The 5-point Laplacian in natural order: level = x + y.
  const Lower32 grid(laplacian_2d(6, 4));
  const kernels::Ic0Levels lv = kernels::ic0_levels(grid.n, grid.rowptr.data(), grid.colind.data());
  EXPECT_EQ(lv.num_levels(), 6 + 4 - 1);
}

TEST(KrylovVectorCpu, XpbyDiagScaleAndFill) {
  Rng rng(5);
  const int n = 1000;
  std::vector<double> x(n), y(n), d(n);
  for (int i = 0; i < n; ++i) {
    x[i] = uniform(rng, -1, 1);
    y[i] = uniform(rng, -1, 1);
    d[i] = uniform(rng, 0.5, 2);
  }
  std::vector<double> out = y;
  kernels::xpby_cpu(n, x.data(), -0.75, out.data());
  for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(out[i], x[i] - 0.75 * y[i]);
  std::vector<double> nan(n, std::numeric_limits<double>::quiet_NaN());
  kernels::xpby_cpu(n, x.data(), 0.0, nan.data());  // beta = 0: y only written
  EXPECT_EQ(nan, x);
  kernels::diag_scale_cpu(n, d.data(), x.data(), out.data());
  for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(out[i], d[i] * x[i]);
  kernels::fill_cpu(n, -2.5, nan.data());
  EXPECT_EQ(nan, std::vector<double>(n, -2.5));
}

}  // namespace
}  // namespace hetsparse::test
