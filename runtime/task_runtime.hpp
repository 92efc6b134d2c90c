// The thin task-submission layer planners use. Planners register data and submit TaskSpecs through
// this interface and never see StarPU: the StarPU Runtime executes them, the RecordingRuntime only
// records the DAG (so a planner is testable on its own).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/kernel.hpp"

namespace hetsparse::rt {

using HandleId = std::uint64_t;

// Most data one task may take (StarPU keeps per-codelet arrays of this size for variable-arity
// codelets); planners split longer lists into several tasks.
inline constexpr std::size_t kMaxTaskData = 256;

// Commute: read-write accesses that may run in any order (never concurrently), e.g. the updates
// scattered into one supernode panel.
enum class Access : std::uint8_t { Read, Write, ReadWrite, Scratch, Commute };
// Per-task device restriction (PaStiX style: keep tiny tasks off the GPU).
enum class Where : std::uint8_t { Any, Cpu, Cuda };

const char* to_string(Access);
const char* to_string(Where);
// Whether a task restricted to `where` can run on some device of `devices`.
bool can_run(DeviceMask devices, Where where);

// A finer restriction than Where, to some workers of one kind (the homes of a partitioned product):
// cuda_device >= 0: only the CUDA worker(s) driving that device (Where Any or Cuda);
// numa_node >= 0: only the CPU workers bound to cores of that NUMA node (Where Cpu);
// cpu_worker >= 0: only that CPU worker (counted among the CPU workers; Where Cpu): a latency-bound
//   task that should find its data in one core's caches every time.
struct WorkerPin {
  int cuda_device = -1;
  int numa_node = -1;
  int cpu_worker = -1;  // after the rest: aggregate initialisers stay valid
  bool any() const { return cuda_device >= 0 || numa_node >= 0 || cpu_worker >= 0; }
};

struct DataAccess {
  HandleId handle;
  Access mode;
};

struct TaskSpec {
  const Kernel* kernel = nullptr;
  std::string name;  // shown in traces; defaults to the kernel name
  int priority = 0;  // higher runs first; clamped to the scheduler's range
  Where where = Where::Any;
  std::vector<DataAccess> data;
  std::vector<unsigned char> args;  // a trivially copyable argument struct, byte-copied
  double flops = 0.0;               // for GFLOP/s statistics
  WorkerPin workers{};              // none by default (after the rest: aggregate initialisers stay valid)
  // Latency-bound (a resident solve, a product in a chain): when one worker alone may run the task it
  // goes straight to that worker's queue, past the scheduler's push and pop. Nothing to balance then.
  bool direct = false;
  // A link of a chain on a GPU (a product in an iterative solver): submit() may launch it on the
  // calling thread's stream instead of making it a task (TaskRuntime::launch_inline).
  bool launch_inline = false;

