// StarPU glue of the level-scheduled CPU solve: the parallel tasks (SPMD, fork-join), the level ranges
// and fences of the per-level tasks, and what StarPU says about combined workers.
//
// Why SPMD is the default parallel task: StarPU 1.4 hands an SPMD task to every member of the
// combined worker (each bound to its own core) after a pthread barrier, with the same cl_arg, so
// the members only need a barrier of their own per level, and it can live in that shared argument
// block. A fork-join task runs on the first member alone (the others sleep in StarPU's barrier,
// leaving their cores free) and must start its own threads on every solve.
#include "codelets/sptrsv/sptrsv_level_workers.hpp"

#include <algorithm>
#include <atomic>

#include "codelets/sptrsv/sptrsv_level_codelets.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_level_plan.hpp"

namespace hetsparse::codelets {
namespace {

std::atomic<int> g_last_width{0};

template <class T>
const T* in(void* buffer) {
  return rt::vector_ptr<const T>(buffer);
}

kernels::TriangularView level_view(const LevelArgs& a, void* buffers[]) {
  kernels::TriangularView t;
  t.n = a.p.n;
  t.upper = a.p.upper;
  t.num_levels = a.p.num_levels;
  t.level_ptr = a.p.host_level_ptr;
  t.level_nnz = a.p.host_level_nnz;
  t.level_rows = in<index_t>(buffers[0]);
  if (a.has_level_copy) {
    t.level_rowptr = in<index_t>(buffers[1]);
    t.level_colind = in<index_t>(buffers[2]);
    t.level_values = in<double>(buffers[3]);
  } else {
    t.rowptr = in<index_t>(buffers[1]);
    t.colind = in<index_t>(buffers[2]);
    t.values = in<double>(buffers[3]);
  }
  return t;
}

// Every member plans for itself (the plan depends only on the width, so all agree) and solves its
// share. Outside a combined worker (a scheduler without them) the width is 1: a serial solve.
void spmd_cpu_task(void* buffers[], void* cl_arg) {
  auto* a = static_cast<LevelArgs*>(cl_arg);  // not a copy: the barrier must be the members' common one
  const int width = std::max(1, starpu_combined_worker_get_size());
  const int rank = std::max(0, starpu_combined_worker_get_rank());
  if (rank == 0) g_last_width.store(width, std::memory_order_relaxed);
  const kernels::TriangularView t = level_view(*a, buffers);
  const std::vector<kernels::LevelStep> steps =
      kernels::plan_level_steps(t, a->p.nrhs, width, a->p.min_entries_per_share);
  kernels::solve_level_steps(t, steps, rank, width, a->barrier, rt::columns(buffers[4]).ptr, rt::columns(buffers[4]).ld,
                             rt::columns(buffers[5]).ptr, rt::columns(buffers[5]).ld, a->p.nrhs);
}

// StarPU calls it on the first member only, bound to all the combined worker's cores; the threads
// it starts inherit that binding.
void forkjoin_cpu_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<LevelArgs>(cl_arg);
  const int width = std::max(1, starpu_combined_worker_get_size());
  g_last_width.store(width, std::memory_order_relaxed);
  kernels::sptrsv_cpu_levels(level_view(a, buffers), rt::columns(buffers[4]).ptr, rt::columns(buffers[4]).ld,
                             rt::columns(buffers[5]).ptr, rt::columns(buffers[5]).ld, a.p.nrhs, width,
                             a.p.min_entries_per_share);
}

void level_range_cpu_task(void* buffers[], void* cl_arg) {
  // x is declared Read: on a worker with its own memory node (STARPU_USE_NUMA=1) the rows would go
  // to a replica that StarPU then drops.
  if (starpu_worker_get_local_memory_node() != STARPU_MAIN_RAM)
    throw RuntimeFailure("sptrsv level tasks need every CPU worker on main RAM (STARPU_USE_NUMA=0)");
  const auto a = rt::task_args<LevelArgs>(cl_arg);
  kernels::sptrsv_cpu_level(level_view(a, buffers), a.begin, a.end, rt::columns(buffers[4]).ptr,
                            rt::columns(buffers[4]).ld, rt::columns(buffers[5]).ptr, rt::columns(buffers[5]).ld,
                            a.p.nrhs);
}

struct SpmdTasks {
  static void cpu(void* b[], void* cl_arg) { spmd_cpu_task(b, cl_arg); }
};
struct ForkJoinTasks {
  static void cpu(void* b[], void* cl_arg) { forkjoin_cpu_task(b, cl_arg); }
};
struct LevelRangeTasks {
  static void cpu(void* b[], void* cl_arg) { level_range_cpu_task(b, cl_arg); }
};
struct FenceTasks {
  static void cpu(void* /*buffers*/[], void* /*cl_arg*/) {}
};

}  // namespace

void bind_sptrsv_levels(rt::StarpuBindings& b) {
  b.bind<SpmdTasks>(sptrsv_spmd_kernel());
  b.bind<ForkJoinTasks>(sptrsv_forkjoin_kernel());
  b.bind<LevelRangeTasks>(sptrsv_level_range_kernel());
  b.bind<FenceTasks>(sptrsv_level_fence_kernel());
}

int widest_parallel_worker() {
  if (!starpu_is_initialized()) return 0;
  int widest = 1;
  const int first = static_cast<int>(starpu_worker_get_count());
  for (int id = first; id < first + static_cast<int>(starpu_combined_worker_get_count()); ++id) {
    int size = 0;
    int* members = nullptr;
    if (starpu_combined_worker_get_description(id, &size, &members) == 0) widest = std::max(widest, size);
  }
  return widest;
}

int last_parallel_task_width() { return g_last_width.load(std::memory_order_relaxed); }

}  // namespace hetsparse::codelets
