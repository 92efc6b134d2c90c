// The cluster-levels SpTRSV kernel and its launches (see sptrsv_cluster_levels.hpp; the solver that
// prepares and calls them: sptrsv_cluster_levels_solver_cuda.cu). One launch per run of narrow
// levels: a single cluster of cluster_blocks blocks walks the run's levels; thread t solves
// positions first + t, first + t + threads, ... of each level, then the cluster meets at its barrier.
// A row's data (row index, b, diagonal, packed off-diagonals) sits at addresses computed from its
// position alone, so a thread issues the loads of its row of level l + 1 before it solves level l:
// they come back while the level's x gathers and the barrier run, and a level's critical path is
// its x gathers, a store and the barrier. Deterministic: each row sums its entries in pack order on
// one thread.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels_launch.hpp"
#include "kernels/sptrsv/sptrsv_cluster_sync.cuh"

namespace hetsparse::kernels {
namespace {

using Packed = cluster_levels_detail::Packed;

template <int Width>
struct HeldRow {
  index_t position, row;
  double rhs, diagonal;
  index_t cols[Width];
  double values[Width];
};

template <int Width>
__device__ __forceinline__ void load_row(const Packed& m, index_t p, HeldRow<Width>& h) {
  h.position = p;
  h.row = __ldg(m.level_rows + p);
  h.rhs = __ldg(m.rhs + p);
  h.diagonal = __ldg(m.diagonal + p);
#pragma unroll
  for (int k = 0; k < Width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * static_cast<std::size_t>(m.n) + static_cast<std::size_t>(p);
    h.cols[k] = __ldg(m.cols + slot);
    h.values[k] = __ldg(m.values + slot);
  }
}

template <class T>
__device__ __forceinline__ void prefetch_l2(const T* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

template <int Width>
__device__ __forceinline__ void prefetch_row(const Packed& m, index_t p) {
  if (p >= m.n) return;
  prefetch_l2(m.level_rows + p);
  prefetch_l2(m.rhs + p);
  prefetch_l2(m.diagonal + p);
#pragma unroll
  for (int k = 0; k < Width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * static_cast<std::size_t>(m.n) + static_cast<std::size_t>(p);
    prefetch_l2(m.cols + slot);
    prefetch_l2(m.values + slot);
  }
}

// The first rows this thread solves 2, 3, ... levels from now, into L2. Levels are contiguous in
// position order, so the level after next starts at next_end; the ones after it are guessed at the
// next level's width.
template <int Width>
__device__ __forceinline__ void prefetch_ahead(const Packed& m, index_t t, index_t next_first, index_t next_end) {
  const index_t width = next_end - next_first;
  for (int d = 0; d < m.prefetch_levels; ++d) prefetch_row<Width>(m, next_end + d * width + t);
}

constexpr int kRing = ClusterLevelsPack::kRingLevels;
constexpr int kLevelChunk = 2048;  // level pointers a block keeps in shared memory at a time (even)

// x of a dependency in global memory. In a cluster it was written on another SM: read it from L2
// (.cg), not from this SM's L1, which may hold the line from before the write.
template <bool Cluster>
__device__ __forceinline__ double x_global(const double* x, index_t col) {
  if constexpr (Cluster) {
    return __ldcg(x + col);
  } else {
    return x[col];
  }
}

// x of a dependency by its packed column: global, or a ring slot of this block or (in a cluster) of
// another block of the cluster, through distributed shared memory.
template <bool Cluster, bool Ring, int Threads>
__device__ __forceinline__ double x_dependency(const double* x, double (*ring)[Threads], index_t col) {
  if constexpr (!Ring) return x[col];  // one block without a ring: no ring codes, x through L1
  if (col >= 0) return x_global<Cluster>(x, col);
  const RingSlot r = decode_ring(col);
  double* slot = &ring[r.slot][r.thread];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Cluster) {
    // The launch is one cluster, so a block's rank is blockIdx.x; a slot of this block is read
    // directly (a cluster address costs a DSMEM round trip even for the own block).
    const auto rank = static_cast<unsigned>(r.block);
    if (rank != blockIdx.x) slot = cooperative_groups::this_cluster().map_shared_rank(slot, rank);
  }
#endif
  return *slot;
}

template <bool Cluster, bool Ring, int Width, int Threads>
__device__ __forceinline__ double row_value(const Packed& m, const HeldRow<Width>& h, const double* x,
                                            double (*ring)[Threads]) {
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < Width; ++k) {
    if (h.cols[k] != -1) sum += h.values[k] * x_dependency<Cluster, Ring, Threads>(x, ring, h.cols[k]);
  }
  if (m.overflow_ptr != nullptr) {
    const index_t end = __ldg(m.overflow_ptr + h.position + 1);
    for (index_t e = __ldg(m.overflow_ptr + h.position); e < end; ++e) {
      sum += __ldg(m.overflow_values + e) * x_global<Cluster>(x, __ldg(m.overflow_cols + e));
    }
  }
  return (h.rhs - sum) / h.diagonal;
}

using cluster_levels_detail::barrier_arrive;
using cluster_levels_detail::barrier_wait;
using cluster_levels_detail::cluster_launch_config;

// One level: solves the thread's rows of this one ([first, end), the first already in `held`) and
// loads its first row of the next level into `next` (positions [next_first, next_end)). In a
// cluster the first row's x goes to the ring before the barrier and to global memory after its arrive
// (no packed slot reads it there before kRingLevels more barriers; overflow entries do, so with an
// overflow CSR it goes before the barrier); rows past the first, and every row of a single block,
// go to global memory before the barrier.
template <bool Cluster, bool Ring, int Width, int Threads>
__device__ __forceinline__ void level_step(const Packed& m, index_t level, index_t t, index_t threads, index_t first,
                                           index_t end, index_t next_first, index_t next_end,
                                           const HeldRow<Width>& held, HeldRow<Width>& next, double* x,
                                           double (*ring)[Threads]) {
  // One block loads the next row first (bar.sync does not wait for it); in a cluster after the arrive,
  // whose release would otherwise wait for the loads in flight.
  if constexpr (!Cluster) {
    if (next_first + t < next_end) load_row(m, next_first + t, next);
  }
  const bool has = first + t < end;
  double value = 0.0;
  // A row's overflow entries read x from global memory even for the last level's first rows, so with
  // an overflow CSR a cluster stores those before the barrier too (its release publishes them).
  const bool store_late = Cluster && m.overflow_ptr == nullptr;
  if (has) {
    value = row_value<Cluster, Ring, Width, Threads>(m, held, x, ring);
    if constexpr (Ring) ring[level % kRing][threadIdx.x] = value;
    if (!store_late) x[held.row] = value;
  }
  for (index_t p = first + t + threads; p < end; p += threads) {
    HeldRow<Width> row;
    load_row(m, p, row);
    x[row.row] = row_value<Cluster, Ring, Width, Threads>(m, row, x, ring);
  }
  barrier_arrive<Cluster>();
  if constexpr (Cluster) {
    if (next_first + t < next_end) load_row(m, next_first + t, next);
    prefetch_ahead<Width>(m, t, next_first, next_end);
    if (has && store_late) x[held.row] = value;
  }
  barrier_wait<Cluster>();
}

// A cluster's walk over its levels: each block keeps kLevelChunk level pointers in shared memory at a time.
template <int Width, int Threads>
__device__ __forceinline__ void cluster_walk(const Packed& m, const index_t* __restrict__ level_ptr, index_t level_begin,
                                             index_t level_end, index_t t, index_t threads, HeldRow<Width>& a,
                                             HeldRow<Width>& b, double* x, double (*ring)[Threads], index_t* lp) {
  for (index_t base = level_begin; base < level_end; base += kLevelChunk) {
    __syncthreads();  // the previous chunk's pointers are no longer read
    for (index_t i = threadIdx.x; i < kLevelChunk + 2 && base + i <= level_end; i += Threads) lp[i] = __ldg(level_ptr + base + i);
    __syncthreads();
    if (base == level_begin && lp[0] + t < lp[1]) load_row(m, lp[0] + t, a);
    const index_t stop = min(level_end, base + kLevelChunk);
    for (index_t level = base; level < stop; level += 2) {
      const index_t i = level - base;
      // i is even and at most kLevelChunk - 2, so lp[i + 3] exists; lp[k] was loaded for
      // base + k <= level_end, which the conditions below guarantee.
      const index_t end1 = level + 1 < level_end ? lp[i + 2] : lp[i + 1];
      level_step<true, true, Width, Threads>(m, level, t, threads, lp[i], lp[i + 1], lp[i + 1], end1, a, b, x, ring);
      if (level + 1 >= level_end) break;
      const index_t end2 = level + 2 < level_end ? lp[i + 3] : end1;
      level_step<true, true, Width, Threads>(m, level + 1, t, threads, lp[i + 1], end1, end1, end2, b, a, x, ring);
    }
  }
}

// Levels [level_begin, level_end); gridDim.x blocks form the cluster (one cluster per launch). Two
// row buffers take turns (the loop body is two levels, so neither is copied into the other).
template <bool Cluster, bool Ring, int Width, int Threads>
__global__ void __launch_bounds__(Threads, 1)
    cluster_levels_kernel(Packed m, const index_t* __restrict__ level_ptr, index_t level_begin, index_t level_end,
                          double* x) {
  __shared__ double ring[Ring ? kRing : 1][Threads];
  __shared__ index_t lp[Cluster ? kLevelChunk + 2 : 1];
  const index_t threads = static_cast<index_t>(gridDim.x) * Threads;
  const index_t t = static_cast<index_t>(blockIdx.x) * Threads + static_cast<index_t>(threadIdx.x);
  HeldRow<Width> a, b;
  if constexpr (!Cluster) {
    // One block: the level bounds ride in registers from step to step (a chunked shared-memory copy
    // of the pointers, as below, measured slower here).
    index_t first = __ldg(level_ptr + level_begin), end = __ldg(level_ptr + level_begin + 1);
    if (first + t < end) load_row(m, first + t, a);
    for (index_t level = level_begin; level < level_end; level += 2) {
      const index_t end1 = level + 1 < level_end ? __ldg(level_ptr + level + 2) : end;
      level_step<Cluster, Ring, Width, Threads>(m, level, t, threads, first, end, end, end1, a, b, x, ring);
      if (level + 1 >= level_end) break;
      const index_t end2 = level + 2 < level_end ? __ldg(level_ptr + level + 3) : end1;
      level_step<Cluster, Ring, Width, Threads>(m, level + 1, t, threads, end, end1, end1, end2, b, a, x, ring);
      first = end1;
      end = end2;
    }
  } else {
    cluster_walk<Width, Threads>(m, level_ptr, level_begin, level_end, t, threads, a, b, x, ring, lp);
  }
}

template <bool Cluster, bool Ring, int Width, int Threads>
void launch(cudaStream_t stream, int blocks, const Packed& m, const index_t* level_ptr, const ClusterLevelsRun& run,
            double* x) {
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_launch_config(blocks, Threads, 0, Cluster, stream, attribute);
  check_cuda(cudaLaunchKernelEx(&config, cluster_levels_kernel<Cluster, Ring, Width, Threads>, m, level_ptr,
                                run.level_begin, run.level_end, x),
             "cluster_levels_kernel launch");
}

template <int Width, int Threads>
void launch_run(cudaStream_t stream, int blocks, bool ring, const Packed& m, const index_t* level_ptr,
                const ClusterLevelsRun& run, double* x) {
  if (blocks > 1) {
    launch<true, true, Width, Threads>(stream, blocks, m, level_ptr, run, x);
  } else if (ring) {
    launch<false, true, Width, Threads>(stream, 1, m, level_ptr, run, x);
  } else {
    launch<false, false, Width, Threads>(stream, 1, m, level_ptr, run, x);
  }
}

// The largest cluster of at most `wanted` blocks this device co-schedules (1 below compute 9.0).
template <int Width, int Threads>
int feasible_blocks(int wanted) {
  if (wanted <= 1 || !cluster_levels_detail::device_has_clusters()) return 1;
  const auto kernel = cluster_levels_kernel<true, true, Width, Threads>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
             "cudaFuncSetAttribute in ClusterLevelsSolver");
  return cluster_levels_detail::largest_cluster(kernel, wanted, Threads, 0);
}

}  // namespace

namespace cluster_levels_detail {

// The (width, block size) instantiations: width 8 only with 512 threads (register room).
int feasible_for(int width, int threads, int wanted) {
  if (width == 2) return threads == 512 ? feasible_blocks<2, 512>(wanted) : feasible_blocks<2, 1024>(wanted);
  if (width == 4) return threads == 512 ? feasible_blocks<4, 512>(wanted) : feasible_blocks<4, 1024>(wanted);
  return feasible_blocks<8, 512>(wanted);
}

void launch_for(int width, int threads, cudaStream_t stream, int blocks, bool ring, const Packed& m,
                const index_t* level_ptr, const ClusterLevelsRun& run, double* x) {
  if (width == 2) {
    (threads == 512 ? launch_run<2, 512> : launch_run<2, 1024>)(stream, blocks, ring, m, level_ptr, run, x);
  } else if (width == 4) {
    (threads == 512 ? launch_run<4, 512> : launch_run<4, 1024>)(stream, blocks, ring, m, level_ptr, run, x);
  } else {
    launch_run<8, 512>(stream, blocks, ring, m, level_ptr, run, x);
  }
}


}  // namespace cluster_levels_detail
}  // namespace hetsparse::kernels
