// Supernodal updates on the GPU: one cuBLAS GEMM per descendant (the fused [M1; M2] M1^T product),
// then hetsparse's scatter-subtract kernel into the target. A batch stacks its products in the work
// buffer and scatters them all with one kernel.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codelets/common/cublas_params.hpp"
#include "codelets/common/cuda_check.hpp"
#include "codelets/supernode/cublas_stream_scope.hpp"
#include "codelets/supernode/supernode.hpp"
#include "codelets/supernode/supernode_batch_layout.hpp"
#include "codelets/supernode/supernode_checks.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

// A block scatters a tile of C: kTileRows rows (a thread each, so reads of C and writes of t go down
// columns, coalesced) by up to kTileCols columns (a thread finds its row's position in t once and
// reuses it across the tile's columns).
constexpr int kTileRows = 128;
constexpr int kTileCols = 32;

long long tile_count(int m, int k) {
  return static_cast<long long>((m + kTileRows - 1) / kTileRows) * ((k + kTileCols - 1) / kTileCols);
}

// Position of `row` in t's list, or -1. Own rows sit at row - first_col; rows below are searched in
// [ncols, row - first_col] since the list rises by at least one per position.
__device__ int position_in_target(std::int32_t row, const PanelRef& t) {
  const long long offset = static_cast<long long>(row) - t.first_col;
  if (offset < 0) return -1;
  if (offset < t.ncols) return static_cast<int>(offset);
  const int end = static_cast<int>(offset < t.nrows ? offset + 1 : t.nrows);
  int lo = t.ncols;
  int hi = end;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (t.rows[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < end && t.rows[lo] == row ? lo : -1;
}

// Tile `tile` of job's C (tiles numbered down the rows first): t[pos(rows[i]), rows[j] - first_col]
// -= C(i, j) for i >= j. A row missing from t, or outside its columns where it should be one (a
// structure the planner got wrong), is skipped rather than written out of bounds. kAtomic: other
// blocks may subtract into the same entries (batches).
template <bool kAtomic>
__device__ void scatter_tile(const ScatterJob& job, const double* __restrict__ work, int tile, const PanelRef& t) {
  const int row_tiles = (job.m + kTileRows - 1) / kTileRows;
  const int i = (tile % row_tiles) * kTileRows + static_cast<int>(threadIdx.x);
  const int j0 = (tile / row_tiles) * kTileCols;
  if (i >= job.m || i < j0) return;  // past C, or above the tile's columns' diagonal
  const int pos = position_in_target(job.rows[i], t);
  if (pos < 0) return;
  const int j1 = min(min(job.k, j0 + kTileCols), i + 1);
  const double* c = work + job.c_offset + i;
  for (int j = j0; j < j1; ++j) {
    const int column = job.rows[j] - t.first_col;
    if (column < 0 || column >= t.ncols) continue;  // a range the planner got wrong: stay inside t
    double* target = t.values + static_cast<std::size_t>(column) * t.nrows + pos;
    const double value = c[static_cast<std::size_t>(j) * job.m];
    if constexpr (kAtomic) {
      atomicAdd(target, -value);
    } else {
      *target -= value;
    }
  }
}

__global__ void __launch_bounds__(kTileRows)
    scatter_update(ScatterJob job, const double* __restrict__ work, PanelRef t) {
  scatter_tile<false>(job, work, static_cast<int>(blockIdx.x), t);
}

// Blocks [jobs[u].first_block, jobs[u + 1].first_block) work on job u; every job has a tile.
__global__ void __launch_bounds__(kTileRows)
    scatter_batch(const ScatterJob* __restrict__ jobs, int count, const double* __restrict__ work, PanelRef t) {
  const int block = static_cast<int>(blockIdx.x);
  int lo = 0;
  int hi = count - 1;
  while (lo < hi) {  // last job starting at or before this block
    const int mid = lo + (hi - lo + 1) / 2;
    if (jobs[mid].first_block <= block) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const ScatterJob job = jobs[lo];
  scatter_tile<true>(job, work, block - job.first_block, t);
}

// The job table travels as kernel parameters rather than through cudaMemcpyAsync from pageable
// host memory, which may synchronise with the stream: the batch stays asynchronous and no host
// buffer has to outlive the call. 64 jobs are 2 KiB, well within the 4 KiB parameter limit.
constexpr int kJobsPerStore = 64;
struct JobChunk {
  ScatterJob jobs[kJobsPerStore];
};
static_assert(sizeof(JobChunk) <= 4000, "kernel parameters are limited to 4 KiB");

__global__ void __launch_bounds__(kJobsPerStore) store_jobs(JobChunk chunk, int count, ScatterJob* table) {
  if (static_cast<int>(threadIdx.x) < count) table[threadIdx.x] = chunk.jobs[threadIdx.x];
}

void upload_jobs(cudaStream_t stream, const std::vector<ScatterJob>& jobs, ScatterJob* table) {
  for (std::size_t first = 0; first < jobs.size(); first += kJobsPerStore) {
    const int count = static_cast<int>(std::min<std::size_t>(kJobsPerStore, jobs.size() - first));
    JobChunk chunk{};
    std::copy(jobs.begin() + first, jobs.begin() + first + count, chunk.jobs);
    store_jobs<<<1, kJobsPerStore, 0, stream>>>(chunk, count, table + first);
    check_cuda(cudaGetLastError(), "store_jobs launch in supernode_update_batch_cuda");
  }
}

// C = L_d[r0:, :] L_d[r0:r1, :]^T into c (m x k, ld m), on the handle's current stream.
void product(cublasHandle_t handle, const ConstPanelRef& d, UpdateRange r, double* c, const char* what) {
  const int m = d.nrows - r.r0;
  const int k = r.r1 - r.r0;
  const double one = 1.0;
  const double zero = 0.0;
  const double* top = d.values + r.r0;
  check_cublas(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, k, d.ncols, &one, top, d.nrows, top, d.nrows, &zero,
                           c, m),
               what);
}

int grid_size(long long blocks, const char* routine) {
  if (blocks > INT_MAX) {
    throw InvalidArgument(std::string(routine) + ": " + std::to_string(blocks) + " scatter blocks exceed a grid");
  }
  return static_cast<int>(blocks);
}

}  // namespace

void supernode_update_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef d, UpdateRange r, PanelRef t,
                           double* work_device) {
  constexpr const char* routine = "supernode_update_cuda";
  check_update_shape(routine, d, r, as_const(t), work_device);
  const int m = d.nrows - r.r0;
  const int k = r.r1 - r.r0;
  if (k == 0) return;
  const int blocks = grid_size(tile_count(m, k), routine);
  {
    CublasStreamScope bound(handle, stream, routine);
    CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
    product(handle, d, r, work_device, "cublasDgemm in supernode_update_cuda");
  }
  const ScatterJob job{d.rows + r.r0, 0, m, k, 0, 0};
  scatter_update<<<blocks, kTileRows, 0, stream>>>(job, work_device, t);
  check_cuda(cudaGetLastError(), "scatter_update launch in supernode_update_cuda");
}

