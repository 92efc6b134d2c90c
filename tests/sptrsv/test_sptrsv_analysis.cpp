// TriangularPattern: rejected inputs name the right entry, normalisation puts the diagonal in its
// slot, levels match a brute-force fixed point, features match hand counts, fusion segments and
// update_values behave.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sptrsv/analysis.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

using sptrsv::TriangularPattern;

// Csr from rows of (column, value), in the order given.
Csr from_rows(index_t n, const std::vector<std::vector<std::pair<index_t, double>>>& rows) {
  Csr a;
  a.rows = a.cols = n;
  a.rowptr.push_back(0);
  for (const auto& row : rows) {
    for (const auto& [col, value] : row) {
      a.colind.push_back(col);
      a.values.push_back(value);
    }
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

// The first 40 rows of a shuffled banded lower triangle, or the whole upper one (2000 rows).
Csr sample_input(Triangle tri) {
  Csr a = solver_input(sptrsv_matrix("banded_narrow"), tri, false, 3);
  if (tri == Triangle::Upper) return a;
  Csr b = row_block(a, 0, 40);
  b.cols = 40;
  return b;
}

void expect_structure_error(const Csr& a, Triangle tri, bool unit, index_t row, index_t col) {
  try {
    TriangularPattern pattern(a, tri, unit);
    ADD_FAILURE() << "no StructureError";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), row) << e.what();
    EXPECT_EQ(e.col(), col) << e.what();
  }
}

offset_t find_entry(const Csr& a, index_t row, index_t col) {
  for (offset_t p = a.rowptr[row]; p < a.rowptr[row + 1]; ++p) {
    if (a.colind[p] == col) return p;
  }
  ADD_FAILURE() << "no entry (" << row << ", " << col << ")";
  return 0;
}

// Position of an off-diagonal entry in the first row >= `from` that has one.
offset_t off_diagonal_entry(const Csr& a, index_t from) {
  for (index_t i = from; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p] != i) return p;
    }
  }
  ADD_FAILURE() << "no off-diagonal entry in rows >= " << from;
  return 0;
}

index_t row_of(const Csr& a, offset_t p) {
  return static_cast<index_t>(std::upper_bound(a.rowptr.begin(), a.rowptr.end(), p) - a.rowptr.begin() - 1);
}

TEST(SptrsvAnalysis, MissingDiagonalNamesTheRow) {
  Csr a = sample_input(Triangle::Lower);
  a.colind[find_entry(a, 37, 37)] = 36;  // a duplicate of (37, 36) at worst, which is allowed
  expect_structure_error(a, Triangle::Lower, false, 37, 37);
}

TEST(SptrsvAnalysis, ZeroDiagonalNamesTheRow) {
  Csr a = sample_input(Triangle::Lower);
  a.values[find_entry(a, 21, 21)] = 0.0;
  expect_structure_error(a, Triangle::Lower, false, 21, 21);
  // Duplicated diagonal entries are summed before the check.
  const Csr cancelling = from_rows(3, {{{0, 1.0}}, {{1, 2.0}, {0, 1.0}, {1, -2.0}}, {{2, 1.0}}});
  expect_structure_error(cancelling, Triangle::Lower, false, 1, 1);
  EXPECT_NO_THROW(TriangularPattern(cancelling, Triangle::Lower, true));
}

TEST(SptrsvAnalysis, WrongSideEntryNamesTheEntry) {
  Csr lower = sample_input(Triangle::Lower);
  lower.colind[find_entry(lower, 12, 12)] = 20;
  expect_structure_error(lower, Triangle::Lower, false, 12, 20);
  // Unit diagonal: the stored diagonal is ignored, the wrong side is not.
  expect_structure_error(lower, Triangle::Lower, true, 12, 20);
  Csr upper = sample_input(Triangle::Upper);
  const index_t row = upper.rows - 30;
  upper.colind[find_entry(upper, row, row)] = 4;
  expect_structure_error(upper, Triangle::Upper, false, row, 4);
}

TEST(SptrsvAnalysis, NonFiniteValueNamesTheEntry) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  Csr a = sample_input(Triangle::Lower);
  const offset_t p = off_diagonal_entry(a, 30);
  a.values[p] = nan;
  expect_structure_error(a, Triangle::Lower, false, row_of(a, p), a.colind[p]);
  Csr b = sample_input(Triangle::Lower);
  b.values[find_entry(b, 33, 33)] = -inf;
  expect_structure_error(b, Triangle::Lower, false, 33, 33);
  // Even an ignored unit diagonal must be finite.
  b.values[find_entry(b, 33, 33)] = nan;
  expect_structure_error(b, Triangle::Lower, true, 33, 33);
}

