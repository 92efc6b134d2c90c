// Private state of the StarPU Runtime, shared by its lifecycle and task translation units.
#pragma once
#include <starpu.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "hetsparse/error.hpp"
#include "runtime/starpu/runtime.hpp"

namespace hetsparse::rt {

struct Runtime::Impl {
  struct Entry {
    starpu_data_handle_t handle = nullptr;
    void* pinned = nullptr;  // host range pinned for DMA, unpinned at unregister
    std::size_t pinned_bytes = 0;
  };
  std::vector<Entry> handles;
  std::unordered_set<std::string> names;  // task names must outlive their tasks: interned here
  std::map<const char*, std::size_t> pinned_ranges;  // pin_host_range(): start -> bytes
  std::mutex mutex;
  std::mutex inline_mutex;  // inline calls, one at a time (one stream and workspace per device)
  // What inline launches left acquired on one GPU, released by close_inline (runtime_inline.cpp).
  struct InlineBatch {
    int device = -1;  // CUDA device; -1: nothing held
    unsigned node = 0;
    std::vector<std::pair<starpu_data_handle_t, starpu_data_access_mode>> held;
    std::uint64_t submits = 0;  // tasks_submitted when the batch opened
    std::string last;           // the last launch's name, for an error found at the close
    std::size_t launches = 0;
    // The entry of a handle the batch holds, nullptr for one it does not.
    std::pair<starpu_data_handle_t, starpu_data_access_mode>* find(starpu_data_handle_t h);
    std::string what() const;  // the launches a failure on the stream belongs to, for its message
  };
  InlineBatch batch;                         // under inline_mutex
  // Reads begun by begin_read_inline and not finished, by staging slot (under inline_mutex).
  struct PendingRead {
    HandleId id = 0;
    int device = -1;  // -1: a free slot
    std::size_t bytes = 0;
  };
  std::array<PendingRead, kInlineReads> reads;
  std::atomic<bool> batch_open{false};       // a read without the lock: most closes find nothing held
  std::atomic<std::uint64_t> tasks_submitted{0};
  // Awaits the inline stream, then releases what the batch holds (call with inline_mutex held).
  void close_batch();
  // Awaits the inline stream, then releases one handle the batch holds, the rest still held (the
  // whole batch closed on a stream error; call with inline_mutex held).
  void give_back(starpu_data_handle_t h);
  // The device address of vector handle h (id) that the batch holds, with at least `bytes`; nullptr
  // where it is not held or a task was submitted since the batch opened (which closes it). `who`
  // names the caller in errors (call with inline_mutex held).
  const void* held_vector(starpu_data_handle_t h, HandleId id, std::size_t bytes, const char* who);
  // Whether a task was submitted since the batch opened: it may need what the batch holds, or write
  // what a launch would read (call with inline_mutex held).
  bool batch_outdated() const { return batch.submits != tasks_submitted.load(); }
  std::atomic<long> in_flight{0};  // tasks submitted and not yet ended (task_completion.hpp)
  bool heteroprio = false;  // priorities become heteroprio buckets (set once at start-up)
  // wait_all spins before StarPU's blocking wait only when the workers leave the waiting thread a core:
  // where they do not, its spinning takes the core of the worker it waits for (set once at start-up).
  bool spin_wait = true;
  // starpu_task::workerids bitmaps of the WorkerPins seen so far (tasks point into them until they end).
  std::map<std::tuple<int, int, int>, std::vector<std::uint32_t>> worker_sets;

  const char* intern(const std::string& s) { return names.insert(s).first->c_str(); }
  Entry& entry(HandleId id);
  starpu_data_handle_t handle(HandleId id);  // entry(id).handle, the mutex taken for the lookup
  Entry take(HandleId id);  // the entry, forgotten (unregister, discard)
  static void pin_range(Entry& e, void* p, std::size_t bytes);
  bool inside_pinned_range(const void* p, std::size_t bytes) const;
  // The bitmap of the workers a pin allows (call with the mutex held); InvalidArgument when none.
  std::vector<std::uint32_t>& worker_set(const std::vector<WorkerInfo>& workers, WorkerPin pin,
                                                const std::string& task);
};

// A TaskRuntime access mode as StarPU's.
inline starpu_data_access_mode to_starpu(Access a) {
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

// Every kernel of codelets/ bound to its StarPU codelet (made at the first call, by the first Runtime).
class StarpuBindings;
const StarpuBindings& bound_kernels();

// Converts the FxT trace in dir to paje.trace, dag.dot and tasks.rec with starpu_fxt_tool.
TraceFiles convert_trace(const std::string& dir);

// StarPU's sched_policy_callback for heteroprio (heteroprio_config.cpp): critical-path priorities
// as buckets, CUDA workers the faster kind. Used unless STARPU_HETEROPRIO_USE_AUTO_CALIBRATION=1.
constexpr float kHeteroprioCpuSlowFactor = 20.0f;
void configure_heteroprio(unsigned sched_ctx);
// The bucket of a task of this priority and device restriction under that configuration.
int heteroprio_bucket(int priority, Where where);

}  // namespace hetsparse::rt
