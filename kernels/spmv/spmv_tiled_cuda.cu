// Tiled CSR SpMV (spmv_tiled.hpp), one block per tile.
//
// Phase 1: the block's threads read the tile's entries at consecutive positions (coalesced loads of
// colind and values, PerThread independent gathers of x in flight per thread; for plans with long rows
// the loads start on a line of colind). A tile of one row (a long row's piece, or a row of hundreds of
// entries) is summed in registers and across the block.
// Phase 2 (several rows): the products go to shared memory. Tiles of even rows reduce each row by a
// group of 1..32 lanes sized by the tile's row count (a tile of 500 short rows and one of 8 long rows
// both keep every lane busy). Tiles of uneven rows, where one row would hold its group up, are summed
// as a segmented sum instead: each thread takes an equal chunk of entries, writes the rows that start
// and end in it, and finishes the last row it starts with a suffix scan of the later chunks' heads.
// Pieces of a long row leave their sums in the workspace; the last piece to arrive (an atomic
// counter per long row) adds them in piece order. Results are deterministic.
#include <cstdint>

#include "kernels/common/block_sum.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/spmv/spmv_tiled.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;

struct TiledArgs {
  TilePlanView plan;
  const std::uint32_t* rowptr;
  const std::uint32_t* colind;
  const double* values;
  std::uint32_t first_entry;
  const double* x;
  double* y;
  double alpha, beta;
  double* partials;          // one per tile, pieces only
  unsigned* arrivals;        // one per long row, zero on entry
};

// Where product i of a tile sits in shared memory: one pad slot every 16, so that the balanced
// reduction's threads, reading 8 consecutive products each, hit different banks.
__device__ __forceinline__ std::uint32_t slot(std::uint32_t i) { return i + (i >> 4); }
template <unsigned Capacity>
inline constexpr unsigned kSlots = Capacity + Capacity / 16;

// y[row] = alpha sum + beta y[row]; beta == 0: y is never read.
__device__ __forceinline__ void write_y(const TiledArgs& a, std::uint32_t row, double sum) {
  a.y[row] = a.beta == 0.0 ? a.alpha * sum : a.alpha * sum + a.beta * a.y[row];
}

// The last piece of long row l to finish writes its row: partial sums added in piece order.
__device__ void finish_piece(const TiledArgs& a, unsigned tile, std::uint32_t l, std::uint32_t row, double sum) {
  a.partials[tile] = sum;
  __threadfence();  // the partial is visible before the arrival is counted
  const unsigned count = a.plan.long_count[l];
  if (atomicAdd(a.arrivals + l, 1u) != count - 1) return;
  __threadfence();
  const unsigned first = a.plan.long_first[l];
  double total = 0.0;
  for (unsigned p = first; p < first + count; ++p) total += __ldcg(a.partials + p);  // from L2, not a stale L1
  write_y(a, row, total);
}

// The rows of a tile of uneven rows (entries [0, n) of the tile, n > 0, rows r0 .. r0 + nrows; entry j's
// product at slot(j + lead)), summed by equal chunks of entries: thread t takes entries [t P, t P + P).
// Each row's first entry is marked with the row; a thread writes the rows that start and end in its
// chunk, and keeps its head (the entries before its first mark: a row begun in an earlier chunk) and its
// tail (the last row it starts). A tail is finished with H(t + 1), where H(u) = head_u + (no mark in
// chunk u ? H(u + 1) : 0) is a suffix scan: a map x -> a + g x per thread (g: no mark), composed by
// shuffles within a warp and across warps through shared memory. Few instructions a row, whatever the
// row lengths.
template <unsigned Threads, unsigned PerThread>
__device__ void scanned_rows(const TiledArgs& a, const double* products, std::uint32_t r0, std::uint32_t nrows,
                             std::uint32_t n, std::uint32_t base, std::uint32_t lead) {
  constexpr unsigned kWarps = Threads / kWarp;
  constexpr std::uint16_t kNoMark = 0xffff;
  static_assert(kTileMaxRows < kNoMark, "a row index must fit a mark");
  __shared__ std::uint16_t marks[Threads * PerThread];  // the row whose first entry is j, or kNoMark
  __shared__ double warp_a[kWarps];
  __shared__ bool warp_g[kWarps];
  const std::uint32_t c0 = threadIdx.x * PerThread, c1 = min(c0 + PerThread, n);
  for (std::uint32_t j = c0; j < c1; ++j) marks[j] = kNoMark;
  __syncthreads();
  for (std::uint32_t r = threadIdx.x; r < nrows; r += Threads) {
    const std::uint32_t b = __ldg(a.rowptr + r0 + r) - base, e = __ldg(a.rowptr + r0 + r + 1) - base;
    if (b < e) {
      marks[b] = static_cast<std::uint16_t>(r);
    } else {
      write_y(a, r0 + r, 0.0);  // an empty row: y = beta y
    }
  }
  __syncthreads();
  double head = 0.0, tail = 0.0;
  std::uint32_t row = kNoMark;  // the row of `tail`
  for (std::uint32_t j = c0; j < c1; ++j) {
    const std::uint16_t m = marks[j];
    if (m != kNoMark) {
      if (row != kNoMark) write_y(a, r0 + row, tail);
      row = m;
      tail = 0.0;
    }
    (row == kNoMark ? head : tail) += products[slot(j + lead)];
  }
  // This warp's suffix compositions: lane i ends with lanes [i, 31] composed.
  const unsigned lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  double ca = head;
  bool cg = row == kNoMark;
#pragma unroll
  for (unsigned offset = 1; offset < kWarp; offset *= 2) {
    const double na = __shfl_down_sync(kFullMask, ca, offset);
    const bool ng = __shfl_down_sync(kFullMask, cg, offset);
    if (lane + offset < kWarp) {
      if (cg) ca += na;
      cg = cg && ng;
    }
  }
  if (lane == 0) {
    warp_a[warp] = ca;
    warp_g[warp] = cg;
  }
  __syncthreads();
  double next_warp = 0.0;  // H at the next warp's first thread
  for (unsigned w = kWarps - 1; w > warp; --w) next_warp = warp_a[w] + (warp_g[w] ? next_warp : 0.0);
  const double h = ca + (cg ? next_warp : 0.0);  // H(t)
  const double after = __shfl_down_sync(kFullMask, h, 1);
  if (row != kNoMark) write_y(a, r0 + row, tail + (lane + 1 < kWarp ? after : next_warp));
}

