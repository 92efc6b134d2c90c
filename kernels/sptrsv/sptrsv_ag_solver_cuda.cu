// AgSolver: plans an AG-SpTRSV scheme for the current GPU (one persistent block of n_w working
// warps per SM), uploads the plan, and launches one code-variant kernel per kernel of the plan.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_allocations_cuda.hpp"
#include "kernels/sptrsv/sptrsv_ag.hpp"
#include "kernels/sptrsv/sptrsv_ag_kernel.cuh"
#include "kernels/sptrsv/sptrsv_ag_plan.hpp"
#include "kernels/sptrsv/sptrsv_device_rows.cuh"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

struct AgSolver::Impl {
  AgScheme scheme;
  TriangularDeviceView device;
  std::vector<ag::AgKernel> kernels;
  ag_device::AgDevicePlan plan{};
  ag_device::AgKernelFn wait_kernel = nullptr, free_kernel = nullptr;
  unsigned threads = 0;
  std::size_t shared_bytes = 0;
  double seconds = 0.0;
  DeviceAllocations memory{"AgSolver"};

  template <typename T>
  const T* upload(cudaStream_t stream, const std::vector<T>& host) {
    return memory.upload(stream, host);
  }
};

namespace {

int device_attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  check_cuda(cudaDeviceGetAttribute(&value, attribute, device), "cudaDeviceGetAttribute in AgSolver");
  return value;
}

// The launch of a scheme's kernels on the current device: n_w control (4.2.1), shared memory, and the
// machine the plan is made for.
struct AgLaunch {
  ag::AgMachine machine;
  unsigned threads = 0;
  std::size_t shared_bytes = 0;
  int capacity = 0;  // shared-read entries per warp
  ag_device::AgKernelFn wait_kernel = nullptr, free_kernel = nullptr;
};

AgLaunch ag_launch(const AgScheme& scheme, bool upper) {
  if (scheme.resident_warps < 1 || scheme.resident_warps > 32 || scheme.subwarps < 1 ||
      sptrsv_device::kWarp % scheme.subwarps != 0) {
    throw InvalidArgument("AgSolver: resident warps must be in 1..32 and subwarps divide 32");
  }
  int gpu = 0;
  check_cuda(cudaGetDevice(&gpu), "cudaGetDevice in AgSolver");
  const int sms = device_attribute(cudaDevAttrMultiProcessorCount, gpu);
  const int threads_per_sm = device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor, gpu);
  const int shared_per_sm = device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, gpu);
  const int shared_optin = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu);

  // A block asks for more than half an SM's shared memory, so no two blocks share an SM and exactly
  // n_w warps work on each. The same memory is the shared-read buffer.
  AgLaunch l;
  const int nw = scheme.resident_warps;
  l.threads = static_cast<unsigned>(nw) * sptrsv_device::kWarp;
  const int lanes = sptrsv_device::kWarp / scheme.subwarps;
  l.wait_kernel = ag_device::ag_kernel_for(upper, lanes, true);
  l.free_kernel = ag_device::ag_kernel_for(upper, lanes, false);
  const std::size_t exclusive = std::min<std::size_t>(shared_optin, shared_per_sm / 2 + 1024);
  l.capacity = static_cast<int>(exclusive / (static_cast<std::size_t>(nw) * (sizeof(double) + sizeof(index_t))));
  l.shared_bytes = ag_device::ag_shared_bytes(nw, l.capacity);
  for (const ag_device::AgKernelFn fn : {l.wait_kernel, l.free_kernel}) {
    check_cuda(cudaFuncSetAttribute(reinterpret_cast<const void*>(fn), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(l.shared_bytes)),
               "cudaFuncSetAttribute in AgSolver");
    // Deadlock freedom needs every launched block resident at once (sptrsv/ag/ag_plan_check.cpp):
    // at most one block per SM is launched, so one must fit.
    int resident = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, fn, static_cast<int>(l.threads),
                                                             l.shared_bytes),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor in AgSolver");
    if (resident < 1) {
      throw InvalidArgument("AgSolver: a block of " + std::to_string(nw) + " warps cannot be resident on this GPU");
    }
  }
  l.machine = ag::AgMachine{sms, nw, static_cast<std::int64_t>(sms) * (threads_per_sm / 32)};
  return l;
}

}  // namespace

