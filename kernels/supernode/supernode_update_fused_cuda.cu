// Small supernodal updates fused into one kernel: a block computes one 32 x 32 tile of one update's
// product C = A A_top^T straight from the descendant's panel (inner dimension in chunks staged
// through shared memory) and subtracts it from the target with atomics, so a batch of hundreds of
// tiny updates (leaf subtrees into a top panel) costs one launch instead of a GEMM and a scatter each.
#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "kernels/supernode/supernode_device_common.cuh"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels::supernode_detail {
namespace {

constexpr int kTile = kFusedTile;   // rows and columns of a tile; a warp's lanes are its rows
constexpr int kGroups = 8;          // warps per block; each thread holds kTile / kGroups columns
constexpr int kPerThread = kTile / kGroups;
constexpr int kChunk = 16;          // inner-dimension entries staged per step

__global__ void __launch_bounds__(kTile * kGroups)
    fused_updates(const FusedJob* __restrict__ jobs, int count, PanelRef t) {
  __shared__ double a_rows[kChunk][kTile + 1];  // A(i0 + lane, c)
  __shared__ double a_cols[kChunk][kTile + 1];  // A(j0 + lane, c), the transposed factor
  __shared__ int position[kTile];               // target position of each tile row, or -1
  __shared__ int column[kTile];                 // target column of each tile column, or -1
  const int block = static_cast<int>(blockIdx.x);
  const FusedJob job = jobs[job_of_this_block(jobs, count)];
  const int local = block - job.first_block;
  const int i0 = (local % job.row_tiles) * kTile;
  const int j0 = (local / job.row_tiles) * kTile;
  if (i0 + kTile <= j0) return;  // the whole tile lies above the diagonal (i < j): not needed
  const int lane = static_cast<int>(threadIdx.x);
  const int group = static_cast<int>(threadIdx.y);
  if (group == 0) {
    const int i = i0 + lane;
    position[lane] = i < job.m ? position_in_target(job.rows[i], t) : -1;
  } else if (group == 1) {
    const int j = j0 + lane;
    const long long c = j < job.k ? static_cast<long long>(job.rows[j]) - t.first_col : -1;
    column[lane] = c >= 0 && c < t.ncols ? static_cast<int>(c) : -1;  // outside t: a planner error, skip
  }
  double acc[kPerThread] = {};
  for (int c0 = 0; c0 < job.n; c0 += kChunk) {
    for (int c = group; c < kChunk; c += kGroups) {
      const bool inside = c0 + c < job.n;
      const double* col = job.a + static_cast<std::size_t>(c0 + c) * job.ld;
      a_rows[c][lane] = inside && i0 + lane < job.m ? col[i0 + lane] : 0.0;
      a_cols[c][lane] = inside && j0 + lane < job.k ? col[j0 + lane] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < kChunk; ++c) {
      const double a = a_rows[c][lane];
#pragma unroll
      for (int q = 0; q < kPerThread; ++q) acc[q] += a * a_cols[c][group + q * kGroups];
    }
    __syncthreads();
  }
  __syncthreads();  // position/column are written before the loop; n >= 1, but do not rely on it
  const int i = i0 + lane;
  const int pos = position[lane];
  if (i >= job.m || pos < 0) return;
#pragma unroll
  for (int q = 0; q < kPerThread; ++q) {
    const int j = j0 + group + q * kGroups;
    const int col = column[group + q * kGroups];
    if (j < job.k && i >= j && col >= 0) {
      atomicAdd(t.values + static_cast<std::size_t>(col) * t.nrows + pos, -acc[q]);
    }
  }
}

}  // namespace

void run_fused_updates(cudaStream_t stream, std::vector<FusedJob>& jobs, FusedJob* table, const PanelRef& t,
                       const char* routine) {
  if (jobs.empty()) return;
  long long blocks = 0;
  for (FusedJob& job : jobs) {
    job.row_tiles = (job.m + kTile - 1) / kTile;
    if (blocks > INT_MAX) break;
    job.first_block = static_cast<std::int32_t>(blocks);
    blocks += static_cast<long long>(job.row_tiles) * ((job.k + kTile - 1) / kTile);
  }
  if (blocks > INT_MAX) {
    throw InvalidArgument(std::string(routine) + ": " + std::to_string(blocks) + " fused blocks exceed a grid");
  }
  upload_jobs(stream, jobs, table, "store_jobs launch (fused updates)");
  fused_updates<<<static_cast<int>(blocks), dim3(kTile, kGroups), 0, stream>>>(table, static_cast<int>(jobs.size()),
                                                                               t);
  check_cuda(cudaGetLastError(), "fused_updates launch");
}

}  // namespace hetsparse::kernels::supernode_detail
