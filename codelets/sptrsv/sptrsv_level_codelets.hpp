// Task insertion for the level-scheduled CPU solve T X = B (kernels/sptrsv/sptrsv_level_plan.hpp)
// on StarPU's CPU workers, two ways:
// - one parallel task: every member of a combined worker runs its share of each level and the
//   members meet at a spinning barrier per step (SPMD), or the task's function starts its own
//   threads on the combined worker's cores (fork-join). Only schedulers that build combined workers
//   (peager, pheft) run it on more than one worker; the others run it on one, i.e. serially;
// - per-level tasks: the pieces sptrsv/cpu_solve.hpp (LevelTaskPlanner) emits, one task per share of a cut level or
//   per run of small levels.
// All of these are CPU-only; T^T solves are not level-scheduled (they stay serial substitution).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"
#include "runtime/task_runtime.hpp"
#include "sparse/types.hpp"

namespace hetsparse::codelets {

// The matrix handles a level task reads (SptrsvMatrixHandles): level_rows, and the level-ordered
// copy when has_level_copy, else rowptr / colind / values. has_device_data and segments are unused.

struct SptrsvLevelParams {
  index_t n = 0;
  bool upper = false;
  index_t nrhs = 1;
  // The level schedule's HOST arrays (num_levels + 1 and num_levels entries), read by the parallel
  // task to plan its steps: the caller keeps them alive and unchanged until the task has completed.
  index_t num_levels = 0;
  const index_t* host_level_ptr = nullptr;
  const std::int64_t* host_level_nnz = nullptr;
  // A level is shared out when each member gets at least this many entries (times nrhs).
  std::int64_t min_entries_per_share = 2048;
};

enum class ParallelTaskKind { Spmd, ForkJoin };

// Buffer order: 0 level_rows, 1-3 the level-ordered copy's rowptr / colind / values (or the natural
// CSR's), 4 b, 5 x, then the caller's ordering accesses (not read).
struct LevelArgs {
  SptrsvLevelParams p;
  bool has_level_copy;
  index_t begin, end;              // level-range tasks
  kernels::LevelBarrier barrier;  // parallel tasks: shared by the members, zero at submission
};


// The whole solve as one parallel task (codelet type STARPU_SPMD or STARPU_FORKJOIN, any width).
// b: Read, x: Write, matrix handles n x nrhs. InvalidArgument for opt.where == Cuda, nrhs < 1 or a
// missing level schedule; any other `where` becomes Cpu.
void insert_sptrsv_parallel(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                            rt::HandleId b, rt::HandleId x, const SptrsvLevelParams& params, std::int64_t nnz,
                            ParallelTaskKind kind = ParallelTaskKind::Spmd);

// Level-order positions [begin, end) (rows of one level, or a run of levels in level order) as one
// CPU task that reads b and the rows of x its rows depend on, and writes its rows of x. x is
// declared Read, so that the shares of one level may run at the same time (StarPU runs at most one
// task writing a handle at a time); the caller orders the tasks by `order` (extra accesses, e.g.
// tokens written by one step and read by the next) and brackets them with level fences. entries:
// stored entries of the rows (flops 2 entries nrhs, the perf model's size).
void insert_sptrsv_level_range(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                               rt::HandleId b, rt::HandleId x, const SptrsvLevelParams& params, index_t begin,
                               index_t end, std::int64_t entries, const std::vector<rt::DataAccess>& order);

// A CPU task that does nothing but access x: Write before the level ranges (later tasks see main
// memory as x's only valid copy, and the ranges wait for x's earlier users) and ReadWrite after
// them (x's later users wait for every range, which StarPU knows only as readers).
void insert_sptrsv_level_fence(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId x, rt::Access mode);

// The positions [begin, end) a submitted level-range task solves (e.g. a RecordingRuntime task's
// spec); InvalidArgument for a task of another kernel.
std::pair<index_t, index_t> level_range_positions(const rt::TaskSpec& task);

const rt::Kernel& sptrsv_spmd_kernel();
const rt::Kernel& sptrsv_forkjoin_kernel();
const rt::Kernel& sptrsv_level_range_kernel();
const rt::Kernel& sptrsv_level_fence_kernel();

}  // namespace hetsparse::codelets