ag::AgMachine ag_machine(const AgScheme& scheme) { return ag_launch(scheme, false).machine; }

AgSolver::AgSolver(cudaStream_t stream, const TriangularView& host, const TriangularDeviceView& device,
                   const AgScheme& scheme, const ag::AgPlan& plan)
    : impl_(std::make_unique<Impl>()) {
  const auto start = std::chrono::steady_clock::now();
  if (host.n != device.n || host.upper != device.upper || plan.n != host.n) {
    throw InvalidArgument("AgSolver: the host view, the device view and the plan are not the same matrix");
  }
  const AgLaunch launch = ag_launch(scheme, device.upper);
  const ag::AgMachine& m = launch.machine;
  if (plan.machine.num_blocks != m.num_blocks || plan.machine.warps_per_block != m.warps_per_block) {
    throw InvalidArgument("AgSolver: the plan was made for another machine than ag_machine(scheme)");
  }
  Impl& s = *impl_;
  s.scheme = scheme;
  s.device = device;
  s.threads = launch.threads;
  s.shared_bytes = launch.shared_bytes;
  s.wait_kernel = launch.wait_kernel;
  s.free_kernel = launch.free_kernel;
  const int nw = scheme.resident_warps;
  const int capacity = launch.capacity;
  s.kernels = plan.kernels;

  // Rows by position from the level-ordered copy when the scheme reorders and the device has one.
  const bool by_position = scheme.level_reorder && device.level_rowptr != nullptr;
  const bool contiguous = !scheme.level_reorder || by_position;  // a node's entries are one run
  std::vector<double> inv_diag(static_cast<std::size_t>(host.n));
  for (index_t row = 0; row < host.n; ++row) {
    inv_diag[row] = 1.0 / host.values[host.upper ? host.rowptr[row] : host.rowptr[row + 1] - 1];
  }
  std::vector<std::uint8_t> collaborative(plan.node_collaborative.begin(), plan.node_collaborative.end());
  ag_device::AgDevicePlan& d = s.plan;
  d.rowptr = by_position ? device.level_rowptr : device.rowptr;
  d.colind = by_position ? device.level_colind : device.colind;
  d.values = by_position ? device.level_values : device.values;
  d.by_position = by_position;
  d.position_rows = s.upload(stream, plan.position_rows);
  d.inv_diag = s.upload(stream, inv_diag);
  d.node_ptr = s.upload(stream, plan.node_ptr);
  d.node_collaborative = s.upload(stream, collaborative);
  d.group_ptr = s.upload(stream, plan.group_ptr);
  d.group_nodes = s.upload(stream, plan.group_nodes);
  d.warp_ptr = s.upload(stream, plan.warp_ptr);
  d.warp_groups = s.upload(stream, plan.warp_groups);
  d.warps_per_block = nw;
  d.shared_capacity = scheme.shared_read && contiguous ? capacity : 0;
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize in AgSolver");
  s.seconds = plan.seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

AgSolver::~AgSolver() = default;
AgSolver::AgSolver(AgSolver&&) noexcept = default;
AgSolver& AgSolver::operator=(AgSolver&&) noexcept = default;

void AgSolver::solve(cudaStream_t stream, const double* b, double* x, const SolveWorkspace& ws) const {
  const Impl& s = *impl_;
  if (s.device.n == 0) return;
  sptrsv_device::prepare_workspace(stream, s.device, ws, "AgSolver::solve");
  for (const ag::AgKernel& k : s.kernels) {
    const ag_device::AgKernelFn fn = k.wait ? s.wait_kernel : s.free_kernel;
    fn<<<static_cast<unsigned>(k.blocks), s.threads, s.shared_bytes, stream>>>(
        s.plan, ag_device::AgRange{k.group_begin, k.group_end, k.publish}, b, x, ws.ready);
  }
  check_cuda(cudaGetLastError(), "ag_kernel launch in AgSolver::solve");
}

double AgSolver::preprocess_seconds() const { return impl_->seconds; }
const AgScheme& AgSolver::scheme() const { return impl_->scheme; }
index_t AgSolver::num_kernels() const { return static_cast<index_t>(impl_->kernels.size()); }

}  // namespace hetsparse::kernels
