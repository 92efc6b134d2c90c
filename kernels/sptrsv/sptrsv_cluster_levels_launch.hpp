// Internal to the clusterlevels kernel and its solver (sptrsv_cluster_levels_cuda.cu launches,
// sptrsv_cluster_levels_solver_cuda.cu prepares and calls): the packed rows as the kernel reads
// them, and the launch of one run at the instantiated (width, block size) pairs.
#pragma once
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"

namespace hetsparse::kernels::cluster_levels_detail {

struct Packed {
  index_t n;
  const index_t* __restrict__ level_rows;
  const double* __restrict__ diagonal;
  const index_t* __restrict__ cols;  // width * n, slot k of position p at k * n + p
  const double* __restrict__ values;
  const index_t* __restrict__ overflow_ptr;  // null when no row overflows
  const index_t* __restrict__ overflow_cols;
  const double* __restrict__ overflow_values;
  const double* __restrict__ rhs;  // b gathered into level order
  int prefetch_levels;             // ClusterLevelsPlan::prefetch_levels (clusters only)
};

// The largest cluster of at most `wanted` blocks of `threads` threads this device co-schedules for
// rows of `width` slots (1 below compute capability 9.0).
int feasible_for(int width, int threads, int wanted);
// One run of narrow levels: a cluster of `blocks` blocks (one block: with or without its ring).
void launch_for(int width, int threads, cudaStream_t stream, int blocks, bool ring, const Packed& m,
                const index_t* level_ptr, const ClusterLevelsRun& run, double* x);

}  // namespace hetsparse::kernels::cluster_levels_detail
