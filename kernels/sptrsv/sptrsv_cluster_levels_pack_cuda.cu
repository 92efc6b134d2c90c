// The cluster-levels pack built on the GPU (see sptrsv_cluster_levels.hpp): the same arrays as the
// host pack_cluster_levels for triangles without overflow, from the matrix already on the device. The
// host pack walks every entry with random lookups (44-284 ms on the H100 anchors); this is a few
// passes of n threads.
#include <cuda_runtime.h>

#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(index_t n) { return static_cast<unsigned>((static_cast<std::int64_t>(n) + kThreads - 1) / kThreads); }

__global__ void position_of_kernel(index_t n, const index_t* __restrict__ level_rows, index_t* position_of) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p < n) position_of[level_rows[p]] = static_cast<index_t>(p);
}

// The level of each position: the last l with level_ptr[l] <= p (empty levels share their pointer).
__global__ void level_of_kernel(index_t n, index_t levels, const index_t* __restrict__ level_ptr, index_t* level_of) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p >= n) return;
  index_t lo = 0, hi = levels;  // level_ptr[lo] <= p < level_ptr[hi]
  while (hi - lo > 1) {
    const index_t mid = lo + (hi - lo) / 2;
    if (level_ptr[mid] <= p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  level_of[p] = lo;
}

struct PackInput {
  index_t n;
  bool upper, by_position;
  const index_t* __restrict__ level_rows;
  const index_t* __restrict__ rowptr;
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  const index_t* __restrict__ level_ptr;
  const index_t* __restrict__ position_of;
  const index_t* __restrict__ level_of;
  const index_t* __restrict__ run_of_level;  // -1 for a wide level
  index_t threads;                           // of the cluster (blocks x block threads)
  int block_threads, width;
  bool ring;  // ring codes at all (a cluster, or one block with its ring)
};

// One thread per position: the diagonal, and each off-diagonal as a ring code or its column, exactly
// as the host pack encodes it.
__global__ void pack_kernel(PackInput in, double* diagonal, index_t* cols, double* values) {
  const std::int64_t pp = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (pp >= in.n) return;
  const auto p = static_cast<index_t>(pp);
  const index_t stored = in.by_position ? p : in.level_rows[p];
  const index_t first = in.rowptr[stored], last = in.rowptr[stored + 1];
  const index_t off_begin = in.upper ? first + 1 : first, off_end = in.upper ? last : last - 1;
  diagonal[p] = in.values[in.upper ? first : last - 1];
  const index_t level = in.level_of[p], run = in.run_of_level[level];
  const auto n = static_cast<std::size_t>(in.n);
  for (int k = 0; k < in.width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * n + static_cast<std::size_t>(p);
    const index_t e = off_begin + k;
    if (e >= off_end) {
      cols[slot] = -1;
      values[slot] = 0.0;
      continue;
    }
    const index_t col = in.colind[e];
    const index_t q = in.position_of[col], lq = in.level_of[q];
    const index_t index = q - in.level_ptr[lq];
    const bool ring = in.ring && run >= 0 && run == in.run_of_level[lq] &&
                      level - lq < ClusterLevelsPack::kRingLevels && index < in.threads;
    cols[slot] = ring ? ring_code(lq, static_cast<int>(index / in.block_threads), static_cast<int>(index % in.block_threads))
                      : col;
    values[slot] = in.values[e];
  }
}

}  // namespace

void pack_cluster_levels_cuda(cudaStream_t stream, const TriangularDeviceView& device, const index_t* level_ptr,
                              const ClusterLevelsPlan& plan, int width, const ClusterLevelsDevicePack& out) {
  const index_t n = device.n;
  if (n == 0) return;
  std::vector<index_t> run_of_level(static_cast<std::size_t>(device.num_levels), -1);
  for (std::size_t r = 0; r < plan.runs.size(); ++r)
    if (!plan.runs[r].wide)
      for (index_t l = plan.runs[r].level_begin; l < plan.runs[r].level_end; ++l)
        run_of_level[static_cast<std::size_t>(l)] = static_cast<index_t>(r);
  index_t *position_of = nullptr, *level_of = nullptr, *runs = nullptr;
  const auto bytes = static_cast<std::size_t>(n) * sizeof(index_t);
  check_cuda(cudaMallocAsync(&position_of, bytes, stream), "cudaMallocAsync in pack_cluster_levels_cuda");
  check_cuda(cudaMallocAsync(&level_of, bytes, stream), "cudaMallocAsync in pack_cluster_levels_cuda");
  check_cuda(cudaMallocAsync(&runs, run_of_level.size() * sizeof(index_t), stream),
             "cudaMallocAsync in pack_cluster_levels_cuda");
  check_cuda(cudaMemcpyAsync(runs, run_of_level.data(), run_of_level.size() * sizeof(index_t), cudaMemcpyHostToDevice,
                             stream),
             "cudaMemcpyAsync in pack_cluster_levels_cuda");
  position_of_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device.level_rows, position_of);
  level_of_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device.num_levels, level_ptr, level_of);
  const StoredRows stored = stored_rows(device);
  PackInput in{n,
               device.upper,
               stored.by_position,
               device.level_rows,
               stored.rowptr,
               stored.colind,
               stored.values,
               level_ptr,
               position_of,
               level_of,
               runs,
               static_cast<index_t>(plan.cluster_blocks) * plan.block_threads,
               plan.block_threads,
               width,
               plan.cluster_blocks > 1 || plan.one_block_ring};
  pack_kernel<<<blocks_for(n), kThreads, 0, stream>>>(in, out.diagonal, out.cols, out.values);
  check_cuda(cudaGetLastError(), "pack_kernel launch in pack_cluster_levels_cuda");
  // run_of_level (host) must outlive the copy above: wait before it goes out of scope.
  check_cuda(cudaFreeAsync(position_of, stream), "cudaFreeAsync in pack_cluster_levels_cuda");
  check_cuda(cudaFreeAsync(level_of, stream), "cudaFreeAsync in pack_cluster_levels_cuda");
  check_cuda(cudaFreeAsync(runs, stream), "cudaFreeAsync in pack_cluster_levels_cuda");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in pack_cluster_levels_cuda");
}

}  // namespace hetsparse::kernels
