// Format conversions, transpose, sort_rows, validate and the symmetry check.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "tests/support/sparse_checks.hpp"

namespace hetsparse {
namespace {

bool rows_sorted_unique(const Csr& a) {
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i] + 1; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p - 1] >= a.colind[p]) return false;
    }
  }
  return true;
}

TEST(Convert, CooToCsrSortsAndSumsDuplicates) {
  const Coo coo = test::random_coo(237, 311, 4000, 11, true);
  const Csr a = to_csr(coo);
  ASSERT_NO_THROW(validate(a));
  EXPECT_EQ(a.rows, 237);
  EXPECT_EQ(a.cols, 311);
  EXPECT_TRUE(rows_sorted_unique(a));
  EXPECT_LT(a.nnz(), coo.nnz());  // the generator repeated positions
  const auto expected = test::to_dense(coo);
  const auto got = test::to_dense(a);
  for (std::size_t k = 0; k < expected.size(); ++k) ASSERT_NEAR(got[k], expected[k], 1e-14) << "entry " << k;
}

TEST(Convert, DuplicatesSumInInputOrder) {
  Coo coo{3, 3, {2, 0, 2, 2}, {1, 0, 1, 1}, {0.1, 5.0, 0.2, 0.3}};
  const Csr a = to_csr(coo);
  ASSERT_EQ(a.nnz(), 2);
  EXPECT_EQ(a.values[1], (0.1 + 0.2) + 0.3);  // bit-exact: same order as a left-to-right sum
}

TEST(Convert, CsrCooRoundTrip) {
  const Csr a = to_csr(test::random_coo(300, 250, 3000, 12, false));
  const Csr b = to_csr(to_coo(a));
  EXPECT_EQ(b.rowptr, a.rowptr);
  EXPECT_EQ(b.colind, a.colind);
  EXPECT_EQ(b.values, a.values);
}

TEST(Convert, CsrCscRoundTripAndLayout) {
  const Csr a = to_csr(test::random_coo(280, 199, 2500, 13, true));
  const Csc c = to_csc(a);
  ASSERT_EQ(c.colptr.size(), 200u);
  EXPECT_EQ(c.nnz(), a.nnz());
  // Every CSC entry (i, j, v) must be the CSR entry at the same position.
  const auto dense = test::to_dense(a);
  for (index_t j = 0; j < c.cols; ++j) {
    for (offset_t p = c.colptr[j]; p < c.colptr[j + 1]; ++p) {
      ASSERT_EQ(c.values[p], dense[static_cast<std::size_t>(c.rowind[p]) * 199 + j]);
      if (p > c.colptr[j]) {
        ASSERT_LT(c.rowind[p - 1], c.rowind[p]);
      }
    }
  }
  const Csr back = to_csr(c);
  EXPECT_EQ(back.rowptr, a.rowptr);
  EXPECT_EQ(back.colind, a.colind);
  EXPECT_EQ(back.values, a.values);
}

TEST(Convert, TransposeMatchesDenseAndTwiceIsIdentity) {
  const Csr a = to_csr(test::random_coo(345, 123, 5000, 14, false));
  const Csr t = transpose(a);
  ASSERT_EQ(t.rows, 123);
  ASSERT_EQ(t.cols, 345);
  ASSERT_NO_THROW(validate(t));
  const auto da = test::to_dense(a), dt = test::to_dense(t);
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t j = 0; j < a.cols; ++j) {
      ASSERT_EQ(dt[static_cast<std::size_t>(j) * 345 + i], da[static_cast<std::size_t>(i) * 123 + j]);
    }
  }
  const Csr tt = transpose(t);
  EXPECT_EQ(tt.rowptr, a.rowptr);
  EXPECT_EQ(tt.colind, a.colind);
  EXPECT_EQ(tt.values, a.values);
}

