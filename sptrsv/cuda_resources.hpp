// RAII wrappers of the CUDA objects the direct GPU timings use (scheme_timing_cuda.cpp,
// analysis_timing_cuda.cpp), the error measure both report, and the one timing of a scheme both
// run. Internal; CUDA builds only.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "sptrsv/powered_triangle.hpp"
#include "sptrsv/scheme_timing.hpp"

namespace hetsparse::sptrsv::cuda_resources {

using kernels::check_cuda;

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    check_cuda(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)), "cudaMalloc in sptrsv timing");
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
};

class Stream {
 public:
  Stream() { check_cuda(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate in sptrsv timing"); }
  ~Stream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class EventPair {
 public:
  EventPair() {
    check_cuda(cudaEventCreate(&start), "cudaEventCreate in sptrsv timing");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate in sptrsv timing");
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  cudaEvent_t start = nullptr, stop = nullptr;
};

// ||x - expected||_inf / ||expected||_inf; infinite when x holds a NaN.
inline double relative_error(const std::vector<double>& x, const std::vector<double>& expected) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::fabs(x[i] - expected[i]));
    norm = std::max(norm, std::fabs(expected[i]));
  }
  return norm > 0 ? diff / norm : diff;
}

}  // namespace hetsparse::sptrsv::cuda_resources

namespace hetsparse::sptrsv {

// One scheme on device-resident data (scheme_timing_cuda.cpp): prepared (PreparedScheme, with the
// pow transform from `powered` when given), x NaN-poisoned, o.warmups then o.runs solves between
// CUDA events, x checked against `expected`. Failures land in the result, not thrown.
SchemeTiming time_prepared_scheme(const std::string& name, cudaStream_t stream, const kernels::TriangularView& host,
                                  const kernels::TriangularDeviceView& device, const double* db, double* dx,
                                  const kernels::SolveWorkspace& ws, const std::vector<double>& expected,
                                  const SchemeTimingOptions& o, PoweredCache* powered);

}  // namespace hetsparse::sptrsv
