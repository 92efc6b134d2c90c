// Device side of the GPU subtree factorization (internal to kernels/supernode, included by
// supernode_subtree_cuda.cu only): the fused multi-target update kernel and its job record (the
// panel kernels are in supernode_subtree_panels.cuh).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_device_common.cuh"

namespace hetsparse::kernels::subtree_detail {

// A small update with its own target: C = A A_top^T (m x k, inner n), tiles subtracted from t.
struct TargetedJob {
  const double* a;
  const std::int32_t* rows;
  PanelRef t;
  std::int32_t ld, m, k, n, first_block, row_tiles;
};

constexpr int kTile = 32, kGroups = 8, kPerThread = kTile / kGroups, kChunk = 16;

// As supernode_update_fused_cuda.cu's kernel, with a target per job.
__global__ void __launch_bounds__(kTile * kGroups) targeted_updates(const TargetedJob* __restrict__ jobs, int count) {
  __shared__ double a_rows[kChunk][kTile + 1];
  __shared__ double a_cols[kChunk][kTile + 1];
  __shared__ int position[kTile];
  __shared__ int column[kTile];
  const int block = static_cast<int>(blockIdx.x);
  const TargetedJob& job = jobs[supernode_detail::job_of_this_block(jobs, count)];
  const PanelRef t = job.t;
  const int local = block - job.first_block;
  const int i0 = (local % job.row_tiles) * kTile;
  const int j0 = (local / job.row_tiles) * kTile;
  if (i0 + kTile <= j0) return;
  const int lane = static_cast<int>(threadIdx.x), group = static_cast<int>(threadIdx.y);
  if (group == 0) {
    const int i = i0 + lane;
    position[lane] = i < job.m ? supernode_detail::position_in_target(job.rows[i], t) : -1;
  } else if (group == 1) {
    const int j = j0 + lane;
    const long long c = j < job.k ? static_cast<long long>(job.rows[j]) - t.first_col : -1;
    column[lane] = c >= 0 && c < t.ncols ? static_cast<int>(c) : -1;
  }
  // The next chunk's loads are issued before this chunk's products, so a block waits for memory
  // once, not once a chunk.
  constexpr int kLoads = kChunk / kGroups;
  double next_rows[kLoads], next_cols[kLoads];
  auto load = [&](int c0) {
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      const int c = c0 + group + u * kGroups;
      const double* col = job.a + static_cast<std::size_t>(c) * job.ld;
      next_rows[u] = c < job.n && i0 + lane < job.m ? col[i0 + lane] : 0.0;
      next_cols[u] = c < job.n && j0 + lane < job.k ? col[j0 + lane] : 0.0;
    }
  };
  load(0);
  double acc[kPerThread] = {};
  for (int c0 = 0; c0 < job.n; c0 += kChunk) {
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      a_rows[group + u * kGroups][lane] = next_rows[u];
      a_cols[group + u * kGroups][lane] = next_cols[u];
    }
    __syncthreads();
    if (c0 + kChunk < job.n) load(c0 + kChunk);
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const double x = a_rows[c][lane];
#pragma unroll
      for (int q = 0; q < kPerThread; ++q) acc[q] += x * a_cols[c][group + q * kGroups];
    }
    __syncthreads();
  }
  __syncthreads();
  const int i = i0 + lane;
  const int pos = position[lane];
  if (i >= job.m || pos < 0) return;
#pragma unroll
  for (int q = 0; q < kPerThread; ++q) {
    const int j = j0 + group + q * kGroups;
    const int col = column[group + q * kGroups];
    if (j < job.k && i >= j && col >= 0) atomicAdd(t.values + static_cast<std::size_t>(col) * t.nrows + pos, -acc[q]);
  }
}

}  // namespace hetsparse::kernels::subtree_detail
