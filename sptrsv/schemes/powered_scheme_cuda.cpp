// "powK:BASE" (powered_triangle.hpp) on the GPU: device copies of D^-1, the factors M .. M^(K/2) and
// the triangle I - M^K, the BASE family prepared on that triangle, and two right-hand-side buffers.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "kernels/sptrsv/sptrsv_cluster_levels.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"
#include "sptrsv/schemes/prepared_family.hpp"

namespace hetsparse::sptrsv {
namespace {

struct DeviceArrays {
  kernels::DeviceAllocations memory{"PoweredSolve"};
  std::vector<kernels::PowerFactorView> factors;
  const double* inverse_diagonal = nullptr;
  double* d = nullptr;  // the final right-hand side
  double* scratch = nullptr;
};

// d = (I + M^(K/2)) ... (I + M) D^-1 b: the passes alternate between `scratch` and `d` so the last
// lands in d.
void powered_rhs(cudaStream_t stream, const std::vector<kernels::PowerFactorView>& factors,
                 const double* inverse_diagonal, const double* b, double* d, double* scratch) {
  const double* in = b;
  const double* scale = inverse_diagonal;
  const std::size_t steps = factors.size();
  for (std::size_t k = 0; k < steps; ++k) {
    double* out = (steps - 1 - k) % 2 == 0 ? d : scratch;
    kernels::powered_rhs_step_cuda(stream, factors[k], scale, in, out);
    in = out;
    scale = nullptr;
  }
}

class PoweredFamily final : public PreparedFamily {
 public:
  // Uploads on `stream` and prepares BASE there (waits for both).
  PoweredFamily(cudaStream_t stream, std::shared_ptr<const PoweredTriangle> host, const SchemeSpec& base)
      : host_(std::move(host)) {
    DeviceArrays& a = arrays_;
    const std::size_t n = host_->inverse_diagonal().size();
    a.inverse_diagonal = a.memory.upload(stream, host_->inverse_diagonal());
    for (const StrictRows& f : host_->factors()) {
      kernels::PowerFactorView v = f.view();
      v.rowptr = a.memory.upload(stream, f.rowptr);
      v.colind = a.memory.upload(stream, f.colind);
      v.values = a.memory.upload(stream, f.values);
      a.factors.push_back(v);
    }
    a.d = a.memory.allocate<double>(n);
    a.scratch = a.memory.allocate<double>(n);
    const kernels::TriangularView t = host_->pattern().host_view();
    matrix_ = std::make_unique<kernels::DeviceTriangular>(stream, t);  // waits for the stream
    base_ = prepare_family(stream, t, matrix_->view(), base, nullptr);
  }

  // The K/2.. passes into a buffer of ours, then BASE from it into x (so x may be b, and cusparse
  // gets distinct arrays).
  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace& ws) const override {
    powered_rhs(stream, arrays_.factors, arrays_.inverse_diagonal, b, arrays_.d, arrays_.scratch);
    base_->solve(stream, arrays_.d, x, ws);
  }

