// Device helpers shared by the supernode update kernels (internal to kernels/supernode).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels::supernode_detail {

// Position of `row` in t's list, or -1. Own rows sit at row - first_col; rows below are searched in
// [ncols, row - first_col] since the list rises by at least one per position.
__device__ inline int position_in_target(std::int32_t row, const PanelRef& t) {
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

// Index of the last job whose first_block is <= block (jobs sorted by first_block, job 0 at 0).
template <typename Job>
__device__ inline int job_of_block(const Job* __restrict__ jobs, int count, int block) {
  int lo = 0;
  int hi = count - 1;
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (jobs[mid].first_block <= block) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// The same job for the calling block; every thread of the block must call it. Up to a job a
// thread, the block's threads read the table together (one memory round trip instead of a chain
// of dependent ones); larger tables are searched.
template <typename Job>
__device__ inline int job_of_this_block(const Job* __restrict__ jobs, int count) {
  const int block = static_cast<int>(blockIdx.x);
  const int threads = static_cast<int>(blockDim.x * blockDim.y);
  if (count > threads) return job_of_block(jobs, count, block);
  const int t = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  return __syncthreads_count(t < count && jobs[t].first_block <= block) - 1;
}

// Job tables travel as kernel parameters rather than through cudaMemcpyAsync from pageable host
// memory, which may synchronise with the stream: a batch stays asynchronous and no host buffer has
// to outlive the call. A chunk stays well within the 4 KiB classic parameter limit.
template <typename Job>
struct JobChunk {
  static constexpr int kCapacity = 3072 / static_cast<int>(sizeof(Job));
  Job jobs[kCapacity];
};

template <typename Job>
__global__ void store_jobs(JobChunk<Job> chunk, int count, Job* table) {
  for (int i = static_cast<int>(threadIdx.x); i < count; i += static_cast<int>(blockDim.x)) table[i] = chunk.jobs[i];
}

template <typename Job>
void upload_jobs(cudaStream_t stream, const std::vector<Job>& jobs, Job* table, const char* what) {
  constexpr int kCapacity = JobChunk<Job>::kCapacity;
  for (std::size_t first = 0; first < jobs.size(); first += kCapacity) {
    const int count = static_cast<int>(std::min<std::size_t>(kCapacity, jobs.size() - first));
    JobChunk<Job> chunk{};
    std::copy(jobs.begin() + static_cast<std::ptrdiff_t>(first),
              jobs.begin() + static_cast<std::ptrdiff_t>(first) + count, chunk.jobs);
    store_jobs<Job><<<1, 64, 0, stream>>>(chunk, count, table + first);
    check_cuda(cudaGetLastError(), what);
  }
}

}  // namespace hetsparse::kernels::supernode_detail
