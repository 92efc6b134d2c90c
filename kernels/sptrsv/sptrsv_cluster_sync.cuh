// What the clusterlevels kernels share (sptrsv_cluster_levels_cuda.cu, a thread a row;
// sptrsv_cluster_rows_cuda.cu, a group of lanes a row): the level barrier in two halves and the launch
// of one cluster. Included by those .cu files only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels::cluster_levels_detail {

// The level barrier in two halves. Arrive (release) makes this thread's stores visible to the
// cluster; wait (acquire) sees everyone's. One block: __syncthreads, and wait is empty.
template <bool Cluster>
__device__ __forceinline__ void barrier_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Cluster) {
    asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    return;
  }
#endif
  __syncthreads();
}
template <bool Cluster>
__device__ __forceinline__ void barrier_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (Cluster) asm volatile("barrier.cluster.wait.acquire;" ::: "memory");
#endif
}

// A launch of `blocks` blocks of `threads` on `stream`, one cluster of them when `cluster`
// (`attribute` holds the cluster size and must outlive the config).
inline cudaLaunchConfig_t cluster_launch_config(int blocks, int threads, std::size_t shared_bytes, bool cluster,
                                                cudaStream_t stream, cudaLaunchAttribute& attribute) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(blocks);
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = cluster ? 1 : 0;
  return config;
}

// Whether this device launches clusters of several blocks (compute capability 9.0 and above).
inline bool device_has_clusters() {
  int device = 0, major = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice in clusterlevels");
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
             "cudaDeviceGetAttribute in clusterlevels");
  return major >= 9;
}

// The largest cluster of at most `wanted` blocks of `threads` (and `shared_bytes` of dynamic shared
// memory) the device co-schedules for `kernel`, whose attributes the caller has set; 1 if none.
template <class Kernel>
int largest_cluster(Kernel kernel, int wanted, int threads, std::size_t shared_bytes) {
  for (int blocks = wanted; blocks > 1; --blocks) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_launch_config(blocks, threads, shared_bytes, true, nullptr, attribute);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) == cudaSuccess && clusters > 0) return blocks;
    (void)cudaGetLastError();  // a refused size is not an error: try a smaller one
  }
  return 1;
}

}  // namespace hetsparse::kernels::cluster_levels_detail
