// Small host-side helpers of the GPU analysis: its memory pool, an owned device array for
// temporaries (CUB scratch, scan buffers) and a blocking download. Included by the sptrsv analysis
// .cu files only.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "sparse/types.hpp"

namespace hetsparse::kernels::device_analysis {

// The analysis allocates from a stream-ordered pool of its own on the current device, which keeps
// what was freed (no release threshold): cudaMalloc and cudaFree synchronise the device and took
// tens of microseconds each, some thirty of them per analysis. Defined in sptrsv_analysis_pool_cuda.cu;
// kernels::release_analysis_memory() trims it.
cudaMemPool_t analysis_pool();

inline void* pool_allocate(std::size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  check_cuda(cudaMallocFromPoolAsync(&p, std::max<std::size_t>(bytes, 1), analysis_pool(), stream),
             "cudaMallocFromPoolAsync in the GPU analysis");
  return p;
}

// A temporary on `stream`: allocated and freed in stream order, so no synchronisation either way.
template <typename T>
class Scratch {
 public:
  Scratch(std::size_t count, cudaStream_t stream)
      : data_(pool_allocate(count * sizeof(T), stream)), count_(count), stream_(stream) {}
  ~Scratch() { cudaFreeAsync(data_, stream_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() const { return static_cast<T*>(data_); }
  std::vector<T> download() const;

 private:
  void* data_ = nullptr;
  std::size_t count_;
  cudaStream_t stream_;
};

// count elements of a device array, after the stream's work so far.
template <typename T>
std::vector<T> download(cudaStream_t stream, const T* device, std::size_t count) {
  std::vector<T> host(count);
  if (count == 0) return host;
  check_cuda(cudaMemcpyAsync(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync (download) in the GPU analysis");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (download) in the GPU analysis");
  return host;
}

template <typename T>
std::vector<T> Scratch<T>::download() const {
  return device_analysis::download(stream_, get(), count_);
}

// Runs a CUB device algorithm on `stream` the two-call way: call(nullptr, bytes) sizes it, then it
// runs; its scratch is freed in stream order behind it.
template <typename Call>
void run_cub(const char* what, cudaStream_t stream, Call&& call) {
  std::size_t bytes = 0;
  check_cuda(call(nullptr, bytes), what);
  Scratch<unsigned char> temp(bytes, stream);
  check_cuda(call(temp.get(), bytes), what);
}

}  // namespace hetsparse::kernels::device_analysis
