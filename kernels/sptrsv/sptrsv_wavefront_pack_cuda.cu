// wavefront::pack (see sptrsv_wavefront_pack.cuh): the rows by position into slots, the rest of a row
// into the overflow CSR, and the chunk table when some rows are warp rows.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"
#include "kernels/sptrsv/sptrsv_position_row.cuh"
#include "kernels/sptrsv/sptrsv_wavefront_pack.cuh"

namespace hetsparse::kernels::wavefront {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__global__ void position_of_kernel(index_t n, const index_t* __restrict__ level_rows, index_t* position_of) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p < n) position_of[level_rows[p]] = static_cast<index_t>(p);
}

struct PackInput {
  index_t n;
  bool upper;
  const index_t* __restrict__ level_rows;
  const index_t* __restrict__ rowptr;  // indexed by position when by_position, else by row
  const index_t* __restrict__ colind;
  const double* __restrict__ values;
  bool by_position;
  const index_t* __restrict__ position_of;
  int width;
  index_t warp_row;
};

__device__ __forceinline__ bool is_warp_row(const PackInput& in, index_t off_diagonals) {
  return in.warp_row > 0 && off_diagonals > in.warp_row;
}

// A row's off-diagonals in its slots: none for a warp row (its warp reads them all from the overflow).
__device__ __forceinline__ index_t in_slots(const PackInput& in, index_t off_diagonals) {
  return is_warp_row(in, off_diagonals) ? 0 : min(off_diagonals, static_cast<index_t>(in.width));
}

// Counters the pack reports: rows longer than the given longest (refused), warp rows.
enum PackCount { kTooLong = 0, kWarpRows = 1, kPackCounts = 2 };

// One thread per position: its diagonal, its slots, how many entries go to the overflow CSR
// (extra_count[p], null when none can) and whether it is a warp row (warp[p], null when none can be).
__global__ void pack_kernel(PackInput in, index_t longest, double* diagonal, index_t* deps, double* values,
                            std::int64_t* extra_count, std::uint32_t* warp, unsigned* counts) {
  const std::int64_t pp = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (pp >= in.n) return;
  const auto p = static_cast<index_t>(pp);
  const auto [off_begin, off_end, diagonal_at] = position_row(p, in.upper, in.by_position, in.level_rows, in.rowptr);
  const index_t length = off_end - off_begin, slotted = in_slots(in, length);
  diagonal[p] = in.values[diagonal_at];
  if (length > longest) atomicAdd(counts + kTooLong, 1u);
  if (extra_count != nullptr) extra_count[p] = length - slotted;
  if (warp != nullptr) {
    warp[p] = is_warp_row(in, length) ? 1u : 0u;
    if (warp[p] != 0u) atomicAdd(counts + kWarpRows, 1u);
  }
  const auto n = static_cast<std::size_t>(in.n);
  for (int k = 0; k < in.width; ++k) {
    const std::size_t slot = static_cast<std::size_t>(k) * n + static_cast<std::size_t>(p);
    const index_t e = off_begin + k;
    deps[slot] = k < slotted ? in.position_of[in.colind[e]] : -1;
    values[slot] = k < slotted ? in.values[e] : 0.0;
  }
}

// The entries past the slots into the overflow CSR (positions with some only).
__global__ void pack_extra_kernel(PackInput in, const std::int64_t* extra_ptr, index_t* extra_deps, double* extra_values) {
  const std::int64_t pp = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (pp >= in.n) return;
  const auto p = static_cast<index_t>(pp);
  std::int64_t out = extra_ptr[p];
  if (out == extra_ptr[p + 1]) return;
  const PositionRow row = position_row(p, in.upper, in.by_position, in.level_rows, in.rowptr);
  for (index_t e = row.off_begin + in_slots(in, row.off_end - row.off_begin); e < row.off_end; ++e, ++out) {
    extra_deps[out] = in.position_of[in.colind[e]];
    extra_values[out] = in.values[e];
  }
}

// A chunk starts at every 32nd position, at each warp row and right after it: starts[p] = 1 there.
__global__ void chunk_start_flags(index_t n, const std::uint32_t* warp, std::uint32_t* starts) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p > n) return;
  starts[p] = p < n && (p % kChunkRows == 0 || warp[p] != 0u || (p > 0 && warp[p - 1] != 0u)) ? 1u : 0u;
}

// After the exclusive scan of the flags, index[p] is the chunk p starts (where flagged); the table
// ends with n.
__global__ void chunk_start_scatter(index_t n, const std::uint32_t* warp, const std::uint32_t* index,
                                    std::uint32_t* chunk_start) {
  const std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (p > n) return;
  if (p == n) {
    chunk_start[index[n]] = static_cast<std::uint32_t>(n);
  } else if (index[p + 1] != index[p]) {
    chunk_start[index[p]] = static_cast<std::uint32_t>(p) | (warp[p] != 0u ? kWarpRowBit : 0u);
  }
}

}  // namespace

