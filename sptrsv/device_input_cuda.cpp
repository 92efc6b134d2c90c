// GPU input analysed on the GPU (see device_input.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hetsparse/error.hpp"
#include "sptrsv/cuda_resources.hpp"
#include "sptrsv/device_input.hpp"

namespace hetsparse::sptrsv {
namespace {

using kernels::check_cuda;

// The caller's current device is put back on every path out.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice in analyze_device");
    check_cuda(cudaSetDevice(device), "cudaSetDevice in analyze_device");
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// A host range pinned in place for the time of one upload: pinning a caller's arrays costs less than
// the pageable copy's staging through the driver's buffers (5-7 GB/s on the H100's host). Memory
// that cannot be pinned (already registered, or sharing a page with a range pinned just before) is
// copied pageable, as before.
class PinnedInPlace {
 public:
  PinnedInPlace(const void* p, std::size_t bytes) : p_(const_cast<void*>(p)) {
    if (bytes < kMinBytes || cudaHostRegister(p_, bytes, cudaHostRegisterReadOnly) != cudaSuccess) {
      cudaGetLastError();  // not pinned: nothing to undo
      p_ = nullptr;
    }
  }
  ~PinnedInPlace() {
    if (p_) cudaHostUnregister(p_);
  }
  PinnedInPlace(const PinnedInPlace&) = delete;
  PinnedInPlace& operator=(const PinnedInPlace&) = delete;

