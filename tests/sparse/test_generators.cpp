// Generators: stencil counts, exact symmetry, positive definiteness, reproducibility and
// the anchor triangles' layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "tests/support/sparse_checks.hpp"

namespace hetsparse {
namespace {

bool same(const Csr& a, const Csr& b) {
  return a.rows == b.rows && a.cols == b.cols && a.rowptr == b.rowptr && a.colind == b.colind && a.values == b.values;
}

void expect_exactly_symmetric(const Csr& a) {
  ASSERT_NO_THROW(validate(a));
  ASSERT_EQ(a.rows, a.cols);
  EXPECT_TRUE(same(a, transpose(a))) << "matrix is not exactly symmetric";
}

// Diagonal stored and positive, strictly larger than the row's off-diagonal magnitudes, or,
// with `strict` false, at least as large (up to rounding).
void expect_diagonally_dominant(const Csr& a, bool strict = true) {
  for (index_t i = 0; i < a.rows; ++i) {
    double diagonal = 0.0, off = 0.0;
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p] == i) {
        diagonal += a.values[p];
      } else {
        off += std::abs(a.values[p]);
      }
    }
    ASSERT_GT(diagonal, 0.0) << "row " << i;
    if (strict) {
      ASSERT_GT(diagonal, off) << "row " << i;
    } else {
      ASSERT_GE(diagonal, off * (1 - 1e-14)) << "row " << i;
    }
  }
}

void expect_spd(const Csr& a) {
  expect_exactly_symmetric(a);
  ASSERT_LE(a.rows, 2000) << "dense check is for small matrices";
  EXPECT_TRUE(test::dense_cholesky_succeeds(test::to_dense(a), a.rows));
}

TEST(Laplacian, StencilEntryCounts) {
  const offset_t nx = 37, ny = 23, nz = 11;
  EXPECT_EQ(laplacian_2d(37, 23).nnz(), 5 * nx * ny - 2 * nx - 2 * ny);
  EXPECT_EQ(laplacian_2d(37, 23, 9).nnz(), (3 * nx - 2) * (3 * ny - 2));
  EXPECT_EQ(laplacian_3d(37, 23, 11).nnz(), 7 * nx * ny * nz - 2 * (nx * ny + ny * nz + nx * nz));
  EXPECT_EQ(laplacian_3d(37, 23, 11, 27).nnz(), (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2));
  EXPECT_EQ(laplacian_3d(37, 23, 11).rows, 37 * 23 * 11);
}

TEST(Laplacian, ValuesFollowTheShiftedStencil) {
  const Csr a = laplacian_3d(9, 8, 7);
  expect_exactly_symmetric(a);
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      ASSERT_EQ(a.values[p], a.colind[p] == i ? 6.01 : -1.0);
    }
  }
  // Interior node (4, 4, 3): neighbours at +-1, +-9, +-72.
  const index_t node = 4 + 9 * (4 + 8 * 3);
  std::vector<index_t> cols(a.colind.begin() + a.rowptr[node], a.colind.begin() + a.rowptr[node + 1]);
  EXPECT_EQ(cols, (std::vector<index_t>{node - 72, node - 9, node - 1, node, node + 1, node + 9, node + 72}));
  const Csr b = laplacian_2d(13, 12, 9);
  for (index_t i = 0; i < b.rows; ++i) {
    for (offset_t p = b.rowptr[i]; p < b.rowptr[i + 1]; ++p) ASSERT_EQ(b.values[p], b.colind[p] == i ? 8.01 : -1.0);
  }
}

TEST(Generators, StencilMatricesArePositiveDefinite) {
  expect_spd(laplacian_2d(12, 11, 5));
  expect_spd(laplacian_2d(12, 11, 9));
  expect_spd(laplacian_3d(6, 5, 4, 7));
  expect_spd(laplacian_3d(6, 5, 4, 27));
  expect_spd(anisotropic_2d(15, 13, 1e-3, 0.7));  // not diagonally dominant: a real test
  expect_spd(anisotropic_2d(15, 13, 1e-2, -2.1));
  expect_spd(variable_coefficient_3d(7, 6, 5, 1e6, 3));
  expect_spd(elasticity_3d(4, 4, 3));
  expect_diagonally_dominant(elasticity_3d(5, 4, 3));
  // Finite volumes: interior rows balance exactly, Dirichlet faces make boundary rows strict.
  expect_diagonally_dominant(variable_coefficient_3d(9, 8, 7, 1e4, 4), false);
}

TEST(Anisotropic, RotatedStencilHasPositiveCornerTerms) {
  const Csr a = anisotropic_2d(20, 10, 0.01, 0.5);
  EXPECT_EQ(a.nnz(), (3 * 20 - 2) * (3 * 10 - 2));
  EXPECT_GT(*std::max_element(a.values.begin(), a.values.end()), 0.0);
  // Along the axes the mixed term vanishes, leaving the 5-point pattern.
  EXPECT_EQ(anisotropic_2d(20, 10, 0.01, 0.0).nnz(), 5 * 20 * 10 - 2 * 20 - 2 * 10);
}

