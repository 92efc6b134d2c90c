// Oracles and inputs for the symbolic-analysis tests: random SPD matrices and a brute-force
// symbolic factorization (dense boolean elimination) to compare the analysis against.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "symbolic/analysis.hpp"
#include "sparse/convert.hpp"
#include "sparse/csr.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::cholesky::test {

// Two analyses of one matrix agree: ordering, elimination tree, column counts, supernodes, their
// rows and the counts derived from them.
inline void expect_same_analysis(const SymbolicFactor& a, const SymbolicFactor& b) {
  EXPECT_EQ(a.perm, b.perm);
  EXPECT_EQ(a.etree, b.etree);
  EXPECT_EQ(a.col_counts, b.col_counts);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.col_to_supernode, b.col_to_supernode);
  ASSERT_EQ(a.num_supernodes(), b.num_supernodes());
  for (index_t s = 0; s < a.num_supernodes(); ++s) {
    EXPECT_EQ(a.supernodes[s].first_col, b.supernodes[s].first_col);
    EXPECT_EQ(a.supernodes[s].ncols, b.supernodes[s].ncols);
    EXPECT_EQ(a.supernodes[s].nrows, b.supernodes[s].nrows);
    EXPECT_EQ(a.supernodes[s].parent, b.supernodes[s].parent);
  }
  EXPECT_EQ(a.nnz_L, b.nnz_L);
  EXPECT_EQ(a.flops_amalgamated, b.flops_amalgamated);
}

// Full symmetric n x n matrix: each off-diagonal pair present with probability `density`, values
// in +-[0.1, 1], diagonal = row's absolute sum + 1 (SPD). Every `skip_diagonal`-th diagonal entry
// is left out when skip_diagonal > 0 (structurally allowed; not SPD then). A few rows are made
// dense when dense_rows > 0, and the matrix splits into independent blocks when blocks > 1.
inline Csr random_spd(index_t n, double density, std::uint64_t seed, int dense_rows = 0, int blocks = 1,
                      index_t skip_diagonal = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0), mag(0.1, 1.0);
  std::vector<index_t> block(static_cast<std::size_t>(n));
  for (auto& b : block) b = static_cast<index_t>(rng() % static_cast<std::uint64_t>(blocks));
  std::vector<index_t> dense(static_cast<std::size_t>(dense_rows));
  for (auto& d : dense) d = static_cast<index_t>(rng() % static_cast<std::uint64_t>(n));
  Coo coo;
  coo.rows = coo.cols = n;
  std::vector<double> diag(static_cast<std::size_t>(n), 1.0);
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < i; ++j) {
      const bool is_dense = std::find(dense.begin(), dense.end(), i) != dense.end() ||
                            std::find(dense.begin(), dense.end(), j) != dense.end();
      if (block[i] != block[j] || !(is_dense ? unit(rng) < 0.7 : unit(rng) < density)) continue;
      const double v = (rng() & 1u) ? mag(rng) : -mag(rng);
      for (const auto& [r, c] : {std::pair{i, j}, std::pair{j, i}}) {
        coo.row.push_back(r);
        coo.col.push_back(c);
        coo.val.push_back(v);
      }
      diag[i] += std::abs(v);
      diag[j] += std::abs(v);
    }
  }
  for (index_t i = 0; i < n; ++i) {
    if (skip_diagonal > 0 && i % skip_diagonal == 0) continue;
    coo.row.push_back(i);
    coo.col.push_back(i);
    coo.val.push_back(diag[i]);
  }
  return to_csr(coo);
}

// Pattern of L (lower triangle incl. diagonal, row-major n x n booleans) for P A P^T, P given by
// perm (old = perm[new]) and A full, by eliminating the columns of a dense boolean matrix.
struct BruteForceFactor {
  index_t n = 0;
  std::vector<char> nz;
  bool at(index_t i, index_t j) const { return nz[static_cast<std::size_t>(i) * n + j] != 0; }

  std::vector<index_t> etree() const {
    std::vector<index_t> parent(static_cast<std::size_t>(n), -1);
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = j + 1; i < n && parent[j] == -1; ++i) {
        if (at(i, j)) parent[j] = i;
      }
    }
    return parent;
  }
  std::vector<offset_t> counts() const {
    std::vector<offset_t> c(static_cast<std::size_t>(n), 0);
    for (index_t j = 0; j < n; ++j) {
      for (index_t i = j; i < n; ++i) c[j] += at(i, j) ? 1 : 0;
    }
    return c;
  }
  std::vector<index_t> column(index_t j) const {  // rows i >= j of L(:, j)
    std::vector<index_t> r;
    for (index_t i = j; i < n; ++i) {
      if (at(i, j)) r.push_back(i);
    }
    return r;
  }
};

inline BruteForceFactor brute_force_factor(const Csr& full, const std::vector<index_t>& perm) {
  BruteForceFactor f;
  f.n = full.rows;
  const auto n = static_cast<std::size_t>(f.n);
  f.nz.assign(n * n, 0);
  std::vector<index_t> iperm(n);
  for (std::size_t k = 0; k < n; ++k) iperm[perm[k]] = static_cast<index_t>(k);
  for (index_t r = 0; r < full.rows; ++r) {
    for (offset_t p = full.rowptr[r]; p < full.rowptr[r + 1]; ++p) {
      const index_t i = iperm[r], j = iperm[full.colind[p]];
      f.nz[static_cast<std::size_t>(std::max(i, j)) * n + std::min(i, j)] = 1;
    }
  }
  for (index_t k = 0; k < f.n; ++k) {
    f.nz[static_cast<std::size_t>(k) * n + k] = 1;  // the diagonal of L is always there
    const std::vector<index_t> below = f.column(k);
    for (std::size_t a = 1; a < below.size(); ++a) {
      for (std::size_t b = 1; b <= a; ++b) f.nz[static_cast<std::size_t>(below[a]) * n + below[b]] = 1;
    }
  }
  return f;
}

// The matrices most tests run on: random patterns (n in 50 .. 400, some with dense rows, several
// components or missing diagonal entries) and small generator grids.
// spd is false for the ones with missing diagonal entries.
struct NamedMatrix {
  const char* name;
  Csr full;
  bool spd = true;
};
inline std::vector<NamedMatrix> test_matrices() {
  RmatParams rmat;
  rmat.scale = 8;
  rmat.edge_factor = 4;
  return {
      {"random n=50", random_spd(50, 0.1, 1)},
      {"random n=120", random_spd(120, 0.03, 2)},
      {"random n=200, dense rows", random_spd(200, 0.015, 3, 2)},
      {"random n=300, 3 components", random_spd(300, 0.01, 4, 0, 3)},
      {"random n=400 sparse", random_spd(400, 0.005, 5)},
      {"random n=400", random_spd(400, 0.015, 6)},
      {"random n=257, missing diagonal", random_spd(257, 0.008, 7, 0, 1, 7), false},
      {"laplacian_2d 12x10", laplacian_2d(12, 10)},
      {"laplacian_2d 9x9 box", laplacian_2d(9, 9, 9)},
      {"laplacian_3d 6x5x4", laplacian_3d(6, 5, 4)},
      {"laplacian_3d 5^3 box", laplacian_3d(5, 5, 5, 27)},
      {"elasticity_3d 4x4x3", elasticity_3d(4, 4, 3)},
      {"anisotropic_2d 10x10", anisotropic_2d(10, 10, 0.1, 0.5)},
      {"random_banded 200", random_banded(200, 6, 0.5, 8, true)},
      {"rmat_spd scale 8", rmat_spd(rmat)},
  };
}

}  // namespace hetsparse::cholesky::test
