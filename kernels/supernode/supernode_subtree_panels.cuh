// Device side of the GPU subtree's panel factorization (internal to kernels/supernode, included by
// supernode_subtree_cuda.cu only). The panels of a level are factored together, kPanelCols columns
// at a time, in three launches a step whatever their number:
//   factor_diagonal  one warp a panel: the step's diagonal block, a row a lane, in shared memory;
//   solve_rows       the rows below it, one a thread (the trsm of a tall panel, where its time goes);
//   trailing_update  the panel's columns right of the step minus the step's product, 64 x 64 tiles
//                    of their lower part.
// cuSOLVER + cuBLAS per panel, which this replaces up to SubtreeLevels::batched_max_cols, ran one
// panel after another with tens of launches each.
#pragma once
#include <cstdint>

#include "kernels/supernode/supernode_device_common.cuh"

namespace hetsparse::kernels::subtree_detail {

constexpr int kPanelCols = 32;    // columns a step factors: a warp's lanes; a row in registers
constexpr int kRowThreads = 128;  // threads of a solve_rows block, one row each
constexpr int kDiagonalWarps = 4;  // panels a factor_diagonal block takes
constexpr int kTrailTile = 64, kTrailSide = 16, kTrailChunk = 16;  // 16 x 16 threads, 4 x 4 outputs each

// Step j0 of a panel (column-major, ld = nrows): its columns [j0, j0 + kPanelCols).
struct ColumnJob {
  double* a;
  std::int32_t nrows, ncols, j0, first_block, info_index, pad;
};
// After step j0 of a full kPanelCols: the columns from r0 = j0 + kPanelCols on.
struct TrailJob {
  double* a;
  std::int32_t nrows, ncols, j0, first_block, row_tiles, pad;
};

__host__ __device__ inline int step_width(std::int32_t ncols, std::int32_t j0) {
  return ncols - j0 < kPanelCols ? ncols - j0 : kPanelCols;
}
// Blocks solve_rows gives a step (none when the panel has no row below the step's block).
__host__ __device__ inline int row_blocks(std::int32_t nrows, std::int32_t ncols, std::int32_t j0) {
  const int below = nrows - j0 - step_width(ncols, j0);
  return below > 0 ? (below + kRowThreads - 1) / kRowThreads : 0;
}
__host__ __device__ inline int trail_tiles(std::int32_t n) { return (n + kTrailTile - 1) / kTrailTile; }

// Lane i owns row i of the diagonal block, held in shared memory: column j is pivoted, scaled and
// applied to the columns right of it by rolled loops. (The version with the block in registers had
// to unroll all 32 x 32 steps: its code outgrew the instruction cache and a launch took ~30 us.)
// info[info_index]: 0, or the panel's first column whose pivot was <= 0 or NaN (1-based), set at
// step 0 and kept by later steps (which go on with NaNs, as the contract allows).
__global__ void __launch_bounds__(32 * kDiagonalWarps)
    factor_diagonal(const ColumnJob* __restrict__ jobs, int count, int* __restrict__ info) {
  __shared__ double block[kDiagonalWarps][kPanelCols][kPanelCols + 1];  // [warp][row][column]
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const int k = static_cast<int>(blockIdx.x) * kDiagonalWarps + warp;
  if (k >= count) return;  // whole warps leave: only warp-level synchronization below
  const ColumnJob job = jobs[k];
  const int w = step_width(job.ncols, job.j0);
  const std::size_t ld = static_cast<std::size_t>(job.nrows);
  double* const top = job.a + job.j0 + job.j0 * ld;  // A[j0 + i, j0 + c] at top[i + c * ld]
  double(*const a)[kPanelCols + 1] = block[warp];
  for (int c = 0; c < w; ++c) a[lane][c] = c <= lane && lane < w ? top[lane + c * ld] : 0.0;
  __syncwarp();
  int failed = 0;
  for (int j = 0; j < w; ++j) {
    const double pivot = a[j][j];
    if (!(pivot > 0.0) && failed == 0) failed = j + 1;
    const double root = sqrt(pivot), inverse = 1.0 / root;
    __syncwarp();  // every lane has read the pivot before lane j replaces it
    if (lane == j) a[j][j] = root;
    if (lane > j && lane < w) a[lane][j] *= inverse;
    __syncwarp();
    if (lane > j && lane < w) {
      const double lij = a[lane][j];
#pragma unroll 4
      for (int c = j + 1; c <= lane; ++c) a[lane][c] -= lij * a[c][j];
    }
    __syncwarp();
  }
  for (int c = 0; c < w; ++c)
    if (c <= lane && lane < w) top[lane + c * ld] = a[lane][c];
  if (lane == 0 && (job.j0 == 0 || (failed != 0 && info[job.info_index] == 0)))
    info[job.info_index] = failed != 0 ? job.j0 + failed : 0;
}

// L21 = A21 L11^-T for a row a thread: forward substitution in registers, L11 in shared memory.
__global__ void __launch_bounds__(kRowThreads) solve_rows(const ColumnJob* __restrict__ jobs, int count) {
  __shared__ double d[kPanelCols][kPanelCols + 1];
  __shared__ double inverse[kPanelCols];
  const int block = static_cast<int>(blockIdx.x), tid = static_cast<int>(threadIdx.x);
  const ColumnJob job = jobs[supernode_detail::job_of_block(jobs, count, block)];
  const int local = block - job.first_block;
  const int w = step_width(job.ncols, job.j0);
  const std::size_t ld = static_cast<std::size_t>(job.nrows);
  const double* const top = job.a + job.j0 + job.j0 * ld;
  for (int idx = tid; idx < w * w; idx += kRowThreads) {
    const int c = idx / w, i = idx % w;  // down columns: coalesced
    d[i][c] = i >= c ? top[i + c * ld] : 0.0;
  }
  __syncthreads();
  if (tid < w) inverse[tid] = 1.0 / d[tid][tid];
  __syncthreads();
  const int i = job.j0 + w + local * kRowThreads + tid;
  if (i >= job.nrows) return;
  double* const row = job.a + i + job.j0 * ld;  // A[i, j0 + c] at row[c * ld]
  double x[kPanelCols];
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c)
    if (c < w) x[c] = row[c * ld];
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c) {
    if (c < w) {
      x[c] *= inverse[c];
#pragma unroll
      for (int m = c + 1; m < kPanelCols; ++m)
        if (m < w) x[m] -= x[c] * d[m][c];
    }
  }
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c)
    if (c < w) row[c * ld] = x[c];
}