TEST(VariableCoefficient, ReproducibleAndContrastRespected) {
  const Csr a = variable_coefficient_3d(10, 9, 8, 1e4, 7);
  EXPECT_TRUE(same(a, variable_coefficient_3d(10, 9, 8, 1e4, 7)));
  EXPECT_FALSE(same(a, variable_coefficient_3d(10, 9, 8, 1e4, 8)));
  EXPECT_EQ(a.nnz(), laplacian_3d(10, 9, 8).nnz());
  // Off-diagonals are minus harmonic means of coefficients in [1, 1e4]: in [-1e4, -1].
  double smallest = 0, largest = -1e300;
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p] == i) continue;
      smallest = std::min(smallest, a.values[p]);
      largest = std::max(largest, a.values[p]);
    }
  }
  EXPECT_GE(smallest, -1e4);
  EXPECT_LE(largest, -1.0);
  EXPECT_GT(smallest / largest, 100.0);  // a contrast this large is visible in the entries
}

TEST(Elasticity, BlockStructureAndCounts) {
  const offset_t nx = 5, ny = 4, nz = 3, nodes = nx * ny * nz;
  const offset_t edges = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
  const Csr a = elasticity_3d(5, 4, 3);
  EXPECT_EQ(a.rows, 3 * nodes);
  EXPECT_EQ(a.nnz(), 9 * nodes + 18 * edges);
  expect_exactly_symmetric(a);
  // Row of component 1 of node 0: couples to node 1 (x neighbour), columns 3..5.
  const auto first = a.colind.begin() + a.rowptr[1];
  const auto it = std::find(first, a.colind.begin() + a.rowptr[2], 4);
  ASSERT_NE(it, a.colind.begin() + a.rowptr[2]);
  EXPECT_EQ(a.values[static_cast<std::size_t>(it - a.colind.begin())], -1.0);
  EXPECT_EQ(a.values[static_cast<std::size_t>(it - a.colind.begin()) - 1], -0.25);
}

TEST(Rmat, GraphIsSymmetricLoopFreeAndSkewed) {
  RmatParams p;
  p.scale = 12;
  p.edge_factor = 8;
  p.seed = 5;
  const Csr g = rmat_graph(p);
  expect_exactly_symmetric(g);
  EXPECT_EQ(g.rows, 4096);
  EXPECT_LE(g.nnz(), 2 * 8 * 4096);
  EXPECT_GT(g.nnz(), 8 * 4096);  // duplicates remove far less than half the draws
  offset_t max_degree = 0;
  for (index_t i = 0; i < g.rows; ++i) {
    for (offset_t q = g.rowptr[i]; q < g.rowptr[i + 1]; ++q) {
      ASSERT_NE(g.colind[q], i) << "self loop";
      if (q > g.rowptr[i]) {
        ASSERT_LT(g.colind[q - 1], g.colind[q]);
      }
      ASSERT_EQ(g.values[q], 1.0);
    }
    max_degree = std::max(max_degree, g.rowptr[i + 1] - g.rowptr[i]);
  }
  EXPECT_GT(max_degree, 10 * g.nnz() / g.rows) << "R-MAT degrees should be heavy-tailed";
  EXPECT_TRUE(same(g, rmat_graph(p)));
  p.seed = 6;
  EXPECT_FALSE(same(g, rmat_graph(p)));
}

TEST(Rmat, SpdVariantIsPositiveDefinite) {
  RmatParams p;
  p.scale = 8;
  p.edge_factor = 6;
  const Csr a = rmat_spd(p);
  expect_spd(a);
  expect_diagonally_dominant(a);
  EXPECT_EQ(a.nnz(), rmat_graph(p).nnz() + a.rows);
}

TEST(RandomBanded, BandDensityAndSymmetry) {
  const index_t n = 1500, bw = 40;
  const double density = 0.3;
  const Csr s = random_banded(n, bw, density, 9, true);
  expect_exactly_symmetric(s);
  expect_diagonally_dominant(s);
  const Csr u = random_banded(n, bw, density, 9, false);
  ASSERT_NO_THROW(validate(u));
  EXPECT_FALSE(is_structurally_symmetric(u));
  expect_diagonally_dominant(u);
  for (const Csr* a : {&s, &u}) {
    for (index_t i = 0; i < n; ++i) {
      for (offset_t p = a->rowptr[i]; p < a->rowptr[i + 1]; ++p) ASSERT_LE(std::abs(a->colind[p] - i), bw);
    }
    // Off-diagonal positions: 2 * (bw * n - bw (bw + 1) / 2); the count is binomial.
    const double positions = 2.0 * (bw * static_cast<double>(n) - bw * (bw + 1) / 2.0);
    const double mean = density * positions, sigma = std::sqrt(positions * density * (1 - density));
    EXPECT_NEAR(static_cast<double>(a->nnz() - n), mean, 6 * sigma * (a == &s ? 2 : 1));
  }
  EXPECT_TRUE(same(s, random_banded(n, bw, density, 9, true)));
  EXPECT_FALSE(same(s, random_banded(n, bw, density, 10, true)));
  expect_spd(random_banded(160, 12, 0.5, 4, true));
  EXPECT_EQ(random_banded(300, 5, 0.0, 1, false).nnz(), 300);
  EXPECT_EQ(random_banded(300, 5, 1.0, 1, true).nnz(), 300 + 2 * (5 * 300 - 15));  // the full band
}

