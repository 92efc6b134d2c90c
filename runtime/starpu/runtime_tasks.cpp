// Data registration and task submission of the StarPU Runtime: TaskSpec -> starpu_task.
#include <starpu.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_errors.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/runtime_impl.hpp"
#include "runtime/starpu/task_completion.hpp"
#include "runtime/starpu/workers.hpp"
#include "runtime/starpu/starpu_check.hpp"

namespace hetsparse::rt {
namespace {

starpu_data_access_mode to_starpu(Access a) {
  switch (a) {
    case Access::Read:
      return STARPU_R;
    case Access::Write:
      return STARPU_W;
    case Access::ReadWrite:
      return STARPU_RW;
    case Access::Scratch:
      return STARPU_SCRATCH;
    case Access::Commute:
      return static_cast<starpu_data_access_mode>(STARPU_RW | STARPU_COMMUTE);
  }
  throw InvalidArgument("unknown access mode");
}

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

Runtime::Impl::Entry& Runtime::Impl::entry(HandleId id) {
  if (id >= handles.size() || !handles[id].handle)
    throw InvalidArgument("hetsparse runtime: unknown or unregistered data handle " + std::to_string(id));
  return handles[id];
}

Runtime::Impl::Entry Runtime::Impl::take(HandleId id) {
  std::lock_guard<std::mutex> lock(mutex);
  const Entry e = entry(id);
  handles[id] = Entry{};
  return e;
}

std::vector<std::uint32_t>& Runtime::Impl::worker_set(const std::vector<WorkerInfo>& workers, WorkerPin pin,
                                                            const std::string& task) {
  auto& bits = worker_sets[{pin.cuda_device, pin.numa_node}];
  if (!bits.empty()) return bits;
  std::vector<std::uint32_t> set((workers.size() + 31) / 32, 0);
  bool found = false;
  for (const WorkerInfo& w : workers) {
    const bool match = pin.cuda_device >= 0 ? w.kind == WorkerInfo::Kind::Cuda && w.device_id == pin.cuda_device
                                            : w.kind == WorkerInfo::Kind::Cpu && w.numa_node == pin.numa_node;
    if (!match) continue;
    set[static_cast<std::size_t>(w.id) / 32] |= 1u << (w.id % 32);
    found = true;
  }
  if (!found)
    throw InvalidArgument("submit: task '" + task + "' is pinned to " +
                          (pin.cuda_device >= 0 ? "CUDA device " + std::to_string(pin.cuda_device)
                                                : "the CPU workers of NUMA node " + std::to_string(pin.numa_node)) +
                          ", which no StarPU worker drives (hetsparse info lists them)");
  bits = std::move(set);
  return bits;
}

bool Runtime::Impl::inside_pinned_range(const void* p, std::size_t bytes) const {
  const char* c = static_cast<const char*>(p);
  auto it = pinned_ranges.upper_bound(c);  // first range starting after p
  if (it == pinned_ranges.begin()) return false;
  --it;
  return c + bytes <= it->first + it->second;
}

void Runtime::pin_host_range(void* ptr, std::size_t bytes) {
  if (!pin_ || !ptr || bytes == 0) return;
  if (starpu_memory_pin(ptr, bytes) == 0) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->pinned_ranges[static_cast<const char*>(ptr)] = bytes;
  }
}

void Runtime::unpin_host_range(void* ptr) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->pinned_ranges.find(static_cast<const char*>(ptr));
  if (it == impl_->pinned_ranges.end()) return;
  starpu_memory_unpin(ptr, it->second);
  impl_->pinned_ranges.erase(it);
}

// Pins the host range so CPU<->GPU copies are asynchronous DMAs.
void Runtime::Impl::pin_range(Entry& e, void* p, std::size_t bytes) {
  if (!p || bytes == 0) return;
  if (starpu_memory_pin(p, bytes) == 0) {
    e.pinned = p;
    e.pinned_bytes = bytes;
  }
}

namespace {

// The memory node of the CUDA workers that drive `device`; InvalidArgument when none does.
int cuda_memory_node(int device) {
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) == STARPU_CUDA_WORKER &&
        starpu_worker_get_devid(static_cast<int>(w)) == device) {
      return static_cast<int>(starpu_worker_get_memory_node(w));
    }
  }
  throw InvalidArgument("register_vector: no StarPU CUDA worker drives CUDA device " + std::to_string(device) +
                        " (STARPU_NCUDA, --device cpu?)");
}

}  // namespace

