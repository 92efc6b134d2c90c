// GPU side of the analysis timing (see analysis_timing.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>

#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "bench/analysis_timing.hpp"
#include "sptrsv/cuda_resources.hpp"

namespace hetsparse::bench {
namespace {

using sptrsv::cuda_resources::DeviceBuffer;
using sptrsv::cuda_resources::Stream;
using kernels::check_cuda;

template <typename T>
T* upload(cudaStream_t stream, const DeviceBuffer& to, const T* from, std::size_t count) {
  if (count > 0) {
    check_cuda(cudaMemcpyAsync(to.as<T>(), from, count * sizeof(T), cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync in time_device_analysis");
  }
  return to.as<T>();
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// "" when the GPU analysis produced the host's level schedule and segments, else the first difference.
std::string compare(cudaStream_t stream, const kernels::DeviceAnalysis& a, const kernels::TriangularView& t) {
  if (a.view().num_levels != t.num_levels) return "number of levels";
  if (!std::equal(a.level_ptr().begin(), a.level_ptr().end(), t.level_ptr)) return "level_ptr";
  if (!std::equal(a.level_nnz().begin(), a.level_nnz().end(), t.level_nnz)) return "level_nnz";
  const auto same = [&](kernels::SolveOrder order, const index_t* host, index_t count) {
    const std::vector<index_t> device = a.download_segments(stream, order);
    return device.size() == 2 * static_cast<std::size_t>(count) + 1 && std::equal(device.begin(), device.end(), host);
  };
  if (!same(kernels::SolveOrder::Natural, t.segments, t.num_segments)) return "natural-order segments";
  if (!same(kernels::SolveOrder::Level, t.level_segments, t.num_level_segments)) return "level-order segments";
  return "";
}

}  // namespace

AnalysisTiming time_device_analysis(const kernels::TriangularView& t, const kernels::DeviceAnalysisOptions& analysis,
                                    bool compare_with_host, const std::vector<double>& b,
                                    const std::vector<double>& expected, const std::string& variant,
                                    const sptrsv::SchemeTimingOptions& o) {
  AnalysisTiming r;
  r.variant = variant;
  if (sptrsv::cuda_device_name().empty()) {
    r.error = "no CUDA device";
    return r;
  }
  r.available = true;
  try {
    Stream stream;
    const auto n = static_cast<std::size_t>(t.n), nnz = static_cast<std::size_t>(t.rowptr[t.n]);
    DeviceBuffer rowptr((n + 1) * sizeof(index_t)), colind(nnz * sizeof(index_t)), values(nnz * sizeof(double));
    auto t0 = std::chrono::steady_clock::now();
    const kernels::DeviceCsrView input{t.n, t.upper, upload(stream.get(), rowptr, t.rowptr, n + 1),
                                       upload(stream.get(), colind, t.colind, nnz),
                                       upload(stream.get(), values, t.values, nnz)};
    check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize in time_device_analysis");
    r.upload_ms = ms_since(t0);

    kernels::DeviceAnalysisOptions options = analysis;
    options.unit_diagonal = false;  // the host's normalised values: a unit diagonal is already 1.0
    std::unique_ptr<kernels::DeviceAnalysis> analysed;
    std::vector<double> ms;
    for (int i = 0; i < std::max(o.runs, 1) + 1; ++i) {  // the first run pays CUB's and the module's set-up
      analysed.reset();
      t0 = std::chrono::steady_clock::now();
      analysed = std::make_unique<kernels::DeviceAnalysis>(stream.get(), input, options);
      if (i > 0) ms.push_back(ms_since(t0));
    }
    std::sort(ms.begin(), ms.end());
    r.runs = static_cast<int>(ms.size());
    r.median_ms = ms[ms.size() / 2];
    r.min_ms = ms.front();
    analysed.reset();
    options.time_phases = true;
    analysed = std::make_unique<kernels::DeviceAnalysis>(stream.get(), input, options);
    r.phases = analysed->phases();
    if (compare_with_host) {
      r.mismatch = compare(stream.get(), *analysed, t);
      r.matches_host = r.mismatch.empty();
    }

    DeviceBuffer db(n * sizeof(double)), dx(n * sizeof(double)), workspace(kernels::solve_workspace_bytes(t.n));
    upload(stream.get(), db, b.data(), n);
    const kernels::SolveWorkspace ws = kernels::make_solve_workspace(workspace.as<void>(), t.n);
    const sptrsv::SchemeTiming solve = sptrsv::time_prepared_scheme(variant, stream.get(), t, analysed->view(), db.as<double>(),
                                                    dx.as<double>(), ws, expected, o, nullptr);
    if (solve.status == "error") r.error = solve.error;
    r.solve_ms = solve.median_ms;
    r.relative_error = solve.relative_error;
  } catch (const std::exception& e) {
    r.error = e.what();
    cudaGetLastError();
  }
  return r;
}

}  // namespace hetsparse::bench