// C -= P P_top^T on the lower part of C = A[r0:nrows, r0:ncols], P = A[r0:nrows, j0:r0],
// r0 = j0 + kPanelCols (C's column c is the panel's row r0 + c, so P_top is P's first rows).
__global__ void __launch_bounds__(kTrailSide* kTrailSide) trailing_update(const TrailJob* __restrict__ jobs, int count) {
  __shared__ double as[kTrailChunk][kTrailTile + 1];
  __shared__ double bs[kTrailChunk][kTrailTile + 1];
  const int block = static_cast<int>(blockIdx.x);
  const TrailJob job = jobs[supernode_detail::job_of_block(jobs, count, block)];
  const int local = block - job.first_block;
  const int i0 = (local % job.row_tiles) * kTrailTile, c0 = (local / job.row_tiles) * kTrailTile;
  if (i0 + kTrailTile <= c0) return;  // above the diagonal: nothing of C's lower part
  const std::size_t ld = static_cast<std::size_t>(job.nrows);
  const int r0 = job.j0 + kPanelCols;
  const int m = job.nrows - r0, k = job.ncols - r0;
  const double* const p = job.a + r0 + job.j0 * ld;  // P[r, q] at p[r + q * ld]
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int flat = ty * kTrailSide + tx;
  double acc[4][4] = {};
  for (int q0 = 0; q0 < kPanelCols; q0 += kTrailChunk) {
    for (int idx = flat; idx < kTrailChunk * kTrailTile; idx += kTrailSide * kTrailSide) {
      const int q = idx / kTrailTile, r = idx % kTrailTile;
      const double* col = p + static_cast<std::size_t>(q0 + q) * ld;
      as[q][r] = i0 + r < m ? col[i0 + r] : 0.0;
      bs[q][r] = c0 + r < k ? col[c0 + r] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kTrailChunk; ++q) {
      double a[4], b[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) a[u] = as[q][tx + u * kTrailSide], b[u] = bs[q][ty + u * kTrailSide];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] += a[u] * b[v];
    }
    __syncthreads();
  }
  double* const c = job.a + r0 + static_cast<std::size_t>(r0) * ld;
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    const int i = i0 + tx + u * kTrailSide;
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int j = c0 + ty + v * kTrailSide;
      if (i < m && j < k && i >= j) c[i + static_cast<std::size_t>(j) * ld] -= acc[u][v];
    }
  }
}

}  // namespace hetsparse::kernels::subtree_detail
