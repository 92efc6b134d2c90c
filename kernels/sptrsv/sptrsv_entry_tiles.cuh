// Entry-parallel kernels of the GPU analysis over the ranges of a CSR-style pointer (rows, or level
// positions) find each entry's range without an owner array: a block takes a tile of kTileEntries
// consecutive entries, two threads binary-search the pointer for the ranges of its first and last
// entry, the slice of the pointer between them goes to shared memory and each thread searches it.
// An owner array cost three passes over the entries (memset, scatter of range starts, max scan)
// before the one that needed it; a warp or a thread per row idles on short rows and gives a hub
// row of 47k entries to one. Included by the sptrsv analysis .cu files only.
#pragma once
#include <cstdint>

#include "sparse/types.hpp"

namespace hetsparse::kernels::device_analysis {

constexpr unsigned kTileThreads = 256;
constexpr std::int64_t kTileEntries = 4 * kTileThreads;
constexpr index_t kTileRanges = 1024;  // pointer slice kept in shared memory (more: searched in place)

inline unsigned tiles_for(std::int64_t entries) {
  return static_cast<unsigned>((entries + kTileEntries - 1) / kTileEntries);
}

// The last k in [lo, hi] with ptr[k] <= q, for a nondecreasing ptr with ptr[lo] <= q: the range
// holding entry q (an empty range k has ptr[k] == ptr[k + 1], so a later range wins).
template <typename Ptr>
__device__ __forceinline__ index_t range_of(const Ptr& ptr, index_t lo, index_t hi, std::int64_t q) {
  while (lo < hi) {
    const index_t mid = lo + (hi - lo + 1) / 2;
    if (ptr[mid] <= q) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Calls visit(q, k, ptr[k]) for every entry q of this block's tile, k its range among the
// `ranges` ranges of ptr (ptr[ranges] = nnz). Every thread of the block must call it. A thread takes
// every kTileThreads-th entry (coalesced; four consecutive entries a thread made the level-ordered
// copy's stores 1.4x slower), each search starting from the previous one's range.
template <typename Visit>
__device__ void for_each_tile_entry(index_t ranges, const index_t* __restrict__ ptr, std::int64_t nnz, Visit&& visit) {
  __shared__ index_t bounds[2];
  __shared__ index_t slice[kTileRanges];
  const std::int64_t q0 = static_cast<std::int64_t>(blockIdx.x) * kTileEntries;
  const std::int64_t q1 = q0 + kTileEntries < nnz ? q0 + kTileEntries : nnz;
  if (threadIdx.x == 0) bounds[0] = range_of(ptr, 0, ranges - 1, q0);
  if (threadIdx.x == 32) bounds[1] = range_of(ptr, 0, ranges - 1, q1 - 1);
  __syncthreads();
  const index_t first = bounds[0], count = bounds[1] - bounds[0] + 1;
  const bool shared = count <= kTileRanges;
  if (shared) {
    for (index_t k = threadIdx.x; k < count; k += kTileThreads) slice[k] = ptr[first + k];
  }
  __syncthreads();
  index_t k = shared ? 0 : first;
  for (std::int64_t q = q0 + threadIdx.x; q < q1; q += kTileThreads) {
    if (shared) {
      k = range_of(slice, k, count - 1, q);
      visit(q, first + k, slice[k]);
    } else {
      k = range_of(ptr, k, first + count - 1, q);
      visit(q, k, ptr[k]);
    }
  }
}

}  // namespace hetsparse::kernels::device_analysis
