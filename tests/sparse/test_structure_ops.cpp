// triangle, full_from_triangle, symmetric_permute and row_block against dense copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "tests/support/sparse_checks.hpp"

namespace hetsparse {
namespace {

constexpr index_t kN = 257;

std::size_t at(index_t i, index_t j, index_t cols) {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j);
}

Csr random_square(std::uint64_t seed) { return to_csr(test::random_coo(kN, kN, 3000, seed, true)); }

TEST(Triangle, KeepsExactlyTheRequestedPart) {
  const Csr a = random_square(21);
  const auto dense = test::to_dense(a);
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    for (const bool keep_diagonal : {true, false}) {
      const Csr t = triangle(a, tri, keep_diagonal);
      ASSERT_NO_THROW(validate(t));
      const auto dt = test::to_dense(t);
      for (index_t i = 0; i < kN; ++i) {
        for (index_t j = 0; j < kN; ++j) {
          const bool wanted = (tri == Triangle::Lower ? j < i : j > i) || (keep_diagonal && i == j);
          ASSERT_EQ(dt[at(i, j, kN)], wanted ? dense[at(i, j, kN)] : 0.0) << i << "," << j;
        }
      }
    }
  }
  EXPECT_THROW(triangle(to_csr(test::random_coo(100, 120, 300, 1, false)), Triangle::Lower), InvalidArgument);
}

TEST(Triangle, FullFromEitherTriangleRebuildsSymmetricMatrix) {
  const Csr a = random_square(22);
  const Csr sym = full_from_triangle(triangle(a, Triangle::Lower));  // L + L^T - diag(L)
  ASSERT_NO_THROW(validate(sym));
  EXPECT_TRUE(is_structurally_symmetric(sym));
  const auto da = test::to_dense(a), ds = test::to_dense(sym);
  for (index_t i = 0; i < kN; ++i) {
    for (index_t j = 0; j <= i; ++j) {
      ASSERT_EQ(ds[at(i, j, kN)], da[at(i, j, kN)]);
      ASSERT_EQ(ds[at(j, i, kN)], da[at(i, j, kN)]);
    }
  }
  // The upper triangle of a symmetric matrix gives the same matrix back.
  const Csr again = full_from_triangle(triangle(sym, Triangle::Upper));
  EXPECT_EQ(again.rowptr, sym.rowptr);
  EXPECT_EQ(again.colind, sym.colind);
  EXPECT_EQ(again.values, sym.values);
  EXPECT_THROW(full_from_triangle(a), InvalidArgument);  // entries on both sides
}

TEST(SymmetricPermute, MatchesDenseEntryByEntry) {
  const Csr a = random_square(23);
  std::vector<index_t> perm(kN);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(5));
  const Csr b = symmetric_permute(a, perm);
  ASSERT_NO_THROW(validate(b));
  EXPECT_EQ(b.nnz(), a.nnz());
  const auto da = test::to_dense(a), db = test::to_dense(b);
  for (index_t i = 0; i < kN; ++i) {
    for (index_t j = 0; j < kN; ++j) {
      ASSERT_EQ(db[at(i, j, kN)], da[at(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)], kN)]);
    }
  }
  for (index_t i = 0; i < b.rows; ++i) {
    ASSERT_TRUE(std::is_sorted(b.colind.begin() + b.rowptr[i], b.colind.begin() + b.rowptr[i + 1]));
  }
  // Undoing with the inverse permutation gives A back exactly.
  std::vector<index_t> inverse(kN);
  for (index_t k = 0; k < kN; ++k) inverse[static_cast<std::size_t>(perm[static_cast<std::size_t>(k)])] = k;
  const Csr back = symmetric_permute(b, inverse);
  EXPECT_EQ(back.colind, a.colind);
  EXPECT_EQ(back.values, a.values);
}

TEST(SymmetricPermute, RejectsNonPermutations) {
  const Csr a = random_square(24);
  std::vector<index_t> perm(kN);
  std::iota(perm.begin(), perm.end(), 0);
  auto repeated = perm;
  repeated[100] = repeated[7];
  EXPECT_THROW(symmetric_permute(a, repeated), InvalidArgument);
  auto out_of_range = perm;
  out_of_range[3] = kN;
  EXPECT_THROW(symmetric_permute(a, out_of_range), InvalidArgument);
  auto negative = perm;
  negative[0] = -1;
  EXPECT_THROW(symmetric_permute(a, negative), InvalidArgument);
  EXPECT_THROW(symmetric_permute(a, std::vector<index_t>(perm.begin(), perm.end() - 1)), InvalidArgument);
}

TEST(RowBlock, ExtractsRowsWithRebasedPointers) {
  const Csr a = to_csr(test::random_coo(300, 180, 4000, 25, false));
  const auto dense = test::to_dense(a);
  const Csr b = row_block(a, 113, 241);
  ASSERT_NO_THROW(validate(b));
  EXPECT_EQ(b.rows, 128);
  EXPECT_EQ(b.cols, 180);
  EXPECT_EQ(b.rowptr.front(), 0);
  EXPECT_EQ(b.nnz(), a.rowptr[241] - a.rowptr[113]);
  const auto db = test::to_dense(b);
  for (index_t i = 0; i < b.rows; ++i) {
    for (index_t j = 0; j < b.cols; ++j) ASSERT_EQ(db[at(i, j, 180)], dense[at(113 + i, j, 180)]);
  }
  EXPECT_EQ(row_block(a, 50, 50).rows, 0);
  EXPECT_EQ(row_block(a, 50, 50).nnz(), 0);
  EXPECT_EQ(row_block(a, 0, 300).colind, a.colind);
  EXPECT_THROW(row_block(a, 10, 5), InvalidArgument);
  EXPECT_THROW(row_block(a, -1, 5), InvalidArgument);
  EXPECT_THROW(row_block(a, 0, 301), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse
