// AG-SpTRSV code-variant template (section 4.2): a persistent warp walks its own list of node
// groups (deadlock freedom: sptrsv/ag/ag_plan_check.cpp); subwarp s of Lanes lanes solves node s of
// the group, either row after row with all its lanes (collaborative: long rows, coalesced) or a
// row per lane in "writing first" order (short rows). Optional collaborative read of the whole
// group's entries into the warp's shared buffer first; early division by the precomputed
// reciprocal of the diagonal; and, in a single-level kernel, no flag waits at all (Wait = false).
// Every sum runs in a fixed order, so results do not depend on timing.
#include "kernels/sptrsv/sptrsv_ag_kernel.cuh"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"

namespace hetsparse::kernels::ag_device {
namespace {

using sptrsv_device::Backoff;
using sptrsv_device::is_ready;
using sptrsv_device::kFullMask;
using sptrsv_device::kWarp;

// A subwarp's entries: the global arrays (shift 0) or the warp's shared copy, where global entry k
// sits at k - shift.
struct Entries {
  const index_t* cols;
  const double* vals;
  std::int64_t shift;
  __device__ __forceinline__ index_t col(std::int64_t k) const { return cols[k - shift]; }
  __device__ __forceinline__ double val(std::int64_t k) const { return vals[k - shift]; }
};

__device__ __forceinline__ void finish(double* x, int* ready, index_t row, double value, bool publish) {
  if (publish) {
    sptrsv_device::publish(x, ready, row, value);
  } else {
    x[row] = value;
  }
}

struct RowSpan {
  index_t row, first, last;  // row, and its entries [first, last) in the storage
};

__device__ __forceinline__ RowSpan row_span(const AgDevicePlan& p, index_t position) {
  const index_t row = p.position_rows[position];
  const index_t stored = p.by_position ? position : row;
  return {row, p.rowptr[stored], p.rowptr[stored + 1]};
}

// Collaborative: all Lanes lanes of the subwarp (mask) on one row, each spinning on its own
// dependencies, then a fixed shuffle tree inside the subwarp.
template <bool Upper, int Lanes, bool Wait>
__device__ __forceinline__ void row_by_subwarp(const AgDevicePlan& p, const Entries& e, index_t position,
                                               unsigned sublane, unsigned mask, const double* b, double* x,
                                               int* ready, bool publish) {
  const RowSpan r = row_span(p, position);
  const double inv_diagonal = p.inv_diag[r.row];  // early division: ready before any waiting
  const index_t off_begin = Upper ? r.first + 1 : r.first, off_end = Upper ? r.last : r.last - 1;
  double sum = 0.0;
  // Far dependencies (solved long ago) first: ascending for lower, descending for upper.
  for (std::int64_t k = off_begin + static_cast<std::int64_t>(sublane); k < off_end; k += Lanes) {
    const std::int64_t q = Upper ? off_end - 1 - (k - off_begin) : k;
    const index_t col = e.col(q);
    const double value = e.val(q);
    if constexpr (Wait) {
      for (Backoff backoff; !is_ready(ready, col);) backoff.wait();
    }
    sum += value * x[col];
  }
#pragma unroll
  for (int offset = Lanes / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(mask, sum, offset);
  if (sublane == 0) finish(x, ready, r.row, (b[r.row] - sum) * inv_diagonal, publish);
  __syncwarp(mask);  // the next row of the node may read this one (its flag orders it when waiting)
}

// A row by one lane. With waits, "writing first" (YuenyeungSpTRSV Algorithm 5): accumulate while
// the next dependency is ready, otherwise back off without blocking the other lanes, which may be
// solving that very dependency; the walk ends on the diagonal, stored last in walk order.
template <bool Upper, bool Wait>
__device__ __forceinline__ void row_by_lane(const AgDevicePlan& p, const Entries& e, index_t position,
                                            const double* b, double* x, int* ready, bool publish) {
  const RowSpan r = row_span(p, position);
  const double inv_diagonal = p.inv_diag[r.row];
  constexpr index_t step = Upper ? -1 : 1;
  std::int64_t q = Upper ? r.last - 1 : r.first;
  const std::int64_t diagonal = Upper ? r.first : r.last - 1;
  double sum = 0.0;
  if constexpr (!Wait) {
    for (; q != diagonal; q += step) sum += e.val(q) * x[e.col(q)];
  } else {
    Backoff backoff;
    for (;;) {
      const std::int64_t start = q;
      while (q != diagonal && is_ready(ready, e.col(q))) {
        sum += e.val(q) * x[e.col(q)];
        q += step;
      }
      if (q == diagonal) break;
      if (q != start) backoff.reset();
      backoff.wait();
    }
  }
  finish(x, ready, r.row, (b[r.row] - sum) * inv_diagonal, publish);
}

// Entries of node `node` in the storage: contiguous (the solver enables the shared read only then),
// ascending or descending with position.
__device__ __forceinline__ void node_entries(const AgDevicePlan& p, index_t node, index_t& lo, index_t& hi) {
  const RowSpan a = row_span(p, p.node_ptr[node]), z = row_span(p, p.node_ptr[node + 1] - 1);
  lo = min(a.first, z.first);
  hi = max(a.last, z.last);
}

template <bool Upper, int Lanes, bool Wait>
__device__ void solve_group(const AgDevicePlan& p, index_t group, double* buffer_vals, index_t* buffer_cols,
                            const double* b, double* x, int* ready, bool publish) {
  const unsigned lane = threadIdx.x % kWarp, sub = lane / Lanes, sublane = lane % Lanes;
  const unsigned mask = Lanes == kWarp ? kFullMask : ((1u << (Lanes % kWarp)) - 1u) << (sub * Lanes);
  const index_t first_node = p.group_ptr[group], count = p.group_ptr[group + 1] - first_node;
  Entries e{p.colind, p.values, 0};
  bool shared = false;
  if (p.shared_capacity > 0) {  // warp-uniform: every lane computes the same totals
    std::int64_t total = 0;
    for (index_t j = 0; j < count; ++j) {
      index_t lo = 0, hi = 0;
      node_entries(p, p.group_nodes[first_node + j], lo, hi);
      total += hi - lo;
    }
    if (total <= p.shared_capacity) {
      shared = true;
      std::int64_t base = 0;
      for (index_t j = 0; j < count; ++j) {  // the whole warp reads each node in turn: coalesced
        index_t lo = 0, hi = 0;
        node_entries(p, p.group_nodes[first_node + j], lo, hi);
        for (std::int64_t k = lo + static_cast<std::int64_t>(lane); k < hi; k += kWarp) {
          buffer_cols[base + k - lo] = p.colind[k];
          buffer_vals[base + k - lo] = p.values[k];
        }
        if (static_cast<index_t>(sub) == j) e = Entries{buffer_cols, buffer_vals, lo - base};
        base += hi - lo;
      }
      __syncwarp();
    }
  }
  if (static_cast<index_t>(sub) < count) {
    const index_t node = p.group_nodes[first_node + sub];
    const index_t begin = p.node_ptr[node], end = p.node_ptr[node + 1];
    if (p.node_collaborative[node]) {
      for (index_t position = begin; position < end; ++position) {
        row_by_subwarp<Upper, Lanes, Wait>(p, e, position, sublane, mask, b, x, ready, publish);
      }
    } else {
      for (index_t position = begin + static_cast<index_t>(sublane); position < end; position += Lanes) {
        row_by_lane<Upper, Wait>(p, e, position, b, x, ready, publish);
      }
    }
  }
  if (shared) __syncwarp();  // the buffer is refilled for the next group
}

template <bool Upper, int Lanes, bool Wait>
__global__ void __launch_bounds__(kMaxBlockThreads)
    ag_kernel(AgDevicePlan p, AgRange range, const double* b, double* x, int* ready) {
  extern __shared__ double ag_shared[];
  const auto warp_in_block = static_cast<index_t>(threadIdx.x / kWarp);
  const index_t warp = static_cast<index_t>(blockIdx.x) * p.warps_per_block + warp_in_block;
  double* buffer_vals = ag_shared + static_cast<std::int64_t>(warp_in_block) * p.shared_capacity;
  index_t* buffer_cols = reinterpret_cast<index_t*>(ag_shared + static_cast<std::int64_t>(p.warps_per_block) *
                                                                    p.shared_capacity) +
                         static_cast<std::int64_t>(warp_in_block) * p.shared_capacity;
  // This kernel's part of the warp's (increasing) list: the first group >= group_begin.
  index_t lo = p.warp_ptr[warp], hi = p.warp_ptr[warp + 1];
  const index_t list_end = hi;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (p.warp_groups[mid] < range.group_begin) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (index_t k = lo; k < list_end; ++k) {
    const index_t group = p.warp_groups[k];
    if (group >= range.group_end) break;
    solve_group<Upper, Lanes, Wait>(p, group, buffer_vals, buffer_cols, b, x, ready, range.publish);
  }
}

template <bool Upper, bool Wait>
AgKernelFn by_lanes(int lanes) {
  switch (lanes) {
    case 1: return ag_kernel<Upper, 1, Wait>;
    case 2: return ag_kernel<Upper, 2, Wait>;
    case 4: return ag_kernel<Upper, 4, Wait>;
    case 8: return ag_kernel<Upper, 8, Wait>;
    case 16: return ag_kernel<Upper, 16, Wait>;
    case 32: return ag_kernel<Upper, 32, Wait>;
    default: throw InvalidArgument("ag_kernel_for: lanes per subwarp must be 1, 2, 4, 8, 16 or 32, not " +
                                   std::to_string(lanes));
  }
}

}  // namespace

AgKernelFn ag_kernel_for(bool upper, int lanes, bool wait) {
  if (upper) return wait ? by_lanes<true, true>(lanes) : by_lanes<true, false>(lanes);
  return wait ? by_lanes<false, true>(lanes) : by_lanes<false, false>(lanes);
}

}  // namespace hetsparse::kernels::ag_device
