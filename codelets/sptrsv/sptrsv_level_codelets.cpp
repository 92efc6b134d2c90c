// StarPU glue of the level-scheduled CPU solve: the parallel-task codelets (SPMD, fork-join), the
// level-range and fence codelets of the per-level tasks, and their insert functions.
//
// Why SPMD is the default parallel task: StarPU 1.4 hands an SPMD task to every member of the
// combined worker (each bound to its own core) after a pthread barrier, with the same cl_arg, so
// the members only need a barrier of their own per level, and it can live in that shared argument
// block. A fork-join task runs on the first member alone (the others sleep in StarPU's barrier,
// leaving their cores free) and must start its own threads on every solve.
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>

#include "codelets/sptrsv/sptrsv.hpp"
#include "codelets/sptrsv/sptrsv_level_plan.hpp"
#include "hetsparse/error.hpp"
#include "runtime/codelet.hpp"

namespace hetsparse::codelets {
namespace {

// Buffer order: 0 level_rows, 1-3 the level-ordered copy's rowptr / colind / values (or the natural
// CSR's), 4 b, 5 x, then the caller's ordering accesses (not read).
struct LevelArgs {
  SptrsvLevelParams p;
  bool has_level_copy;
  index_t begin, end;              // level-range tasks
  kernels::LevelBarrier barrier;  // parallel tasks: shared by the members, zero at submission
};

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
  kernels::solve_level_steps(t, steps, rank, width, a->barrier, rt::matrix_ptr(buffers[4]), rt::matrix_ld(buffers[4]),
                             rt::matrix_ptr(buffers[5]), rt::matrix_ld(buffers[5]), a->p.nrhs);
}

// StarPU calls it on the first member only, bound to all the combined worker's cores; the threads
// it starts inherit that binding.
void forkjoin_cpu_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<LevelArgs>(cl_arg);
  const int width = std::max(1, starpu_combined_worker_get_size());
  g_last_width.store(width, std::memory_order_relaxed);
  kernels::sptrsv_cpu_levels(level_view(a, buffers), rt::matrix_ptr(buffers[4]), rt::matrix_ld(buffers[4]),
                             rt::matrix_ptr(buffers[5]), rt::matrix_ld(buffers[5]), a.p.nrhs, width,
                             a.p.min_entries_per_share);
}

void level_range_cpu_task(void* buffers[], void* cl_arg) {
  // x is declared Read: on a worker with its own memory node (STARPU_USE_NUMA=1) the rows would go
  // to a replica that StarPU then drops.
  if (starpu_worker_get_local_memory_node() != STARPU_MAIN_RAM)
    throw RuntimeFailure("sptrsv level tasks need every CPU worker on main RAM (STARPU_USE_NUMA=0)");
  const auto a = rt::task_args<LevelArgs>(cl_arg);
  kernels::sptrsv_cpu_level(level_view(a, buffers), a.begin, a.end, rt::matrix_ptr(buffers[4]),
                            rt::matrix_ld(buffers[4]), rt::matrix_ptr(buffers[5]), rt::matrix_ld(buffers[5]),
                            a.p.nrhs);
}

void fence_cpu_task(void* /*buffers*/[], void* /*cl_arg*/) {}

// A CPU-only StarpuKernel made a parallel task of `type` for combined workers of any size.
class ParallelKernel : public rt::StarpuKernel {
 public:
  ParallelKernel(const char* kernel_name, starpu_cpu_func_t cpu, starpu_codelet_type type)
      : StarpuKernel(kernel_name, cpu, nullptr) {
    auto* cl = static_cast<starpu_codelet*>(native);
    cl->type = type;
    cl->max_parallelism = INT_MAX;
  }
};

// Level ranges of one matrix all carry the same data, so StarPU's data-size footprint would mix
// one-row shares with whole runs of levels in one history: key it by flops, 4 buckets per octave.
uint32_t flops_footprint(starpu_task* task) {
  const double flops = std::max(1.0, task->flops);
  return starpu_hash_crc32c_be(static_cast<uint32_t>(std::lround(4.0 * std::log2(flops))), 0);
}

class RangeKernel : public rt::StarpuKernel {
 public:
  RangeKernel(const char* kernel_name, starpu_cpu_func_t cpu) : StarpuKernel(kernel_name, cpu, nullptr) {
    static_cast<starpu_codelet*>(native)->model->footprint = flops_footprint;
  }
};