// Whether load position i holds one of the tile's entries [e0, e1). Aligned loads start before e0 (at
// its line), so positions below e0 are outside too: one unsigned comparison covers both ends.
template <bool Aligned>
__device__ __forceinline__ bool in_tile(std::uint32_t i, std::uint32_t e0, std::uint32_t e1) {
  return Aligned ? i - e0 < e1 - e0 : i < e1;
}

// Phase 1 of a tile: every colind/values load first, then every gather. Product k of this thread is
// entry e0 - lead + k Threads + threadIdx.x, 0 outside [e0, e1). Aligned: lead is e0's place in its
// 32-entry line of colind, so a warp reads one 128-byte line of colind and two of values, not two and
// three, and a tile may take one load more than PerThread (Loads = PerThread + 1). Not aligned: lead is 0.
template <unsigned Threads, unsigned Loads, bool Aligned>
__device__ __forceinline__ void load_products(const TiledArgs& a, std::uint32_t e0, std::uint32_t e1,
                                              std::uint32_t lead, double (&product)[Loads]) {
  const std::uint32_t start = e0 - lead;
  std::uint32_t col[Loads];
#pragma unroll
  for (unsigned k = 0; k < Loads; ++k) {
    const std::uint32_t i = start + k * Threads + threadIdx.x;
    col[k] = 0;
    product[k] = 0.0;
    if (in_tile<Aligned>(i, e0, e1)) {
      col[k] = __ldcs(a.colind + i);  // streamed: evict first, so x's lines stay in L2
      product[k] = __ldcs(a.values + i);
    }
  }
#pragma unroll
  for (unsigned k = 0; k < Loads; ++k) {
    const std::uint32_t i = start + k * Threads + threadIdx.x;
    if (in_tile<Aligned>(i, e0, e1)) product[k] *= __ldg(a.x + col[k]);
  }
}

template <unsigned Threads, unsigned PerThread, bool Aligned>
__global__ void __launch_bounds__(Threads) tiled_kernel(TiledArgs a) {
  static_assert(Threads % kWarp == 0 && Threads / kWarp <= kWarp, "block of whole warps, at most 32");
  __shared__ double products[kSlots<Threads * PerThread + (Aligned ? kWarp : 0)>];
  __shared__ double warp_sums[Threads / kWarp];
  const unsigned tile = blockIdx.x;
  const std::uint32_t e0 = a.plan.tile_entry[tile], e1 = a.plan.tile_entry[tile + 1];
  const std::uint32_t r0 = a.plan.tile_row[tile];
  const std::uint32_t l = a.plan.tile_long[tile];
  const bool one_row = l < kBalancedTile || a.plan.tile_row[tile + 1] == r0 + 1;

  // Phase 1 (see load_products).
  constexpr unsigned kLoads = PerThread + (Aligned ? 1 : 0);
  const std::uint32_t n = e1 - e0;
  const std::uint32_t lead =
      Aligned ? static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(a.colind + e0) >> 2) % kWarp : 0;
  double product[kLoads];
  load_products<Threads, kLoads, Aligned>(a, e0, e1, lead, product);

  if (one_row) {  // uniform over the block
    double sum = 0.0;
#pragma unroll
    for (unsigned k = 0; k < kLoads; ++k) sum += product[k];
    sum = block_sum<Threads>(sum, warp_sums);
    if (threadIdx.x != 0) return;
    if (l >= kBalancedTile) {
      write_y(a, r0, sum);
    } else {
      finish_piece(a, tile, l, r0, sum);
    }
    return;
  }

  // Phase 2: products by entry in shared memory, rows reduced by groups of `width` lanes.
  // Product of entry e0 + j sits at slot(j + lead).
