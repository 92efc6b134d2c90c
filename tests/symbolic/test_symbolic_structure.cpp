// Row structure of the supernode panels against the brute-force factor and a dense numeric
// Cholesky factorization, the reported statistics, and METIS's fill reduction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "sparse/convert.hpp"
#include "sparse/random.hpp"
#include "symbolic/analysis.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

std::vector<index_t> panel_rows(const SymbolicFactor& f, const Supernode& sn) {
  return {f.rows.begin() + sn.row_begin, f.rows.begin() + sn.row_begin + sn.nrows};
}

// Sorted, diagonal block first, and exactly the union of the columns' structures in L (for a
// fundamental supernode that is its first column's structure).
void expect_panels_match(const SymbolicFactor& f, const test::BruteForceFactor& bf) {
  for (const Supernode& sn : f.supernodes) {
    std::set<index_t> expected;
    for (index_t j = sn.first_col; j < sn.first_col + sn.ncols; ++j) {
      expected.insert(j);  // the dense diagonal block
      for (const index_t i : bf.column(j)) expected.insert(i);
    }
    ASSERT_EQ(panel_rows(f, sn), std::vector<index_t>(expected.begin(), expected.end()))
        << "supernode at column " << sn.first_col;
  }
}

TEST(SymbolicStructure, PanelsHoldTheUnionOfTheirColumnsStructures) {
  for (const bool amalgamate : {false, true}) {
    for (const auto& m : test::test_matrices()) {
      SCOPED_TRACE(m.name);
      AnalyzeOptions opts;
      opts.amalgamate = amalgamate;
      const SymbolicFactor f = analyze(triangle(m.full, Triangle::Lower), opts);
      expect_panels_match(f, test::brute_force_factor(m.full, f.perm));
    }
  }
}

// Random sizes, densities, orderings, input forms and amalgamation bounds, all against brute force.
TEST(SymbolicStructure, RandomSweepMatchesBruteForce) {
  Rng rng(2024);
  for (int trial = 0; trial < 40; ++trial) {
    const auto n = static_cast<index_t>(50 + uniform_below(rng, 351));
    const double degree = uniform(rng, 0.5, 12.0);
    const Csr full = test::random_spd(n, degree / n, rng(), static_cast<int>(uniform_below(rng, 3)),
                                      1 + static_cast<int>(uniform_below(rng, 3)));
    AnalyzeOptions opts;
    opts.ordering = static_cast<Ordering>(uniform_below(rng, 3));
    if (opts.ordering == Ordering::User) opts.user_perm = random_permutation(n, rng);
    opts.amalgamate = uniform_below(rng, 4) != 0;
    for (AmalgamationPair& pair : opts.amalgamation) {
      pair = {static_cast<index_t>(uniform_below(rng, 64)), uniform(rng, 0.0, 1.0)};
    }
    opts.input = static_cast<InputTriangle>(uniform_below(rng, 3));
    const Csr given = opts.input == InputTriangle::Full    ? full
                      : opts.input == InputTriangle::Lower ? triangle(full, Triangle::Lower)
                                                           : triangle(full, Triangle::Upper);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": n = " + std::to_string(n) + ", degree " +
                 std::to_string(degree) + ", ordering " + std::to_string(static_cast<int>(opts.ordering)));
    const SymbolicFactor f = analyze(given, opts);
    const test::BruteForceFactor bf = test::brute_force_factor(full, f.perm);
    ASSERT_EQ(f.etree, bf.etree());
    ASSERT_EQ(f.col_counts, bf.counts());
    expect_panels_match(f, bf);
  }
}

// Dense Cholesky of P A P^T: every numerically nonzero L(i, j) lies in the panel of column j.
TEST(SymbolicStructure, NumericFactorStaysInsideTheSymbolicStructure) {
  for (const auto& m : test::test_matrices()) {
    if (!m.spd || m.full.rows > 300) continue;
    SCOPED_TRACE(m.name);
    const SymbolicFactor f = analyze(triangle(m.full, Triangle::Lower));
    const index_t n = f.n;
    const auto at = [n](index_t i, index_t j) { return static_cast<std::size_t>(i) * n + j; };
    std::vector<double> l(static_cast<std::size_t>(n) * n, 0.0);
    for (index_t r = 0; r < n; ++r) {
      for (offset_t p = m.full.rowptr[r]; p < m.full.rowptr[r + 1]; ++p) {
        l[at(f.iperm[r], f.iperm[m.full.colind[p]])] += m.full.values[p];
      }
    }
    for (index_t j = 0; j < n; ++j) {  // right-looking, lower triangle only
      ASSERT_GT(l[at(j, j)], 0.0);
      l[at(j, j)] = std::sqrt(l[at(j, j)]);
      for (index_t i = j + 1; i < n; ++i) l[at(i, j)] /= l[at(j, j)];
      for (index_t k = j + 1; k < n; ++k) {
        if (l[at(k, j)] == 0.0) continue;
        for (index_t i = k; i < n; ++i) l[at(i, k)] -= l[at(i, j)] * l[at(k, j)];
      }
    }
    offset_t nonzeros = 0;
    for (index_t j = 0; j < n; ++j) {
      const std::vector<index_t> rows = panel_rows(f, f.supernodes[f.col_to_supernode[j]]);
      for (index_t i = j; i < n; ++i) {
        if (l[at(i, j)] == 0.0) continue;
        ++nonzeros;
        ASSERT_TRUE(std::binary_search(rows.begin(), rows.end(), i)) << "L(" << i << ", " << j << ")";
      }
    }
    // Random values cancel only by accident: the symbolic count is attained.
    EXPECT_EQ(nonzeros, f.nnz_L_exact);
  }
}

TEST(SymbolicStructure, StatisticsAgreeWithThePanels) {
  for (const auto& m : test::test_matrices()) {
    SCOPED_TRACE(m.name);
    const SymbolicFactor f = analyze(triangle(m.full, Triangle::Lower));
    offset_t stored = 0;
    double flops = 0.0;
    for (const Supernode& sn : f.supernodes) {
      const std::vector<index_t> rows = panel_rows(f, sn);
      for (index_t c = 0; c < sn.ncols; ++c) {
        // Column first_col + c of the panel holds the rows from its diagonal down.
        const auto height = static_cast<offset_t>(rows.end() - std::find(rows.begin(), rows.end(), sn.first_col + c));
        stored += height;
        flops += static_cast<double>(height) * static_cast<double>(height);
      }
    }
    EXPECT_EQ(f.nnz_L, stored);
    EXPECT_DOUBLE_EQ(f.flops_amalgamated, flops);
    EXPECT_GE(f.nnz_L, f.nnz_L_exact);
    EXPECT_GE(f.flops_amalgamated, f.flops);
  }
}

TEST(SymbolicStructure, MetisReducesFillOnA2dLaplacian) {
  const Csr lower = triangle(laplacian_2d(60, 60), Triangle::Lower);
  AnalyzeOptions natural;
  natural.ordering = Ordering::Natural;
  const SymbolicFactor banded = analyze(lower, natural);
  const SymbolicFactor nested = analyze(lower);
  // Natural order fills the band: about n * 60 entries; nested dissection O(n log n).
  EXPECT_GT(banded.nnz_L_exact, 3600 * 59);
  EXPECT_LT(static_cast<double>(nested.nnz_L_exact), 0.6 * static_cast<double>(banded.nnz_L_exact));
  EXPECT_LT(nested.flops, 0.3 * banded.flops);
  EXPECT_LT(nested.nnz_L, banded.nnz_L);
}

}  // namespace
}  // namespace hetsparse::cholesky
