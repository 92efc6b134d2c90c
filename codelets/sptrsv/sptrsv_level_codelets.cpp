// The level-scheduled CPU solve as tasks: the parallel-task kernels (SPMD, fork-join), the level-range
// and fence kernels of the per-level tasks, and their insert functions (no StarPU; the glue is
// sptrsv_level_starpu.cpp).
#include "codelets/sptrsv/sptrsv_level_codelets.hpp"

#include "hetsparse/error.hpp"

namespace hetsparse::codelets {
namespace {

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

// Level ranges of one matrix all carry the same data, so a data-size footprint would mix one-row
// shares with whole runs of levels in one history: FlopsHistory keys it by flops.
const rt::Kernel& sptrsv_spmd_kernel() {
  static const rt::Kernel k{"sptrsv_spmd", rt::Device::Cpu, rt::TaskKind::Spmd};
  return k;
}
const rt::Kernel& sptrsv_forkjoin_kernel() {
  static const rt::Kernel k{"sptrsv_forkjoin", rt::Device::Cpu, rt::TaskKind::ForkJoin};
  return k;
}
const rt::Kernel& sptrsv_level_range_kernel() {
  static const rt::Kernel k{"sptrsv_level_range", rt::Device::Cpu, rt::TaskKind::Sequential, rt::PerfModel::FlopsHistory};
  return k;
}
const rt::Kernel& sptrsv_level_fence_kernel() {
  static const rt::Kernel k{"sptrsv_level_fence", rt::Device::Cpu};
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

}  // namespace hetsparse::codelets