HandleId Runtime::register_vector(const VectorDesc& d) {
  Impl::Entry e;
  const bool on_gpu = d.cuda_device >= 0;
  const int node = on_gpu ? cuda_memory_node(d.cuda_device) : STARPU_MAIN_RAM;
  starpu_vector_data_register(&e.handle, node, reinterpret_cast<uintptr_t>(d.ptr), d.n, d.elem_size);
  if (!on_gpu && pin_ && d.pin && !impl_->inside_pinned_range(d.ptr, d.n * d.elem_size)) {
    Impl::pin_range(e, d.ptr, d.n * d.elem_size);
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_matrix(const MatrixDesc& d) {
  if (d.ld < d.rows) throw InvalidArgument("register_matrix: leading dimension smaller than the row count");
  Impl::Entry e;
  starpu_matrix_data_register(&e.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(d.ptr), d.ld, d.rows, d.cols,
                              sizeof(double));
  const std::size_t bytes = d.cols > 0 ? (d.ld * (d.cols - 1) + d.rows) * sizeof(double) : 0;
  if (pin_ && d.pin && !impl_->inside_pinned_range(d.ptr, bytes)) Impl::pin_range(e, d.ptr, bytes);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_csr(const CsrDesc& d) {
  Impl::Entry e;
  starpu_csr_data_register(&e.handle, STARPU_MAIN_RAM, d.nnz, d.rows, reinterpret_cast<uintptr_t>(d.values), d.colind,
                           d.rowptr, 0, sizeof(double));
  // Pin the largest array (values); StarPU copies colind/rowptr synchronously otherwise, which is fine.
  if (pin_) Impl::pin_range(e, d.values, std::size_t(d.nnz) * sizeof(double));
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

HandleId Runtime::register_temporary(std::size_t n, std::size_t elem_size) {
  Impl::Entry e;
  starpu_vector_data_register(&e.handle, -1, 0, n, elem_size);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->handles.push_back(e);
  return impl_->handles.size() - 1;
}

void Runtime::unregister(HandleId id) {
  const Impl::Entry e = impl_->take(id);
  starpu_data_unregister(e.handle);  // waits for the tasks and brings the data home
  if (e.pinned) starpu_memory_unpin(e.pinned, e.pinned_bytes);
}

void Runtime::discard(HandleId id) {
  const Impl::Entry e = impl_->take(id);
  starpu_data_unregister_no_coherency(e.handle);  // waits for the tasks, copies nothing
  if (e.pinned) starpu_memory_unpin(e.pinned, e.pinned_bytes);
}

bool Runtime::valid_on_host(HandleId id) {
  starpu_data_handle_t h;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    h = impl_->entry(id).handle;
  }
  int allocated = 0, valid = 0, requested = 0;
  starpu_data_query_status(h, STARPU_MAIN_RAM, &allocated, &valid, &requested);
  return valid != 0;
}

void Runtime::acquire_on_host(HandleId id, Access mode) {
  if (mode == Access::Scratch || mode == Access::Commute)
    throw InvalidArgument("acquire_on_host: the access must be Read, Write or ReadWrite");
  starpu_data_handle_t h;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    h = impl_->entry(id).handle;
  }
  check_starpu(starpu_data_acquire(h, to_starpu(mode)), "starpu_data_acquire of handle " + std::to_string(id));
  try {
    rethrow_task_error();  // a failed writer leaves nothing worth reading
  } catch (...) {
    starpu_data_release(h);
    throw;
  }
}

void Runtime::release_on_host(HandleId id) {
  starpu_data_handle_t h;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    h = impl_->entry(id).handle;
  }
  starpu_data_release(h);
}

void Runtime::submit(TaskSpec spec) {
  if (!spec.kernel) throw InvalidArgument("submit: task '" + spec.name + "' has no kernel");
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
    }
  }
  t->flops = spec.flops;
  t->callback_func = count_task_done;
  t->callback_arg = &impl_->in_flight;
  impl_->in_flight.fetch_add(1, std::memory_order_relaxed);
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
