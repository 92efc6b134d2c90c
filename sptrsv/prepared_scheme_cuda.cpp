// Schemes on the GPU (see prepared_scheme.hpp): the one dispatch from a spec to its family
// (sptrsv/schemes/) and the per-worker preparation; the candidate lists are scheme_candidates_cuda.cpp.
// Compiled only in CUDA builds.
#include <algorithm>
#include <chrono>
#include <utility>

#include "hetsparse/error.hpp"
#include "kernels/common/cuda_check.hpp"
#include "sptrsv/prepared_scheme.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {

using kernels::check_cuda;

SchemeKind check_scheme(const std::string& scheme) { return parse_scheme(scheme).kind; }

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
    case SchemeKind::Wavefront:
      return prepare_wavefront(stream, device, kernels::cluster_levels_longest(host), spec.wavefront);
    case SchemeKind::Ag:
      return prepare_ag_family(stream, host, device, spec.ag);
    case SchemeKind::Powered:
      return prepare_powered(stream, host, device, spec, powered);
  }
  throw InvalidArgument("PreparedScheme: scheme kind out of range");
}

bool prepares_from_device_matrix(const SchemeSpec& spec) {
  return spec.kind == SchemeKind::Cusparse || spec.kind == SchemeKind::ClusterLevels ||
         spec.kind == SchemeKind::Wavefront || prepares_powered_on_device(spec);
}

struct PreparedScheme::Impl {
  std::string scheme;
  SchemeKind kind = SchemeKind::Variant;
  std::unique_ptr<PreparedFamily> family;
  double seconds = 0;
};

PreparedScheme::PreparedScheme() : impl_(std::make_unique<Impl>()) {}

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

std::unique_ptr<PreparedScheme> PreparedScheme::from_device(cudaStream_t stream, const DeviceMatrix& m,
                                                            const SchemeSpec& spec) {
  if (spec.kind != SchemeKind::Variant && !prepares_from_device_matrix(spec)) return nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<PreparedFamily> family;
  switch (spec.kind) {
    case SchemeKind::Variant:  // the analysis's arrays are all it reads
      family = prepare_variant(m.view, spec.variant);
      break;
    case SchemeKind::Cusparse:
      family = prepare_cusparse(stream, m.view);
      break;
    case SchemeKind::ClusterLevels:  // a thread a row: longer rows need the host pack
      if (spec.cluster.lanes == 1 && m.longest_off_diagonals > kernels::ClusterLevelsPack::kMaxWidth) return nullptr;
      family = prepare_cluster_levels(stream, m.levels, m.view, spec.cluster, m.longest_off_diagonals);
      break;
    case SchemeKind::Wavefront:
      family = prepare_wavefront(stream, m.view, m.longest_off_diagonals, spec.wavefront);
      break;
    default:
      family = prepare_powered_on_device(stream, m.view, m.nnz, spec);  // null: I - M^K overflows the pack
      break;
  }
  if (!family) return nullptr;
  std::unique_ptr<PreparedScheme> p(new PreparedScheme());
  p->impl_->scheme = to_string(spec);
  p->impl_->kind = spec.kind;
  p->impl_->family = std::move(family);
  p->impl_->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return p;
}

PreparedScheme::~PreparedScheme() = default;

void PreparedScheme::solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const {
  impl_->family->solve(stream, b, x, ws);
}

const std::string& PreparedScheme::scheme() const { return impl_->scheme; }
SchemeKind PreparedScheme::kind() const { return impl_->kind; }
double PreparedScheme::preprocess_seconds() const { return impl_->seconds; }

PreparationSteps PreparedScheme::steps() const {
  PreparationSteps s;
  impl_->family->add_steps(s);
  s.add(s.empty() ? "scheme" : "other", std::max(0.0, impl_->seconds - s.total()));
  return s;
}

struct WorkerSchemes::Slot {
  cudaStream_t stream = nullptr;
  std::unique_ptr<kernels::DeviceTriangular> matrix;  // null when prepared from the GPU analysis
  std::unique_ptr<PreparedScheme> prepared;
};

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

