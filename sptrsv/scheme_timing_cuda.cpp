// GPU side of scheme timing (see scheme_timing.hpp).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "sptrsv/cuda_resources.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/scheme_timing.hpp"
#include "sptrsv/solve_paths.hpp"

namespace hetsparse::sptrsv {
namespace {

using cuda_resources::DeviceBuffer;
using cuda_resources::EventPair;
using cuda_resources::Stream;
using kernels::check_cuda;

}  // namespace

SchemeTiming time_prepared_scheme(const std::string& name, cudaStream_t stream, const kernels::TriangularView& host,
                                  const kernels::TriangularDeviceView& device, const double* db, double* dx,
                                  const kernels::SolveWorkspace& ws, const std::vector<double>& expected,
                                  const SchemeTimingOptions& o, PoweredCache* powered) {
  SchemeTiming r;
  r.scheme = name;
  const std::size_t n = expected.size();
  try {
    const PreparedScheme prepared(stream, host, device, name, powered);
    r.preprocess_ms = prepared.preprocess_seconds() * 1e3;
    check_cuda(cudaMemsetAsync(dx, 0xFF, n * sizeof(double), stream), "cudaMemsetAsync (poison x)");
    for (int i = 0; i < o.warmups; ++i) prepared.solve(stream, db, dx, ws);
    EventPair ev;
    std::vector<double> ms;
    for (int i = 0; i < std::max(o.runs, 1); ++i) {
      check_cuda(cudaEventRecord(ev.start, stream), "cudaEventRecord");
      prepared.solve(stream, db, dx, ws);
      check_cuda(cudaEventRecord(ev.stop, stream), "cudaEventRecord");
      check_cuda(cudaEventSynchronize(ev.stop), "cudaEventSynchronize");
      float f = 0;
      check_cuda(cudaEventElapsedTime(&f, ev.start, ev.stop), "cudaEventElapsedTime");
      ms.push_back(f);
    }
    std::sort(ms.begin(), ms.end());
    r.runs = static_cast<int>(ms.size());
    r.median_ms = ms[ms.size() / 2];
    r.min_ms = ms.front();
    std::vector<double> call;
    for (int i = 0; i < std::max(o.runs, 1); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      prepared.solve(stream, db, dx, ws);
      check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (call)");
      call.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(call.begin(), call.end());
    r.call_ms = call[call.size() / 2];
    std::vector<double> x(n);
    if (n > 0) {
      check_cuda(cudaMemcpyAsync(x.data(), dx, n * sizeof(double), cudaMemcpyDeviceToHost, stream), "copy x");
    }
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (x)");
    r.relative_error = cuda_resources::relative_error(x, expected);
    r.status = r.relative_error <= o.tolerance ? "ok" : "wrong";
  } catch (const std::exception& e) {
    r.status = "error";
    r.error = e.what();
    // Clear a pending (non-sticky) launch error so that the next scheme starts clean.
    cudaGetLastError();
    cudaStreamSynchronize(stream);
  }
  return r;
}

namespace {

// Device 0's properties, once per process: cudaGetDeviceProperties queries every attribute (about a
// millisecond), and the selection asks for the name at each analysis. nullopt without a device.
const std::optional<cudaDeviceProp>& device_properties() {
  static const std::optional<cudaDeviceProp> props = []() -> std::optional<cudaDeviceProp> {
    int count = 0;
    cudaDeviceProp prop{};
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
      cudaGetLastError();
      return std::nullopt;
    }
    return prop;
  }();
  return props;
}

}  // namespace

std::string cuda_device_name() {
  static const std::string name = device_properties() ? std::string(device_properties()->name) : "";
  return name;
}

std::string cuda_device_architecture() {
  const auto& p = device_properties();
  return p ? "sm_" + std::to_string(p->major) + std::to_string(p->minor) : "";
}

SchemeTimings time_schemes(const kernels::TriangularView& t, const std::vector<double>& b,
                           const std::vector<double>& expected, const std::vector<std::string>& schemes,
                           const SchemeTimingOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  SchemeTimings out;
  out.device = cuda_device_name();
  if (out.device.empty()) {
    out.reason = "no CUDA device";
    for (const std::string& name : schemes) out.schemes.push_back({name, "unavailable", out.reason});
    return out;
  }
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
  PoweredCache powered(t);  // pow schemes of one power share their host transform
  for (const std::string& name : schemes) {
    if (o.budget_seconds > 0 && elapsed() > o.budget_seconds) {
      out.schemes.push_back({name, "skipped", "time budget of " + std::to_string(o.budget_seconds) + " s spent"});
      continue;
    }
    out.schemes.push_back(time_prepared_scheme(name, stream.get(), t, matrix.view(), db.as<double>(), dx.as<double>(),
                                               ws, expected, o, &powered));
  }
  check_cuda(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize (end)");
  out.seconds = elapsed();
  return out;
}

double pageable_copy_ms(std::size_t n, int runs) {
  if (n == 0 || cuda_device_name().empty()) return 0;
  std::vector<double> host(n, 1.0);
  DeviceBuffer device(n * sizeof(double));
  std::vector<double> ms;
  for (int i = 0; i < std::max(runs, 1) + 1; ++i) {  // the first pair is a warm-up
    const auto t0 = std::chrono::steady_clock::now();
    check_cuda(cudaMemcpy(device.as<double>(), host.data(), n * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy (b)");
    check_cuda(cudaMemcpy(host.data(), device.as<double>(), n * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy (x)");
    if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace hetsparse::sptrsv