TEST(SptrsvAnalysis, RejectsNonSquareAndAcceptsMissingUnitDiagonal) {
  Csr a = sample_input(Triangle::Lower);
  a.cols = 41;
  EXPECT_THROW(TriangularPattern(a, Triangle::Lower, false), InvalidArgument);
  // solver_input drops the stored diagonal of odd rows in unit mode.
  const Csr unit = solver_input(sptrsv_matrix("banded_narrow"), Triangle::Lower, true, 4);
  EXPECT_NO_THROW(TriangularPattern(unit, Triangle::Lower, true));
  EXPECT_THROW(TriangularPattern(unit, Triangle::Lower, false), StructureError);
}

TEST(SptrsvAnalysis, DiagonalAnywhereIsNormalised) {
  // Lower: diagonal first, in the middle, last; unsorted; a duplicate (2, 0) summed.
  const Csr lower = from_rows(3, {{{0, 4.0}}, {{1, 5.0}, {0, 1.0}}, {{1, 2.0}, {2, 6.0}, {0, 3.0}, {0, 0.5}}});
  const TriangularPattern l(lower, Triangle::Lower, false);
  EXPECT_EQ(l.rowptr(), (std::vector<index_t>{0, 1, 3, 6}));
  EXPECT_EQ(l.colind(), (std::vector<index_t>{0, 0, 1, 0, 1, 2}));
  EXPECT_EQ(l.values(), (std::vector<double>{4.0, 1.0, 5.0, 3.5, 2.0, 6.0}));
  // Upper: diagonal first; unit: stored diagonal replaced by 1, missing one added.
  const Csr upper = from_rows(3, {{{2, 3.0}, {0, 9.0}, {1, 2.0}}, {{2, 1.0}}, {{2, 7.0}}});
  const TriangularPattern u(upper, Triangle::Upper, true);
  EXPECT_EQ(u.rowptr(), (std::vector<index_t>{0, 3, 5, 6}));
  EXPECT_EQ(u.colind(), (std::vector<index_t>{0, 1, 2, 1, 2, 2}));
  EXPECT_EQ(u.values(), (std::vector<double>{1.0, 2.0, 3.0, 1.0, 1.0, 1.0}));
  EXPECT_EQ(u.nnz(), 6);
}

// Sorted rows take normalisation's copy path, shuffled ones its sorting path: same result.
TEST(SptrsvAnalysis, SortedAndShuffledInputsNormaliseAlike) {
  for (const std::string name : {"anchor_rmat_12_8", "banded_wide", "diagonal_only"}) {
    for (const SolveCase& c : solve_cases()) {
      SCOPED_TRACE(name + " " + c.label());
      const Csr shuffled = solver_input(sptrsv_matrix(name), c.tri, c.unit_diagonal, 9);
      Csr sorted = shuffled;
      sort_rows(sorted);  // diagonal last (lower) or first (upper); unit rows keep or lack it
      const TriangularPattern a(sorted, c.tri, c.unit_diagonal), b(shuffled, c.tri, c.unit_diagonal);
      EXPECT_EQ(a.rowptr(), b.rowptr());
      EXPECT_EQ(a.colind(), b.colind());
      EXPECT_EQ(a.values(), b.values());
    }
  }
}

