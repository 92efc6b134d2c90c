// The GPU analysis's level schedule, from the level pass's flags (level + 1 per row): level_rows by
// a stable radix sort on the level (rows stay ascending within a level, as the host's counting
// sort leaves them), level_ptr from the sorted keys, the level-ordered row pointer by a scan, each
// level's entries, the level-ordered copy and its fusion segments.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"
#include "kernels/sptrsv/sptrsv_entry_tiles.cuh"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::int64_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

__global__ void iota_kernel(index_t n, index_t* out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<index_t>(i);
}

// Every level holds a row (a row of level l > 0 has a dependency of level l - 1), so each level's
// first position is where the sorted key changes.
__global__ void level_ptr_kernel(index_t n, const int* sorted_keys, index_t* level_ptr) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int key = sorted_keys[k];
  if (k == 0 || sorted_keys[k - 1] != key) level_ptr[key - 1] = static_cast<index_t>(k);
  if (k == n - 1) level_ptr[key] = n;
}

// level_rowptr[k + 1] = entries of the row at level position k (a scan turns them into offsets).
__global__ void level_lengths_kernel(index_t n, const index_t* rowptr, const index_t* level_rows,
                                     index_t* level_rowptr) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k == 0) level_rowptr[0] = 0;
  if (k >= n) return;
  const index_t row = level_rows[k];
  level_rowptr[k + 1] = rowptr[row + 1] - rowptr[row];
}

__global__ void level_nnz_kernel(index_t levels, const index_t* level_ptr, const index_t* level_rowptr,
                                 std::int64_t* level_nnz) {
  const std::int64_t l = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (l < levels) level_nnz[l] = level_rowptr[level_ptr[l + 1]] - level_rowptr[level_ptr[l]];
}

// A thread per entry of the level-ordered copy, in tiles (its level position k from the tile's search).
__global__ void __launch_bounds__(device_analysis::kTileThreads)
    level_copy_kernel(index_t n, std::int64_t nnz, const index_t* rowptr, const index_t* colind, const double* values,
                      const index_t* level_rows, const index_t* level_rowptr, index_t* level_colind,
                      double* level_values) {
  device_analysis::for_each_tile_entry(n, level_rowptr, nnz, [&](std::int64_t q, index_t k, index_t k_begin) {
    const std::int64_t from = rowptr[level_rows[k]] + (q - k_begin);
    level_colind[q] = colind[from];
    level_values[q] = values[from];
  });
}

int bits_for(int value) {
  int bits = 1;
  while (bits < 31 && (1 << bits) <= value) ++bits;
  return bits;
}

}  // namespace

void DeviceAnalysis::build_level_schedule(cudaStream_t stream, const DeviceAnalysisOptions& options) {
  using device_analysis::run_cub;
  using device_analysis::Scratch;
  const index_t n = view_.n;
  const int* keys = row_level_plus_one_;
  Scratch<int> highest(1, stream);
  run_cub("cub::DeviceReduce::Max in DeviceAnalysis", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Max(temp, bytes, keys, highest.get(), n, stream);
  });
  view_.num_levels = highest.download()[0];

  Scratch<index_t> rows(static_cast<std::size_t>(n), stream);
  Scratch<int> sorted_keys(static_cast<std::size_t>(n), stream);
  auto* level_rows = allocate<index_t>(stream, n);
  iota_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, rows.get());
  check_cuda(cudaGetLastError(), "iota_kernel launch in DeviceAnalysis");
  const int end_bit = bits_for(view_.num_levels);
  run_cub("cub::DeviceRadixSort::SortPairs in DeviceAnalysis", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, sorted_keys.get(), rows.get(), level_rows, n, 0, end_bit,
                                           stream);
  });
  view_.level_rows = level_rows;

  auto* level_ptr = allocate<index_t>(stream, static_cast<std::size_t>(view_.num_levels) + 1);
  level_ptr_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, sorted_keys.get(), level_ptr);
  check_cuda(cudaGetLastError(), "level_ptr_kernel launch in DeviceAnalysis");

  auto* level_rowptr = allocate<index_t>(stream, static_cast<std::size_t>(n) + 1);
  level_lengths_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, view_.rowptr, level_rows, level_rowptr);
  check_cuda(cudaGetLastError(), "level_lengths_kernel launch in DeviceAnalysis");
  run_cub("cub::DeviceScan::InclusiveSum in DeviceAnalysis", stream, [&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, level_rowptr + 1, level_rowptr + 1, n, stream);
  });

  auto* level_nnz = allocate<std::int64_t>(stream, view_.num_levels);
  level_nnz_kernel<<<blocks_for(view_.num_levels), kThreads, 0, stream>>>(view_.num_levels, level_ptr, level_rowptr,
                                                                          level_nnz);
  check_cuda(cudaGetLastError(), "level_nnz_kernel launch in DeviceAnalysis");
  level_ptr_ = device_analysis::download(stream, level_ptr, static_cast<std::size_t>(view_.num_levels) + 1);
  level_nnz_ = device_analysis::download(stream, level_nnz, static_cast<std::size_t>(view_.num_levels));
  view_.host_level_ptr = level_ptr_.data();
  view_.host_level_nnz = level_nnz_.data();
  mark(stream, &DeviceAnalysisPhases::schedule);

  if (options.level_ordered_copy) {
    const auto nnz = static_cast<std::size_t>(nnz_);
    auto* level_colind = allocate<index_t>(stream, nnz);
    auto* level_values = allocate<double>(stream, nnz);
    if (nnz_ > 0) {
      level_copy_kernel<<<device_analysis::tiles_for(nnz_), device_analysis::kTileThreads, 0, stream>>>(
          n, nnz_, view_.rowptr, view_.colind, view_.values, level_rows, level_rowptr, level_colind, level_values);
    }
    check_cuda(cudaGetLastError(), "level_copy_kernel launch in DeviceAnalysis");
    view_.level_rowptr = level_rowptr;
    view_.level_colind = level_colind;
    view_.level_values = level_values;
  }
  mark(stream, &DeviceAnalysisPhases::level_copy);
  allocations_.reserve(allocations_.size() + 1);
  index_t* level_segments = device_analysis::fusion_segments_cuda(
      stream, n, level_rowptr, false, options.fusion_threshold, options.split_rule, view_.num_level_segments);
  allocations_.push_back(level_segments);
  view_.level_segments = level_segments;
  mark(stream, &DeviceAnalysisPhases::level_segments);
}

}  // namespace hetsparse::kernels
