// Runtime::run_inline and launch_inline: a task's CUDA function run in the calling thread on data
// acquired on a GPU's memory node. A task's round trip through a CUDA worker (submission, the
// worker's pop, the event poll, termination, the next task's launch) costs more than a small kernel
// (docs/benchmarks.md, issues 16 and 18); acquiring data that is already there costs little, and
// keeping it acquired across a chain of launches costs nothing.
#include <starpu.h>

#include <algorithm>
#include <exception>
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

// Each read begun and not finished (Impl::reads) has the staging slot of its index.
static_assert(TaskRuntime::kInlineReads <= static_cast<int>(cuda::InlineCuda::kStagingSlots),
              "a staging slot for every read begun");

// What an inline call acquires for an access. A Scratch buffer is written on the node: the per-worker
// copies that tasks use are other buffers. Commute is ReadWrite when only one caller runs.
starpu_data_access_mode inline_mode(Access a) {
  switch (a) {
    case Access::Read:
      return STARPU_R;
    case Access::Write:
    case Access::Scratch:
      return STARPU_W;
    case Access::ReadWrite:
    case Access::Commute:
      return STARPU_RW;
  }
  throw InvalidArgument("unknown access mode");
}

// Whether data held for `held` serves an access for `want`: held for writing, the node's copy is the
// one that counts and serves any access; held for reading, it serves reads only.
bool serves(starpu_data_access_mode held, starpu_data_access_mode want) {
  return (held & STARPU_W) != 0 || want == STARPU_R;
}

void check_inline_data(const TaskSpec& spec, const char* who) {
  if (spec.data.size() > kMaxTaskData)
    throw InvalidArgument(std::string(who) + ": task '" + spec.name + "' has more than " +
                          std::to_string(kMaxTaskData) + " data");
  for (std::size_t i = 0; i < spec.data.size(); ++i)
    // Acquired one by one, a handle held for reading and asked again for writing would wait for itself.
    for (std::size_t j = 0; j < i; ++j)
      if (spec.data[j].handle == spec.data[i].handle &&
          (spec.data[i].mode != Access::Read || spec.data[j].mode != Access::Read))
        throw InvalidArgument(std::string(who) + ": task '" + spec.name + "' names handle " +
                              std::to_string(spec.data[i].handle) + " twice, not only for reading");
}

}  // namespace

std::pair<starpu_data_handle_t, starpu_data_access_mode>* Runtime::Impl::InlineBatch::find(starpu_data_handle_t h) {
  const auto it = std::find_if(held.begin(), held.end(), [h](const auto& e) { return e.first == h; });
  return it == held.end() ? nullptr : &*it;
}

std::string Runtime::Impl::InlineBatch::what() const {
  return launches > 1 ? "inline launches up to task '" + last + "'" : "task '" + last + "' run inline";
}

void Runtime::Impl::close_batch() {
  if (batch.device < 0) return;
  InlineBatch done = std::move(batch);
  batch = InlineBatch{};
  std::exception_ptr error;
  try {
    cuda::InlineCuda scope(done.device);
    scope.wait(done.what());
  } catch (...) {
    error = std::current_exception();
  }
  for (auto it = done.held.rbegin(); it != done.held.rend(); ++it)
    starpu_data_release_on_node(it->first, static_cast<int>(done.node));
  // Only now: another thread's close_inline() that finds the batch open waits on the lock for this one.
  batch_open.store(false, std::memory_order_release);
  if (error) std::rethrow_exception(error);
}

