// Host-to-device copies of large pageable arrays through pinned staging chunks: a few host threads
// fill one chunk while the copy engine moves the previous one. A cudaMemcpy from pageable memory goes
// through the driver's own small staging, one host thread: 5-7 GB/s for a matrix upload on the H100's
// host (docs/benchmarks.md, issue 16). The staging buffer is pinned once per process and kept (like
// the analysis pool); uploads take turns on it. CUDA builds only, hence _cuda.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <mutex>

namespace hetsparse::kernels {

class StagedUpload {
 public:
  // fill(dst, first, count) writes elements [first, first + count) of the source to dst (pinned).
  using Fill = std::function<void(void* dst, std::size_t first, std::size_t count)>;

  // Takes the process's staging buffer (waits while another upload holds it) for copies on `stream`.
  explicit StagedUpload(cudaStream_t stream);
  ~StagedUpload();  // waits for the copies still in flight
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  // device[0, count) = the elements fill produces, element_bytes each. Returns once the last chunk is
  // staged (its copy may still run: finish() or the destructor waits).
  void copy(void* device, std::size_t count, std::size_t element_bytes, const Fill& fill);
  template <class T>
  void copy(T* device, const T* host, std::size_t count);
  void finish();  // waits for every copy enqueued so far

 private:
  std::unique_lock<std::mutex> lock_;
  cudaStream_t stream_;
  cudaEvent_t free_[2] = {nullptr, nullptr};  // a slot's last copy has left it
  int next_slot_ = 0;
};

// The plain element copy, for copy<T>.
void copy_elements(void* dst, const void* src, std::size_t bytes);

template <class T>
void StagedUpload::copy(T* device, const T* host, std::size_t count) {
  copy(device, count, sizeof(T), [host](void* dst, std::size_t first, std::size_t n) {
    copy_elements(dst, host + first, n * sizeof(T));
  });
}

}  // namespace hetsparse::kernels
