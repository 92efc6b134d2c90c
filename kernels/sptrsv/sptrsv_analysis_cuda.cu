// The SpTRSV analysis on the GPU: DeviceAnalysis's driver. The check is in sptrsv_check_cuda.cu, the
// level pass in sptrsv_level_pass_cuda.cu, the level schedule in sptrsv_level_schedule_cuda.cu, fusion segments
// and row statistics in sptrsv_segments_cuda.cu, the memory pool in sptrsv_analysis_pool_cuda.cu.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kBlockThreads = 256;

__global__ void unit_diagonal_kernel(index_t n, bool upper, const index_t* rowptr, double* values) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) values[upper ? rowptr[i] : rowptr[i + 1] - 1] = 1.0;
}

unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + kBlockThreads - 1) / kBlockThreads);
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void* DeviceAnalysis::allocate_bytes(cudaStream_t stream, std::size_t bytes) {
  allocations_.reserve(allocations_.size() + 1);  // so that push_back cannot lose the allocation
  void* p = device_analysis::pool_allocate(bytes, stream);
  allocations_.push_back(p);
  return p;
}

void DeviceAnalysis::mark(cudaStream_t stream, double DeviceAnalysisPhases::*phase) {
  if (!time_phases_) return;
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (phase timing) in DeviceAnalysis");
  const double t = now_ms();
  phases_.*phase = t - last_mark_ms_;
  last_mark_ms_ = t;
}

DeviceAnalysis::DeviceAnalysis(cudaStream_t stream, const DeviceCsrView& input, const DeviceAnalysisOptions& options) {
  try {
    build(stream, input, options);
  } catch (...) {
    cudaStreamSynchronize(stream);
    for (void* p : allocations_) cudaFreeAsync(p, stream);
    cudaStreamSynchronize(stream);
    throw;
  }
}

DeviceAnalysis::~DeviceAnalysis() {
  // The arrays are read by solves on other streams: as cudaFree would, wait for the device.
  if (allocations_.empty()) return;
  cudaDeviceSynchronize();
  for (void* p : allocations_) cudaFreeAsync(p, cudaStreamPerThread);
}

void DeviceAnalysis::build(cudaStream_t stream, const DeviceCsrView& input, const DeviceAnalysisOptions& options) {
  if (std::isnan(options.fusion_threshold) || options.fusion_threshold < 0.0 ||
      options.split_rule.min_off_diagonals < 1 || options.split_rule.entries_per_part < 1) {
    throw InvalidArgument("DeviceAnalysis: fusion threshold must be >= 0, the split rule's sizes >= 1");
  }
  time_phases_ = options.time_phases;
  last_mark_ms_ = now_ms();
  const DeviceCheck check = check_triangle_cuda(stream, input, options.unit_diagonal);
  if (check.first_invalid_row >= 0 || check.first_unnormalised_row >= 0) {
    const bool invalid = check.first_invalid_row >= 0;
    throw InvalidArgument(
        "DeviceAnalysis: row " + std::to_string(invalid ? check.first_invalid_row : check.first_unnormalised_row) +
        (invalid ? " is not a valid row of the triangle (check_triangle_cuda)"
                 : " is not in normalised form: normalise it on the host (sptrsv::TriangularPattern)"));
  }
  const index_t n = input.n;
  view_.n = n;
  view_.upper = input.upper;
  level_ptr_.assign(1, 0);
  if (n == 0) return;
  const std::int64_t nnz = nnz_ = check.nnz;
  mark(stream, &DeviceAnalysisPhases::check);
  const auto copy = [&](auto* to, const auto* from, std::size_t count) {
    check_cuda(cudaMemcpyAsync(to, from, count * sizeof(*from), cudaMemcpyDeviceToDevice, stream),
               "cudaMemcpyAsync in DeviceAnalysis");
    return to;
  };
  view_.rowptr = copy(allocate<index_t>(stream, n + 1), input.rowptr, static_cast<std::size_t>(n) + 1);
  view_.colind = copy(allocate<index_t>(stream, nnz), input.colind, static_cast<std::size_t>(nnz));
  auto* values = copy(allocate<double>(stream, nnz), input.values, static_cast<std::size_t>(nnz));
  if (options.unit_diagonal) {
    unit_diagonal_kernel<<<blocks_for(n), kBlockThreads, 0, stream>>>(n, input.upper, view_.rowptr, values);
    check_cuda(cudaGetLastError(), "unit_diagonal_kernel launch in DeviceAnalysis");
  }
  view_.values = values;
  mark(stream, &DeviceAnalysisPhases::copy);

  allocations_.reserve(allocations_.size() + 1);
  index_t* segments = device_analysis::fusion_segments_cuda(
      stream, n, view_.rowptr, input.upper, options.fusion_threshold, options.split_rule, view_.num_segments);
  allocations_.push_back(segments);
  view_.segments = segments;
  mark(stream, &DeviceAnalysisPhases::segments);

  // Counter first, then the flags: one memset clears both.
  int* words = allocate<int>(stream, static_cast<std::size_t>(n) + 1);
  check_cuda(cudaMemsetAsync(words, 0, (static_cast<std::size_t>(n) + 1) * sizeof(int), stream),
             "cudaMemsetAsync in DeviceAnalysis");
  row_level_plus_one_ = words + 1;
  device_analysis::level_pass_cuda(stream, view_, reinterpret_cast<unsigned*>(words), row_level_plus_one_);
  mark(stream, &DeviceAnalysisPhases::levels);
  build_level_schedule(stream, options);
  statistics_ = device_analysis::row_statistics_cuda(stream, view_, nnz_);
  mark(stream, &DeviceAnalysisPhases::statistics);
  // The arrays came from the pool in `stream` order: other streams may use them once it is drained.
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in DeviceAnalysis");
}

std::vector<index_t> DeviceAnalysis::download_row_levels(cudaStream_t stream) const {
  std::vector<index_t> levels =
      device_analysis::download(stream, row_level_plus_one_, static_cast<std::size_t>(view_.n));
  for (index_t& level : levels) --level;
  return levels;
}

std::vector<index_t> DeviceAnalysis::download_level_rows(cudaStream_t stream) const {
  return device_analysis::download(stream, view_.level_rows, static_cast<std::size_t>(view_.n));
}

std::vector<index_t> DeviceAnalysis::download_segments(cudaStream_t stream, SolveOrder order) const {
  const bool level = order == SolveOrder::Level;
  const index_t count = level ? view_.num_level_segments : view_.num_segments;
  if (view_.n == 0) return {0};
  return device_analysis::download(stream, level ? view_.level_segments : view_.segments,
                                   2 * static_cast<std::size_t>(count) + 1);
}

}  // namespace hetsparse::kernels
