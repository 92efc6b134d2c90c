// Supernodal updates on the GPU: one cuBLAS GEMM per descendant (the fused [M1; M2] M1^T product),
// then hetsparse's scatter-subtract kernel into the target. A batch sends its small updates to the
// fused kernel (supernode_update_fused_cuda.cu), stacks the products of the others in the work
// buffer and scatters them all with one kernel.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/cublas_stream_scope.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_batch_layout.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_device_common.cuh"
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

__global__ void __launch_bounds__(kTileRows)
    scatter_batch(const ScatterJob* __restrict__ jobs, int count, const double* __restrict__ work, PanelRef t) {
  // Blocks [jobs[u].first_block, jobs[u + 1].first_block) work on job u; every job has a tile.
  const int block = static_cast<int>(blockIdx.x);
  const ScatterJob job = jobs[job_of_this_block(jobs, count)];
  scatter_tile<true>(job, work, block - job.first_block, t);
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
                                 std::size_t work_bytes, double fused_max_flops) {
  constexpr const char* routine = "supernode_update_batch_cuda";
  const BatchLayout layout = batch_layout(routine, ds, rs, count, fused_max_flops);
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
  // Only updates with a product get a job: every job then owns at least one block of its grid.
  std::vector<ScatterJob> jobs;
  std::vector<FusedJob> fused;
  long long blocks = 0;
  for (int u = 0; u < count; ++u) {
    const int m = ds[u].nrows - rs[u].r0;
    const int k = rs[u].r1 - rs[u].r0;
    if (k == 0) continue;
    if (layout.fused[u]) {
      fused.push_back({ds[u].values + rs[u].r0, ds[u].rows + rs[u].r0, ds[u].nrows, m, k, ds[u].ncols, 0, 0});
      continue;
    }
    jobs.push_back({ds[u].rows + rs[u].r0, static_cast<std::int64_t>(layout.c_offsets[u]), m, k,
                    grid_size(blocks, routine), 0});
    blocks += tile_count(m, k);
  }
  auto* const base = static_cast<unsigned char*>(work_device);
  run_fused_updates(stream, fused, reinterpret_cast<FusedJob*>(base + layout.fused_table_offset), t, routine);
  if (jobs.empty()) return;
  const int grid = grid_size(blocks, routine);
  double* const work = static_cast<double*>(work_device);
  {
    CublasStreamScope bound(handle, stream, routine);
    CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
    for (int u = 0; u < count; ++u) {
      if (rs[u].r1 > rs[u].r0 && !layout.fused[u]) {
        product(handle, ds[u], rs[u], work + layout.c_offsets[u], "cublasDgemm in supernode_update_batch_cuda");
      }
    }
  }
  ScatterJob* const table = static_cast<ScatterJob*>(work_device);
  upload_jobs(stream, jobs, table, "store_jobs launch in supernode_update_batch_cuda");
  scatter_batch<<<grid, kTileRows, 0, stream>>>(table, static_cast<int>(jobs.size()), work, t);
  check_cuda(cudaGetLastError(), "scatter_batch launch in supernode_update_batch_cuda");
}

}  // namespace hetsparse::kernels
