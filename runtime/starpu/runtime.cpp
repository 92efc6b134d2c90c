// Runtime lifecycle: starpu_init with resolved options, per-worker CUDA library handles, shutdown and
// trace conversion.
#include "runtime/starpu/runtime.hpp"

#include <starpu.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <set>
#include <thread>

#include "hetsparse/error.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "runtime/starpu/runtime_impl.hpp"
#include "runtime/starpu/starpu_check.hpp"
#include "runtime/starpu/task_completion.hpp"
#include "codelets/support/task_errors.hpp"
#include "kernels/common/blas_threads.hpp"

namespace hetsparse::rt {
namespace {
std::atomic<bool> g_active{false};
}

Runtime::Runtime(const RuntimeOptions& opts) : impl_(std::make_unique<Impl>()) {
  if (g_active.exchange(true))
    throw InvalidArgument("a hetsparse Runtime already exists: StarPU allows one per process at a time");
  try {
    resolved_ = resolve_options(opts);
    bound_kernels();
    kernels::set_blas_threads(1);
    starpu_conf conf;
    check_starpu(starpu_conf_init(&conf), "starpu_conf_init");
    impl_->heteroprio = resolved_.scheduler == "heteroprio";
    if (impl_->heteroprio) conf.sched_policy_callback = configure_heteroprio;
    int rc = starpu_init(&conf);
    if (rc == -ENODEV)
      throw RuntimeFailure("StarPU: no worker available (STARPU_NCPU=0 and no usable GPU?)");
    check_starpu(rc, "starpu_init (scheduler '" + resolved_.scheduler + "')");
    running_ = true;
    if (const starpu_sched_policy* policy = starpu_sched_get_sched_policy())  // the one that runs
      resolved_.scheduler = policy->policy_name;
    workers_ = list_workers();
    impl_->spin_wait = workers_.size() < std::max(1u, std::thread::hardware_concurrency());
    cuda::init_libraries();
    pin_ = opts.pin_host_memory && cuda_workers() > 0;
  } catch (...) {
    if (running_) starpu_shutdown();
    running_ = false;
    g_active = false;
    throw;
  }
}

Runtime::~Runtime() {
  try {
    shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetsparse: error during runtime shutdown: %s\n", e.what());
  }
}

TraceFiles Runtime::shutdown() {
  if (!running_) return {};
  std::exception_ptr inline_error;
  try {
    close_inline();
  } catch (...) {  // reported after the shutdown, as a task's error is
    inline_error = std::current_exception();
  }
  starpu_task_wait_for_all();
  for (HandleId id = 0; id < impl_->handles.size(); ++id)
    if (impl_->handles[id].handle) unregister(id);
  for (const auto& [ptr, bytes] : impl_->pinned_ranges) starpu_memory_unpin(const_cast<char*>(ptr), bytes);
  impl_->pinned_ranges.clear();
  cuda::shutdown_libraries();
  starpu_shutdown();
  running_ = false;
  g_active = false;
  if (inline_error) std::rethrow_exception(inline_error);
  rethrow_task_error();
  if (resolved_.trace_dir.empty()) return {};
  return convert_trace(resolved_.trace_dir);
}

int Runtime::cpu_workers() const {
  int n = 0;
  for (const auto& w : workers_) n += w.kind == WorkerInfo::Kind::Cpu;
  return n;
}

int Runtime::cuda_workers() const {
  int n = 0;
  for (const auto& w : workers_) n += w.kind == WorkerInfo::Kind::Cuda;
  return n;
}

int Runtime::cuda_devices() const {
  std::set<int> devices;
  for (const auto& w : workers_)
    if (w.kind == WorkerInfo::Kind::Cuda) devices.insert(w.device_id);
  return static_cast<int>(devices.size());
}

void Runtime::wait_all() {
  close_inline();  // tasks may wait for what inline launches hold
  if (impl_->spin_wait) spin_until_done(impl_->in_flight);  // then StarPU's wait returns at once, without a wake-up
  check_starpu(starpu_task_wait_for_all(), "starpu_task_wait_for_all");
  rethrow_task_error();
}

std::optional<Runtime::BusBytes> Runtime::take_bus_bytes() {
  if (!running_ || !starpu_profiling_status_get()) return std::nullopt;
  BusBytes b;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info{};
    if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;  // reads and resets the bus's counters
    const bool from_ram = starpu_node_get_kind(starpu_bus_get_src(bus)) == STARPU_CPU_RAM;
    const bool to_ram = starpu_node_get_kind(starpu_bus_get_dst(bus)) == STARPU_CPU_RAM;
    if (from_ram && to_ram) continue;  // between NUMA nodes
    (from_ram ? b.to_gpu : to_ram ? b.from_gpu : b.between_gpus) += info.transferred_bytes;
    b.transfers += info.transfer_count;
  }
  return b;
}

std::size_t Runtime::pending_tasks() const {
  const int n = starpu_task_nsubmitted();
  return n > 0 ? static_cast<std::size_t>(n) : 0;
}

int Runtime::min_priority() const { return starpu_sched_get_min_priority(); }
int Runtime::max_priority() const { return starpu_sched_get_max_priority(); }

std::string starpu_version_string() {
  int major = 0, minor = 0, release = 0;
  starpu_get_version(&major, &minor, &release);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

}  // namespace hetsparse::rt
