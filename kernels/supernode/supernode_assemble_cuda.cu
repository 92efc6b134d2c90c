// Assembly of A's entries into panels that live on the GPU (the top of the tree): the panel group is
// zeroed and filled where it is, so its host copy is never written, faulted in nor pinned.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    add_entries(double* __restrict__ values, long long count, const double* __restrict__ a,
                const std::int64_t* __restrict__ positions, long long entries) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long e = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; e < entries; e += stride) {
    const long long p = positions[e];
    if (p >= 0 && p < count) atomicAdd(values + p, a[e]);
  }
}

}  // namespace

void supernode_assemble_cuda(cudaStream_t stream, double* values, std::int64_t count, const double* a,
                             const std::int64_t* positions, std::int64_t entries) {
  constexpr const char* routine = "supernode_assemble_cuda";
  if (count < 0 || entries < 0 || (count > 0 && values == nullptr) ||
      (entries > 0 && (a == nullptr || positions == nullptr)))
    throw InvalidArgument(std::string(routine) + ": count = " + std::to_string(count) + ", entries = " +
                          std::to_string(entries) + " or a null pointer");
  if (count > 0)
    check_cuda(cudaMemsetAsync(values, 0, sizeof(double) * static_cast<std::size_t>(count), stream), routine);
  if (entries == 0) return;
  const long long blocks = std::min<long long>(4096, (entries + kThreads - 1) / kThreads);
  add_entries<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(values, count, a, positions, entries);
  check_cuda(cudaGetLastError(), routine);
}

}  // namespace hetsparse::kernels