void Runtime::close_inline() {
  if (!impl_->batch_open.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  impl_->close_batch();
}

void Runtime::close_inline_for(HandleId id) {
  if (!impl_->batch_open.load(std::memory_order_acquire)) return;
  const starpu_data_handle_t h = impl_->handle(id);
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  Impl::InlineBatch& b = impl_->batch;
  // A task submitted since the batch opened may wait for any of what it holds.
  if (b.device >= 0 && impl_->batch_outdated()) return impl_->close_batch();
  if (b.find(h) == nullptr) return;  // no launch of the batch touches it
  impl_->give_back(h);
  if (b.held.empty()) impl_->close_batch();
}

void Runtime::Impl::give_back(starpu_data_handle_t h) {
  try {
    cuda::InlineCuda scope(batch.device);
    scope.wait(batch.what());
  } catch (...) {
    close_batch();  // the error is the stream's: nothing of the batch is worth keeping
    throw;
  }
  starpu_data_release_on_node(h, static_cast<int>(batch.node));
  const auto* held = batch.find(h);
  batch.held.erase(batch.held.begin() + (held - batch.held.data()));
}

const void* Runtime::Impl::held_vector(starpu_data_handle_t h, HandleId id, std::size_t bytes, const char* who) {
  if (batch.device < 0) return nullptr;
  if (batch_outdated()) {  // the task may write it, and it comes first
    close_batch();
    return nullptr;
  }
  if (batch.find(h) == nullptr) return nullptr;
  if (starpu_data_get_interface_id(h) != STARPU_VECTOR_INTERFACE_ID)
    throw InvalidArgument(std::string(who) + ": handle " + std::to_string(id) + " is not a vector");
  const auto* v = static_cast<const starpu_vector_interface*>(starpu_data_get_interface_on_node(h, batch.node));
  if (bytes > std::size_t(STARPU_VECTOR_GET_NX(v)) * STARPU_VECTOR_GET_ELEMSIZE(v))
    throw InvalidArgument(std::string(who) + ": " + std::to_string(bytes) + " bytes asked of handle " +
                          std::to_string(id) + ", which has fewer");
  return reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(v));
}

bool Runtime::read_inline(HandleId id, void* dst, std::size_t bytes) {
  if (!impl_->batch_open.load(std::memory_order_acquire)) return false;
  const starpu_data_handle_t h = impl_->handle(id);
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  const void* src = impl_->held_vector(h, id, bytes, "read_inline");
  if (src == nullptr) return false;
  Impl::InlineBatch& b = impl_->batch;
  try {
    cuda::InlineCuda scope(b.device);
    scope.copy_to_host(dst, src, bytes, b.what());
  } catch (...) {
    try {
      impl_->close_batch();
    } catch (...) {  // the copy's error is the one to report
    }
    throw;
  }
  return true;
}

bool Runtime::begin_read_inline(HandleId id, std::size_t bytes) {
  if (!impl_->batch_open.load(std::memory_order_acquire)) return false;
  const starpu_data_handle_t h = impl_->handle(id);
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  const void* src = impl_->held_vector(h, id, bytes, "begin_read_inline");
  if (src == nullptr) return false;
  if (bytes > cuda::InlineCuda::kStagedBytes)
    throw InvalidArgument("begin_read_inline: " + std::to_string(bytes) + " bytes asked of handle " +
                          std::to_string(id) + ", more than a staged read takes");
  auto& reads = impl_->reads;
  for (const Impl::PendingRead& r : reads)
    if (r.device >= 0 && r.id == id)
      throw InvalidArgument("begin_read_inline: a read of handle " + std::to_string(id) + " is already begun");
  const auto free = std::find_if(reads.begin(), reads.end(), [](const Impl::PendingRead& r) { return r.device < 0; });
  if (free == reads.end())
    throw InvalidArgument("begin_read_inline: " + std::to_string(kInlineReads) + " reads begun and not finished");
  const int device = impl_->batch.device;
  cuda::InlineCuda scope(device);
  scope.stage_to_host(static_cast<unsigned>(free - reads.begin()), src, bytes, impl_->batch.what());
  *free = {id, device, bytes};
  return true;
}

void Runtime::finish_read_inline(HandleId id, void* dst) {
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  auto& reads = impl_->reads;
  const auto r = std::find_if(reads.begin(), reads.end(),
                              [id](const Impl::PendingRead& p) { return p.device >= 0 && p.id == id; });
  if (r == reads.end())
    throw InvalidArgument("finish_read_inline: no read of handle " + std::to_string(id) + " was begun");
  const Impl::PendingRead read = *r;
  *r = {};
  try {
    cuda::InlineCuda scope(read.device);
    scope.take_staged(static_cast<unsigned>(r - reads.begin()), dst, read.bytes, impl_->batch.what());
  } catch (...) {
    try {
      impl_->close_batch();
    } catch (...) {  // the copy's error is the one to report
    }
    throw;
  }
}