#pragma unroll
  for (unsigned k = 0; k < kLoads; ++k) {
    const std::uint32_t u = k * Threads + threadIdx.x;
    if (in_tile<Aligned>(e0 - lead + u, e0, e1)) products[slot(u)] = product[k];
  }
  __syncthreads();
  const std::uint32_t nrows = a.plan.tile_row[tile + 1] - r0;
  if (l == kBalancedTile) {
    scanned_rows<Threads, PerThread>(a, products, r0, nrows, n, a.first_entry + e0, lead);
    return;
  }
  const unsigned fit = Threads / nrows;  // lanes per row if all rows went at once
  const unsigned width = fit >= kWarp ? kWarp : (fit == 0 ? 1u : 1u << (31 - __clz(fit)));
  const unsigned groups = Threads / width, group = threadIdx.x / width, lane = threadIdx.x % width;
  const std::uint32_t base = a.first_entry + e0 - lead;  // j: the product's place, lead counted
  // The loop count is the same for every thread, so each lane reaches every shuffle.
  for (std::uint32_t first = 0; first < nrows; first += groups) {
    const std::uint32_t i = first + group;
    const std::uint32_t row = r0 + i;
    double sum = 0.0;
    if (i < nrows) {
      const std::uint32_t end = __ldg(a.rowptr + row + 1) - base;
      for (std::uint32_t j = __ldg(a.rowptr + row) - base + lane; j < end; j += width) sum += products[slot(j)];
    }
    for (unsigned offset = width / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(kFullMask, sum, offset, width);
    if (lane == 0 && i < nrows) write_y(a, row, sum);
  }
}

// Loads start on a line of colind for plans with long rows (power-law matrices): their gathers keep L2
// busy, and the aligned loads take a few percent of its requests off. Plans of even rows, whose loads
// come from DRAM anyway, run faster with the plain loads' fewer instructions (docs/benchmarks.md).
template <unsigned Threads, unsigned PerThread>
void launch(cudaStream_t stream, const TiledArgs& a) {
  if (a.plan.long_rows > 0) {
    tiled_kernel<Threads, PerThread, true><<<a.plan.tiles, Threads, 0, stream>>>(a);
  } else {
    tiled_kernel<Threads, PerThread, false><<<a.plan.tiles, Threads, 0, stream>>>(a);
  }
}

}  // namespace

void spmv_tiled_cuda(cudaStream_t stream, const TilePlanView& plan, const CsrView& A, const double* x, double* y,
                     double alpha, double beta, void* workspace) {
  if (A.nrows == 0) return;
  if (plan.tiles == 0 || plan.max_entries == 0 || plan.max_entries > kTileMaxEntries)
    throw InvalidArgument("spmv_tiled_cuda: the plan has no tiles or tiles larger than " +
                          std::to_string(kTileMaxEntries) + " entries");
  TiledArgs a{plan, A.rowptr, A.colind, A.values, A.first_entry, x, y, alpha, beta, nullptr, nullptr};
  if (plan.long_rows > 0) {
    if (workspace == nullptr)
      throw InvalidArgument("spmv_tiled_cuda: the plan splits " + std::to_string(plan.long_rows) +
                            " long rows and needs a workspace");
    a.partials = static_cast<double*>(workspace);
    a.arrivals = reinterpret_cast<unsigned*>(a.partials + plan.tiles);
    check_cuda(cudaMemsetAsync(a.arrivals, 0, plan.long_rows * sizeof(unsigned), stream),
               "cudaMemsetAsync of the arrival counters in spmv_tiled_cuda");
  }
  // The block size asked for, each thread loading the fewest entries (4, 8 or 16) that hold a tile.
  const TileBlock block = tile_block(plan.max_entries, plan.block_threads);
  const unsigned threads = block.threads, per = block.per_thread;
  if (plan.max_entries > 16 * threads || (threads == 512 && per == 16))
    throw InvalidArgument("spmv_tiled_cuda: tiles of " + std::to_string(plan.max_entries) + " entries in blocks of " +
                          std::to_string(threads) + " threads");
  switch (threads * 100 + per) {
    case 12804: launch<128, 4>(stream, a); break;
    case 12808: launch<128, 8>(stream, a); break;
    case 12816: launch<128, 16>(stream, a); break;
    case 25604: launch<256, 4>(stream, a); break;
    case 25608: launch<256, 8>(stream, a); break;
    case 25616: launch<256, 16>(stream, a); break;
    case 51204: launch<512, 4>(stream, a); break;
    case 51208: launch<512, 8>(stream, a); break;
    default: throw InvalidArgument("spmv_tiled_cuda: no kernel for blocks of " + std::to_string(threads) + " threads");
  }
  check_cuda(cudaGetLastError(), "tiled_kernel launch in spmv_tiled_cuda");
}

}  // namespace hetsparse::kernels