// A lower triangle of n rows with up to five off-diagonals each (distinct columns below the row,
// values 0.25-multiples so that halves add back exactly), rows sorted, diagonal last.
Csr large_lower(index_t n) {
  Csr a;
  a.rows = a.cols = n;
  a.rowptr.push_back(0);
  for (index_t i = 0; i < n; ++i) {
    for (index_t d : {977, 131, 17, 3, 1})
      if (i >= d && (i + d) % 3 != 0) {
        a.colind.push_back(i - d);
        a.values.push_back(0.25 * static_cast<double>((i + d) % 7 + 1));
      }
    a.colind.push_back(i);
    a.values.push_back(8.0);
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

TEST(SptrsvAnalysis, ShuffledRowsWithDuplicatesNormaliseAsTheSortedOnALargeInput) {
  const Csr sorted = large_lower(100000);
  Csr shuffled;
  shuffled.rows = shuffled.cols = sorted.rows;
  shuffled.rowptr.push_back(0);
  for (index_t i = 0; i < sorted.rows; ++i) {
    // Reversed (diagonal first), the first off-diagonal split into two halves on every third row.
    for (offset_t p = sorted.rowptr[i + 1] - 1; p >= sorted.rowptr[i]; --p) {
      const bool split = i % 3 == 0 && sorted.colind[p] != i && p == sorted.rowptr[i];
      shuffled.colind.push_back(sorted.colind[p]);
      shuffled.values.push_back(split ? 0.5 * sorted.values[p] : sorted.values[p]);
      if (split) {
        shuffled.colind.push_back(sorted.colind[p]);
        shuffled.values.push_back(0.5 * sorted.values[p]);
      }
    }
    shuffled.rowptr.push_back(static_cast<offset_t>(shuffled.colind.size()));
  }
  const TriangularPattern a(sorted, Triangle::Lower, false), b(shuffled, Triangle::Lower, false);
  EXPECT_EQ(a.rowptr(), b.rowptr());
  EXPECT_EQ(a.colind(), b.colind());
  EXPECT_EQ(a.values(), b.values());
  EXPECT_EQ(a.rowptr().back(), static_cast<index_t>(sorted.nnz()));
}

TEST(SptrsvAnalysis, TheFirstBadRowIsNamedOnALargeInput) {
  const Csr good = large_lower(100000);
  // A wrong-side entry at row 30,000 and a missing diagonal at row 80,000: row order says 30,000.
  Csr a = good;
  a.colind[static_cast<std::size_t>(off_diagonal_entry(a, 30000))] = 30001;
  Csr b = a;
  const offset_t diagonal = a.rowptr[80001] - 1;
  b.colind.erase(b.colind.begin() + diagonal);
  b.values.erase(b.values.begin() + diagonal);
  for (index_t i = 80001; i <= b.rows; ++i) --b.rowptr[static_cast<std::size_t>(i)];
  expect_structure_error(b, Triangle::Lower, false, 30000, 30001);
  // The missing diagonal alone.
  Csr c = good;
  c.colind.erase(c.colind.begin() + diagonal);
  c.values.erase(c.values.begin() + diagonal);
  for (index_t i = 80001; i <= c.rows; ++i) --c.rowptr[static_cast<std::size_t>(i)];
  expect_structure_error(c, Triangle::Lower, false, 80000, 80000);
}

// Jacobi sweeps of level[i] = max(level[i], level[j] + 1) until nothing changes: slow and obvious.
std::vector<index_t> brute_force_levels(const Csr& a) {
  std::vector<index_t> level(static_cast<std::size_t>(a.rows), 0);
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<index_t> old = level;
    for (index_t i = 0; i < a.rows; ++i) {
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const index_t j = a.colind[p];
        if (j != i && old[static_cast<std::size_t>(j)] + 1 > level[static_cast<std::size_t>(i)]) {
          level[static_cast<std::size_t>(i)] = old[static_cast<std::size_t>(j)] + 1;
          changed = true;
        }
      }
    }
  }
  return level;
}

TEST(SptrsvAnalysis, LevelsMatchBruteForce) {
  for (const std::string& name : sptrsv_matrix_names()) {
    for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
      SCOPED_TRACE(name + (tri == Triangle::Lower ? " lower" : " upper"));
      const Csr input = solver_input(sptrsv_matrix(name), tri, false, 8);
      const TriangularPattern p(input, tri, false);
      const std::vector<index_t> expected = brute_force_levels(input);
      ASSERT_EQ(p.row_level(), expected);
      ASSERT_EQ(p.num_levels(), *std::max_element(expected.begin(), expected.end()) + 1);
      // level_rows: every row once, grouped by level, ascending within a level; level_nnz adds up.
      ASSERT_EQ(p.level_ptr().back(), input.rows);
      std::vector<bool> seen(static_cast<std::size_t>(input.rows), false);
      for (index_t l = 0; l < p.num_levels(); ++l) {
        std::int64_t entries = 0;
        for (index_t k = p.level_ptr()[l]; k < p.level_ptr()[l + 1]; ++k) {
          const index_t row = p.level_rows()[k];
          ASSERT_EQ(p.row_level()[row], l);
          ASSERT_FALSE(seen[row]);
          seen[row] = true;
          if (k > p.level_ptr()[l]) {
            ASSERT_LT(p.level_rows()[k - 1], row);
          }
          entries += p.rowptr()[row + 1] - p.rowptr()[row];
          // The level-ordered copy holds the same row at position k.
          const kernels::TriangularView v = p.host_view();
          ASSERT_EQ(v.level_rowptr[k + 1] - v.level_rowptr[k], p.rowptr()[row + 1] - p.rowptr()[row]);
          for (index_t q = 0; q < v.level_rowptr[k + 1] - v.level_rowptr[k]; ++q) {
            ASSERT_EQ(v.level_colind[v.level_rowptr[k] + q], p.colind()[p.rowptr()[row] + q]);
            ASSERT_EQ(v.level_values[v.level_rowptr[k] + q], p.values()[p.rowptr()[row] + q]);
          }
        }
        ASSERT_EQ(p.level_nnz()[l], entries);
      }
    }
  }
}

TEST(SptrsvAnalysis, ChainHasOneRowPerLevel) {
  const TriangularPattern p(sptrsv_matrix("chain_5000"), Triangle::Lower, false);
  EXPECT_EQ(p.num_levels(), 5000);
  const TriangularPattern d(sptrsv_matrix("diagonal_only"), Triangle::Lower, false);
  EXPECT_EQ(d.num_levels(), 1);
}

}  // namespace
}  // namespace hetsparse::test