bool Runtime::queue_inline(const TaskSpec& spec, const char* who) {
  if (!spec.kernel) throw InvalidArgument(std::string(who) + ": task '" + spec.name + "' has no kernel");
  if (spec.where == Where::Cpu) return false;
  const TaskFunction f = bound_kernels().find_inline_cuda(*spec.kernel);
  if (f == nullptr) return false;
  check_inline_data(spec, who);
  const WorkerInfo* gpu = nullptr;
  for (const WorkerInfo& w : workers_) {
    if (w.kind == WorkerInfo::Kind::Cuda && (spec.workers.cuda_device < 0 || w.device_id == spec.workers.cuda_device)) {
      gpu = &w;
      break;
    }
  }
  if (gpu == nullptr) return false;
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(gpu->id));

  const std::size_t n = spec.data.size();
  std::vector<starpu_data_handle_t> handles(n);
  std::vector<starpu_data_access_mode> modes(n);
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (std::size_t i = 0; i < n; ++i) {
      handles[i] = impl_->entry(spec.data[i].handle).handle;
      modes[i] = inline_mode(spec.data[i].mode);
    }
  }
  std::lock_guard<std::mutex> serial(impl_->inline_mutex);
  Impl::InlineBatch& b = impl_->batch;
  // What is held serves this call only on the same GPU, with no task submitted since (the task may
  // write what the call reads, or wait for what is held).
  if (b.device >= 0 && (b.device != gpu->device_id || impl_->batch_outdated())) impl_->close_batch();
  // A handle held for reading and now wanted for writing is given back alone (after the stream) and
  // taken again for both, the rest still held: closing the whole batch there would leave the next
  // launches to find another handle held in too weak a mode, at every iteration of a solver.
  for (std::size_t i = 0; i < n && b.device >= 0; ++i) {
    const auto* held = b.find(handles[i]);
    if (held == nullptr || serves(held->second, modes[i])) continue;
    impl_->give_back(handles[i]);
    modes[i] = STARPU_RW;
  }
  if (b.device < 0) {
    b.device = gpu->device_id;
    b.node = node;
    b.submits = impl_->tasks_submitted.load();
    impl_->batch_open.store(true, std::memory_order_release);
  }
  std::vector<void*> buffers(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (b.find(handles[i]) == nullptr) {
      check_starpu(starpu_data_acquire_on_node(handles[i], static_cast<int>(node), modes[i]),
                   "starpu_data_acquire_on_node of handle " + std::to_string(spec.data[i].handle) + " (" + who + ")");
      b.held.emplace_back(handles[i], modes[i]);
    }
    buffers[i] = starpu_data_get_interface_on_node(handles[i], node);
  }
  rethrow_task_error();  // a failed writer of the data left nothing worth reading
  std::vector<unsigned char> args(spec.args);  // the function takes a mutable pointer, as StarPU's cl_arg
  const std::string name = spec.name.empty() ? spec.kernel->name : spec.name;
  // No task to show in the trace: a user event of the calling thread marks the launch instead.
  if (!resolved_.trace_dir.empty()) starpu_fxt_trace_user_event_string(("inline " + name).c_str());
  try {
    cuda::InlineCuda scope(gpu->device_id);
    f(buffers.data(), args.empty() ? nullptr : args.data());
  } catch (...) {
    try {
      impl_->close_batch();  // nothing of the batch may still run once its data are released
    } catch (...) {          // the function's own error is the one to report
    }
    throw;
  }
  b.last = name;
  ++b.launches;
  return true;
}

bool Runtime::run_inline(const TaskSpec& spec) {
  if (!queue_inline(spec, "run_inline")) return false;
  close_inline();
  return true;
}

bool Runtime::launch_inline(const TaskSpec& spec) { return queue_inline(spec, "launch_inline"); }

}  // namespace hetsparse::rt