// Lower triangular, sorted, diagonal last, values in the anchor ranges.
void expect_anchor_layout(const Csr& l) {
  ASSERT_NO_THROW(validate(l));
  for (index_t i = 0; i < l.rows; ++i) {
    const offset_t last = l.rowptr[i + 1] - 1;
    ASSERT_GE(last, l.rowptr[i]) << "empty row " << i;
    ASSERT_EQ(l.colind[last], i) << "diagonal not last in row " << i;
    ASSERT_GE(l.values[last], 4.1);
    ASSERT_LT(l.values[last], 5.0);
    for (offset_t p = l.rowptr[i]; p < last; ++p) {
      ASSERT_LT(l.colind[p], l.colind[p + 1]);
      ASSERT_LE(l.values[p], -0.1 / 8);
      ASSERT_GT(l.values[p], -1.0 / 8);
    }
  }
}

TEST(Anchor, LaplacianLowerLayoutAndCounts) {
  const offset_t n2 = 120, n3 = 17;
  const Csr l2 = anchor_laplacian_lower(2, 120, 1);
  EXPECT_EQ(l2.nnz(), n2 * n2 + 2 * n2 * (n2 - 1));
  expect_anchor_layout(l2);
  const Csr l3 = anchor_laplacian_lower(3, 17, 1);
  EXPECT_EQ(l3.nnz(), n3 * n3 * n3 + 3 * n3 * n3 * (n3 - 1));
  expect_anchor_layout(l3);
  EXPECT_TRUE(same(triangle(l3, Triangle::Lower), l3));
  // Same pattern as the lower part of the 7-point Laplacian.
  EXPECT_EQ(l3.colind, triangle(laplacian_3d(17, 17, 17), Triangle::Lower).colind);
  EXPECT_TRUE(same(l2, anchor_laplacian_lower(2, 120, 1)));
  EXPECT_FALSE(same(l2, anchor_laplacian_lower(2, 120, 2)));
}

TEST(Anchor, RmatLowerLayout) {
  const Csr l = anchor_rmat_lower(11, 8, 3);
  EXPECT_EQ(l.rows, 2048);
  expect_anchor_layout(l);
  EXPECT_LE(l.nnz(), 2048 + 8 * 2048);
  EXPECT_GT(l.nnz(), 2048 + 4 * 2048);
  // Structurally it is the lower triangle of the symmetrised graph of the same draws.
  RmatParams p;
  p.scale = 11;
  p.edge_factor = 8;
  p.seed = 3;
  EXPECT_EQ(l.colind, triangle(rmat_spd(p), Triangle::Lower).colind);
  EXPECT_TRUE(same(l, anchor_rmat_lower(11, 8, 3)));
  EXPECT_FALSE(same(l, anchor_rmat_lower(11, 8, 4)));
}

TEST(Generators, RejectBadArguments) {
  EXPECT_THROW(laplacian_2d(10, 10, 7), InvalidArgument);
  EXPECT_THROW(laplacian_3d(10, 10, 10, 9), InvalidArgument);
  EXPECT_THROW(laplacian_2d(0, 10), InvalidArgument);
  EXPECT_THROW(laplacian_3d(2000, 2000, 2000), InvalidArgument);  // over 2^31 unknowns
  EXPECT_THROW(anisotropic_2d(10, 10, 0.0, 0.3), InvalidArgument);
  EXPECT_THROW(variable_coefficient_3d(5, 5, 5, 0.5, 1), InvalidArgument);
  EXPECT_THROW(elasticity_3d(1000, 1000, 1000), InvalidArgument);
  RmatParams p;
  p.scale = 0;
  EXPECT_THROW(rmat_graph(p), InvalidArgument);
  p.scale = 10;
  p.a = 0.7;  // probabilities now sum to 1.13
  EXPECT_THROW(rmat_spd(p), InvalidArgument);
  EXPECT_THROW(random_banded(100, 5, 1.5, 1, true), InvalidArgument);
  EXPECT_THROW(random_banded(100, -1, 0.5, 1, true), InvalidArgument);
  EXPECT_THROW(anchor_laplacian_lower(4, 10, 1), InvalidArgument);
  EXPECT_THROW(anchor_rmat_lower(31, 8, 1), InvalidArgument);
}

}  // namespace
}  // namespace hetsparse
