// Internal to the clusterlevels kernels and their solver (sptrsv_cluster_levels_cuda.cu and, for a group
// of lanes a row, sptrsv_cluster_rows_cuda.cu launch; sptrsv_cluster_levels_solver_cuda.cu prepares and
// calls): the rows as the kernels read them, and the launch of one run at the instantiated shapes.
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

// A group of lanes a row (ClusterLevelsOptions::lanes > 1): the matrix as analysed, no pack.
constexpr int kRowsThreads = 1024;  // threads a block at most
struct RowsInput {
  index_t n;
  bool upper;
  bool by_position;  // rowptr/colind/values are the level-ordered copy (position p's row at p)
  const index_t* __restrict__ level_rows;
  const index_t* __restrict__ rowptr;
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  const double* b;  // may be x
  const index_t* __restrict__ level_ptr;  // device copy
};
// The most rows whose x a block keeps a copy of in shared memory (beyond it x is read from L2).
constexpr index_t kRowsSharedX = 200 * 1024 / sizeof(double);
// The largest cluster of at most `wanted` blocks of `threads` the device co-schedules, and a launch.
int rows_feasible_for(int lanes, bool shared_x, int wanted, int threads, index_t n);
void rows_launch_for(int lanes, bool shared_x, cudaStream_t stream, int blocks, int threads, const RowsInput& in,
                     const ClusterLevelsRun& run, double* x);

}  // namespace hetsparse::kernels::cluster_levels_detail
