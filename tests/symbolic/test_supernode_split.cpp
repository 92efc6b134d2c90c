// Wide supernodes cut into pieces (symbolic/supernode_split.hpp): each piece is its original panel
// from its first column down, the pieces form a chain up to the original's parent, and nothing
// else of the factor changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/analysis.hpp"
#include "tests/support/symbolic_checks.hpp"

namespace hetsparse::cholesky {
namespace {

SymbolicFactor analyze_cut(const Csr& full, bool amalgamate, index_t max_cols) {
  AnalyzeOptions o;
  o.amalgamate = amalgamate;
  o.max_supernode_cols = max_cols;
  return analyze(triangle(full, Triangle::Lower), o);
}

// The pieces of `whole`'s supernodes, in order, are `cut`'s supernodes; returns how many
// supernodes were cut.
int expect_cut_from(const SymbolicFactor& whole, const SymbolicFactor& cut, index_t max_cols) {
  EXPECT_EQ(cut.perm, whole.perm);
  EXPECT_EQ(cut.nnz_L, whole.nnz_L);
  EXPECT_EQ(cut.nnz_L_exact, whole.nnz_L_exact);
  EXPECT_DOUBLE_EQ(cut.flops, whole.flops);
  EXPECT_DOUBLE_EQ(cut.flops_amalgamated, whole.flops_amalgamated);
  int wide = 0;
  index_t p = 0;
  offset_t next_row = 0;
  for (const Supernode& s : whole.supernodes) {
    const index_t count = (s.ncols + max_cols - 1) / max_cols;
    wide += count > 1;
    index_t col = s.first_col;
    for (index_t i = 0; i < count; ++i, ++p) {
      if (p >= cut.num_supernodes()) {
        ADD_FAILURE() << "fewer pieces than expected";
        return wide;
      }
      const Supernode& c = cut.supernodes[p];
      EXPECT_EQ(c.first_col, col);
      EXPECT_GE(c.ncols, 1);
      EXPECT_LE(c.ncols, max_cols);
      EXPECT_LE(c.ncols, (s.ncols + count - 1) / count);  // near-equal widths
      EXPECT_EQ(c.row_begin, next_row);
      EXPECT_EQ(c.nrows, s.nrows - (col - s.first_col));
      const auto from = whole.rows.begin() + s.row_begin + (col - s.first_col);
      EXPECT_TRUE(std::equal(from, whole.rows.begin() + s.row_begin + s.nrows, cut.rows.begin() + c.row_begin))
          << "rows of the piece at column " << col;
      for (index_t j = c.first_col; j < c.first_col + c.ncols; ++j) EXPECT_EQ(cut.col_to_supernode[j], p);
      // The chain: the supernode of the first row below the diagonal block, always later.
      if (c.nrows > c.ncols) {
        EXPECT_EQ(c.parent, cut.col_to_supernode[cut.rows[c.row_begin + c.ncols]]);
        EXPECT_GT(c.parent, p);
      } else {
        EXPECT_EQ(c.parent, -1);
      }
      if (i + 1 < count) {
        EXPECT_EQ(c.parent, p + 1);
      }
      col += c.ncols;
      next_row += c.nrows;
    }
    EXPECT_EQ(col, s.first_col + s.ncols);
  }
  EXPECT_EQ(p, cut.num_supernodes());
  EXPECT_EQ(static_cast<offset_t>(cut.rows.size()), next_row);
  return wide;
}

TEST(SupernodeSplit, PiecesAreTheOriginalPanelsFromTheirFirstColumnDown) {
  int wide = 0;
  for (const auto& m : test::test_matrices()) {
    for (const bool amalgamate : {false, true}) {
      const SymbolicFactor whole = analyze_cut(m.full, amalgamate, 0);
      for (const index_t max_cols : {1, 2, 3, 7, 16}) {
        SCOPED_TRACE(std::string(m.name) + (amalgamate ? ", amalgamated" : "") + ", at most " +
                     std::to_string(max_cols) + " columns");
        wide += expect_cut_from(whole, analyze_cut(m.full, amalgamate, max_cols), max_cols);
      }
    }
  }
  EXPECT_GT(wide, 100);  // the test cut something
}

TEST(SupernodeSplit, ParentsOfUncutSupernodesStayTheEliminationTreesOnes) {
  // The parent rule of the pieces (first row below) is the elimination tree's for whole supernodes.
  const Csr A = laplacian_3d(9, 8, 7);
  const SymbolicFactor f = analyze_cut(A, true, 1 << 20);
  for (index_t s = 0; s < f.num_supernodes(); ++s) {
    const Supernode& sn = f.supernodes[s];
    const index_t up = f.etree[sn.first_col + sn.ncols - 1];
    EXPECT_EQ(sn.parent, up == -1 ? -1 : f.col_to_supernode[up]) << "supernode " << s;
    if (sn.nrows > sn.ncols) {
      EXPECT_EQ(sn.parent, f.col_to_supernode[f.rows[sn.row_begin + sn.ncols]]);
    }
  }
}

TEST(SupernodeSplit, NothingWiderThanTheBoundLeavesTheFactorAsItIs) {
  const Csr A = laplacian_2d(30, 30);
  const SymbolicFactor whole = analyze_cut(A, true, 0);
  index_t widest = 0;
  for (const Supernode& s : whole.supernodes) widest = std::max(widest, s.ncols);
  for (const index_t max_cols : {widest, widest + 1, index_t{-3}}) {
    const SymbolicFactor same = analyze_cut(A, true, max_cols);
    ASSERT_EQ(same.num_supernodes(), whole.num_supernodes());
    EXPECT_EQ(same.rows, whole.rows);
    EXPECT_EQ(same.col_to_supernode, whole.col_to_supernode);
    for (index_t s = 0; s < whole.num_supernodes(); ++s) EXPECT_EQ(same.supernodes[s].parent, whole.supernodes[s].parent);
  }
  EXPECT_GT(analyze_cut(A, true, widest - 1).num_supernodes(), whole.num_supernodes());
}

}  // namespace
}  // namespace hetsparse::cholesky
