// Device-side helpers for the CUDA tests (kind cuda): owned device arrays with stream-ordered copies,
// and a fixture that skips without a device and otherwise gives each test its own stream. (The
// kernel suites get a stream and library handles from their back end, tests/kernels/backend_cuda.hpp.)
#pragma once
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::test {

inline bool cuda_device_available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// count elements of any device array (a view's, or DeviceArray's) after the stream's work so far;
// waits for the stream, so the kernels enqueued before are finished and their errors surface.
template <typename T>
std::vector<T> download_device(cudaStream_t stream, const T* device, std::size_t count) {
  std::vector<T> host(count);
  if (count > 0) {
    kernels::check_cuda(cudaMemcpyAsync(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream),
                        "cudaMemcpyAsync in download_device");
  }
  kernels::check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in download_device");
  return host;
}

// A device copy of a host vector. Transfers are ordered on the stream given to each call.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) {
      void* raw = nullptr;
      kernels::check_cuda(cudaMalloc(&raw, count_ * sizeof(T)), "cudaMalloc in DeviceArray");
      ptr_ = static_cast<T*>(raw);
    }
  }
  DeviceArray(cudaStream_t stream, const std::vector<T>& host) : DeviceArray(host.size()) { upload(stream, host); }
  ~DeviceArray() { cudaFree(ptr_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

  void upload(cudaStream_t stream, const std::vector<T>& host) {
    EXPECT_EQ(host.size(), count_);
    if (count_ > 0) {
      kernels::check_cuda(cudaMemcpyAsync(ptr_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice, stream),
                          "cudaMemcpyAsync upload in DeviceArray");
    }
  }
  // Waits for the stream, so the kernels enqueued before are finished and their errors surface.
  std::vector<T> download(cudaStream_t stream) const { return download_device(stream, ptr_, count_); }
  // All bytes 0xFF: every double becomes a NaN and every int -1, values no kernel may leave behind.
  void poison(cudaStream_t stream) {
    if (count_ > 0) {
      kernels::check_cuda(cudaMemsetAsync(ptr_, 0xFF, count_ * sizeof(T), stream), "cudaMemsetAsync in poison");
    }
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// A test with its own non-blocking stream, skipped without a CUDA device.
class CudaStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_device_available()) GTEST_SKIP() << "no CUDA device";
    kernels::check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }
  void TearDown() override {
    if (stream_ == nullptr) return;
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    cudaStreamDestroy(stream_);
  }
  cudaStream_t stream_ = nullptr;
};

}  // namespace hetsparse::test
