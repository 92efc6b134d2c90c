// Supernode partitions: well-formed, fundamental supernodes exactly Liu-Ng-Peyton's, and
// amalgamation only merging whole fundamental supernodes under the four (nrelax, zrelax) cases.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "symbolic/analysis.hpp"
#include "symbolic/supernodes.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

SymbolicFactor analyze_lower(const Csr& full, bool amalgamate,
                             const std::array<AmalgamationPair, 4>& pairs = kSwCholeskyAmalgamation) {
  AnalyzeOptions opts;
  opts.amalgamate = amalgamate;
  opts.amalgamation = pairs;
  return analyze(triangle(full, Triangle::Lower), opts);
}

// Contiguous columns covering 0 .. n-1, parents after children and owning the etree parent of
// the last column, row offsets the prefix sums of nrows.
void expect_well_formed(const SymbolicFactor& f) {
  index_t next_col = 0;
  offset_t next_row = 0;
  for (index_t s = 0; s < f.num_supernodes(); ++s) {
    const Supernode& sn = f.supernodes[s];
    ASSERT_EQ(sn.first_col, next_col);
    ASSERT_GE(sn.ncols, 1);
    ASSERT_EQ(sn.row_begin, next_row);
    ASSERT_GE(sn.nrows, sn.ncols);
    for (index_t j = sn.first_col; j < sn.first_col + sn.ncols; ++j) ASSERT_EQ(f.col_to_supernode[j], s);
    const index_t up = f.etree[sn.first_col + sn.ncols - 1];
    ASSERT_EQ(sn.parent, up == -1 ? -1 : f.col_to_supernode[up]);
    if (sn.parent != -1) {
      ASSERT_GT(sn.parent, s);
    }
    next_col += sn.ncols;
    next_row += sn.nrows;
  }
  ASSERT_EQ(next_col, f.n);
  ASSERT_EQ(static_cast<offset_t>(f.rows.size()), next_row);
}

TEST(Supernodes, FundamentalSupernodesAreExactlyTheNestedRuns) {
  for (const auto& m : test::test_matrices()) {
    SCOPED_TRACE(m.name);
    const SymbolicFactor f = analyze_lower(m.full, false);
    expect_well_formed(f);
    const test::BruteForceFactor bf = test::brute_force_factor(m.full, f.perm);
    std::vector<index_t> num_children(static_cast<std::size_t>(f.n), 0);
    for (const index_t p : f.etree) {
      if (p != -1) ++num_children[p];
    }
    for (index_t j = 0; j + 1 < f.n; ++j) {
      // Column j+1 continues j's supernode exactly when it is j's only-child parent and has j's
      // structure without j.
      std::vector<index_t> rest = bf.column(j);
      rest.erase(rest.begin());
      const bool nested = f.etree[j] == j + 1 && num_children[j + 1] == 1 && bf.column(j + 1) == rest;
      ASSERT_EQ(f.col_to_supernode[j + 1] == f.col_to_supernode[j], nested) << "columns " << j << ", " << j + 1;
    }
    for (const Supernode& sn : f.supernodes) ASSERT_EQ(sn.nrows, f.col_counts[sn.first_col]);
    EXPECT_EQ(f.nnz_L, f.nnz_L_exact);  // no explicit zeros
    EXPECT_DOUBLE_EQ(f.flops_amalgamated, f.flops);
  }
}

TEST(Supernodes, AmalgamationMergesWholeSupernodesUnderTheFourCases) {
  for (const auto& m : test::test_matrices()) {
    SCOPED_TRACE(m.name);
    const SymbolicFactor fund = analyze_lower(m.full, false);
    const SymbolicFactor merged = analyze_lower(m.full, true);
    expect_well_formed(merged);
    ASSERT_EQ(merged.perm, fund.perm);  // amalgamation does not reorder
    EXPECT_GE(merged.nnz_L, fund.nnz_L);
    EXPECT_LE(merged.num_supernodes(), fund.num_supernodes());
    for (const Supernode& sn : merged.supernodes) {
      // Starts and ends on fundamental boundaries.
      const Supernode& bottom = fund.supernodes[fund.col_to_supernode[sn.first_col]];
      const Supernode& top = fund.supernodes[fund.col_to_supernode[sn.first_col + sn.ncols - 1]];
      ASSERT_EQ(bottom.first_col, sn.first_col);
      ASSERT_EQ(top.first_col + top.ncols, sn.first_col + sn.ncols);
      ASSERT_EQ(sn.nrows - sn.ncols, top.nrows - top.ncols);  // the top's rows below the block
      if (&bottom == &top) continue;
      // The last merge made exactly this supernode, so one of the cases held for it.
      const double stored = 0.5 * sn.ncols * (sn.ncols + 1.0) + static_cast<double>(sn.ncols) * (sn.nrows - sn.ncols);
      double exact = 0;
      for (index_t j = sn.first_col; j < sn.first_col + sn.ncols; ++j) {
        exact += static_cast<double>(merged.col_counts[j]);
      }
      const double z = (stored - exact) / stored;
      bool allowed = false;
      for (const AmalgamationPair& pair : kSwCholeskyAmalgamation) {
        allowed = allowed || (sn.ncols <= pair.nrelax && z <= pair.zrelax + 1e-12);
      }
      EXPECT_TRUE(allowed) << "supernode at column " << sn.first_col << ": " << sn.ncols << " columns, z = " << z;
    }
  }
}

