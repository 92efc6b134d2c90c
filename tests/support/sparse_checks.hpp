// Helpers for the sparse and reference tests: random matrices, dense copies and a dense Cholesky check.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::test {

// Random triplets with values in [-1, 1] away from zero; `duplicates` repeats a share of the
// positions so that summing is exercised.
inline Coo random_coo(index_t rows, index_t cols, offset_t entries, std::uint64_t seed, bool duplicates) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<index_t> row_dist(0, rows - 1), col_dist(0, cols - 1);
  std::uniform_real_distribution<double> mag(0.05, 1.0);
  Coo coo;
  coo.rows = rows;
  coo.cols = cols;
  for (offset_t k = 0; k < entries; ++k) {
    if (duplicates && k > 0 && rng() % 5 == 0) {
      const auto earlier = static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(k));
      coo.row.push_back(coo.row[earlier]);
      coo.col.push_back(coo.col[earlier]);
    } else {
      coo.row.push_back(row_dist(rng));
      coo.col.push_back(col_dist(rng));
    }
    coo.val.push_back((rng() & 1u) != 0 ? mag(rng) : -mag(rng));
  }
  return coo;
}

// Row-major dense copy; duplicates are summed.
inline std::vector<double> to_dense(const Csr& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(a.cols), 0.0);
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      d[static_cast<std::size_t>(i) * static_cast<std::size_t>(a.cols) + static_cast<std::size_t>(a.colind[p])] +=
          a.values[p];
    }
  }
  return d;
}

inline std::vector<double> to_dense(const Coo& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(a.cols), 0.0);
  for (std::size_t k = 0; k < a.row.size(); ++k) {
    d[static_cast<std::size_t>(a.row[k]) * static_cast<std::size_t>(a.cols) + static_cast<std::size_t>(a.col[k])] +=
        a.val[k];
  }
  return d;
}

// True when the dense n x n matrix (row-major, symmetric) has a Cholesky factor with
// positive pivots, i.e. is positive definite.
inline bool dense_cholesky_succeeds(std::vector<double> a, index_t n) {
  const auto at = [&a, n](index_t i, index_t j) -> double& {
    return a[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)];
  };
  for (index_t j = 0; j < n; ++j) {
    double pivot = at(j, j);
    for (index_t k = 0; k < j; ++k) pivot -= at(j, k) * at(j, k);
    if (!(pivot > 0.0)) return false;
    at(j, j) = std::sqrt(pivot);
    for (index_t i = j + 1; i < n; ++i) {
      double s = at(i, j);
      for (index_t k = 0; k < j; ++k) s -= at(i, k) * at(j, k);
      at(i, j) = s / at(j, j);
    }
  }
  return true;
}

inline std::vector<double> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

}  // namespace hetsparse::test
