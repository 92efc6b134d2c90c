// clusterlevels with a group of `lanes` threads a row (ClusterLevelsOptions::lanes > 1; see
// sptrsv_cluster_levels.hpp). For narrow levels of long rows (tens of entries a row): one thread walking
// such a row makes each level a chain of loads, and the sync-free kernels pay a flag round trip per
// dependency. Here a group's lanes hold the row's entries abreast, sum them by shuffles, and the
// cluster meets at its barrier after each level. The row's data comes from the matrix as analysed (its
// level-ordered copy when there is one), no pack: the row of the level three ahead is located, the
// entry range of the one two ahead read, and the entries of the next one loaded, while this level is
// solved. When x fits in shared memory every block keeps a copy of it: a solved row's value is
// stored into each block's copy (distributed shared memory), so the gathers never leave the SM.
// Deterministic: a row's sum is the same shuffle tree every solve.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels_launch.hpp"
#include "kernels/sptrsv/sptrsv_cluster_sync.cuh"

namespace hetsparse::kernels {
namespace {

using cluster_levels_detail::barrier_arrive;
using cluster_levels_detail::barrier_wait;
using cluster_levels_detail::cluster_launch_config;
using cluster_levels_detail::device_has_clusters;
using cluster_levels_detail::kRowsThreads;
using cluster_levels_detail::largest_cluster;
using cluster_levels_detail::RowsInput;

// Entries a lane keeps in registers a row, loaded a level ahead; the rest are read in the level, with
// their latency on the level's critical path. Groups of 4 or 8 lanes hold rows of up to 16 or 32 entries.
template <int Lanes>
constexpr int kHeld = Lanes <= 8 ? 4 : 2;

// A group's first row of a level at the three stages of its loads.
struct Located {  // the row at the position (row < 0: none)
  index_t position, row;
};
struct Bounded {  // and its stored entry range
  index_t position, row, first, last;
};
template <int H>
struct Held {  // and a lane's share of its off-diagonals (col < 0: none), its b and its diagonal
  index_t row;
  double rhs, diagonal;
  index_t cols[H];
  double values[H];
  index_t rest_begin, rest_end;  // the off-diagonals past the lanes' held ones
};

__device__ __forceinline__ index_t level_bound(const RowsInput& in, index_t level, index_t level_end) {
  return __ldg(in.level_ptr + min(level, level_end));
}

__device__ __forceinline__ Located locate(const RowsInput& in, index_t p, index_t end) {
  return {p, p < end ? __ldg(in.level_rows + p) : index_t{-1}};
}

__device__ __forceinline__ Bounded bound(const RowsInput& in, const Located& a) {
  Bounded r{a.position, a.row, 0, 0};
  if (a.row >= 0) {
    const index_t stored = in.by_position ? a.position : a.row;
    r.first = __ldg(in.rowptr + stored);
    r.last = __ldg(in.rowptr + stored + 1);
  }
  return r;
}

// Rows are normalised: the diagonal is an upper row's first entry and a lower row's last.
template <int Lanes>
__device__ __forceinline__ void hold(const RowsInput& in, const Bounded& r, int lane, Held<kHeld<Lanes>>& h) {
  h.row = r.row;
  index_t begin = 0, end = 0;
  h.rhs = 0.0;
  h.diagonal = 1.0;
  if (r.row >= 0) {
    begin = in.upper ? r.first + 1 : r.first;
    end = in.upper ? r.last : r.last - 1;
    h.diagonal = __ldg(in.values + (in.upper ? r.first : r.last - 1));
    h.rhs = in.b[r.row];  // b may be x: this row is written only when it is solved, after this load
  }
#pragma unroll
  for (int k = 0; k < kHeld<Lanes>; ++k) {
    const index_t e = begin + lane + k * Lanes;
    h.cols[k] = e < end ? __ldg(in.colind + e) : index_t{-1};
    h.values[k] = e < end ? __ldg(in.values + e) : 0.0;
  }
  h.rest_begin = min(begin + kHeld<Lanes> * Lanes, end);
  h.rest_end = end;
}

// x of a solved row: the block's own copy, or global memory (from L2 in a cluster: another SM wrote it).
template <bool Cluster, bool SharedX>
__device__ __forceinline__ double x_of(const double* x, const double* xs, index_t col) {
  if constexpr (SharedX) return xs[col];
  if constexpr (Cluster) return __ldcg(x + col);
  return x[col];
}

// The row's value, on every lane of the group. All lanes of the warp call it (the shuffles), with or
// without a row.
template <bool Cluster, bool SharedX, int Lanes>
__device__ __forceinline__ double row_value(const RowsInput& in, const Held<kHeld<Lanes>>& h, int lane,
                                            const double* x, const double* xs) {
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < kHeld<Lanes>; ++k)
    if (h.cols[k] >= 0) sum += h.values[k] * x_of<Cluster, SharedX>(x, xs, h.cols[k]);
  for (index_t e = h.rest_begin + lane; e < h.rest_end; e += Lanes)
    sum += __ldg(in.values + e) * x_of<Cluster, SharedX>(x, xs, __ldg(in.colind + e));
#pragma unroll
  for (int offset = Lanes / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  return (h.rhs - sum) / h.diagonal;
}

// The value into every block's copy of x (lanes spread the stores over the cluster's blocks); into
// global memory by the caller.
template <bool Cluster, int Lanes>
__device__ __forceinline__ void share(double* xs, index_t row, double value, int lane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Cluster) {
    for (unsigned rank = static_cast<unsigned>(lane); rank < gridDim.x; rank += Lanes) {
      double* copy = rank == blockIdx.x ? xs : cooperative_groups::this_cluster().map_shared_rank(xs, rank);
      copy[row] = value;
    }
    return;
  }
#endif
  if (lane == 0) xs[row] = value;
}

template <bool Cluster>
__device__ __forceinline__ void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Cluster) {
    cooperative_groups::this_cluster().sync();
    return;
  }
