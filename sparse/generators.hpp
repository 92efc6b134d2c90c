// Test and benchmark matrices. Every generator is deterministic: the same arguments (and
// seed) give the same matrix on any platform (see random.hpp). The SPD generators return
// the full symmetric matrix in CSR with sorted rows; the anchor generators return the lower
// triangles the SpTRSV baselines in shared/notes/anchors.md were measured on.
// Grid unknowns are numbered x fastest: node(x, y, z) = x + nx * (y + ny * z).
#pragma once
#include <cstdint>
#include <string>

#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse {

// Grid Laplacian with Dirichlet boundary: off-diagonals -1 to each stencil neighbour inside
// the grid, diagonal = stencil neighbour count + 0.01 (4.01, 8.01, 6.01 or 26.01) at every
// node. Neighbours cut off by the boundary make rows strictly diagonally dominant, the shift
// makes every row so: SPD, with the 7-point case equal to the CHOLMOD anchor (6.01, -1).
// points: 5 (star) or 9 (box) in 2D, 7 or 27 in 3D; InvalidArgument otherwise.
Csr laplacian_2d(index_t nx, index_t ny, int points = 5);
Csr laplacian_3d(index_t nx, index_t ny, index_t nz, int points = 7);

// -div(K grad u) with K = R(theta) diag(1, epsilon) R(theta)^T on a unit-spaced grid,
// Dirichlet boundary; the mixed derivative uses the 4-point cross stencil, so the matrix is
// 9-point, symmetric and positive definite (its symbol is >= 4a sin^4(kx/2) + 4c sin^4(ky/2)
// > 0) but not an M-matrix for theta off the axes. epsilon must be > 0.
Csr anisotropic_2d(index_t nx, index_t ny, double epsilon, double theta_radians);

// Cell-centred finite volumes for -div(k grad u): k is log-uniform over [1, contrast],
// drawn once per cell; faces use the harmonic mean 2 k_p k_q / (k_p + k_q), boundary faces
// the Dirichlet half cell 2 k_p. 7-point, SPD. contrast >= 1.
Csr variable_coefficient_3d(index_t nx, index_t ny, index_t nz, double contrast, std::uint64_t seed);

// Three unknowns per node (row 3 * node + component), coupled to the node's own other
// components and, over the 7-point stencil, to all three components of each neighbour:
// -1 between equal components, -0.25 across components; diagonal = sum |off-diagonal| + 0.01
// per row, so strictly diagonally dominant and SPD (the CHOLMOD "3-dof" anchor).
Csr elasticity_3d(index_t nx, index_t ny, index_t nz);

struct RmatParams {
  int scale = 16;       // 2^scale vertices
  int edge_factor = 8;  // edge_factor * 2^scale edge draws
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;  // quadrant probabilities (sum 1)
  std::uint64_t seed = 1;
};

// Graph500-style R-MAT graph: vertices relabelled by a random permutation, self loops and
// duplicate edges removed, made undirected: a symmetric pattern with values 1, no diagonal.
Csr rmat_graph(const RmatParams& params);
// rmat_graph made SPD: off-diagonal (i, j) = (j, i) = -w, w ~ U(0.1, 1); diagonal = sum of
// the row's |off-diagonals| + 1.
Csr rmat_spd(const RmatParams& params);

// Entries within `bandwidth` of the diagonal, each off-diagonal position present with
// probability `density`, magnitudes U(0.1, 1) with random signs, diagonal = sum of the row's
// |off-diagonals| + 1. spd: pattern and values symmetric (hence SPD); otherwise unsymmetric
// but still strictly diagonally dominant, so it and both its triangles are nonsingular.
Csr random_banded(index_t n, index_t bandwidth, double density, std::uint64_t seed, bool spd);

// Lower triangle of the 5-point (dims 2) or 7-point (dims 3) Laplacian pattern on an n^dims
// grid; diagonal 4 + u, off-diagonals -u / 8, a fresh u ~ U(0.1, 1) per entry. The diagonal
// is the last entry of each row.
Csr anchor_laplacian_lower(int dims, index_t n, std::uint64_t seed);
// R-MAT (0.57, 0.19, 0.19, 0.05), 2^scale rows, edge_factor * 2^scale draws, random
// relabelling, each edge (u, v), u != v, stored once as (max, min), duplicates removed, plus
// the full diagonal. Values as anchor_laplacian_lower (diagonal 4 + u > 0, so every solve is
// well defined). The diagonal is the last entry of each row.
Csr anchor_rmat_lower(int scale, int edge_factor, std::uint64_t seed);

// A lower triangle whose DAG has a prescribed level profile, for split SpTRSV corpora: PROFILE is
// segments joined by '+', "cN" a serial chain (N levels of one row) and "bRxL" a block of R rows
// over L levels (e.g. "c20000+b400000x20": a chain glued to a wide block). Rows are numbered level
// by level; each row's off-diagonals: one to a random row of the previous level (which fixes its
// level), off_diagonals - 1 more to random rows of the 4 previous levels (merged when equal);
// magnitudes U(0.1, 1) with random signs, diagonal 1 + the row's sum of magnitudes, stored last.
// InvalidArgument for a malformed profile, off_diagonals < 1 or 2^31 rows or more.
Csr level_profile_lower(const std::string& profile, int off_diagonals, std::uint64_t seed);

}  // namespace hetsparse
