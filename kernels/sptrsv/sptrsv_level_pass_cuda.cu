// The GPU analysis's sync-free level pass: flags[row] = level + 1 for every row of a valid,
// normalised triangle (a row's level is one more than the highest of its dependencies'). A warp per
// natural-order fusion segment, claimed as the solve claims them: the warp for a heavy row; for a
// segment of light rows, a thread per row in lockstep rounds, each loading the row's next few flags
// at once and taking the set ones, then taking its segment's finished rows by shuffle. Kept
// converged, the warp's loads coalesce (a stencil's rows depend on neighbouring rows), where each
// thread walking its row alone, writing first, issued them apart: 1.1-1.4x faster on the six SpTRSV
// anchors (lap3d 160³: 3.72 -> 2.88 ms, H100 call 34); the shuffles took lap2d 1000² from 2.01 to
// 1.51 ms (call 36). Tried and dropped (calls 31-33): a warp holding 2-8 segments (2-8x slower: a
// round's loads grow, the chains do not shorten), a longer or shorter backoff cap than 256 ns, fewer
// resident blocks.
#include <cstdint>
#include <cuda/atomic>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels::device_analysis {
namespace {

using namespace sptrsv_device;

// The flag is the data (level + 1), so relaxed loads (flag_relaxed) and stores suffice: nothing
// else is published with it.
__device__ __forceinline__ void set_flag(int* flags, index_t row, int value) {
  cuda::atomic_ref<int, cuda::thread_scope_device>(flags[row]).store(value, cuda::memory_order_relaxed);
}

// Flags a lane loads at once on a warp-level row (8 made the kernel spill beside the rounds' shuffles).
constexpr int kLevelBatch = 4;

// A whole row by the warp: lanes stride over the off-diagonals kLevelBatch at a time.
template <bool Upper>
__device__ void warp_row_level(const Rows& m, index_t row, int* flags) {
  const index_t first = m.rowptr[row], last = m.rowptr[row + 1];
  const index_t off_begin = Upper ? first + 1 : first, off_end = Upper ? last : last - 1;
  int highest = 0;
  // 64-bit positions: base + 32 * kLevelBatch may pass 2^31 - 1 near the end of a large matrix.
  for (std::int64_t base = off_begin + static_cast<std::int64_t>(threadIdx.x % kWarp); base < off_end;
       base += static_cast<std::int64_t>(kWarp) * kLevelBatch) {
    int seen[kLevelBatch];
#pragma unroll
    for (int u = 0; u < kLevelBatch; ++u) {
      const std::int64_t p = base + u * static_cast<std::int64_t>(kWarp);
      seen[u] = p < off_end ? flag_relaxed(flags, __ldg(m.colind + p)) : 1;
    }
#pragma unroll
    for (int u = 0; u < kLevelBatch; ++u) {
      const std::int64_t p = base + u * static_cast<std::int64_t>(kWarp);
      for (Backoff backoff; seen[u] == 0; seen[u] = flag_relaxed(flags, __ldg(m.colind + p))) backoff.wait();
      highest = max(highest, seen[u]);
    }
  }
#pragma unroll
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) {
    highest = max(highest, __shfl_xor_sync(kFullMask, highest, offset));
  }
  if (threadIdx.x % kWarp == 0) set_flag(flags, row, highest + 1);
}

template <bool Upper>
__device__ __forceinline__ index_t row_at(const Rows& m, index_t position) {
  return Upper ? m.n - 1 - position : position;
}

constexpr int kRowBatch = 4;  // a light row's flags a thread loads at once

// A light row's walk in batches: `left` off-diagonals from `pos` in dependency order. Loads the
// next kRowBatch flags together and takes the ready ones up to the first that is not; returns how
// many it took.
template <bool Upper>
__device__ __forceinline__ index_t take_batch(const Rows& m, int* flags, index_t& pos, index_t& left, int& highest) {
  constexpr index_t step = Upper ? -1 : 1;
  int seen[kRowBatch];
#pragma unroll
  for (int u = 0; u < kRowBatch; ++u) seen[u] = u < left ? __ldg(m.colind + pos + u * step) : -1;
#pragma unroll
  for (int u = 0; u < kRowBatch; ++u) seen[u] = seen[u] >= 0 ? flag_relaxed(flags, seen[u]) : 0;
  index_t taken = 0;
#pragma unroll
  for (int u = 0; u < kRowBatch; ++u) {
    if (taken != u || seen[u] == 0) continue;
    highest = max(highest, seen[u]);
    ++taken;
  }
  left -= taken;
  if (left > 0) pos += taken * step;  // only while entries remain: pos stays a valid position
  return taken;
}

