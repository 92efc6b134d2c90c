// The GPU analysis's memory pool (see sptrsv_device_scratch.cuh): one per device, created on first
// use, keeping what was freed for the next analysis until release_analysis_memory().
#include <cstdint>
#include <mutex>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_device_scratch.cuh"

namespace hetsparse::kernels {
namespace {

std::mutex pools_mutex;
std::vector<cudaMemPool_t> pools;  // by device ordinal, created on first use

}  // namespace

namespace device_analysis {

cudaMemPool_t analysis_pool() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice in the GPU analysis");
  std::lock_guard<std::mutex> lock(pools_mutex);
  if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(static_cast<std::size_t>(device) + 1, nullptr);
  cudaMemPool_t& pool = pools[static_cast<std::size_t>(device)];
  if (pool == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    check_cuda(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate for the GPU analysis");
    std::uint64_t keep_all = UINT64_MAX;
    check_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all),
               "cudaMemPoolSetAttribute for the GPU analysis");
  }
  return pool;
}

}  // namespace device_analysis

void release_analysis_memory() {
  std::lock_guard<std::mutex> lock(pools_mutex);
  for (cudaMemPool_t pool : pools) {
    if (pool != nullptr) check_cuda(cudaMemPoolTrimTo(pool, 0), "cudaMemPoolTrimTo in release_analysis_memory");
  }
}

}  // namespace hetsparse::kernels
