// Scheme dispatch and preparation on the GPU (see prepared_scheme.hpp). Plain C++ over the kernels'
// host APIs; compiled only in CUDA builds.
#include <algorithm>
#include <chrono>
#include <utility>

#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_cusparse.hpp"
#include "hetsparse/error.hpp"
#include "sptrsv/ag/ag_plan.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "sptrsv/powered_solve.hpp"
#include "sptrsv/prepared_scheme.hpp"

namespace hetsparse::sptrsv {

SchemeKind check_scheme(const std::string& scheme) {
  if (const std::optional<PoweredSchemeName> pow = parse_powered_scheme(scheme)) {
    if (!is_valid_power(pow->power)) {
      throw InvalidArgument("SpTRSV scheme '" + scheme + "': expected powK:BASE with K = 2, 4, 8 or 16");
    }
    if (parse_powered_scheme(pow->base)) {
      throw InvalidArgument("SpTRSV scheme '" + scheme + "': the base of a pow scheme cannot be another pow");
    }
    try {
      check_scheme(pow->base);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("SpTRSV scheme '" + scheme + "': its base: " + e.what());
    }
    return SchemeKind::Powered;
  }
  if (scheme == "cusparse") return SchemeKind::Cusparse;
  if (kernels::is_cluster_levels_scheme(scheme)) {
    kernels::parse_cluster_levels_scheme(scheme);  // InvalidArgument naming the key
    return SchemeKind::ClusterLevels;
  }
  if (scheme == "ag" || scheme.rfind("ag:", 0) == 0) {
    try {
      ag::validate(ag::parse_ag_scheme(scheme));
    } catch (const std::exception& e) {
      throw InvalidArgument("SpTRSV scheme '" + scheme + "': " + e.what());
    }
    return SchemeKind::Ag;
  }
  const std::vector<std::string> variants = kernels::gpu_variants();
  if (std::find(variants.begin(), variants.end(), scheme) != variants.end()) return SchemeKind::Variant;
  std::string known;
  for (const std::string& v : variants) known += v + ", ";
  throw InvalidArgument("unknown SpTRSV scheme '" + scheme + "' (known: auto, " + known +
                        "cusparse, clusterlevels[:key=val,...], ag:key=val,..., powK:BASE)");
}

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

struct PreparedScheme::Impl {
  std::string scheme;
  SchemeKind kind = SchemeKind::Variant;
  kernels::TriangularDeviceView device;
  std::unique_ptr<kernels::CusparseSpsv> cusparse;
  std::unique_ptr<kernels::AgSolver> ag;
  std::unique_ptr<kernels::ClusterLevelsSolver> cluster;
  std::unique_ptr<PoweredSolve> powered;
  double seconds = 0;
};

PreparedScheme::PreparedScheme(cudaStream_t stream, const kernels::TriangularView& host,
                               const kernels::TriangularDeviceView& device, const std::string& scheme,
                               PoweredCache* powered)
    : impl_(std::make_unique<Impl>()) {
  impl_->scheme = scheme;
  impl_->kind = check_scheme(scheme);
  impl_->device = device;
  const auto t0 = std::chrono::steady_clock::now();
  if (impl_->kind == SchemeKind::Cusparse) {
    impl_->cusparse = std::make_unique<kernels::CusparseSpsv>(stream, device);
  } else if (impl_->kind == SchemeKind::ClusterLevels) {
    impl_->cluster = std::make_unique<kernels::ClusterLevelsSolver>(stream, host, device,
                                                                    kernels::parse_cluster_levels_scheme(scheme));
  } else if (impl_->kind == SchemeKind::Ag) {
    impl_->ag = std::make_unique<kernels::AgSolver>(ag::prepare_ag(stream, host, device, ag::parse_ag_scheme(scheme)));
  } else if (impl_->kind == SchemeKind::Powered) {
    const PoweredSchemeName name = *parse_powered_scheme(scheme);
    std::shared_ptr<const PoweredTriangle> transform =
        powered != nullptr ? powered->get(name.power) : std::make_shared<const PoweredTriangle>(host, name.power);
    impl_->powered = std::make_unique<PoweredSolve>(stream, std::move(transform), name.base);
  }
  impl_->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

PreparedScheme::~PreparedScheme() = default;

void PreparedScheme::solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const {
  switch (impl_->kind) {
    case SchemeKind::Variant:
      kernels::reset_solve_workspace(stream, ws);
      kernels::solve_cuda(impl_->scheme, stream, impl_->device, b, x, ws);
      return;
    case SchemeKind::Cusparse:
      if (stream != impl_->cusparse->stream()) {
        throw InvalidArgument("PreparedScheme 'cusparse': solve on a stream other than the one it was prepared on");
      }
      if (b == x) throw InvalidArgument("PreparedScheme 'cusparse': b and x must be distinct arrays");
      impl_->cusparse->solve(b, x);
      return;
    case SchemeKind::ClusterLevels:
      impl_->cluster->solve(stream, b, x);
      return;
    case SchemeKind::Ag:
      impl_->ag->solve(stream, b, x, ws);
      return;
    case SchemeKind::Powered:
      impl_->powered->solve(stream, b, x, ws);
      return;
  }
}

const std::string& PreparedScheme::scheme() const { return impl_->scheme; }
SchemeKind PreparedScheme::kind() const { return impl_->kind; }
double PreparedScheme::preprocess_seconds() const { return impl_->seconds; }

struct WorkerSchemes::Slot {
  cudaStream_t stream = nullptr;
  std::unique_ptr<kernels::DeviceTriangular> matrix;
  std::unique_ptr<PreparedScheme> prepared;
};

WorkerSchemes::WorkerSchemes(const TriangularPattern& pattern, std::string scheme)
    : pattern_(pattern), scheme_(std::move(scheme)), powered_(pattern.host_view()) {
  if (check_scheme(scheme_) == SchemeKind::Powered) {
    // Built now, on the host: a refused transform is an error of analyze(), not of the first solve.
    const auto t0 = std::chrono::steady_clock::now();
    powered_.get(parse_powered_scheme(scheme_)->power);
    preprocess_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
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
    const auto t0 = std::chrono::steady_clock::now();
    const kernels::TriangularView host = pattern_.host_view();
    slot->matrix = std::make_unique<kernels::DeviceTriangular>(stream, host);
    slot->prepared = std::make_unique<PreparedScheme>(stream, host, slot->matrix->view(), scheme_, &powered_);
    slot->stream = stream;
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> lock(mutex_);
    preprocess_seconds_ += dt;
  }
  slot->prepared->solve(stream, b, x, ws);
}

double WorkerSchemes::preprocess_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return preprocess_seconds_;
}

}  // namespace hetsparse::sptrsv
