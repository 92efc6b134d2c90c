// Device building blocks of the sync-free SpTRSV kernels: the ready-flag protocol, the work
// claim that makes them deadlock-free, and the two ways to solve rows (a warp per row, a thread per
// row). Included by the sptrsv_*_cuda.cu variants only.
//
// Deadlock freedom lives in claim_item(): warps do not take their work from blockIdx (the hardware
// may start block k before block j < k and fill the GPU with waiting warps) but from an atomic
// counter, so work items are claimed in solve order. Every row a claimed item waits on sits at an
// earlier position of that order (natural order: columns below the row for lower, above it for
// upper, which the analysis guarantees; level order: rows of lower levels), so it belongs to an
// item claimed earlier, by a warp that is already resident and so keeps running. By induction
// the earliest unfinished item always has its inputs, and every warp finishes.
#pragma once
#include <cuda/atomic>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/sptrsv/sptrsv.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels::sptrsv_device {

constexpr unsigned kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kBlockThreads = 128;
// A full SM of resident warps (2048 threads, so at most 32 registers a thread): a sync-free kernel
// progresses through warps that wait, and fewer resident warps (48 at 40 registers) cost 10-50% on
// wide-level matrices.
constexpr int kMinBlocksPerSm = 2048 / kBlockThreads;

// The parts of TriangularDeviceView a sync-free kernel reads, for one solve order, by value.
struct Rows {
  index_t n;
  const index_t* __restrict__ rowptr;  // entries of the row stored at index s: [rowptr[s], rowptr[s+1])
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  const index_t* __restrict__ order;  // level order: order[position] = row (null in natural order)
  bool by_position;                   // storage indexed by position (the level-ordered copy)
};

// Rows for `order`; InvalidArgument when level order is asked of a view without a level schedule.
inline Rows rows_for(const TriangularDeviceView& t, SolveOrder order, const char* who) {
  if (order == SolveOrder::Natural) return {t.n, t.rowptr, t.colind, t.values, nullptr, false};
  if (t.level_rows == nullptr) throw InvalidArgument(std::string(who) + ": level order needs the level schedule");
  const bool copy = t.level_rowptr != nullptr;
  return {t.n, copy ? t.level_rowptr : t.rowptr, copy ? t.level_colind : t.colind, copy ? t.level_values : t.values,
          t.level_rows, copy};
}

// The row at a solve position and the index its entries are stored under.
struct Slot {
  index_t row, stored;
};

template <bool Upper, bool LevelOrder>
__device__ __forceinline__ Slot slot_at(const Rows& m, index_t position) {
  if constexpr (LevelOrder) {
    const index_t row = __ldg(m.order + position);
    return {row, m.by_position ? position : row};
  } else {
    const index_t row = Upper ? m.n - 1 - position : position;
    return {row, row};
  }
}

// Acquire load: once it sees the flag set, x[row] (written before the release) is visible. This is
// the paper's volatile flag read plus __threadfence, in the CUDA memory model's terms.
// Flags count down from 0 while a split row's parts arrive (SegmentPart), so "final" is > 0.
__device__ __forceinline__ bool is_ready(int* ready, index_t row) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>(ready[row]).load(cuda::memory_order_acquire) > 0;
}

// x[row] = value, then the release store of its flag (the paper's __threadfence; flag = true).
__device__ __forceinline__ void publish(double* x, int* ready, index_t row, double value) {
  x[row] = value;
  cuda::atomic_ref<int, cuda::thread_scope_device>(ready[row]).store(1, cuda::memory_order_release);
}

// Exponential backoff after a failed readiness check: without it, the hundreds of thousands of
// threads waiting at once would flood L2 with flag loads and slow the rows they wait for. The cap
// bounds the extra latency a row can add when its flag turns.
class Backoff {
 public:
  __device__ __forceinline__ void wait() {
    nanoseconds_ = nanoseconds_ == 0 ? kFirst : min(2 * nanoseconds_, kCap);
    __nanosleep(nanoseconds_);
  }
  __device__ __forceinline__ void reset() { nanoseconds_ = 0; }

 private:
  static constexpr unsigned kFirst = 16, kCap = 256;
  unsigned nanoseconds_ = 0;
};

// One counter increment per warp, broadcast to all lanes; every lane must call it.
__device__ __forceinline__ unsigned claim_item(unsigned* next_item) {
  unsigned item = 0;
  if (threadIdx.x % kWarp == 0) item = atomicAdd(next_item, 1u);
  return __shfl_sync(kFullMask, item, 0);
}