  template <class Args>
  void set_args(const Args& a) {
    static_assert(std::is_trivially_copyable_v<Args>, "task arguments are copied byte-wise");
    args.resize(sizeof(Args));
    std::memcpy(args.data(), &a, sizeof(Args));
  }
  // A header followed by a variable number of items (e.g. the updates of a batched task).
  template <class Header, class Item>
  void set_args(const Header& h, const std::vector<Item>& items) {
    static_assert(std::is_trivially_copyable_v<Header> && std::is_trivially_copyable_v<Item>);
    static_assert(sizeof(Header) % alignof(Item) == 0, "items must stay aligned after the header");
    args.resize(sizeof(Header) + items.size() * sizeof(Item));
    std::memcpy(args.data(), &h, sizeof(Header));
    if (!items.empty()) std::memcpy(args.data() + sizeof(Header), items.data(), items.size() * sizeof(Item));
  }
  template <class Args>
  Args get_args() const {
    static_assert(std::is_trivially_copyable_v<Args>, "task arguments are copied byte-wise");
    Args a{};
    if (args.size() == sizeof(Args)) std::memcpy(&a, args.data(), sizeof(Args));
    return a;
  }
};

// Shapes of the data a task can take. Pointers are host memory owned by the caller, which must keep
// it alive until the handle is unregistered (then the up-to-date values are back in it).
struct VectorDesc {
  void* ptr;
  std::size_t n;
  std::size_t elem_size = sizeof(double);
  // >= 0: ptr is memory of this CUDA device, which becomes the data's home (the StarPU runtime
  // copies it to wherever a task runs; InvalidArgument when no CUDA worker drives the device).
  int cuda_device = -1;
  // Host memory: pin it for DMA while registered (when the runtime has GPUs). Off for a few bytes
  // (a task's scalar result: pinning locks whole pages, and a stack variable must not be locked), and
  // for a buffer registered for one small transfer, where pinning costs more than it saves.
  bool pin = true;
};
struct MatrixDesc {  // column-major doubles
  double* ptr;
  std::size_t ld, rows, cols;
  bool pin = true;  // as VectorDesc::pin
};
struct CsrDesc {  // StarPU's CSR interface is 32-bit: nnz and rows below 2^32
  std::uint32_t rows, cols, nnz;
  double* values;
  std::uint32_t* colind;
  std::uint32_t* rowptr;  // rows + 1 entries, rowptr[0] == 0
};

// What a planner says about one task besides its data: the insert_<kernel>() functions take this.
struct TaskOptions {
  std::string name;  // empty: the kernel's name
  int priority = 0;
  Where where = Where::Any;
  double flops = -1.0;  // < 0: the kernel's own count
  WorkerPin workers{};  // none by default (after the rest: aggregate initialisers stay valid)
  bool direct = false;  // TaskSpec::direct
  bool launch_inline = false;  // TaskSpec::launch_inline
};

// InvalidArgument naming the task when its workers contradict its Where or its kernel's devices.
void check_workers(const TaskSpec& t, const char* runtime);

// A task of kernel k with a planner's options; flops from the options when given, else default_flops.
inline TaskSpec make_task(const Kernel& k, const TaskOptions& o, double default_flops) {
  TaskSpec t;
  t.kernel = &k;
  t.name = o.name.empty() ? k.name : o.name;
  t.priority = o.priority;
  t.where = o.where;
  t.workers = o.workers;
  t.direct = o.direct;
  t.launch_inline = o.launch_inline;
  t.flops = o.flops >= 0 ? o.flops : default_flops;
  return t;
}

class TaskRuntime {
 public:
  virtual ~TaskRuntime() = default;
  virtual HandleId register_vector(const VectorDesc&) = 0;
  virtual HandleId register_matrix(const MatrixDesc&) = 0;
  virtual HandleId register_csr(const CsrDesc&) = 0;
  // Runtime-owned temporary (no host copy): a vector of n elements, for Scratch or work buffers.
  virtual HandleId register_temporary(std::size_t n, std::size_t elem_size) = 0;
  virtual void unregister(HandleId) = 0;  // waits for the tasks using it, brings data home
  // Unregisters data that is no longer wanted without bringing it home: waits for its tasks, then
  // leaves its host memory as it was (a factor whose panels live on a GPU, about to be freed).
  virtual void discard(HandleId id) { unregister(id); }
  virtual void submit(TaskSpec) = 0;
  virtual void wait_all() = 0;
  virtual int min_priority() const = 0;
  virtual int max_priority() const = 0;
  // Workers the tasks may run on (planners send the biggest tasks to CUDA workers when there are any,
  // and size CPU shares by the CPU workers).
  virtual int cpu_workers() const { return 1; }
  virtual int cuda_workers() const { return 0; }
  // GPUs those CUDA workers drive: fewer than the workers when a GPU has several (one stream each,
  // RuntimeOptions::cuda_workers_per_gpu). Plans that spread work over GPUs count these.
  virtual int cuda_devices() const { return cuda_workers(); }
  // Bytes the runtime may use on each GPU when the user capped its memory (STARPU_LIMIT_CUDA_MEM; the
  // smallest cap over the GPUs), 0 without a cap.
  virtual std::size_t cuda_memory_cap() const { return 0; }
  // Tasks submitted and not finished yet, for progress reports (0 where the backend cannot say).
  virtual std::size_t pending_tasks() const { return 0; }
  // Pin a large host range once (e.g. a whole factor) so that handles registered inside it need no
  // pinning of their own; a no-op where nothing goes to a GPU. Unpin before freeing the memory.
  virtual void pin_host_range(void* /*ptr*/, std::size_t /*bytes*/) {}
  virtual void unpin_host_range(void* /*ptr*/) {}
  // Hints that move data early and never change results (no-ops without a GPU or StarPU):
  // start copying a handle to the (first) GPU now, e.g. while the CPUs work on other data...
  virtual void prefetch_to_gpu(HandleId) {}
  // ...and copy it back to host memory as soon as the tasks submitted so far that write it are
  // done, so the write-back overlaps later work instead of waiting for unregister().
  virtual void write_back_when_done(HandleId) {}
  // Idle StarPU workers poll for tasks in a tight loop: host-only phases (analysis, assembly) run
  // ~2x faster on the 16-core node with them paused. Submitted tasks wait for resume_workers().
  virtual void pause_workers() {}
  virtual void resume_workers() {}
  // Host access to a handle registered on host memory, between its tasks (a scalar a task reduced
  // into, a vector the host fills): acquire_on_host waits for the tasks submitted so far that write
  // it (with Write/ReadWrite also those that read it) and brings its up-to-date values into its host
  // memory; tasks submitted on it afterwards wait for release_on_host, and see what the host wrote.
  // The base waits for every task: enough for runtimes whose tasks work on the host memory itself.
  virtual void acquire_on_host(HandleId, Access) { wait_all(); }
  // Whether host memory holds an up-to-date copy of the handle now (after its tasks: call between
  // task graphs). Where tasks only ever run on the host memory itself: always.
  virtual bool valid_on_host(HandleId) { return true; }
  virtual void release_on_host(HandleId) {}
  // Runs a task now, in the calling thread, on a GPU, and returns when it is done: for latency-bound
  // work awaited at once (a solve on vectors already on the GPU), where a worker's round trip would
  // cost more than the kernel. The data are acquired on the GPU's memory (CUDA device
  // t.workers.cuda_device, else the first CUDA worker's), in the order given and each after the
  // tasks submitted on it so far, as the task's would be; the kernel's CUDA function runs on the
  // calling thread's stream for that device, which is then awaited; the data are released, and tasks
  // submitted on them later see what it wrote. Its exceptions reach the caller. Returns false, doing
  // nothing, where the runtime cannot (no CUDA worker there, a kernel without a CUDA function, a
  // Where::Cpu task): submit() it then. A Scratch buffer is acquired for writing on the GPU (the
  // per-worker buffers tasks use are others). InvalidArgument for a handle given twice
  // other than for reading both times. The data are acquired one by one: a task another thread
  // submits between two acquisitions, writing both data, deadlocks with the call (as two acquisitions
  // would): submit a handle's tasks from one thread. Not a task in traces: a user event
  // ("inline NAME") of the calling thread marks it.
  virtual bool run_inline(const TaskSpec&) { return false; }
  // run_inline without the wait: the kernel is queued on the calling thread's stream and the call
  // returns, its data still acquired on the GPU. Further launches on that GPU reuse what is held, so a
  // chain of them costs its kernels, not a round trip each. The held data are released (after the
  // stream is awaited) by close_inline(), which wait_all(), run_inline() and shutdown call first, and
  // by the next launch when a task was submitted since the batch opened (a task may need what is
  // held, or write what a launch would read). acquire_on_host(), valid_on_host(), unregister() and
  // discard() give back only their handle, if held, unless a task was submitted since: then all of
  // it. A task submitted on held data waits until then. Errors on the GPU surface at the close.
  // submit() calls it for a TaskSpec::launch_inline task, and makes a task where it returns false.
  virtual bool launch_inline(const TaskSpec&) { return false; }
  virtual void close_inline() {}
  // Copies the first `bytes` of a vector handle that inline launches hold on a GPU into host memory,
  // once those launches are done, and leaves it held: the scalar an iterative solver reads between
  // two launches, without giving the handle back. Returns false, copying nothing, where the handle is
  // not held or a task was submitted since the batch opened (acquire_on_host it then).
  virtual bool read_inline(HandleId, void* /*dst*/, std::size_t /*bytes*/) { return false; }
  // read_inline in two halves, so that the host can queue the next launches before it waits for a
  // scalar: begin queues the copy after the launches queued so far and returns at once (false, doing
  // nothing, where read_inline would return false); finish waits for that copy alone and writes dst.
  // At most kInlineReads begun and not finished, one per handle (InvalidArgument beyond).
  static constexpr int kInlineReads = 8;
  virtual bool begin_read_inline(HandleId, std::size_t /*bytes*/) { return false; }
  virtual void finish_read_inline(HandleId, void* /*dst*/) {}
};

// A handle's host memory held for a scope (see TaskRuntime::acquire_on_host).
class HostAccess {
 public:
  HostAccess(TaskRuntime& rt, HandleId id, Access mode) : rt_(rt), id_(id) { rt_.acquire_on_host(id_, mode); }
  ~HostAccess() { rt_.release_on_host(id_); }
  HostAccess(const HostAccess&) = delete;
  HostAccess& operator=(const HostAccess&) = delete;