Packed pack(cudaStream_t stream, const TriangularDeviceView& device, const PackShape& shape, DeviceAllocations& memory) {
  const index_t n_rows = device.n;
  const auto n = static_cast<std::size_t>(n_rows), w = static_cast<std::size_t>(shape.width);
  double* diagonal = memory.allocate<double>(n);
  auto* deps = memory.allocate<index_t>(w * n);
  double* values = memory.allocate<double>(w * n);
  device_analysis::Scratch<index_t> position_of(n, stream);
  device_analysis::Scratch<unsigned> counts(kPackCounts, stream);
  check_cuda(cudaMemsetAsync(counts.get(), 0, kPackCounts * sizeof(unsigned), stream), "cudaMemsetAsync in wavefront::pack");
  position_of_kernel<<<blocks_for(n_rows), kThreads, 0, stream>>>(n_rows, device.level_rows, position_of.get());

  // No overflow is possible when every row fits the slots and none is a warp row: no CSR, no scan.
  const bool warp_rows = shape.warp_row > 0 && shape.longest > shape.warp_row;
  const bool overflow = warp_rows || shape.longest > shape.width;
  std::int64_t* extra_ptr = overflow ? memory.allocate<std::int64_t>(n + 1) : nullptr;
  device_analysis::Scratch<std::uint32_t> warp(warp_rows ? n : 0, stream);
  const StoredRows stored = stored_rows(device);
  const PackInput in{n_rows,
                     device.upper,
                     device.level_rows,
                     stored.rowptr,
                     stored.colind,
                     stored.values,
                     stored.by_position,
                     position_of.get(),
                     shape.width,
                     shape.warp_row};
  pack_kernel<<<blocks_for(n_rows), kThreads, 0, stream>>>(in, shape.longest, diagonal, deps, values, extra_ptr,
                                                           warp_rows ? warp.get() : nullptr, counts.get());
  check_cuda(cudaGetLastError(), "pack_kernel launch in wavefront::pack");
  if (overflow) {
    device_analysis::run_cub("cub::DeviceScan::ExclusiveSum in wavefront::pack", stream, [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, extra_ptr, extra_ptr, n + 1, stream);
    });
  }
  const std::vector<unsigned> counted = counts.download();  // waits for the stream
  if (counted[kTooLong] > 0) {
    throw InvalidArgument("WavefrontSolver: " + std::to_string(counted[kTooLong]) + " rows have more than " +
                          std::to_string(shape.longest) + " off-diagonals, the longest the caller gave");
  }
  Packed packed{n_rows, device.level_rows, diagonal, deps, values, nullptr, nullptr, nullptr, nullptr, 0};
  const std::int64_t extra = overflow ? device_analysis::download(stream, extra_ptr + n, 1)[0] : 0;
  if (extra > 0) {
    auto* extra_deps = memory.allocate<index_t>(static_cast<std::size_t>(extra));
    auto* extra_values = memory.allocate<double>(static_cast<std::size_t>(extra));
    pack_extra_kernel<<<blocks_for(n_rows), kThreads, 0, stream>>>(in, extra_ptr, extra_deps, extra_values);
    check_cuda(cudaGetLastError(), "pack_extra_kernel launch in wavefront::pack");
    packed.extra_ptr = extra_ptr;
    packed.extra_deps = extra_deps;
    packed.extra_values = extra_values;
  }
  if (counted[kWarpRows] > 0) {
    device_analysis::Scratch<std::uint32_t> index(n + 1, stream);
    chunk_start_flags<<<blocks_for(n_rows + 1), kThreads, 0, stream>>>(n_rows, warp.get(), index.get());
    device_analysis::run_cub("cub::DeviceScan::ExclusiveSum in wavefront::pack", stream, [&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, index.get(), index.get(), n + 1, stream);
    });
    const std::uint32_t chunks = device_analysis::download(stream, index.get() + n, 1)[0];
    auto* chunk_start = memory.allocate<std::uint32_t>(std::size_t{chunks} + 1);
    chunk_start_scatter<<<blocks_for(n_rows + 1), kThreads, 0, stream>>>(n_rows, warp.get(), index.get(), chunk_start);
    check_cuda(cudaGetLastError(), "chunk_start_scatter launch in wavefront::pack");
    packed.chunk_start = chunk_start;
    packed.chunks = chunks;
  }
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in wavefront::pack");
  return packed;
}

}  // namespace hetsparse::kernels::wavefront