#endif
  __syncthreads();
}

// Levels [level_begin, level_end); gridDim.x blocks form the cluster. Group g solves positions
// first + g, first + g + groups, ... of each level; its first one is loaded ahead (see the header).
template <bool Cluster, bool SharedX, int Lanes>
__global__ void __launch_bounds__(kRowsThreads, 1)
    cluster_rows_kernel(RowsInput in, index_t level_begin, index_t level_end, double* x) {
  extern __shared__ double xs[];  // n doubles when SharedX
  const int lane = static_cast<int>(threadIdx.x) % Lanes;
  const auto threads = static_cast<index_t>(blockDim.x);  // a multiple of 32
  const index_t group = (static_cast<index_t>(blockIdx.x) * threads + static_cast<index_t>(threadIdx.x)) / Lanes;
  const index_t groups = static_cast<index_t>(gridDim.x) * (threads / Lanes);
  if constexpr (SharedX) {
    if (level_begin > 0)  // rows of earlier launches
      for (index_t i = threadIdx.x; i < in.n; i += threads) xs[i] = __ldcg(x + i);
  }
  // Every block running (distributed shared memory) and its copy filled before anyone stores into it.
  cluster_sync<Cluster>();

  // Level bounds l .. l + 4, and the group's first row of l (held), l + 1 (bounded), l + 2 (located).
  const index_t l = level_begin;
  index_t p0 = level_bound(in, l, level_end), p1 = level_bound(in, l + 1, level_end),
          p2 = level_bound(in, l + 2, level_end), p3 = level_bound(in, l + 3, level_end),
          p4 = level_bound(in, l + 4, level_end);
  Held<kHeld<Lanes>> cur;
  hold<Lanes>(in, bound(in, locate(in, p0 + group, p1)), lane, cur);
  Bounded bounded = bound(in, locate(in, p1 + group, p2));
  Located located = locate(in, p2 + group, p3);
  Held<kHeld<Lanes>> next;
  Bounded bounded_next;
  Located located_next;
  index_t p5 = 0;
  // The loads for the levels ahead; they wait for nothing this level solves.
  auto advance = [&](index_t level) {
    hold<Lanes>(in, bounded, lane, next);
    bounded_next = bound(in, located);
    located_next = locate(in, p3 + group, p4);
    p5 = level_bound(in, level + 5, level_end);
  };
  for (index_t level = level_begin; level < level_end; ++level) {
    // One block loads ahead first (its barrier does not wait for loads); a cluster after the arrive,
    // whose release would wait for them.
    if constexpr (!Cluster) advance(level);
    double value = row_value<Cluster, SharedX, Lanes>(in, cur, lane, x, xs);
    if (cur.row >= 0) {
      if constexpr (SharedX) share<Cluster, Lanes>(xs, cur.row, value, lane);
      if (!SharedX && lane == 0) x[cur.row] = value;
    }
    // A level wider than the groups: the further rows, loaded here (the plan sizes the cluster so that
    // this is rare). The trip count is the same for the whole block: the shuffles need every lane.
    for (index_t p = p0 + group + groups, base = p0 + groups; base < p1; p += groups, base += groups) {
      Held<kHeld<Lanes>> h;
      hold<Lanes>(in, bound(in, locate(in, p, p1)), lane, h);
      const double v = row_value<Cluster, SharedX, Lanes>(in, h, lane, x, xs);
      if (h.row >= 0) {
        if constexpr (SharedX) share<Cluster, Lanes>(xs, h.row, v, lane);
        if (lane == 0) x[h.row] = v;
      }
    }
    barrier_arrive<Cluster>();
    if constexpr (Cluster) advance(level);
    // Nothing in the kernel reads global x when every block has its copy: the store goes after the arrive.
    if (SharedX && cur.row >= 0 && lane == 0) x[cur.row] = value;
    barrier_wait<Cluster>();
    cur = next;
    bounded = bounded_next;
    located = located_next;
    p0 = p1;
    p1 = p2;
    p2 = p3;
    p3 = p4;
    p4 = p5;
  }
}

