// IC(0) on the GPU: the rows of one level of the lower solve at a time (they read only rows of
// earlier levels), one warp per row. Within a row the off-diagonal entries go in column order, as on
// the CPU; the lanes share each entry's sparse dot product (row k against the part of row i already
// done), found by binary search in row i's sorted columns.
#include <climits>
#include <cstdint>

#include "kernels/common/cuda_check.hpp"
#include "kernels/ic0/ic0.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kBlockThreads = 256;

// Every lane gets the same total: a butterfly sums each pair in both orders, and a + b == b + a.
__device__ double warp_sum(double v) {
  for (unsigned m = kWarp / 2; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}

// Position of column j in colind[lo, hi), or hi when absent.
__device__ std::uint32_t find_column(const std::uint32_t* colind, std::uint32_t lo, std::uint32_t hi,
                                     std::uint32_t j) {
  std::uint32_t a = lo, b = hi;
  while (a < b) {
    const std::uint32_t mid = a + (b - a) / 2;
    if (colind[mid] < j) a = mid + 1; else b = mid;
  }
  return a < hi && colind[a] == j ? a : hi;
}

__global__ void __launch_bounds__(kBlockThreads)
    ic0_level_kernel(const std::uint32_t* __restrict__ rowptr, const std::uint32_t* __restrict__ colind,
                     double* values, const std::uint32_t* __restrict__ rows, std::uint32_t count, int* info) {
  const std::uint64_t warp = (static_cast<std::uint64_t>(blockIdx.x) * kBlockThreads + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (warp >= count) return;  // whole warps leave together: count is per warp
  const std::uint32_t i = rows[warp];
  const std::uint32_t s = rowptr[i], diag = rowptr[i + 1] - 1;
  for (std::uint32_t t = s; t < diag; ++t) {
    const std::uint32_t k = colind[t];
    const std::uint32_t kdiag = rowptr[k + 1] - 1;
    double part = 0.0;
    for (std::uint32_t u = rowptr[k] + lane; u < kdiag; u += kWarp) {
      const std::uint32_t pos = find_column(colind, s, t, colind[u]);
      if (pos < t) part += values[pos] * values[u];
    }
    const double l = (values[t] - warp_sum(part)) / values[kdiag];
    __syncwarp();  // every lane has read values[t] before lane 0 overwrites it
    if (lane == 0) values[t] = l;
    __syncwarp();  // and sees it before the next entry's dot product
  }
  double part = 0.0;
  for (std::uint32_t t = s + lane; t < diag; t += kWarp) part += values[t] * values[t];
  const double d = values[diag] - warp_sum(part);
  if (lane == 0) {
    if (d > 0.0) values[diag] = sqrt(d);
    else atomicMin(info, static_cast<int>(i) + 1);
  }
}

__global__ void set_info(int* info, int from, int to) {
  if (*info == from) *info = to;
}

}  // namespace

void ic0_cuda(cudaStream_t stream, const std::uint32_t* rowptr, const std::uint32_t* colind,
              double* values, const std::uint32_t* level_rows, const std::uint32_t* host_level_ptr, int num_levels,
              int* info_device) {
  check_cuda(cudaMemsetAsync(info_device, 0, sizeof(int), stream), "clearing info in ic0_cuda");
  set_info<<<1, 1, 0, stream>>>(info_device, 0, INT_MAX);  // atomicMin wants "no failure" as the maximum
  for (int l = 0; l < num_levels; ++l) {
    const std::uint32_t first = host_level_ptr[l], count = host_level_ptr[l + 1] - first;
    if (count == 0) continue;
    const std::uint64_t threads = static_cast<std::uint64_t>(count) * kWarp;
    const auto blocks = static_cast<unsigned>((threads + kBlockThreads - 1) / kBlockThreads);
    ic0_level_kernel<<<blocks, kBlockThreads, 0, stream>>>(rowptr, colind, values, level_rows + first, count,
                                                           info_device);
  }
  set_info<<<1, 1, 0, stream>>>(info_device, INT_MAX, 0);
  check_cuda(cudaGetLastError(), "launching the IC(0) level kernels in ic0_cuda");
}

}  // namespace hetsparse::kernels