void supernode_update_batch_cuda(cublasHandle_t handle, cudaStream_t stream, const ConstPanelRef* ds,
                                 const UpdateRange* rs, int count, PanelRef t, void* work_device,
                                 std::size_t work_bytes) {
  constexpr const char* routine = "supernode_update_batch_cuda";
  const BatchLayout layout = batch_layout(routine, ds, rs, count);
  if (count == 0) return;
  for (int u = 0; u < count; ++u) {
    check_update_shape(routine, ds[u], rs[u], as_const(t), work_device);
  }
  if (work_bytes < layout.total_bytes) {
    throw InvalidArgument(std::string(routine) + ": work_bytes = " + std::to_string(work_bytes) + " is below the " +
                          std::to_string(layout.total_bytes) + " the batch needs");
  }
  if (reinterpret_cast<std::uintptr_t>(work_device) % alignof(ScatterJob) != 0) {
    throw InvalidArgument(std::string(routine) + ": work_device is not aligned to 8 bytes");
  }
  // Only updates with a product get a job: every job then owns at least one block of the grid.
  std::vector<ScatterJob> jobs;
  long long blocks = 0;
  for (int u = 0; u < count; ++u) {
    const int m = ds[u].nrows - rs[u].r0;
    const int k = rs[u].r1 - rs[u].r0;
    if (k == 0) continue;
    jobs.push_back({ds[u].rows + rs[u].r0, static_cast<std::int64_t>(layout.c_offsets[u]), m, k,
                    grid_size(blocks, routine), 0});
    blocks += tile_count(m, k);
  }
  if (jobs.empty()) return;
  const int grid = grid_size(blocks, routine);
  double* const work = static_cast<double*>(work_device);
  {
    CublasStreamScope bound(handle, stream, routine);
    CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
    for (int u = 0; u < count; ++u) {
      if (rs[u].r1 > rs[u].r0) {
        product(handle, ds[u], rs[u], work + layout.c_offsets[u], "cublasDgemm in supernode_update_batch_cuda");
      }
    }
  }
  ScatterJob* const table = static_cast<ScatterJob*>(work_device);
  upload_jobs(stream, jobs, table);
  scatter_batch<<<grid, kTileRows, 0, stream>>>(table, static_cast<int>(jobs.size()), work, t);
  check_cuda(cudaGetLastError(), "scatter_batch launch in supernode_update_batch_cuda");
}

}  // namespace hetsparse::kernels