 private:
  // Declared in this order so the base (which reads matrix_) goes first, the arrays last.
  std::shared_ptr<const PoweredTriangle> host_;
  DeviceArrays arrays_;
  std::unique_ptr<kernels::DeviceTriangular> matrix_;
  std::unique_ptr<PreparedFamily> base_;
};

kernels::DeviceAnalysisOptions unit_triangle_analysis() {
  kernels::DeviceAnalysisOptions o;
  o.unit_diagonal = true;
  return o;
}

// powK:clusterlevels from the matrix already on the GPU: the transform by cuSPARSE SpGEMM, the GPU
// analysis of I - M^K and clusterlevels packed on the device; no host pass over any power's entries.
class DevicePoweredFamily final : public PreparedFamily {
 public:
  DevicePoweredFamily(cudaStream_t stream, const kernels::TriangularDeviceView& device, std::int64_t nnz,
                      const SchemeSpec& spec)
      : transform_(stream, {device.n, device.upper, device.rowptr, device.colind, device.values}, nnz, spec.power,
                   PowerLimits{}.max_entry_ratio, PowerLimits{}.max_growth),
        analysis_(stream, lap("transform", transform_.powered()), unit_triangle_analysis()) {
    lap("analysis", 0);
    kernels::TriangularView t;  // what the cluster plan reads on the host: the level schedule
    t.n = device.n;
    t.upper = device.upper;
    t.num_levels = analysis_.view().num_levels;
    t.level_ptr = analysis_.level_ptr().data();
    const index_t longest = static_cast<index_t>(analysis_.statistics().longest_row) - 1;
    if (longest > kernels::ClusterLevelsPack::kMaxWidth) return;  // the device pack cannot hold I - M^K
    solver_ = std::make_unique<kernels::ClusterLevelsSolver>(stream, t, analysis_.view(), spec.base->cluster, longest);
    d_ = memory_.allocate<double>(static_cast<std::size_t>(device.n));
    scratch_ = memory_.allocate<double>(static_cast<std::size_t>(device.n));
    lap("pack", 0);
  }

  void solve(cudaStream_t stream, const double* b, double* x, const kernels::SolveWorkspace&) const override {
    powered_rhs(stream, transform_.factors(), transform_.inverse_diagonal(), b, d_, scratch_);
    solver_->solve(stream, d_, x);
  }
  void add_steps(PreparationSteps& s) const override { s.add_all("", steps_); }
  // False when I - M^K has rows longer than the device pack holds (nothing else was built).
  bool packed() const { return solver_ != nullptr; }

 private:
  // Records the time since the last lap as step `name` (each part waits for the stream before it
  // returns), passing `v` through so a member's initialiser can take it.
  template <class T>
  const T& lap(const char* name, const T& v) {
    const auto now = std::chrono::steady_clock::now();
    steps_.add(name, std::chrono::duration<double>(now - mark_).count());
    mark_ = now;
    return v;
  }

  PreparationSteps steps_;  // first: the members below are timed into it as they are built
  std::chrono::steady_clock::time_point mark_ = std::chrono::steady_clock::now();
  kernels::DevicePoweredTransform transform_;
  kernels::DeviceAnalysis analysis_;
  std::unique_ptr<kernels::ClusterLevelsSolver> solver_;
  kernels::DeviceAllocations memory_{"powK:clusterlevels"};
  double* d_ = nullptr;
  double* scratch_ = nullptr;
};

}  // namespace

bool prepares_powered_on_device(const SchemeSpec& spec) {
  return spec.kind == SchemeKind::Powered && spec.base && spec.base->kind == SchemeKind::ClusterLevels;
}

std::unique_ptr<PreparedFamily> prepare_powered_on_device(cudaStream_t stream, const kernels::TriangularDeviceView& device,
                                                          std::int64_t nnz, const SchemeSpec& spec) {
  if (!prepares_powered_on_device(spec)) return nullptr;
  auto family = std::make_unique<DevicePoweredFamily>(stream, device, nnz, spec);
  if (!family->packed()) return nullptr;  // rows of I - M^K longer than the pack holds need the host pack
  return family;
}

std::unique_ptr<PreparedFamily> prepare_powered(cudaStream_t stream, const kernels::TriangularView& host,
                                                const kernels::TriangularDeviceView& device, const SchemeSpec& spec,
                                                PoweredCache* powered) {
  if (std::unique_ptr<PreparedFamily> on_device =
          prepare_powered_on_device(stream, device, host.n > 0 ? host.rowptr[host.n] : 0, spec)) {
    return on_device;
  }
  std::shared_ptr<const PoweredTriangle> transform =
      powered != nullptr ? powered->get(spec.power) : std::make_shared<const PoweredTriangle>(host, spec.power);
  return std::make_unique<PoweredFamily>(stream, std::move(transform), *spec.base);
}

}  // namespace hetsparse::sptrsv