 private:
  static constexpr std::size_t kMinBytes = std::size_t{1} << 22;  // small copies: pinning costs more
  void* p_;
};

template <typename T>
std::vector<T> download(cudaStream_t stream, const T* from, std::size_t count) {
  std::vector<T> to(count);
  if (count > 0) {
    check_cuda(cudaMemcpyAsync(to.data(), from, count * sizeof(T), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync in analyze_device");
  }
  return to;
}

Csr download_csr(cudaStream_t stream, index_t n, const index_t* rowptr, const index_t* colind, const double* values) {
  Csr c;
  c.rows = c.cols = n;
  const std::vector<index_t> ptr = download(stream, rowptr, static_cast<std::size_t>(n) + 1);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in analyze_device");
  c.rowptr.assign(ptr.begin(), ptr.end());
  const auto nnz = static_cast<std::size_t>(ptr.back());
  c.colind = download(stream, colind, nnz);
  c.values = download(stream, values, nnz);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in analyze_device");
  return c;
}

// analyse_device_input; a rejected input (not valid, not normalised) is downloaded only when asked.
DeviceInputResult analyse_on_device(const kernels::DeviceCsrView& t, int device, bool unit_diagonal,
                                    const AnalysisOptions& options, bool download_rejected) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || device < 0 || device >= devices) {
    cudaGetLastError();
    throw InvalidArgument("TriangularSolver::analyze_device: no CUDA device " + std::to_string(device));
  }
  if (t.n < 0) throw InvalidArgument("TriangularSolver::analyze_device: negative row count");
  const auto t0 = std::chrono::steady_clock::now();
  DeviceScope scope(device);
  cuda_resources::Stream stream;
  DeviceInputResult r;
  kernels::DeviceAnalysisOptions o;
  o.unit_diagonal = unit_diagonal;
  o.fusion_threshold = options.fusion_threshold;
  o.level_ordered_copy = options.level_ordered_copy;
  o.split_rule = options.split_rule;
  std::shared_ptr<kernels::DeviceAnalysis> analysis;
  try {
    analysis = std::make_shared<kernels::DeviceAnalysis>(stream.get(), t, o);  // checks first
  } catch (const InvalidArgument&) {
    // Not a valid, normalised triangle: the host analysis names the entry or normalises it.
    const kernels::DeviceCheck check = kernels::check_triangle_cuda(stream.get(), t, unit_diagonal);
    if (check.first_invalid_row < 0 && check.first_unnormalised_row < 0) throw;
    if (check.bad_row_pointer) {  // nothing to download: the entries' count and places come from it
      const index_t row = check.first_invalid_row;
      throw InvalidArgument("TriangularSolver::analyze_device: the row pointer " +
                            (row == 0 ? std::string("must start at 0 and not decrease after row 0")
                                      : "decreases after row " + std::to_string(row)));
    }
    if (download_rejected) r.host = download_csr(stream.get(), t.n, t.rowptr, t.colind, t.values);
    return r;
  }
  auto a = std::make_unique<DeviceAnalysed>();
  a->device = device;
  a->view = analysis->view();
  a->nnz = analysis->statistics().nnz;
  a->features = features_from_statistics(analysis->statistics(), t.n, a->view.num_levels, analysis->level_ptr().data(),
                                         analysis->level_nnz().data(), options.parallel_friendly_rows);
  a->owner = std::move(analysis);
  a->features.analysis_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  r.analysed = std::move(a);
  return r;
}

}  // namespace

DeviceInputResult analyse_device_input(const kernels::DeviceCsrView& t, int device, bool unit_diagonal,
                                       const AnalysisOptions& options) {
  return analyse_on_device(t, device, unit_diagonal, options, true);
}

HostInputResult analyse_host_input(const Csr& t, int device, Triangle tri, bool unit_diagonal,
                                   const AnalysisOptions& options) {
  HostInputResult r;
  const std::int64_t nnz = t.rowptr.empty() ? 0 : t.rowptr.back();
  if (t.rows != t.cols || t.rows <= 0 || nnz >= (std::int64_t{1} << 31) ||
      t.rowptr.size() != static_cast<std::size_t>(t.rows) + 1 || t.colind.size() != static_cast<std::size_t>(nnz) ||
      t.values.size() != static_cast<std::size_t>(nnz)) {
    return r;  // the host analysis names what is wrong
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (device < 0) check_cuda(cudaGetDevice(&device), "cudaGetDevice in TriangularSolver::analyze");
  DeviceScope scope(device);
  cuda_resources::Stream stream;
  const std::vector<index_t> rowptr(t.rowptr.begin(), t.rowptr.end());  // offsets fit: nnz < 2^31
  // Stream-ordered: the input lives only until the analysis has made its own copy. Each array is
  // pinned in place for its copy (PinnedInPlace); staging through pinned chunks with several host
  // threads measured no faster than pageable copies (docs/benchmarks.md, issue 16).
  std::vector<std::unique_ptr<PinnedInPlace>> pinned;  // unpinned after the stream's wait below
  const auto upload = [&](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    pinned.push_back(std::make_unique<PinnedInPlace>(v.data(), v.size() * sizeof(T)));
    void* p = nullptr;
    check_cuda(cudaMallocAsync(&p, std::max<std::size_t>(v.size(), 1) * sizeof(T), stream.get()),
               "cudaMallocAsync in TriangularSolver::analyze");
    check_cuda(cudaMemcpyAsync(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream.get()),
               "cudaMemcpyAsync in TriangularSolver::analyze");
    return static_cast<T*>(p);
  };
  kernels::DeviceCsrView view;
  view.n = t.rows;
  view.upper = tri == Triangle::Upper;
  index_t* d_rowptr = upload(rowptr);
  index_t* d_colind = upload(t.colind);
  double* d_values = upload(t.values);
  view.rowptr = d_rowptr;
  view.colind = d_colind;
  view.values = d_values;
  const auto release = [&] {
    cudaFreeAsync(d_rowptr, stream.get());
    cudaFreeAsync(d_colind, stream.get());
    cudaFreeAsync(d_values, stream.get());
  };
  try {
    check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize in TriangularSolver::analyze");
    pinned.clear();
    r.upload_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.analysed = analyse_on_device(view, device, unit_diagonal, options, false).analysed;  // null: rejected
  } catch (...) {
    release();
    throw;
  }
  release();
  if (r.analysed) {
    r.analysed->features.analysis_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return r;
}

index_t first_pattern_difference(const DeviceAnalysed& a, const Csr& t) {
  const auto n = static_cast<std::size_t>(a.view.n);
  if (t.rows != a.view.n || t.rowptr.size() != n + 1) return 0;  // no download needed to tell
  DeviceScope scope(a.device);
  cuda_resources::Stream stream;
  const std::vector<index_t> ptr = download(stream.get(), a.view.rowptr, n + 1);
  check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize in update_values");
  const std::vector<index_t> col = download(stream.get(), a.view.colind, static_cast<std::size_t>(ptr.back()));
  check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize in update_values");
  for (std::size_t i = 0; i < n; ++i) {
    if (t.rowptr[i] != ptr[i] || t.rowptr[i + 1] != ptr[i + 1] ||
        !std::equal(col.begin() + ptr[i], col.begin() + ptr[i + 1], t.colind.begin() + t.rowptr[i])) {
      return static_cast<index_t>(i);
    }
  }
  return -1;
}

Csr download_normalised(const DeviceAnalysed& a) {
  DeviceScope scope(a.device);
  cuda_resources::Stream stream;
  return download_csr(stream.get(), a.view.n, a.view.rowptr, a.view.colind, a.view.values);
}

}  // namespace hetsparse::sptrsv