// Relaxed flag load: a lane checks a batch of flags with all loads in flight at once, then one
// acquire fence (below) makes every x it found ready visible. The GPU analysis's level pass reads
// its flags (level + 1, the flag is the data) with it alone.
__device__ __forceinline__ int flag_relaxed(int* ready, index_t row) {
  return cuda::atomic_ref<int, cuda::thread_scope_device>(ready[row]).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ bool is_ready_relaxed(int* ready, index_t row) { return flag_relaxed(ready, row) > 0; }

// Entries a lane of a long warp-level row handles per round: their column, flag and x loads are
// issued together. One acquire load per entry serialised them (an acquire orders every later load
// after it): a 47k-entry hub row of rmat22_ef4 took ~1500 dependent round trips per lane. Four keep
// the kernels within 32 registers (kMinBlocksPerSm). The batch's fence costs more than it saves on
// rows of a few entries per lane (rmat18_ef8 15% slower when every row over 32 entries was batched):
// only rows longer than kBatchedRowMin take it.
constexpr int kWarpRowBatch = 4;
constexpr std::int64_t kBatchedRowMin = 1024;

// Off-diagonal entries [off_begin, off_end) of a row, walked from the far end for upper rows (their
// late-solved dependencies sit near the diagonal). k-th entry in walk order:
struct OffDiagonal {
  index_t off_begin, off_end;
  template <bool Upper>
  __device__ __forceinline__ index_t at(std::int64_t k) const {
    return static_cast<index_t>(Upper ? off_end - 1 - k : off_begin + k);
  }
  __device__ __forceinline__ std::int64_t count() const { return static_cast<std::int64_t>(off_end) - off_begin; }
};

// A lane's partial sum over entries lane, lane + 32, ... (in that order, whatever the timing).
// batched: check flags kWarpRowBatch at a time (long rows and their parts).
template <bool Upper>
__device__ __forceinline__ double warp_row_partial(const Rows& m, OffDiagonal e, const double* x, int* ready,
                                                   bool batched) {
  const auto lane = static_cast<std::int64_t>(threadIdx.x % kWarp);
  const std::int64_t count = e.count();  // 64-bit: k + 32 * batch may pass 2^31 - 1
  double sum = 0.0;
  if (!batched) {  // a few entries per lane: one acquire load each is cheaper
    for (std::int64_t k = lane; k < count; k += kWarp) {
      const index_t p = e.at<Upper>(k);
      const index_t col = __ldg(m.colind + p);
      const double value = __ldg(m.values + p);
      for (Backoff backoff; !is_ready(ready, col);) backoff.wait();
      sum += value * x[col];
    }
    return sum;
  }
  for (std::int64_t base = lane; base < count; base += static_cast<std::int64_t>(kWarp) * kWarpRowBatch) {
    index_t cols[kWarpRowBatch];
    double values[kWarpRowBatch];
#pragma unroll
    for (int u = 0; u < kWarpRowBatch; ++u) {  // lane-strided positions: coalesced across the warp
      const std::int64_t k = base + static_cast<std::int64_t>(u) * kWarp;
      cols[u] = k < count ? __ldg(m.colind + e.at<Upper>(k)) : -1;
      values[u] = k < count ? __ldg(m.values + e.at<Upper>(k)) : 0.0;
    }
    bool seen[kWarpRowBatch];
#pragma unroll
    for (int u = 0; u < kWarpRowBatch; ++u) seen[u] = cols[u] < 0 || is_ready_relaxed(ready, cols[u]);
#pragma unroll
    for (int u = 0; u < kWarpRowBatch; ++u) {
      if (seen[u]) continue;
      for (Backoff backoff; !is_ready_relaxed(ready, cols[u]);) backoff.wait();
    }
    // Pairs with the release in publish(): every x[cols[u]] below is the published value.
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
#pragma unroll
    for (int u = 0; u < kWarpRowBatch; ++u) {
      if (cols[u] >= 0) sum += values[u] * x[cols[u]];
    }
  }
  return sum;
}

// The row at `slot` by the whole warp (all 32 lanes must call it): lanes stride over the
// off-diagonals, each spinning on its own dependencies, then a fixed shuffle tree sums the partials,
// so the result does not depend on timing. b is read with plain loads: it may be x itself.
//
// With `code` != 0 the warp solves part q of k of a split row (SegmentPart): its share of the
// off-diagonals (k near-equal runs in storage order) goes to its partial slot, then it arrives on
// the row's flag (0, -1, ..., -(k-1)). The release of each arrival and the acquire of the last form
// one release sequence, so the last part sees every slot; it sums them in part order
// (deterministic) and publishes x. b is read by that last part only, before x is written.
template <bool Upper>
__device__ __forceinline__ void solve_row_warp(const Rows& m, Slot slot, index_t code, const double* b, double* x,
                                               int* ready, double* partials) {
  const SegmentPart part = code != 0 ? SegmentPart::decode(code) : SegmentPart{0, 0, 1};
  const index_t first = __ldg(m.rowptr + slot.stored), last = __ldg(m.rowptr + slot.stored + 1);
  const double diagonal = __ldg(m.values + (Upper ? first : last - 1));  // fetched before any waiting
  const index_t off_begin = Upper ? first + 1 : first, off_end = Upper ? last : last - 1;
  const index_t share = (off_end - off_begin + part.k - 1) / part.k;
  const index_t begin = min(off_end, off_begin + part.q * share), end = min(off_end, begin + share);
  const bool batched = off_end - off_begin > kBatchedRowMin;  // the whole row's length decides
  double sum = warp_row_partial<Upper>(m, OffDiagonal{begin, end}, x, ready, batched);
#pragma unroll
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(kFullMask, sum, offset);
  if (threadIdx.x % kWarp != 0) return;
  if (part.k == 1) {
    publish(x, ready, slot.row, (b[slot.row] - sum) / diagonal);
    return;
  }
  partials[part.slot + part.q] = sum;
  const int before =
      cuda::atomic_ref<int, cuda::thread_scope_device>(ready[slot.row]).fetch_sub(1, cuda::memory_order_acq_rel);
  if (before != 1 - part.k) return;  // not the last part to arrive
  double value = b[slot.row];
  for (int q = 0; q < part.k; ++q) value -= partials[part.slot + q];
  publish(x, ready, slot.row, value / diagonal);
}

// The row at `slot` by one thread, "writing first" (YuenyeungSpTRSV Algorithm 5): walk the row in
// dependency order, accumulating while the next column is ready; when it is not, it is either the
// diagonal (the row's own flag is never set before this thread sets it, so the walk always stops
// there) and the row is done, or a dependency still being solved, and the thread checks again
// without blocking its warp: other lanes, possibly solving that very dependency, keep going.
// The walk ends on the diagonal because the analysis put it last in walk order. The sum runs in
// walk order whatever the timing, so the result is deterministic.
template <bool Upper>
__device__ __forceinline__ void solve_row_thread(const Rows& m, Slot slot, const double* b, double* x, int* ready) {
  const index_t row = slot.row;
  const index_t first = __ldg(m.rowptr + slot.stored), last = __ldg(m.rowptr + slot.stored + 1);
  constexpr index_t step = Upper ? -1 : 1;
  index_t p = Upper ? last - 1 : first;
  double sum = 0.0;
  Backoff backoff;
  for (;;) {
    const index_t start = p;
    index_t col = __ldg(m.colind + p);
    while (is_ready(ready, col)) {
      sum += __ldg(m.values + p) * x[col];
      p += step;
      col = __ldg(m.colind + p);
    }
    if (col == row) {
      publish(x, ready, row, (b[row] - sum) / __ldg(m.values + p));
      return;
    }
    if (p != start) backoff.reset();
    backoff.wait();
  }
}

// Host side of every sync-free launch: a workspace that covers the matrix, reset on the solve's own
// stream (the flags of the previous solve would otherwise read as "ready").
inline void prepare_workspace(cudaStream_t stream, const TriangularDeviceView& t, const SolveWorkspace& ws,
                              const char* who) {
  if (ws.ready == nullptr || ws.next_item == nullptr || ws.partials == nullptr || ws.n < t.n) {
    throw InvalidArgument(std::string(who) + ": the workspace covers " + std::to_string(ws.n) +
                          " rows, the matrix has " + std::to_string(t.n));
  }
  reset_solve_workspace(stream, ws);
}

// Calls launch(upper, level_order) with std::integral_constant arguments for the runtime pair, so
// a generic lambda can launch the matching <Upper, LevelOrder> kernel instantiation.
template <typename Launch>
void with_orientation(bool upper, SolveOrder order, Launch&& launch) {
  using Yes = std::true_type;
  using No = std::false_type;
  const bool level = order == SolveOrder::Level;
  if (upper) {
    level ? launch(Yes{}, Yes{}) : launch(Yes{}, No{});
  } else {
    level ? launch(No{}, Yes{}) : launch(No{}, No{});
  }
}

// Blocks to give every one of `items` work items its own warp.
inline unsigned blocks_for_warps(index_t items) {
  constexpr std::int64_t warps_per_block = kBlockThreads / kWarp;
  return static_cast<unsigned>((static_cast<std::int64_t>(items) + warps_per_block - 1) / warps_per_block);
}

}  // namespace hetsparse::kernels::sptrsv_device
