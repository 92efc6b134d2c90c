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
constexpr int kTrailTile = 64, kTrailSide = 16;  // 16 x 16 threads, 4 x 4 outputs each

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

// Lane i owns row i of the diagonal block, held in shared memory, and computes column j of L
// left-looking (Crout): L[i][j] = (A[i][j] - L[i][:j] . L[j][:j]) / L[j][j]. A step's loop only
// reads finished entries, so its loads pipeline; the right-looking form's read-modify-write loop
// waited on each shared-memory load in turn, and on its longest row. (The version with the block in
// registers had to unroll all 32 x 32 steps: its code outgrew the instruction cache.)
// One whole warp factors the w x w block at top (ld) into `a` and back to top; returns 0 or the
// block's first column whose pivot was <= 0 or NaN (1-based; later columns then hold NaNs).
__device__ inline int factor_diagonal_warp(double* top, std::size_t ld, int w, int lane,
                                           double (*a)[kPanelCols + 1]) {
  double row[kPanelCols];  // the lane's row, its 32 loads in flight together (a rolled loop waits for each)
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c) row[c] = c < w && c <= lane && lane < w ? top[lane + c * ld] : 0.0;
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c) a[lane][c] = row[c];
  __syncwarp();
  int failed = 0;
  for (int j = 0; j < w; ++j) {
    double s[4] = {0.0, 0.0, 0.0, 0.0};  // four chains, so the products do not wait on each other
    int c = 0;
    for (; c + 4 <= j; c += 4) {
#pragma unroll
      for (int u = 0; u < 4; ++u) s[u] += a[lane][c + u] * a[j][c + u];
    }
    for (; c < j; ++c) s[0] += a[lane][c] * a[j][c];
    const double rest = a[lane][j] - ((s[0] + s[1]) + (s[2] + s[3]));
    const double pivot = __shfl_sync(0xffffffffu, rest, j);
    if (!(pivot > 0.0) && failed == 0) failed = j + 1;
    const double root = sqrt(pivot);
    if (lane == j) a[j][j] = root;
    if (lane > j && lane < w) a[lane][j] = rest / root;
    __syncwarp();  // column j is in before the next step reads row j + 1
  }
#pragma unroll
  for (int c = 0; c < kPanelCols; ++c)
    if (c < w && c <= lane && lane < w) top[lane + c * ld] = a[lane][c];
  return failed;
}

// A warp a job. info[info_index]: 0, or the panel's first failing column (1-based), set at step 0
// and kept by later steps.
__global__ void __launch_bounds__(32 * kDiagonalWarps)
    factor_diagonal(const ColumnJob* __restrict__ jobs, int count, int* __restrict__ info) {
  __shared__ double block[kDiagonalWarps][kPanelCols][kPanelCols + 1];  // [warp][row][column]
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
  const int k = static_cast<int>(blockIdx.x) * kDiagonalWarps + warp;
  if (k >= count) return;  // whole warps leave: only warp-level synchronization below
  const ColumnJob job = jobs[k];
  const std::size_t ld = static_cast<std::size_t>(job.nrows);
  const int failed = factor_diagonal_warp(job.a + job.j0 + job.j0 * ld, ld, step_width(job.ncols, job.j0), lane,
                                          block[warp]);
  if (lane == 0 && (job.j0 == 0 || (failed != 0 && info[job.info_index] == 0)))
    info[job.info_index] = failed != 0 ? job.j0 + failed : 0;
}

