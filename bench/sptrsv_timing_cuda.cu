// GPU side of bench_sptrsv (see sptrsv_timing.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>

#include "bench/sptrsv_timing.hpp"
#include "codelets/common/cuda_check.hpp"
#include "codelets/sptrsv/sptrsv_cusparse.hpp"

namespace hetsparse::bench {
namespace {

using kernels::check_cuda;

// Owned device buffer (cudaMalloc'd, freed on scope exit).
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    check_cuda(cudaMalloc(&p_, std::max<std::size_t>(bytes, 1)), "cudaMalloc in bench_sptrsv");
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
  Stream() { check_cuda(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate in bench_sptrsv"); }
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
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate in bench_sptrsv");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate in bench_sptrsv");
  }
  ~EventPair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

double relative_error(const std::vector<double>& x, const std::vector<double>& expected) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::fabs(x[i] - expected[i]));
    norm = std::max(norm, std::fabs(expected[i]));
  }
  return norm > 0 ? diff / norm : diff;
}

// Poisons x, runs `solve` warmups + runs times (the timed ones between events), checks x.
template <class Solve>
SptrsvSolveTiming time_solve(const std::string& name, cudaStream_t stream, double* dx, std::size_t n,
                             const std::vector<double>& expected, const SptrsvTimingOptions& o, Solve solve) {
  SptrsvSolveTiming r;
  r.name = name;
  try {
    check_cuda(cudaMemsetAsync(dx, 0xFF, n * sizeof(double), stream), "cudaMemsetAsync (poison x)");
    for (int i = 0; i < o.warmups; ++i) solve();
    EventPair ev;
    std::vector<double> ms;
    for (int i = 0; i < std::max(o.runs, 1); ++i) {
      check_cuda(cudaEventRecord(ev.start_, stream), "cudaEventRecord");
      solve();
      check_cuda(cudaEventRecord(ev.stop_, stream), "cudaEventRecord");
      check_cuda(cudaEventSynchronize(ev.stop_), "cudaEventSynchronize");
      float f = 0;
      check_cuda(cudaEventElapsedTime(&f, ev.start_, ev.stop_), "cudaEventElapsedTime");
      ms.push_back(f);
    }
    std::sort(ms.begin(), ms.end());
    r.runs = static_cast<int>(ms.size());
    r.median_ms = ms[ms.size() / 2];
    r.min_ms = ms.front();
    std::vector<double> x(n);
    if (n > 0) {
      check_cuda(cudaMemcpyAsync(x.data(), dx, n * sizeof(double), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync (x)");
    }
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (x)");
    r.relative_error = relative_error(x, expected);
    r.status = r.relative_error <= o.tolerance ? "ok" : "wrong";
  } catch (const std::exception& e) {
    r.status = "error";
    r.error = e.what();
  }
  return r;
}

}  // namespace

std::vector<std::string> sptrsv_gpu_variant_names() { return kernels::gpu_variants(); }

SptrsvGpuTiming time_sptrsv_gpu(const kernels::TriangularView& t, const std::vector<double>& b,
                                const std::vector<double>& expected, const SptrsvTimingOptions& o) {
  SptrsvGpuTiming out;
  std::vector<std::string> names = o.variants.empty() ? kernels::gpu_variants() : o.variants;
  const auto unavailable = [&](const std::string& reason) {
    out.available = false;
    out.reason = reason;
    out.solves.clear();
    if (o.cusparse) names.emplace_back("cusparse");
    for (const std::string& name : names) {
      SptrsvSolveTiming s;
      s.name = name;
      s.status = "unavailable";
      s.error = reason;
      out.solves.push_back(s);
    }
    return out;
  };
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return unavailable("no CUDA device/build (no CUDA device)");
  }
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  out.device = prop.name;
  out.available = true;
  const auto n = static_cast<std::size_t>(t.n);
  Stream stream;
  const kernels::DeviceTriangular matrix(stream.get(), t);
  DeviceBuffer db(n * sizeof(double)), dx(n * sizeof(double)), workspace(kernels::solve_workspace_bytes(t.n));
  if (n > 0) {
    check_cuda(cudaMemcpyAsync(db.as<double>(), b.data(), n * sizeof(double), cudaMemcpyHostToDevice, stream.get()),
               "cudaMemcpyAsync (b)");
  }
  const kernels::SolveWorkspace ws = kernels::make_solve_workspace(workspace.as<void>(), t.n);
  for (const std::string& name : names) {
    out.solves.push_back(time_solve(name, stream.get(), dx.as<double>(), n, expected, o, [&] {
      kernels::solve_cuda(name, stream.get(), matrix.view(), db.as<double>(), dx.as<double>(), ws);
    }));
  }
  if (o.cusparse) {
    std::unique_ptr<kernels::CusparseSpsv> spsv;
    try {
      spsv = std::make_unique<kernels::CusparseSpsv>(stream.get(), matrix.view());
      out.cusparse_analysis_ms = spsv->analysis_ms();
    } catch (const std::exception& e) {
      SptrsvSolveTiming s;
      s.name = "cusparse";
      s.status = "error";
      s.error = e.what();
      out.solves.push_back(s);
    }
    if (spsv) {
      out.solves.push_back(time_solve("cusparse", stream.get(), dx.as<double>(), n, expected, o,
                                      [&] { spsv->solve(db.as<double>(), dx.as<double>()); }));
    }
  }
  check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize (end)");
  return out;
}

}  // namespace hetsparse::bench
