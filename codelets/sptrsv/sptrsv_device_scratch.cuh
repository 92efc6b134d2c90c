// Small host-side helpers of the GPU analysis: an owned device array for temporaries (CUB scratch,
// scan buffers) and a blocking download. Included by the sptrsv analysis .cu files only.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "codelets/common/cuda_check.hpp"

namespace hetsparse::kernels::device_analysis {

template <typename T>
class Scratch {
 public:
  explicit Scratch(std::size_t count) : count_(count) {
    check_cuda(cudaMalloc(&data_, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc in the GPU analysis");
  }
  ~Scratch() { cudaFree(data_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* get() const { return static_cast<T*>(data_); }
  std::vector<T> download(cudaStream_t stream) const;

 private:
  void* data_ = nullptr;
  std::size_t count_;
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
std::vector<T> Scratch<T>::download(cudaStream_t stream) const {
  return device_analysis::download(stream, get(), count_);
}

// Runs a CUB device algorithm the two-call way: call(nullptr, bytes) sizes it, then it runs.
// The call names its stream itself; freeing the scratch right after is safe because cudaFree
// waits for the device.
template <typename Call>
void run_cub(const char* what, Call&& call) {
  std::size_t bytes = 0;
  check_cuda(call(nullptr, bytes), what);
  Scratch<unsigned char> temp(bytes);
  check_cuda(call(temp.get(), bytes), what);
}

}  // namespace hetsparse::kernels::device_analysis
