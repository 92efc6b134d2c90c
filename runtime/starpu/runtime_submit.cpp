// Task submission of the StarPU Runtime: TaskSpec -> starpu_task, through the codelets' bindings.
#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "codelets/support/starpu_binding.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/runtime_impl.hpp"
#include "runtime/starpu/starpu_check.hpp"
#include "runtime/starpu/task_completion.hpp"
#include "runtime/starpu/workers.hpp"

namespace hetsparse::rt {
namespace {

int32_t to_starpu(Where w) {
  switch (w) {
    case Where::Any:
      return -1;  // the codelet's own set of devices
    case Where::Cpu:
      return STARPU_CPU;
    case Where::Cuda:
      return STARPU_CUDA;
  }
  throw InvalidArgument("unknown device restriction");
}

}  // namespace

const StarpuBindings& bound_kernels() {
  // Process-wide, like the codelets StarPU keeps pointers to: made once, at the first Runtime.
  static const StarpuBindings bindings = [] {
    StarpuBindings b;
    codelets::bind_codelets(b);
    return b;
  }();
  return bindings;
}

std::vector<std::uint32_t>& Runtime::Impl::worker_set(const std::vector<WorkerInfo>& workers, WorkerPin pin,
                                                            const std::string& task) {
  auto& bits = worker_sets[{pin.cuda_device, pin.numa_node, pin.cpu_worker}];
  if (!bits.empty()) return bits;
  std::vector<std::uint32_t> set((workers.size() + 31) / 32, 0);
  bool found = false;
  const int pinned_cpu = pin.cpu_worker >= 0 ? cpu_worker_id(workers, pin.cpu_worker) : -1;
  for (const WorkerInfo& w : workers) {
    const bool match = pin.cuda_device >= 0  ? w.kind == WorkerInfo::Kind::Cuda && w.device_id == pin.cuda_device
                       : pin.cpu_worker >= 0 ? w.id == pinned_cpu
                                             : w.kind == WorkerInfo::Kind::Cpu && w.numa_node == pin.numa_node;
    if (!match) continue;
    set[static_cast<std::size_t>(w.id) / 32] |= 1u << (w.id % 32);
    found = true;
  }
  if (!found)
    throw InvalidArgument("submit: task '" + task + "' is pinned to " +
                          (pin.cuda_device >= 0  ? "CUDA device " + std::to_string(pin.cuda_device)
                           : pin.cpu_worker >= 0 ? "CPU worker " + std::to_string(pin.cpu_worker)
                                                 : "the CPU workers of NUMA node " + std::to_string(pin.numa_node)) +
                          ", which no StarPU worker drives (hetsparse info lists them)");
  bits = std::move(set);
  return bits;
}

void Runtime::submit(TaskSpec spec) {
  if (!spec.kernel) throw InvalidArgument("submit: task '" + spec.name + "' has no kernel");
  if (spec.launch_inline && launch_inline(spec)) return;
  starpu_codelet* cl = bound_kernels().find(*spec.kernel);
  if (!cl)
    throw InvalidArgument("submit: kernel '" + std::string(spec.kernel->name) + "' of task '" + spec.name +
                          "' has no StarPU binding (codelets/bind_codelets.cpp)");
  if (!can_run(spec.kernel->devices, spec.where))
    throw InvalidArgument("submit: task '" + spec.name + "' is restricted to " + to_string(spec.where) +
                          " but kernel '" + spec.kernel->name + "' has no implementation there");
  check_workers(spec, "submit");
  struct {
    std::uint32_t* data = nullptr;
    unsigned len = 0;
  } worker_set;
  if (spec.workers.any()) {  // before the task exists: an unknown device throws without leaking it
    std::lock_guard<std::mutex> lock(impl_->mutex);
    std::vector<std::uint32_t>& set = impl_->worker_set(workers_, spec.workers, spec.name);
    worker_set = {set.data(), static_cast<unsigned>(set.size())};
  }
  if (spec.data.size() > kMaxTaskData)
    throw InvalidArgument("submit: task '" + spec.name + "' has " + std::to_string(spec.data.size()) +
                          " data, more than the " + std::to_string(kMaxTaskData) + " a task may take");
  const int n = static_cast<int>(spec.data.size());
  if (cl->nbuffers != STARPU_VARIABLE_NBUFFERS && cl->nbuffers != n)
    throw InvalidArgument("submit: task '" + spec.name + "' gives " + std::to_string(n) + " data, kernel '" +
                          spec.kernel->name + "' takes " + std::to_string(cl->nbuffers));

  starpu_task* t = starpu_task_create();
  t->cl = cl;
  t->nbuffers = n;
  if (n > STARPU_NMAXBUFS) {
    t->dyn_handles = static_cast<starpu_data_handle_t*>(std::malloc(n * sizeof(starpu_data_handle_t)));
    t->dyn_modes = static_cast<starpu_data_access_mode*>(std::malloc(n * sizeof(starpu_data_access_mode)));
  }
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (int i = 0; i < n; ++i) {
      STARPU_TASK_SET_HANDLE(t, impl_->entry(spec.data[i].handle).handle, i);
      STARPU_TASK_SET_MODE(t, to_starpu(spec.data[i].mode), i);
    }
    t->name = impl_->intern(spec.name.empty() ? spec.kernel->name : spec.name);
  }
  t->workerids = worker_set.data;
  t->workerids_len = worker_set.len;
  if (!spec.args.empty()) {
    t->cl_arg = std::malloc(spec.args.size());
    std::memcpy(t->cl_arg, spec.args.data(), spec.args.size());
    t->cl_arg_size = spec.args.size();
    t->cl_arg_free = 1;
  }
  t->priority = std::clamp(spec.priority, min_priority(), max_priority());
  if (impl_->heteroprio)
    t->priority = heteroprio_bucket(t->priority, spec.workers.cuda_device >= 0 ? Where::Cuda : spec.where);
  t->where = to_starpu(spec.where);
  if (spec.workers.cuda_device >= 0) t->where = STARPU_CUDA;
  if (spec.direct) {
    if (const int only = sole_worker(workers_, spec); only >= 0) {
      t->execute_on_a_specific_worker = 1;
      t->workerid = static_cast<unsigned>(only);
      t->cl = bound_kernels().find(*spec.kernel, true);  // no scheduler weighs it: no model to update
    }
  }
  t->flops = spec.flops;
  t->callback_func = count_task_done;
  t->callback_arg = &impl_->in_flight;
  impl_->in_flight.fetch_add(1, std::memory_order_relaxed);
  impl_->tasks_submitted.fetch_add(1);  // what inline launches hold may no longer serve the next one
  int rc = starpu_task_submit(t);
  if (rc < 0) {
    impl_->in_flight.fetch_sub(1, std::memory_order_relaxed);
    t->destroy = 0;
    starpu_task_destroy(t);
    check_starpu(rc, std::string("submitting task '") + (spec.name.empty() ? spec.kernel->name : spec.name) +
                         "' (device " + to_string(spec.where) + ")");
  }
}

}  // namespace hetsparse::rt