PoweredCache& WorkerSchemes::powered() {
  const TriangularPattern& p = source_.pattern();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!powered_) powered_ = std::make_unique<PoweredCache>(p.host_view());
  return *powered_;
}

std::unique_ptr<WorkerSchemes::Slot> WorkerSchemes::make_slot(cudaStream_t stream, PreparationSteps& steps) {
  auto slot = std::make_unique<Slot>();
  slot->stream = stream;
  if (source_.device != nullptr) {
    int device = -1;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice in WorkerSchemes");
    if (device == source_.device_ordinal) {
      slot->prepared = PreparedScheme::from_device(stream, *source_.device, spec_);
      if (slot->prepared) {
        steps.add_all("", slot->prepared->steps());
        return slot;
      }
    }
  }
  // The host pattern (when built here from a download, its time is the solver's, not this step's).
  const kernels::TriangularView host = source_.pattern().host_view();
  PoweredCache& powered_cache = powered();
  const auto t0 = std::chrono::steady_clock::now();
  slot->matrix = std::make_unique<kernels::DeviceTriangular>(stream, host);
  steps.add("matrix_upload", seconds_since(t0));
  slot->prepared = std::make_unique<PreparedScheme>(stream, host, slot->matrix->view(), spec_, &powered_cache);
  steps.add_all("", slot->prepared->steps());
  return slot;
}

WorkerSchemes::WorkerSchemes(const TriangularPattern& pattern, std::string scheme)
    : WorkerSchemes(SchemeSource{[&pattern]() -> const TriangularPattern& { return pattern; }, nullptr, -1},
                    std::move(scheme)) {}

WorkerSchemes::WorkerSchemes(SchemeSource source, std::string scheme)
    : source_(std::move(source)), scheme_(std::move(scheme)), spec_(parse_scheme(scheme_)) {
  if (spec_.kind != SchemeKind::Powered) return;
  // Built now: a refused transform is an error of analyze(), not of the first solve. On the host,
  // shared by the workers; on the GPU (powK:clusterlevels), for the first worker on this device.
  PreparationSteps steps;
  if (prepares_powered_on_device(spec_)) {
    check_cuda(cudaGetDevice(&prebuilt_device_), "cudaGetDevice in WorkerSchemes");
    cudaStream_t stream = nullptr;
    check_cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate in WorkerSchemes");
    try {
      prebuilt_ = make_slot(stream, steps);  // waits for the stream
    } catch (...) {
      cudaStreamDestroy(stream);
      throw;
    }
    cudaStreamDestroy(stream);
  } else {
    PoweredCache& cache = powered();
    const auto t0 = std::chrono::steady_clock::now();
    cache.get(spec_.power);
    steps.add("host_transform", seconds_since(t0));
  }
  steps_.add_all("", steps);
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
      PreparationSteps steps;
      *slot = std::move(*make_slot(stream, steps));
      std::lock_guard<std::mutex> lock(mutex_);
      steps_.add_all("", steps);
    }
  }
  slot->prepared->solve(stream, b, x, ws);
}

void WorkerSchemes::solve_host(int worker, cudaStream_t stream, index_t n, const double* host_b, double* host_x,
                               double* device_scratch, const kernels::SolveWorkspace& ws) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(double);
  double* db = device_scratch;
  double* dx = device_scratch + n;
  check_cuda(cudaMemcpyAsync(db, host_b, bytes, cudaMemcpyHostToDevice, stream), "copy b in (solve_host)");
  solve(worker, stream, db, dx, ws);
  check_cuda(cudaMemcpyAsync(host_x, dx, bytes, cudaMemcpyDeviceToHost, stream), "copy x out (solve_host)");
}

double WorkerSchemes::preprocess_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return steps_.total();
}

PreparationSteps WorkerSchemes::steps() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return steps_;
}

}  // namespace hetsparse::sptrsv
