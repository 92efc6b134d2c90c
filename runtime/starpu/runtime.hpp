// The StarPU runtime: RAII around starpu_init/starpu_shutdown, data registration, task submission and
// FxT tracing. One Runtime may exist at a time (StarPU is process-global).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/task_runtime.hpp"
#include "runtime/starpu/workers.hpp"

namespace hetsparse::rt {

struct RuntimeOptions {
  std::string scheduler;      // empty: $STARPU_SCHED if set, else "dmdas"
  int ncpu = -1;              // -1: $STARPU_NCPU or every core StarPU finds (minus those driving GPUs)
  int ncuda = -1;             // -1: $STARPU_NCUDA or every GPU; at most the GPUs there are
  // CUDA workers on each GPU, each with its own stream, so that independent tasks overlap on the
  // device; -1: $STARPU_NWORKER_PER_CUDA, else 1. docs/benchmarks.md has the measured effect.
  int cuda_workers_per_gpu = -1;
  std::string perfmodel_dir;  // empty: $STARPU_PERF_MODEL_DIR, else ~/.cache/hetsparse/perfmodels
  std::string trace_dir;      // non-empty: FxT trace, converted to paje.trace for ViTE at shutdown
  bool pin_host_memory = true;  // pin registered host buffers when there are CUDA workers
  bool verbose = false;  // StarPU's own warnings (calibration notices, ...); false: quiet unless $STARPU_SILENT says
};

// What resolve_options() decided; printed by `hetsparse info`. After starpu_init, the scheduler is
// the one StarPU runs.
struct ResolvedOptions {
  std::string scheduler, perfmodel_dir, trace_dir;
};

// Applies options to StarPU's environment (explicit options win over the environment, which wins
// over hetsparse's defaults) and returns the result. Called by the Runtime constructor. Throws
// InvalidSetting (runtime/starpu/settings_checks.hpp) for an unknown scheduler, a bad worker count or a
// StarPU variable StarPU would abort on.
ResolvedOptions resolve_options(const RuntimeOptions&);

struct TraceFiles {
  std::string dir, paje, dag, tasks;  // empty strings where a file was not produced
};

class Runtime final : public TaskRuntime {
 public:
  explicit Runtime(const RuntimeOptions& opts = {});
  ~Runtime() override;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Waits for all tasks, shuts StarPU down and converts the trace. Idempotent; the destructor calls it.
  TraceFiles shutdown();

  const ResolvedOptions& options() const { return resolved_; }
  const std::vector<WorkerInfo>& workers() const { return workers_; }
  int cpu_workers() const override;
  int cuda_workers() const override;
  int cuda_devices() const override;
  std::size_t cuda_memory_cap() const override;
  std::size_t pending_tasks() const override;

  HandleId register_vector(const VectorDesc&) override;
  HandleId register_matrix(const MatrixDesc&) override;
  HandleId register_csr(const CsrDesc&) override;
  HandleId register_temporary(std::size_t n, std::size_t elem_size) override;
  void unregister(HandleId) override;
  void discard(HandleId) override;
  bool valid_on_host(HandleId) override;
  void submit(TaskSpec) override;
  void wait_all() override;
  int min_priority() const override;
  int max_priority() const override;
  void pin_host_range(void* ptr, std::size_t bytes) override;
  void unpin_host_range(void* ptr) override;
  void prefetch_to_gpu(HandleId) override;
  void write_back_when_done(HandleId) override;
  void pause_workers() override;
  void resume_workers() override;
  void acquire_on_host(HandleId, Access) override;
  void release_on_host(HandleId) override;
  bool run_inline(const TaskSpec&) override;  // runtime_inline.cpp
  bool launch_inline(const TaskSpec&) override;
  void close_inline() override;
  bool read_inline(HandleId, void* dst, std::size_t bytes) override;
  bool begin_read_inline(HandleId, std::size_t bytes) override;
  void finish_read_inline(HandleId, void* dst) override;

  // Bytes StarPU moved between host memory and GPUs since the last call (or since start), when its
  // profiling is on (STARPU_PROFILING=1); nullopt otherwise. What a phase sends across PCIe.
  struct BusBytes {
    long long to_gpu = 0, from_gpu = 0, between_gpus = 0, transfers = 0;
  };
  std::optional<BusBytes> take_bus_bytes();

 private:
  struct Impl;
  // Queues spec's CUDA function on the calling thread's stream, its data acquired or already held.
  bool queue_inline(const TaskSpec& spec, const char* who);
  // Gives one handle back from the inline batch (after awaiting its stream), the rest still held;
  // the whole batch when a task was submitted since it opened.
  void close_inline_for(HandleId id);
  std::unique_ptr<Impl> impl_;
  ResolvedOptions resolved_;
  std::vector<WorkerInfo> workers_;
  bool pin_ = false;
  bool running_ = false;
};

std::string starpu_version_string();

}  // namespace hetsparse::rt
