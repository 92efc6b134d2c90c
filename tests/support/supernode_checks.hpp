// Back-end independent checks of the supernode kernels. A back end (CPU, or CUDA with uploads and
// downloads) applies one kernel to host panels in place; the checks build random problems, run
// them through it and compare with the dense expectations of supernode_problems.hpp.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/supernode_problems.hpp"
#include "tests/support/test_matrices.hpp"

namespace hetsparse::test {

// One compact block (ldc x nrhs, global rows `rows`) and one block of unknowns (ldb x nrhs holding
// global rows [c0, c0 + block_rows)), moved over the position ranges `ranges`.
struct HostSolveMoves {
  std::vector<double> compact, block;
  std::vector<std::int32_t> rows;
  std::vector<std::array<int, 2>> ranges;
  int ldc = 0, ldb = 0, c0 = 0, block_rows = 0, nrhs = 0;
};

class SupernodeBackend {
 public:
  virtual ~SupernodeBackend() = default;
  virtual void update(const HostPanel& d, kernels::UpdateRange r, HostPanel& t) = 0;
  virtual void update_batch(const std::vector<const HostPanel*>& ds, const std::vector<kernels::UpdateRange>& rs,
                            HostPanel& t) = 0;
  virtual int factor(HostPanel& p) = 0;  // returns info
  // x: n x nrhs with leading dimension ldx, updated in place: the panel solve of supernode_solve.hpp
  // on x's own rows, its rows below moved to and from x by the solve's subtract and gather moves.
  virtual void forward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) = 0;
  virtual void backward(const HostPanel& p, std::vector<double>& x, int nrhs, int ldx) = 0;
  // The solve's moves between m.compact and m.block (gather: compact from block; else subtract).
  virtual void solve_moves(HostSolveMoves& m, bool gather) = 0;
  // out[i + r ldo] = in[perm[i] + r ldi] (perm empty: identity), i < n.
  virtual void permute(const std::vector<double>& in, int ldi, const std::vector<std::int32_t>& perm, int n,
                       int nrhs, std::vector<double>& out, int ldo) = 0;
  // out[perm[c0 + i] + r ldo] = xs[b][i + r (c1 - c0)] for each block b with columns cols[b] = {c0, c1}.
  virtual void store(const std::vector<std::vector<double>>& xs, const std::vector<std::array<int, 2>>& cols,
                     const std::vector<std::int32_t>& perm, int nrhs, std::vector<double>& out, int ldo) = 0;
};



// Results are compared with test_matrices.hpp's within_bounds: |actual - expected| <= bound (a NaN
// result fails), except where expected is NaN: there actual must hold the very same bits (storage
// the kernel must neither read nor write).

std::vector<UpdateShape> update_shapes();  // single updates, m and k from 1 to past a tile

// Single updates over update_shapes(); batched updates: shapes with `count` descendants.
void check_updates(SupernodeBackend& backend, std::uint64_t seed);
void check_batch(SupernodeBackend& backend, int count, std::uint64_t seed);
// A descendant that has no row in the target's columns (k = 0) leaves the target bit for bit.
void check_empty_update(SupernodeBackend& backend, std::uint64_t seed);

void check_factor(SupernodeBackend& backend, std::uint64_t seed);
// Pivot of 0-based panel column `column` made negative (or NaN): info must be column + 1.
void check_factor_failure(SupernodeBackend& backend, int column, bool nan_pivot, std::uint64_t seed, int cols = 48);

// Both sweeps, nrhs 1 and 3, panels with and without rows below, x with padding rows.
void check_sweeps(SupernodeBackend& backend, std::uint64_t seed);

// Gather and subtract over many ranges (more than one CUDA launch carries), rows repeated across
// ranges (subtractions into one unknown from several places), several right-hand sides.
void check_solve_moves(SupernodeBackend& backend, std::uint64_t seed);
// Permutations in and out of the factor's order, with and without a permutation, padded leading dimensions.
void check_solve_permutations(SupernodeBackend& backend, std::uint64_t seed);

// Dense SPD 200 x 200 cut into 5 supernodes with full structure, factored by right-looking single
// updates (left_looking false) or by left-looking batches, compared with ref::potrf; then solved
// by forward and backward sweeps and compared with the dense solution.
void check_end_to_end(SupernodeBackend& backend, bool left_looking, std::uint64_t seed);

}  // namespace hetsparse::test
