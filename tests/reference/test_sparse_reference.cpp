// The reference kernels against dense arithmetic, and their structural error checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "hetsparse/error.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "tests/support/sparse_checks.hpp"

namespace hetsparse {
namespace {

constexpr index_t kN = 311;

// y = M x for a dense row-major rows x cols matrix.
std::vector<double> dense_apply(const std::vector<double>& m, index_t rows, index_t cols, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(rows), 0.0);
  for (index_t i = 0; i < rows; ++i) {
    for (index_t j = 0; j < cols; ++j) {
      y[static_cast<std::size_t>(i)] += m[static_cast<std::size_t>(i) * cols + j] * x[static_cast<std::size_t>(j)];
    }
  }
  return y;
}

std::vector<double> dense_transpose(const std::vector<double>& m, index_t n) {
  std::vector<double> t(m.size());
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j) t[static_cast<std::size_t>(j) * n + i] = m[static_cast<std::size_t>(i) * n + j];
  }
  return t;
}

double max_relative_difference(const std::vector<double>& got, const std::vector<double>& want) {
  double diff = 0.0, scale = 0.0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    diff = std::max(diff, std::abs(got[k] - want[k]));
    scale = std::max(scale, std::abs(want[k]));
  }
  return diff / scale;
}

// A well-conditioned random triangle: strictly diagonally dominant (diagonal of random
// sign), about 6 off-diagonals per row, entries of each row in random order so the
// diagonal is anywhere in its row.
Csr random_triangle(Triangle tri, std::uint64_t seed) {
  const Csr strict = triangle(to_csr(test::random_coo(kN, kN, 12 * kN, seed, true)), tri, false);
  std::mt19937_64 rng(seed);
  Coo coo = to_coo(strict);
  for (index_t i = 0; i < kN; ++i) {
    double off = 0.0;
    for (offset_t p = strict.rowptr[i]; p < strict.rowptr[i + 1]; ++p) off += std::abs(strict.values[p]);
    coo.row.push_back(i);
    coo.col.push_back(i);
    coo.val.push_back((rng() & 1u ? 1.0 : -1.0) * (off + 0.5));
  }
  const Csr sorted = to_csr(coo);
  Csr out = sorted;
  for (index_t i = 0; i < kN; ++i) {
    std::vector<offset_t> order(static_cast<std::size_t>(sorted.rowptr[i + 1] - sorted.rowptr[i]));
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = sorted.rowptr[i] + static_cast<offset_t>(k);
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t k = 0; k < order.size(); ++k) {
      out.colind[sorted.rowptr[i] + static_cast<offset_t>(k)] = sorted.colind[order[k]];
      out.values[sorted.rowptr[i] + static_cast<offset_t>(k)] = sorted.values[order[k]];
    }
  }
  return out;
}

TEST(ReferenceSpmv, MatchesDenseProductWithAlphaBeta) {
  const Csr a = to_csr(test::random_coo(kN, 217, 5000, 41, true));
  const auto x = test::random_vector(217, 1);
  const auto y0 = test::random_vector(kN, 2);
  const auto ax = dense_apply(test::to_dense(a), kN, 217, x);
  std::vector<double> y = y0;
  ref::spmv(a, x.data(), y.data(), 1.5, -0.75);
  std::vector<double> want(kN);
  for (index_t i = 0; i < kN; ++i) want[static_cast<std::size_t>(i)] = 1.5 * ax[static_cast<std::size_t>(i)] - 0.75 * y0[static_cast<std::size_t>(i)];
  EXPECT_LT(max_relative_difference(y, want), 1e-14);
  // beta == 0 must not read y: NaN in y stays out of the result.
  std::vector<double> nan_y(kN, std::numeric_limits<double>::quiet_NaN());
  ref::spmv(a, x.data(), nan_y.data());
  EXPECT_LT(max_relative_difference(nan_y, ax), 1e-14);
}

TEST(ReferenceSptrsv, SolvesBothTrianglesWithDiagonalAnywhere) {
  for (const Triangle tri : {Triangle::Lower, Triangle::Upper}) {
    const Csr t = random_triangle(tri, tri == Triangle::Lower ? 42 : 43);
    const auto x_true = test::random_vector(kN, 3);
    const auto dense = test::to_dense(t);
    const auto b = dense_apply(dense, kN, kN, x_true);
    std::vector<double> x(kN, 0.0);
    ref::sptrsv(t, tri, false, b.data(), x.data());
    EXPECT_LT(max_relative_difference(x, x_true), 1e-12);
    EXPECT_LT(ref::backward_error(t, x.data(), b.data()), 1e-15);
    std::vector<double> in_place = b;  // x and b the same array
    ref::sptrsv(t, tri, false, in_place.data(), in_place.data());
    EXPECT_EQ(in_place, x);

    const auto bt = dense_apply(dense_transpose(dense, kN), kN, kN, x_true);
    std::vector<double> xt(kN, 0.0);
    ref::sptrsv_transpose(t, tri, false, bt.data(), xt.data());
    EXPECT_LT(max_relative_difference(xt, x_true), 1e-12);
    std::vector<double> xt_in_place = bt;
    ref::sptrsv_transpose(t, tri, false, xt_in_place.data(), xt_in_place.data());
    EXPECT_EQ(xt_in_place, xt);
  }
}