TEST(Supernodes, ChainSplitsWhereTheCasesStopAllowingMerges) {
  // Tridiagonal, natural order: L is bidiagonal, the etree a path, fundamental supernodes single
  // columns but for the last two. A merged k-column block holds (k-1)(k-2)/2 zeros among
  // k(k+1)/2 entries. With CHOLMOD's widths (case 2: 16 columns, z <= 0.8): z(16) = 0.77 fits
  // but 17 columns fit no case, so groups of 16 columns form from the top: 24..39, 8..23, 0..7.
  AnalyzeOptions opts;
  opts.ordering = Ordering::Natural;
  opts.amalgamation = {{{4, 0.99}, {16, 0.8}, {48, 0.1}, {1023, 0.05}}};
  const SymbolicFactor f = analyze(triangle(laplacian_2d(40, 1), Triangle::Lower), opts);
  ASSERT_EQ(f.num_supernodes(), 3);
  EXPECT_EQ(f.supernodes[0].ncols, 8);
  EXPECT_EQ(f.supernodes[1].ncols, 16);
  EXPECT_EQ(f.supernodes[2].ncols, 16);
  EXPECT_EQ(f.supernodes[0].nrows, 9);  // plus row 8, the first column of its parent
  EXPECT_EQ(f.supernodes[0].parent, 1);
  EXPECT_EQ(f.supernodes[2].parent, -1);

  // No case allows anything: the fundamental partition. Every case allows anything: one panel.
  opts.amalgamation = {{{0, 1.0}, {0, 1.0}, {0, 1.0}, {0, 1.0}}};
  EXPECT_EQ(analyze(triangle(laplacian_2d(40, 1), Triangle::Lower), opts).num_supernodes(), 39);
  opts.amalgamation = {{{0, 0.0}, {0, 0.0}, {0, 0.0}, {40, 1.0}}};
  EXPECT_EQ(analyze(triangle(laplacian_2d(40, 1), Triangle::Lower), opts).num_supernodes(), 1);
}

TEST(Supernodes, UnboundedAmalgamationLeavesOneSupernodePerTreeRoot) {
  // Every supernode whose parent follows it merges, and in a postorder some child always does.
  const std::array<AmalgamationPair, 4> always = {{{1 << 30, 1.0}, {0, 0.0}, {0, 0.0}, {0, 0.0}}};
  const Csr full = test::random_spd(300, 0.01, 11, 0, 3);
  const SymbolicFactor f = analyze_lower(full, true, always);
  expect_well_formed(f);
  index_t roots = 0;
  for (const index_t p : f.etree) roots += p == -1 ? 1 : 0;
  EXPECT_EQ(f.num_supernodes(), roots);
}

TEST(Supernodes, RejectsBadAmalgamationBounds) {
  const Csr full = laplacian_2d(5, 5);
  EXPECT_THROW(analyze_lower(full, true, {{{-1, 0.5}, {16, 0.8}, {48, 0.1}, {1023, 0.05}}}), InvalidArgument);
  EXPECT_THROW(analyze_lower(full, true, {{{4, std::nan("")}, {16, 0.8}, {48, 0.1}, {1023, 0.05}}}),
               InvalidArgument);
  EXPECT_THROW(analyze_lower(full, true, {{{4, -0.1}, {16, 0.8}, {48, 0.1}, {1023, 0.05}}}), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse::cholesky