TEST(Convert, SortRowsRestoresOrderAndCarriesValues) {
  const Csr sorted = to_csr(test::random_coo(400, 400, 6000, 15, false));
  Csr shuffled = sorted;
  std::mt19937_64 rng(3);
  for (index_t i = 0; i < shuffled.rows; ++i) {
    // Shuffle (column, value) pairs together by shuffling a permutation of the row.
    const offset_t first = shuffled.rowptr[i], len = shuffled.rowptr[i + 1] - first;
    std::vector<offset_t> order(static_cast<std::size_t>(len));
    for (offset_t k = 0; k < len; ++k) order[static_cast<std::size_t>(k)] = k;
    std::shuffle(order.begin(), order.end(), rng);
    for (offset_t k = 0; k < len; ++k) {
      shuffled.colind[first + k] = sorted.colind[first + order[static_cast<std::size_t>(k)]];
      shuffled.values[first + k] = sorted.values[first + order[static_cast<std::size_t>(k)]];
    }
  }
  ASSERT_NE(shuffled.colind, sorted.colind);
  sort_rows(shuffled);
  EXPECT_EQ(shuffled.colind, sorted.colind);
  EXPECT_EQ(shuffled.values, sorted.values);
}

TEST(Convert, ToCsrRejectsBadTriplets) {
  Coo out_of_range{4, 5, {0, 3}, {1, 5}, {1.0, 2.0}};
  try {
    to_csr(out_of_range);
    FAIL() << "no exception";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), 3);
    EXPECT_EQ(e.col(), 5);
  }
  Coo ragged{4, 5, {0, 3}, {1}, {1.0, 2.0}};
  EXPECT_THROW(to_csr(ragged), InvalidArgument);
}

TEST(Validate, AcceptsGoodAndEmptyMatrices) {
  EXPECT_NO_THROW(validate(Csr{}));
  EXPECT_NO_THROW(validate(to_csr(test::random_coo(150, 170, 900, 16, true))));
  Csr empty_rows{3, 3, {0, 0, 0, 0}, {}, {}};
  EXPECT_NO_THROW(validate(empty_rows));
}

TEST(Validate, ReportsEachKindOfInconsistency) {
  const Csr good = to_csr(test::random_coo(120, 130, 800, 17, false));

  Csr short_rowptr = good;
  short_rowptr.rowptr.pop_back();
  EXPECT_THROW(validate(short_rowptr), InvalidArgument);

  Csr decreasing = good;
  const index_t row = 57;
  ASSERT_LT(decreasing.rowptr[row], decreasing.rowptr[row + 1]);
  decreasing.rowptr[row + 1] = decreasing.rowptr[row] - 1;
  try {
    validate(decreasing);
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("row " + std::to_string(row)), std::string::npos) << e.what();
  }

  Csr missing_values = good;
  missing_values.values.pop_back();
  EXPECT_THROW(validate(missing_values), InvalidArgument);

  Csr bad_column = good;
  const offset_t p = bad_column.rowptr[40];
  bad_column.colind[p] = 130;
  try {
    validate(bad_column);
    FAIL() << "no exception";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), 40);
    EXPECT_EQ(e.col(), 130);
  }
  Csr negative_column = good;
  negative_column.colind[negative_column.rowptr[90]] = -2;
  EXPECT_THROW(validate(negative_column), StructureError);
}

TEST(StructuralSymmetry, DetectsOneMissingMirror) {
  Coo coo = test::random_coo(200, 200, 2000, 18, true);
  const std::size_t base = coo.row.size();
  for (std::size_t k = 0; k < base; ++k) {  // mirror every entry, different value
    coo.row.push_back(coo.col[k]);
    coo.col.push_back(coo.row[k]);
    coo.val.push_back(0.5 * coo.val[k]);
  }
  Csr sym = to_csr(coo);
  EXPECT_TRUE(is_structurally_symmetric(sym));
  // Drop a single off-diagonal entry.
  Coo broken = to_coo(sym);
  for (std::size_t k = 0; k < broken.row.size(); ++k) {
    if (broken.row[k] != broken.col[k]) {
      broken.row.erase(broken.row.begin() + static_cast<std::ptrdiff_t>(k));
      broken.col.erase(broken.col.begin() + static_cast<std::ptrdiff_t>(k));
      broken.val.erase(broken.val.begin() + static_cast<std::ptrdiff_t>(k));
      break;
    }
  }
  EXPECT_FALSE(is_structurally_symmetric(to_csr(broken)));
  EXPECT_FALSE(is_structurally_symmetric(to_csr(test::random_coo(200, 201, 500, 19, false))));
}

}  // namespace
}  // namespace hetsparse
