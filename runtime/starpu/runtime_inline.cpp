// Runtime::run_inline: a task's CUDA function run in the calling thread on data acquired on a GPU's
// memory node. A task's round trip through a CUDA worker (submission, the worker's pop, the event
// poll, termination, the waiter's wake-up) costs more than a small kernel (docs/benchmarks.md, issue
// 16, twenty-fourth session); acquiring data that is already there costs little.
#include <starpu.h>

#include <string>
#include <vector>

#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_errors.hpp"
#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"
#include "runtime/starpu/runtime_impl.hpp"
#include "runtime/starpu/starpu_check.hpp"

namespace hetsparse::rt {
namespace {

// The data acquired so far on one node, released at the end of the scope whatever happens.
class Acquired {
 public:
  explicit Acquired(unsigned node) : node_(static_cast<int>(node)) {}
  ~Acquired() {
    for (auto it = held_.rbegin(); it != held_.rend(); ++it) starpu_data_release_on_node(*it, node_);
  }
  Acquired(const Acquired&) = delete;
  Acquired& operator=(const Acquired&) = delete;
  void add(starpu_data_handle_t h, starpu_data_access_mode mode, HandleId id) {
    check_starpu(starpu_data_acquire_on_node(h, node_, mode),
                 "starpu_data_acquire_on_node of handle " + std::to_string(id) + " (run_inline)");
    held_.push_back(h);
  }

 private:
  int node_;
  std::vector<starpu_data_handle_t> held_;
};

}  // namespace

bool Runtime::run_inline(const TaskSpec& spec) {
  if (!spec.kernel) throw InvalidArgument("run_inline: task '" + spec.name + "' has no kernel");
  if (spec.where == Where::Cpu) return false;
  const TaskFunction f = bound_kernels().find_inline_cuda(*spec.kernel);
  if (f == nullptr) return false;
  for (std::size_t i = 0; i < spec.data.size(); ++i) {
    if (spec.data[i].mode == Access::Scratch) return false;
    // Acquired one by one, a handle held for reading and asked again for writing would wait for itself.
    for (std::size_t j = 0; j < i; ++j)
      if (spec.data[j].handle == spec.data[i].handle &&
          (spec.data[i].mode != Access::Read || spec.data[j].mode != Access::Read))
        throw InvalidArgument("run_inline: task '" + spec.name + "' names handle " + std::to_string(spec.data[i].handle) +
                              " twice, not only for reading");
  }
  if (spec.data.size() > kMaxTaskData)
    throw InvalidArgument("run_inline: task '" + spec.name + "' has more than " + std::to_string(kMaxTaskData) + " data");
  const WorkerInfo* gpu = nullptr;
  for (const WorkerInfo& w : workers_) {
    if (w.kind == WorkerInfo::Kind::Cuda && (spec.workers.cuda_device < 0 || w.device_id == spec.workers.cuda_device)) {
      gpu = &w;
      break;
    }
  }
  if (gpu == nullptr) return false;
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(gpu->id));

  std::vector<starpu_data_handle_t> handles(spec.data.size());
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (std::size_t i = 0; i < spec.data.size(); ++i) handles[i] = impl_->entry(spec.data[i].handle).handle;
  }
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  Acquired acquired(node);
  std::vector<void*> buffers(spec.data.size());
  for (std::size_t i = 0; i < spec.data.size(); ++i) {
    acquired.add(handles[i], to_starpu(spec.data[i].mode), spec.data[i].handle);
    buffers[i] = starpu_data_get_interface_on_node(handles[i], node);
  }
  rethrow_task_error();  // a failed writer of the data left nothing worth reading
  std::vector<unsigned char> args(spec.args);  // the function takes a mutable pointer, as StarPU's cl_arg
  const std::string name = spec.name.empty() ? spec.kernel->name : spec.name;
  // No task to show in the trace: a user event of the calling thread marks the call's start instead.
  if (!resolved_.trace_dir.empty()) starpu_fxt_trace_user_event_string(("inline " + name).c_str());
  cuda::InlineCuda scope(gpu->device_id);
  try {
    f(buffers.data(), args.empty() ? nullptr : args.data());
  } catch (...) {
    scope.wait_quietly();  // nothing of its may still run once the data are released
    throw;
  }
  scope.wait(name);
  return true;
}

}  // namespace hetsparse::rt