 private:
  TaskRuntime& rt_;
  HandleId id_;
};

// Workers paused for a scope (see TaskRuntime::pause_workers).
class PausedWorkers {
 public:
  explicit PausedWorkers(TaskRuntime& rt) : rt_(rt) { rt_.pause_workers(); }
  ~PausedWorkers() { rt_.resume_workers(); }
  PausedWorkers(const PausedWorkers&) = delete;
  PausedWorkers& operator=(const PausedWorkers&) = delete;

 private:
  TaskRuntime& rt_;
};

// RAII ownership of a registered handle.
class DataHandle {
 public:
  DataHandle() = default;
  DataHandle(TaskRuntime& rt, HandleId id) : rt_(&rt), id_(id) {}
  DataHandle(DataHandle&& o) noexcept : rt_(std::exchange(o.rt_, nullptr)), id_(o.id_) {}
  DataHandle& operator=(DataHandle&& o) noexcept {
    if (this != &o) {
      reset();
      rt_ = std::exchange(o.rt_, nullptr);
      id_ = o.id_;
    }
    return *this;
  }
  DataHandle(const DataHandle&) = delete;
  DataHandle& operator=(const DataHandle&) = delete;
  ~DataHandle() { reset(); }

  HandleId id() const { return id_; }
  explicit operator bool() const { return rt_ != nullptr; }
  void reset() {
    if (rt_) rt_->unregister(id_);
    rt_ = nullptr;
  }

 private:
  TaskRuntime* rt_ = nullptr;
  HandleId id_ = 0;
};

inline DataHandle make_vector_handle(TaskRuntime& rt, std::vector<double>& v) {
  return {rt, rt.register_vector({v.data(), v.size(), sizeof(double)})};
}
inline DataHandle make_matrix_handle(TaskRuntime& rt, double* a, std::size_t ld, std::size_t rows,
                                     std::size_t cols) {
  return {rt, rt.register_matrix({a, ld, rows, cols})};
}

}  // namespace hetsparse::rt
