// How a solve on StarPU's CPU workers runs (TriangularSolveOptions::cpu_mode), and the per-level task
// planner. The level-scheduled modes cut the solve as kernels::plan_level_steps does
// (kernels/sptrsv/sptrsv_level_plan.hpp): big levels into shares, runs of small levels whole.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/types.hpp"

namespace hetsparse::sptrsv {

// serial: one task, serial substitution on one CPU worker.
// parallel-task: one StarPU parallel task (SPMD) over a combined worker: its members share each big
//   level and meet at a spinning barrier. Needs a scheduler that builds combined workers (peager,
//   pheft); under the others (dmdas, eager, lws, heteroprio) it runs on one worker.
// level-tasks: per-level tasks (LevelTaskPlanner), ordered through StarPU data dependencies; any
//   scheduler.
enum class CpuMode { Serial, ParallelTask, LevelTasks };
CpuMode parse_cpu_mode(const std::string& name);  // InvalidArgument naming the accepted ones
const char* to_string(CpuMode);

// Defaults of the smallest share of a level (stored entries times nrhs): a barrier costs about as
// much as 2048 entries; a task some 10 us more, about 16k entries' work.
constexpr std::int64_t kParallelTaskMinEntries = 2048;
constexpr std::int64_t kLevelTaskMinEntries = 16384;

struct LevelTaskOptions {
  int chunks = 2;  // shares a big level is cut into, one task each (the CPU workers, typically)
  std::int64_t min_entries_per_task = kLevelTaskMinEntries;
};

// Emits T X = B as per-level tasks: a fence writing x, then per step of the plan either `chunks`
// tasks (one share of a big level each) or one task (a run of small levels), then a fence
// reading and writing x. The tasks of a step declare x Read (so they run concurrently) and write
// their own rows; a step's tasks each write a token that every task of the next step reads, which
// orders the steps (two sets of tokens used alternately: reusing a set is a write-after-read the
// runtime orders after the step in between). Testable on the RecordingRuntime.
class LevelTaskPlanner {
 public:
  // Registers 2 * chunks tokens (1-byte temporaries) with rt; unregistered on destruction.
  LevelTaskPlanner(rt::TaskRuntime& rt, const LevelTaskOptions& options);

  // view: the pattern's host view (level schedule, level-ordered row pointers for the cuts), alive
  // while the tasks may run. T: level_rows and the level-ordered copy (or the natural CSR). b, x:
  // n x nrhs matrix handles. Submits, does not wait.
  void submit(const kernels::TriangularView& view, const codelets::SptrsvMatrixHandles& T, rt::HandleId b,
              rt::HandleId x, index_t nrhs);

  // The plan of the last submit (computed again only when the matrix or nrhs changes).
  const std::vector<kernels::LevelStep>& steps() const { return steps_; }
  std::size_t tasks_last_submit() const { return tasks_; }
  const LevelTaskOptions& options() const { return options_; }

 private:
  rt::TaskRuntime& rt_;
  LevelTaskOptions options_;
  std::vector<rt::DataHandle> tokens_;  // [set * chunks + share]
  std::vector<kernels::LevelStep> steps_;
  const index_t* planned_for_ = nullptr;  // level_ptr of the planned view
  index_t planned_n_ = -1, planned_nrhs_ = 0;
  std::size_t tasks_ = 0;
};

}  // namespace hetsparse::sptrsv