std::vector<rt::DataAccess> level_data(const SptrsvMatrixHandles& T, rt::HandleId b, rt::HandleId x,
                                       rt::Access x_mode) {
  if (T.has_level_copy) {
    return {{T.level_rows, rt::Access::Read}, {T.level_rowptr, rt::Access::Read}, {T.level_colind, rt::Access::Read},
            {T.level_values, rt::Access::Read}, {b, rt::Access::Read}, {x, x_mode}};
  }
  return {{T.level_rows, rt::Access::Read}, {T.rowptr, rt::Access::Read}, {T.colind, rt::Access::Read},
          {T.values, rt::Access::Read}, {b, rt::Access::Read}, {x, x_mode}};
}

rt::TaskOptions on_cpu(const rt::TaskOptions& opt, const char* what) {
  if (opt.where == rt::Where::Cuda) throw InvalidArgument(std::string(what) + ": CPU-only task asked for on CUDA");
  rt::TaskOptions o = opt;
  o.where = rt::Where::Cpu;
  return o;
}

}  // namespace

const rt::Kernel& sptrsv_spmd_kernel() {
  static ParallelKernel k("sptrsv_spmd", rt::guarded<spmd_cpu_task>, STARPU_SPMD);
  return k;
}

const rt::Kernel& sptrsv_forkjoin_kernel() {
  static ParallelKernel k("sptrsv_forkjoin", rt::guarded<forkjoin_cpu_task>, STARPU_FORKJOIN);
  return k;
}

const rt::Kernel& sptrsv_level_range_kernel() {
  static RangeKernel k("sptrsv_level_range", rt::guarded<level_range_cpu_task>);
  return k;
}

const rt::Kernel& sptrsv_level_fence_kernel() {
  static rt::StarpuKernel k("sptrsv_level_fence", fence_cpu_task, nullptr);
  return k;
}

void insert_sptrsv_parallel(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                            rt::HandleId b, rt::HandleId x, const SptrsvLevelParams& params, std::int64_t nnz,
                            ParallelTaskKind kind) {
  const rt::TaskOptions o = on_cpu(opt, "insert_sptrsv_parallel");
  if (params.nrhs < 1 || params.min_entries_per_share < 1)
    throw InvalidArgument("insert_sptrsv_parallel: nrhs and min_entries_per_share must be at least 1");
  if (params.n > 0 && (params.host_level_ptr == nullptr || params.host_level_nnz == nullptr))
    throw InvalidArgument("insert_sptrsv_parallel: the level schedule's host arrays are missing");
  const rt::Kernel& k = kind == ParallelTaskKind::Spmd ? sptrsv_spmd_kernel() : sptrsv_forkjoin_kernel();
  rt::TaskSpec t = rt::make_task(k, o, 2.0 * static_cast<double>(nnz) * params.nrhs);
  t.set_args(LevelArgs{params, T.has_level_copy, 0, 0, kernels::LevelBarrier{0, 0}});
  t.data = level_data(T, b, x, rt::Access::Write);
  rt.submit(std::move(t));
}

void insert_sptrsv_level_range(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                               rt::HandleId b, rt::HandleId x, const SptrsvLevelParams& params, index_t begin,
                               index_t end, std::int64_t entries, const std::vector<rt::DataAccess>& order) {
  const rt::TaskOptions o = on_cpu(opt, "insert_sptrsv_level_range");
  if (params.nrhs < 1 || begin < 0 || end < begin || end > params.n)
    throw InvalidArgument("insert_sptrsv_level_range: positions [" + std::to_string(begin) + ", " +
                          std::to_string(end) + ") outside 0.." + std::to_string(params.n) + " or nrhs < 1");
  SptrsvLevelParams p = params;
  p.host_level_ptr = nullptr;  // a range needs no plan
  p.host_level_nnz = nullptr;
  rt::TaskSpec t = rt::make_task(sptrsv_level_range_kernel(), o, 2.0 * static_cast<double>(entries) * params.nrhs);
  t.set_args(LevelArgs{p, T.has_level_copy, begin, end, kernels::LevelBarrier{0, 0}});
  t.data = level_data(T, b, x, rt::Access::Read);
  t.data.insert(t.data.end(), order.begin(), order.end());
  rt.submit(std::move(t));
}

void insert_sptrsv_level_fence(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId x, rt::Access mode) {
  rt::TaskSpec t = rt::make_task(sptrsv_level_fence_kernel(), on_cpu(opt, "insert_sptrsv_level_fence"), 0.0);
  t.data = {{x, mode}};
  rt.submit(std::move(t));
}

std::pair<index_t, index_t> level_range_positions(const rt::TaskSpec& task) {
  if (task.kernel != &sptrsv_level_range_kernel() || task.args.size() != sizeof(LevelArgs))
    throw InvalidArgument("level_range_positions: task '" + task.name + "' is not a level-range task");
  const auto a = task.get_args<LevelArgs>();
  return {a.begin, a.end};
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