struct LightRow {
  index_t pos = 0, left = 0;
  int highest = 0;
};

template <bool Upper>
__device__ __forceinline__ LightRow light_row(const Rows& m, index_t row) {
  const index_t first = __ldg(m.rowptr + row), last = __ldg(m.rowptr + row + 1);
  return {Upper ? last - 1 : first, last - first - 1, 0};
}

// A segment of `count` light rows at positions [begin, begin + count), a lane each, in warp rounds
// (every lane must call it): each round every unfinished row takes a batch of flags; then the rows
// wait on each other through registers, a finished lane's level going by shuffle to every lane whose
// next dependency it is, until none moves. A stencil's chain along its first axis (row i - 1) then
// costs a round per segment instead of a round per row. The warp backs off when no row moved.
template <bool Upper>
__device__ void light_rows_in_rounds(const Rows& m, index_t begin, index_t count, int* flags) {
  constexpr index_t step = Upper ? -1 : 1;
  const auto lane = static_cast<index_t>(threadIdx.x % kWarp);
  const index_t row = lane < count ? row_at<Upper>(m, begin + lane) : -1;
  LightRow r = row >= 0 ? light_row<Upper>(m, row) : LightRow{};
  bool pending = row >= 0;
  for (Backoff backoff; __any_sync(kFullMask, pending);) {
    bool moved = pending && take_batch<Upper>(m, flags, r.pos, r.left, r.highest) > 0;
    for (;;) {
      if (pending && r.left == 0) {
        set_flag(flags, row, r.highest + 1);
        pending = false;
        moved = true;
      }
      index_t from = lane;  // the lane whose row this lane's next dependency is (itself: none)
      if (pending) {
        const index_t position = row_at<Upper>(m, __ldg(m.colind + r.pos));  // row_at is its own inverse
        if (position >= begin && position < begin + count) from = position - begin;
      }
      // A lane past `count` is never asked (its flag would read 1).
      const int seen = __shfl_sync(kFullMask, pending ? 0 : r.highest + 1, from);
      const bool take = from != lane && seen > 0;
      if (take) {
        r.highest = max(r.highest, seen);
        if (--r.left > 0) r.pos += step;
      }
      if (!__any_sync(kFullMask, take)) break;
      moved = true;
    }
    if (__any_sync(kFullMask, moved)) {
      backoff.reset();
    } else {
      backoff.wait();
    }
  }
}

// The solve's claim protocol over the natural-order fusion segments (deadlock freedom: see
// sptrsv_device_rows.cuh; a round that finds a dependency unset only delays the row). A split row
// is done whole by the warp of its last part (the others are empty).
template <bool Upper>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    level_kernel(Rows m, const index_t* __restrict__ segments, index_t num_segments, int* flags, unsigned* next_item) {
  const unsigned segment = claim_item(next_item);
  if (segment >= static_cast<unsigned>(num_segments)) return;
  const index_t begin = __ldg(segments + segment), end = __ldg(segments + segment + 1);
  const index_t code = __ldg(segments + num_segments + 1 + segment);
  if (code != 0 || end - begin == 1) {
    if (end > begin) warp_row_level<Upper>(m, row_at<Upper>(m, begin), flags);
    return;
  }
  light_rows_in_rounds<Upper>(m, begin, end - begin, flags);
}

}  // namespace

void level_pass_cuda(cudaStream_t stream, const TriangularDeviceView& t, unsigned* counter, int* flags) {
  const Rows m{t.n, t.rowptr, t.colind, t.values, nullptr, false};
  const unsigned blocks = blocks_for_warps(t.num_segments);
  if (t.upper) {
    level_kernel<true><<<blocks, kBlockThreads, 0, stream>>>(m, t.segments, t.num_segments, flags, counter);
  } else {
    level_kernel<false><<<blocks, kBlockThreads, 0, stream>>>(m, t.segments, t.num_segments, flags, counter);
  }
  check_cuda(cudaGetLastError(), "level_kernel launch in DeviceAnalysis");
}

}  // namespace hetsparse::kernels::device_analysis
