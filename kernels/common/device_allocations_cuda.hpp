// Device arrays owned and freed together (CUDA builds only, hence _cuda): the prepared state of a GPU
// solver (plans, packs, uploaded matrices), freed with cudaFree when the owner goes.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels {

class DeviceAllocations {
 public:
  // `owner` names the owner in the errors ("cudaMalloc in <owner>").
  explicit DeviceAllocations(std::string owner) : owner_(std::move(owner)) {}
  ~DeviceAllocations() {
    for (void* p : pointers_) cudaFree(p);
  }
  DeviceAllocations(const DeviceAllocations&) = delete;
  DeviceAllocations& operator=(const DeviceAllocations&) = delete;

  // At least one element, so the pointer is never null.
  template <class T>
  T* allocate(std::size_t count) {
    void* p = nullptr;
    check_cuda(cudaMalloc(&p, std::max<std::size_t>(count, 1) * sizeof(T)), ("cudaMalloc in " + owner_).c_str());
    pointers_.push_back(p);
    return static_cast<T*>(p);
  }
  // A device copy of host[0, count), enqueued on `stream` (host must live until it ran); null for none.
  template <class T>
  T* upload(cudaStream_t stream, const T* host, std::size_t count) {
    if (count == 0) return nullptr;
    T* p = allocate<T>(count);
    check_cuda(cudaMemcpyAsync(p, host, count * sizeof(T), cudaMemcpyHostToDevice, stream),
               ("cudaMemcpyAsync in " + owner_).c_str());
    return p;
  }
  template <class T>
  T* upload(cudaStream_t stream, const std::vector<T>& host) {
    return upload(stream, host.data(), host.size());
  }

 private:
  std::string owner_;
  std::vector<void*> pointers_;
};

}  // namespace hetsparse::kernels
