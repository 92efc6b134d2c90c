// Tiled CSR SpMV (spmv_tiled.hpp), one block per tile.
//
// Phase 1: the block's threads read the tile's entries at consecutive positions (coalesced loads of
// colind and values, PerThread independent gathers of x in flight per thread). A tile of one row (a
// long row's piece, or a row of hundreds of entries) is summed in registers and across the block.
// Phase 2 (several rows): the products go to shared memory. Tiles of even rows reduce each row by a
// group of 1..32 lanes sized by the tile's row count (a tile of 500 short rows and one of 8 long rows
// both keep every lane busy). Tiles of uneven rows, where one row would hold its group up, are summed
// as a segmented sum instead: each thread takes an equal chunk of entries, writes the rows that start
// and end in it, and the thread where a row starts adds the other chunks' pieces of it in order.
// Pieces of a long row leave their sums in the workspace; the last piece to arrive (an atomic
// counter per long row) adds them in piece order. Results are deterministic.
#include <cstdint>

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

// The block's sum of v, valid in thread 0. Every thread must call it.
template <unsigned Threads>
__device__ double block_sum(double v, double* warp_sums) {
#pragma unroll
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_down_sync(kFullMask, v, offset);
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = 0.0;
  if (warp == 0) {
    v = lane < Threads / kWarp ? warp_sums[lane] : 0.0;
#pragma unroll
    for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_down_sync(kFullMask, v, offset);
  }
  return v;
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

// First index i in [0, n) with v[i] > key (upper) or v[i] >= key (lower), n when none; v ascending.
template <bool Upper>
__device__ __forceinline__ std::uint32_t bound(const std::uint32_t* v, std::uint32_t n, std::uint32_t key) {
  std::uint32_t lo = 0;
  while (n > 0) {
    const std::uint32_t half = n / 2;
    if (Upper ? v[lo + half] <= key : v[lo + half] < key) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return lo;
}
__device__ __forceinline__ std::uint32_t upper_bound(const std::uint32_t* v, std::uint32_t n, std::uint32_t key) {
  return bound<true>(v, n, key);
}
__device__ __forceinline__ std::uint32_t lower_bound(const std::uint32_t* v, std::uint32_t n, std::uint32_t key) {
  return bound<false>(v, n, key);
}

// The segmented sum of a tile's products (entries [0, n) of the tile, n > 0, rows r0 .. r0 + nrows):
// thread t takes entries [t P, t P + P). A row belongs to the thread whose chunk holds its first
// entry (empty rows: their position; at the tile's end: the thread with the last entry). Every thread
// first sums its head, the part of a row begun in an earlier chunk; after a barrier the owner of a row
// that runs past its chunk adds the following threads' heads.
template <unsigned Threads, unsigned PerThread>
__device__ void segmented_rows(const TiledArgs& a, const double* products, std::uint32_t r0, std::uint32_t nrows,
                               std::uint32_t n, std::uint32_t base) {
  __shared__ std::uint32_t offsets[kTileMaxRows + 1];  // the tile's row offsets, from its first entry
  __shared__ double heads[Threads];
  for (std::uint32_t i = threadIdx.x; i <= nrows; i += Threads) offsets[i] = __ldg(a.rowptr + r0 + i) - base;
  __syncthreads();
  const std::uint32_t c0 = threadIdx.x * PerThread, c1 = min(c0 + PerThread, n);
  double head = 0.0;
  std::uint32_t r = nrows;  // the first row this thread owns
  if (c0 < n) {
    const std::uint32_t holder = upper_bound(offsets, nrows + 1, c0) - 1;  // the row holding entry c0
    if (offsets[holder] < c0) {
      const std::uint32_t stop = min(offsets[holder + 1], c1);
      for (std::uint32_t j = c0; j < stop; ++j) head += products[slot(j)];
      r = holder + 1;
    } else {
      r = lower_bound(offsets, nrows + 1, c0);  // empty rows at c0 first, then the row holding c0
    }
  }
  heads[threadIdx.x] = head;
  const bool last = c0 < n && c1 == n;
  std::uint32_t open = nrows;  // a row of this thread that runs past its chunk
  double open_sum = 0.0;
  for (; r < nrows && (offsets[r] < c1 || (last && offsets[r] == n)); ++r) {
    const std::uint32_t end = offsets[r + 1];
    double sum = 0.0;
    for (std::uint32_t j = offsets[r]; j < min(end, c1); ++j) sum += products[slot(j)];
    if (end > c1) {
      open = r;
      open_sum = sum;
      break;
    }
    write_y(a, r0 + r, sum);
  }
  __syncthreads();  // every head is in
  if (open == nrows) return;
  const std::uint32_t end = offsets[open + 1];
  for (std::uint32_t u = threadIdx.x + 1; u * PerThread < end; ++u) open_sum += heads[u];
  write_y(a, r0 + open, open_sum);
}

template <unsigned Threads, unsigned PerThread>
__global__ void __launch_bounds__(Threads) tiled_kernel(TiledArgs a) {
  static_assert(Threads % kWarp == 0 && Threads / kWarp <= kWarp, "block of whole warps, at most 32");
  __shared__ double products[kSlots<Threads * PerThread>];
  __shared__ double warp_sums[Threads / kWarp];
  const unsigned tile = blockIdx.x;
  const std::uint32_t e0 = a.plan.tile_entry[tile], e1 = a.plan.tile_entry[tile + 1];
  const std::uint32_t r0 = a.plan.tile_row[tile];
  const std::uint32_t l = a.plan.tile_long[tile];
  const bool one_row = l < kBalancedTile || a.plan.tile_row[tile + 1] == r0 + 1;

  // Phase 1: every colind/values load first, then every gather.
  std::uint32_t col[PerThread];
  double product[PerThread];
#pragma unroll
  for (unsigned k = 0; k < PerThread; ++k) {
    const std::uint32_t i = e0 + k * Threads + threadIdx.x;
    col[k] = 0;
    product[k] = 0.0;
    if (i < e1) {
      col[k] = __ldcs(a.colind + i);  // streamed: evict first, so x's lines stay in L2
      product[k] = __ldcs(a.values + i);
    }
  }
#pragma unroll
  for (unsigned k = 0; k < PerThread; ++k) {
    if (e0 + k * Threads + threadIdx.x < e1) product[k] *= __ldg(a.x + col[k]);
  }

  if (one_row) {  // uniform over the block
    double sum = 0.0;
#pragma unroll
    for (unsigned k = 0; k < PerThread; ++k) sum += product[k];
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
#pragma unroll
  for (unsigned k = 0; k < PerThread; ++k) {
    const std::uint32_t i = k * Threads + threadIdx.x;
    if (e0 + i < e1) products[slot(i)] = product[k];
  }
  __syncthreads();
  const std::uint32_t nrows = a.plan.tile_row[tile + 1] - r0;
  if (l == kBalancedTile) {
    segmented_rows<Threads, PerThread>(a, products, r0, nrows, e1 - e0, a.first_entry + e0);
    return;
  }
  const unsigned fit = Threads / nrows;  // lanes per row if all rows went at once
  const unsigned width = fit >= kWarp ? kWarp : (fit == 0 ? 1u : 1u << (31 - __clz(fit)));
  const unsigned groups = Threads / width, group = threadIdx.x / width, lane = threadIdx.x % width;
  const std::uint32_t base = a.first_entry + e0;
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

template <unsigned Threads, unsigned PerThread>
void launch(cudaStream_t stream, const TiledArgs& a) {
  tiled_kernel<Threads, PerThread><<<a.plan.tiles, Threads, 0, stream>>>(a);
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
