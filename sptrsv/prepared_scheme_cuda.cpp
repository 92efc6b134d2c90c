// Schemes on the GPU (see prepared_scheme.hpp): the candidate lists, the one dispatch from a spec to
// its family (sptrsv/schemes/), and the per-worker preparation. Compiled only in CUDA builds.
#include <algorithm>
#include <chrono>
#include <utility>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {

using kernels::check_cuda;

SchemeKind check_scheme(const std::string& scheme) { return parse_scheme(scheme).kind; }

std::vector<std::string> plain_variant_names() { return kernels::gpu_variants(); }

std::vector<std::string> powered_candidates(const TriangularPattern& p) {
  std::vector<std::string> out;
  if (p.num_levels() < kPoweredMinLevels || p.features().rnnz_max > kPoweredMaxRow) return out;
  for (const int power : {2, 4, 8, 16})
    for (const char* base : {"cusparse", "syncfree_levelorder", "yuenyeung_levelorder", "clusterlevels"})
      out.push_back("pow" + std::to_string(power) + ":" + base);
  return out;
}

std::vector<std::string> unpowered_candidates(index_t n, std::int64_t nnz, index_t levels) {
  std::vector<std::string> out = kernels::gpu_variants();
  out.emplace_back("cusparse");
  out.emplace_back("clusterlevels");
  const double mean_row = n > 0 ? double(nnz) / double(n) : 0.0;
  for (const kernels::AgScheme& s : ag::ag_search_space(n, nnz, levels, mean_row)) {
    out.push_back(ag::to_string(s));
  }
  return out;
}

std::vector<std::string> candidate_schemes(const TriangularPattern& p) {
  std::vector<std::string> out = unpowered_candidates(p.rows(), p.nnz(), p.num_levels());
  const auto plain_and_cusparse = static_cast<std::ptrdiff_t>(kernels::gpu_variants().size() + 2);
  std::vector<std::string> powered = powered_candidates(p);
  out.insert(out.begin() + plain_and_cusparse, powered.begin(), powered.end());  // the order candidate_schemes had
  return out;
}

std::unique_ptr<PreparedFamily> prepare_family(cudaStream_t stream, const kernels::TriangularView& host,
                                               const kernels::TriangularDeviceView& device, const SchemeSpec& spec,
                                               PoweredCache* powered) {
  switch (spec.kind) {
    case SchemeKind::Variant:
      return prepare_variant(device, spec.variant);
    case SchemeKind::Cusparse:
      return prepare_cusparse(stream, device);
    case SchemeKind::ClusterLevels:
      return prepare_cluster_levels(stream, host, device, spec.cluster);
    case SchemeKind::Ag:
      return prepare_ag_family(stream, host, device, spec.ag);
    case SchemeKind::Powered:
      return prepare_powered(stream, host, device, spec, powered);
  }
  throw InvalidArgument("PreparedScheme: scheme kind out of range");
}

struct PreparedScheme::Impl {
  std::string scheme;
  SchemeKind kind = SchemeKind::Variant;
  std::unique_ptr<PreparedFamily> family;
  double seconds = 0;
};

PreparedScheme::PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host,
                               const kernels::TriangularDeviceView& device, const std::string& scheme,
                               PoweredCache* powered)
    : PreparedScheme(stream, host, device, parse_scheme(scheme), powered) {
  impl_->scheme = scheme;  // as the caller named it
}

PreparedScheme::PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host,
                               const kernels::TriangularDeviceView& device, const SchemeSpec& spec,
                               PoweredCache* powered)
    : impl_(std::make_unique<Impl>()) {
  impl_->scheme = to_string(spec);
  impl_->kind = spec.kind;
  const auto t0 = std::chrono::steady_clock::now();
  impl_->family = prepare_family(stream, host, device, spec, powered);
  impl_->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

PreparedScheme::~PreparedScheme() = default;

void PreparedScheme::solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const {
  impl_->family->solve(stream, b, x, ws);
}

const std::string& PreparedScheme::scheme() const { return impl_->scheme; }
SchemeKind PreparedScheme::kind() const { return impl_->kind; }
double PreparedScheme::preprocess_seconds() const { return impl_->seconds; }

struct WorkerSchemes::Slot {
  cudaStream_t stream = nullptr;
  std::unique_ptr<kernels::DeviceTriangular> matrix;
  std::unique_ptr<PreparedScheme> prepared;
};

std::unique_ptr<WorkerSchemes::Slot> WorkerSchemes::make_slot(cudaStream_t stream) {
  auto slot = std::make_unique<Slot>();
  const kernels::TriangularView host = pattern_.host_view();
  slot->matrix = std::make_unique<kernels::DeviceTriangular>(stream, host);
  slot->prepared = std::make_unique<PreparedScheme>(stream, host, slot->matrix->view(), spec_, &powered_);
  slot->stream = stream;
  return slot;
}

WorkerSchemes::WorkerSchemes(const TriangularPattern& pattern, std::string scheme)
    : pattern_(pattern), scheme_(std::move(scheme)), spec_(parse_scheme(scheme_)), powered_(pattern.host_view()) {
  if (spec_.kind != SchemeKind::Powered) return;
  // Built now: a refused transform is an error of analyze(), not of the first solve. On the host,
  // shared by the workers; on the GPU (powK:clusterlevels), for the first worker on this device.
  const auto t0 = std::chrono::steady_clock::now();
  if (prepares_powered_on_device(spec_)) {
    check_cuda(cudaGetDevice(&prebuilt_device_), "cudaGetDevice in WorkerSchemes");
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate in WorkerSchemes");
    try {
      prebuilt_ = make_slot(stream);  // waits for the stream
    } catch (...) {
      cudaStreamDestroy(stream);
      throw;
    }
    cudaStreamDestroy(stream);
  } else {
    powered_.get(spec_.power);
  }
  preprocess_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Slots free their device memory here, on the thread that drops the solver; the workers' streams
// have no solve of ours in flight then (TriangularSolver waits for every task it submits).
WorkerSchemes::~WorkerSchemes() = default;

void WorkerSchemes::solve(int worker, cudaStream_t stream, const double* b, double* x,
                          const kernels::SolveWorkspace& ws) {
  Slot* slot = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& s = slots_[worker];
    if (!s) s = std::make_unique<Slot>();
    slot = s.get();
  }
  // Only worker `worker` ever touches its slot, so preparation runs outside the lock.
  if (!slot->prepared) {
    int device = -1;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice in WorkerSchemes");
    std::unique_ptr<Slot> prebuilt;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (prebuilt_ && device == prebuilt_device_) prebuilt = std::move(prebuilt_);
    }
    if (prebuilt) {
      prebuilt->stream = stream;
      *slot = std::move(*prebuilt);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      *slot = std::move(*make_slot(stream));
      const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard<std::mutex> lock(mutex_);
      preprocess_seconds_ += dt;
    }
  }
  slot->prepared->solve(stream, b, x, ws);
}

double WorkerSchemes::preprocess_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return preprocess_seconds_;
}

}  // namespace hetsparse::sptrsv