// Row i of L21 = A21 L11^-T (row[c * ld] = A[i, j0 + c]): forward substitution in registers, L11
// (d, its diagonal's inverses) in shared memory.
__device__ inline void solve_row(double* row, std::size_t ld, int w, const double (*d)[kPanelCols + 1],
                                 const double* inverse) {
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

// A row a thread, after the step's factor_diagonal.
__global__ void __launch_bounds__(kRowThreads) solve_rows(const ColumnJob* __restrict__ jobs, int count) {
  __shared__ double d[kPanelCols][kPanelCols + 1];
  __shared__ double inverse[kPanelCols];
  const int block = static_cast<int>(blockIdx.x), tid = static_cast<int>(threadIdx.x);
  const ColumnJob job = jobs[supernode_detail::job_of_this_block(jobs, count)];
  const int local = block - job.first_block;
  const int w = step_width(job.ncols, job.j0);
  const std::size_t ld = static_cast<std::size_t>(job.nrows);
  const double* const top = job.a + job.j0 + job.j0 * ld;
  constexpr int kLoads = kPanelCols * kPanelCols / kRowThreads;
  double loaded[kLoads];  // every load issued before the first store
#pragma unroll
  for (int u = 0; u < kLoads; ++u) {
    const int idx = tid + u * kRowThreads, c = idx / kPanelCols, i = idx % kPanelCols;  // down columns: coalesced
    loaded[u] = i < w && c <= i ? top[i + c * ld] : 0.0;
  }
#pragma unroll
  for (int u = 0; u < kLoads; ++u) {
    const int idx = tid + u * kRowThreads;
    d[idx % kPanelCols][idx / kPanelCols] = loaded[u];
  }
  __syncthreads();
  if (tid < w) inverse[tid] = 1.0 / d[tid][tid];
  __syncthreads();
  const int i = job.j0 + w + local * kRowThreads + tid;
  if (i < job.nrows) solve_row(job.a + i + job.j0 * ld, ld, w, d, inverse);
}

// One 64 x 64 tile (i0, c0) of C -= P P_top^T on the lower part of C = A[r0:nrows, r0:ncols],
// P = A[r0:nrows, j0:r0], r0 = j0 + kPanelCols (C's column c is the panel's row r0 + c, so P_top is
// P's first rows), by kTrailSide x kTrailSide threads (tx, ty). Every thread of the block calls it.
using TrailTile = double[kPanelCols][kTrailTile + 1];
__device__ inline void trail_tile(double* a, std::int32_t nrows, std::int32_t ncols, std::int32_t j0, int i0, int c0,
                                  TrailTile& as, TrailTile& bs) {
  const std::size_t ld = static_cast<std::size_t>(nrows);
  const int r0 = j0 + kPanelCols;
  const int m = nrows - r0, k = ncols - r0;
  const double* const p = a + r0 + j0 * ld;  // P[r, q] at p[r + q * ld]
  const int flat = static_cast<int>(threadIdx.x + threadIdx.y * blockDim.x);
  const int tx = flat % kTrailSide, ty = flat / kTrailSide;
  // The whole step (kPanelCols columns of both tiles) loaded at once: one memory round trip a tile.
  constexpr int kLoads = kPanelCols * kTrailTile / (kTrailSide * kTrailSide);
  double a_loaded[kLoads], b_loaded[kLoads];
#pragma unroll
  for (int u = 0; u < kLoads; ++u) {
    const int idx = flat + u * kTrailSide * kTrailSide, q = idx / kTrailTile, r = idx % kTrailTile;
    const double* col = p + static_cast<std::size_t>(q) * ld;
    a_loaded[u] = i0 + r < m ? col[i0 + r] : 0.0;
    b_loaded[u] = c0 + r < k ? col[c0 + r] : 0.0;
  }
#pragma unroll
  for (int u = 0; u < kLoads; ++u) {
    const int idx = flat + u * kTrailSide * kTrailSide;
    as[idx / kTrailTile][idx % kTrailTile] = a_loaded[u];
    bs[idx / kTrailTile][idx % kTrailTile] = b_loaded[u];
  }
  __syncthreads();
  double acc[4][4] = {};
#pragma unroll 4
  for (int q = 0; q < kPanelCols; ++q) {
    double x[4], y[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) x[u] = as[q][tx + u * kTrailSide], y[u] = bs[q][ty + u * kTrailSide];
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int v = 0; v < 4; ++v) acc[u][v] += x[u] * y[v];
  }
  double* const c = a + r0 + static_cast<std::size_t>(r0) * ld;
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

// A tile a block, after the step's solve_rows.
__global__ void __launch_bounds__(kTrailSide* kTrailSide) trailing_update(const TrailJob* __restrict__ jobs, int count) {
  __shared__ TrailTile as, bs;
  const TrailJob job = jobs[supernode_detail::job_of_this_block(jobs, count)];
  const int local = static_cast<int>(blockIdx.x) - job.first_block;
  const int i0 = (local % job.row_tiles) * kTrailTile, c0 = (local / job.row_tiles) * kTrailTile;
  if (i0 + kTrailTile <= c0) return;  // above the diagonal: nothing of C's lower part
  trail_tile(job.a, job.nrows, job.ncols, job.j0, i0, c0, as, bs);
}

}  // namespace hetsparse::kernels::subtree_detail