// Dynamic shared memory of a block: x's copy, or none.
template <bool SharedX>
std::size_t shared_bytes(index_t n) {
  return SharedX ? static_cast<std::size_t>(n) * sizeof(double) : 0;
}

template <bool Cluster, bool SharedX>
cudaLaunchConfig_t rows_config(int blocks, int threads, index_t n, cudaStream_t stream, cudaLaunchAttribute& attribute) {
  return cluster_launch_config(blocks, threads, shared_bytes<SharedX>(n), Cluster, stream, attribute);
}

// The kernel's attributes: a cluster of up to 16 blocks, and x's copy in dynamic shared memory.
template <bool Cluster, bool SharedX, int Lanes>
void set_attributes(index_t n) {
  const auto kernel = cluster_rows_kernel<Cluster, SharedX, Lanes>;
  if constexpr (Cluster)
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
               "cudaFuncSetAttribute in clusterlevels (lanes)");
  if constexpr (SharedX)
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(shared_bytes<SharedX>(n))),
               "cudaFuncSetAttribute in clusterlevels (lanes)");
}

template <bool SharedX, int Lanes>
int feasible(int wanted, int threads, index_t n) {
  set_attributes<false, SharedX, Lanes>(n);  // the one-block kernel's too: it may be the one launched
  if (wanted <= 1 || !device_has_clusters()) return 1;
  set_attributes<true, SharedX, Lanes>(n);
  return largest_cluster(cluster_rows_kernel<true, SharedX, Lanes>, wanted, threads, shared_bytes<SharedX>(n));
}

template <bool SharedX, int Lanes>
void launch(cudaStream_t stream, int blocks, int threads, const RowsInput& in, const ClusterLevelsRun& run, double* x) {
  cudaLaunchAttribute attribute;
  if (blocks > 1) {
    const cudaLaunchConfig_t config = rows_config<true, SharedX>(blocks, threads, in.n, stream, attribute);
    check_cuda(cudaLaunchKernelEx(&config, cluster_rows_kernel<true, SharedX, Lanes>, in, run.level_begin,
                                  run.level_end, x),
               "cluster_rows_kernel launch");
  } else {
    const cudaLaunchConfig_t config = rows_config<false, SharedX>(1, threads, in.n, stream, attribute);
    check_cuda(cudaLaunchKernelEx(&config, cluster_rows_kernel<false, SharedX, Lanes>, in, run.level_begin,
                                  run.level_end, x),
               "cluster_rows_kernel launch");
  }
}

template <int Lanes>
int feasible_lanes(bool shared_x, int wanted, int threads, index_t n) {
  return shared_x ? feasible<true, Lanes>(wanted, threads, n) : feasible<false, Lanes>(wanted, threads, n);
}
template <int Lanes>
void launch_lanes(bool shared_x, cudaStream_t stream, int blocks, int threads, const RowsInput& in,
                  const ClusterLevelsRun& run, double* x) {
  (shared_x ? launch<true, Lanes> : launch<false, Lanes>)(stream, blocks, threads, in, run, x);
}

}  // namespace

namespace cluster_levels_detail {

int rows_feasible_for(int lanes, bool shared_x, int wanted, int threads, index_t n) {
  switch (lanes) {
    case 4: return feasible_lanes<4>(shared_x, wanted, threads, n);
    case 8: return feasible_lanes<8>(shared_x, wanted, threads, n);
    case 16: return feasible_lanes<16>(shared_x, wanted, threads, n);
    default: return feasible_lanes<32>(shared_x, wanted, threads, n);
  }
}

void rows_launch_for(int lanes, bool shared_x, cudaStream_t stream, int blocks, int threads, const RowsInput& in,
                     const ClusterLevelsRun& run, double* x) {
  switch (lanes) {
    case 4: return launch_lanes<4>(shared_x, stream, blocks, threads, in, run, x);
    case 8: return launch_lanes<8>(shared_x, stream, blocks, threads, in, run, x);
    case 16: return launch_lanes<16>(shared_x, stream, blocks, threads, in, run, x);
    default: return launch_lanes<32>(shared_x, stream, blocks, threads, in, run, x);
  }
}

}  // namespace cluster_levels_detail
}  // namespace hetsparse::kernels