TEST(ReferenceSptrsv, UnitDiagonalIgnoresStoredDiagonal) {
  const Csr t = random_triangle(Triangle::Lower, 44);
  Csr strict = triangle(t, Triangle::Lower, false);
  for (double& v : strict.values) v *= 0.05;  // keep the unit-diagonal solve well conditioned
  // The same strict part with a stored diagonal that a unit-diagonal solve must ignore.
  Coo coo = to_coo(strict);
  for (index_t i = 0; i < kN; ++i) {
    coo.row.push_back(i);
    coo.col.push_back(i);
    coo.val.push_back(7.0 + i);
  }
  Csr unit = to_csr(coo);
  auto dense = test::to_dense(strict);
  for (index_t i = 0; i < kN; ++i) dense[static_cast<std::size_t>(i) * kN + i] = 1.0;
  const auto x_true = test::random_vector(kN, 4);
  const auto b = dense_apply(dense, kN, kN, x_true);
  for (const Csr* m : {&strict, &unit}) {
    std::vector<double> x(kN);
    ref::sptrsv(*m, Triangle::Lower, true, b.data(), x.data());
    EXPECT_LT(max_relative_difference(x, x_true), 1e-12);
  }
  const auto bt = dense_apply(dense_transpose(dense, kN), kN, kN, x_true);
  std::vector<double> xt(kN);
  ref::sptrsv_transpose(unit, Triangle::Lower, true, bt.data(), xt.data());
  EXPECT_LT(max_relative_difference(xt, x_true), 1e-12);
}

TEST(ReferenceSptrsv, StructuralErrorsNameTheEntry) {
  const Csr lower = random_triangle(Triangle::Lower, 45);
  std::vector<double> b(kN, 1.0), x(kN, 0.0);
  try {
    ref::sptrsv(lower, Triangle::Upper, false, b.data(), x.data());
    FAIL() << "lower matrix accepted as upper";
  } catch (const StructureError& e) {
    EXPECT_GT(e.row(), e.col());
  }
  // Remove one diagonal: the error names that row.
  Coo coo = to_coo(lower);
  const index_t victim = 150;
  for (std::size_t k = 0; k < coo.row.size(); ++k) {
    if (coo.row[k] == victim && coo.col[k] == victim) coo.val[k] = 0.0;
  }
  const Csr zero_diagonal = to_csr(coo);
  try {
    ref::sptrsv(zero_diagonal, Triangle::Lower, false, b.data(), x.data());
    FAIL() << "zero diagonal accepted";
  } catch (const StructureError& e) {
    EXPECT_EQ(e.row(), victim);
    EXPECT_EQ(e.col(), victim);
  }
  const Csr missing_diagonal = triangle(lower, Triangle::Lower, false);
  EXPECT_THROW(ref::sptrsv(missing_diagonal, Triangle::Lower, false, b.data(), x.data()), StructureError);
  EXPECT_THROW(ref::sptrsv_transpose(missing_diagonal, Triangle::Lower, false, b.data(), x.data()), StructureError);
  EXPECT_NO_THROW(ref::sptrsv(missing_diagonal, Triangle::Lower, true, b.data(), x.data()));
  const Csr rectangular = row_block(lower, 0, 200);
  EXPECT_THROW(ref::sptrsv(rectangular, Triangle::Lower, false, b.data(), x.data()), InvalidArgument);
}

TEST(ReferenceBackwardError, FormulaAndNanPropagation) {
  // A = [[2, -1], [0, 3]], x = [1, 1], b = [1, 4]: residual [0, -1], ||A|| = 3, ||x|| = 1,
  // ||b|| = 4, so the error is 1 / 7.
  const Csr a{2, 2, {0, 2, 3}, {0, 1, 1}, {2.0, -1.0, 3.0}};
  const double x[] = {1.0, 1.0}, b[] = {1.0, 4.0};
  EXPECT_DOUBLE_EQ(ref::backward_error(a, x, b), 1.0 / 7.0);
  const double zero[] = {0.0, 0.0};
  EXPECT_EQ(ref::backward_error(a, zero, zero), 0.0);
  const double nan_x[] = {1.0, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_TRUE(std::isnan(ref::backward_error(a, nan_x, b)));
}

}  // namespace
}  // namespace hetsparse
