// level_profile_lower (the split SpTRSV corpus's level profiles): the DAG's rows per level are
// exactly the profile's, rows are sorted lower-triangular with a strictly dominant diagonal last,
// the "levels:" spec builds it, and malformed profiles are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/generator_spec.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

// Rows per level of a lower triangle's DAG (a row's level: one more than its deepest dependency's).
std::vector<index_t> rows_per_level(const Csr& a) {
  std::vector<index_t> level(static_cast<std::size_t>(a.rows), 0), count;
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.colind[p] != i) level[i] = std::max(level[i], level[a.colind[p]] + 1);
    if (static_cast<std::size_t>(level[i]) >= count.size()) count.resize(static_cast<std::size_t>(level[i]) + 1, 0);
    ++count[static_cast<std::size_t>(level[i])];
  }
  return count;
}

TEST(LevelProfile, RowsPerLevelFollowTheProfile) {
  const Csr a = level_profile_lower("c50+b1003x4+c3", 5, 2);
  std::vector<index_t> expected(50, 1);
  for (index_t r : {251, 251, 251, 250}) expected.push_back(r);
  expected.insert(expected.end(), 3, 1);
  EXPECT_EQ(rows_per_level(a), expected);
  EXPECT_EQ(a.rows, 50 + 1003 + 3);
  for (index_t i = 0; i < a.rows; ++i) {
    const offset_t last = a.rowptr[i + 1] - 1;
    ASSERT_EQ(a.colind[last], i) << "diagonal last in row " << i;
    double off = 0.0;
    for (offset_t p = a.rowptr[i]; p < last; ++p) {
      ASSERT_LT(a.colind[p], i);
      if (p > a.rowptr[i]) ASSERT_LT(a.colind[p - 1], a.colind[p]) << "sorted, no duplicates";
      off += std::abs(a.values[p]);
    }
    ASSERT_GT(a.values[last], off);
    ASSERT_LE(a.rowptr[i + 1] - a.rowptr[i], 6);
  }
}

TEST(LevelProfile, SpecAndErrors) {
  const Csr a = generate("levels:b300x3+c20:2:9"), b = level_profile_lower("b300x3+c20", 2, 9);
  EXPECT_EQ(a.colind, b.colind);
  EXPECT_EQ(a.values, b.values);
  EXPECT_NE(level_profile_lower("b300x3+c20", 2, 10).values, b.values) << "the seed matters";
  for (const char* bad : {"", "c", "x10", "b10x20", "c10+", "b10y2", "c-5", "b100x0"})
    EXPECT_THROW(level_profile_lower(bad, 4, 1), InvalidArgument) << bad;
  EXPECT_THROW(level_profile_lower("c10", 0, 1), InvalidArgument);
  EXPECT_THROW(generate("levels:c10:0"), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse
