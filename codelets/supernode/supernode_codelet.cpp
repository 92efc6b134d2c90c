// StarPU glue for the supernodal Cholesky kernels: updates (DPQ single or TPQ batch), factor with
// inline tiny updates (InstQ), whole leaf subtrees, and the forward/backward solve sweeps.
#include "codelets/supernode/supernode_codelet.hpp"

#include <map>
#include <vector>

#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

// Update and factor tasks: buffers [target values, rows, (info,) sources...].
struct UpdateHeader {  // followed by `count` UpdateItem
  PanelLocation target;
  std::int32_t count, pad;
};
struct UpdateItem {
  PanelLocation d;  // value_offset from the start of buffer `src`
  std::int32_t src, r0, r1, pad;
};
struct SubtreeArgs {
  const PanelLocation* loc;
  const std::int32_t* col_to_supernode;
  int* info;
  std::int32_t first, last;
};
struct SweepArgs {
  std::int32_t num_supernodes, nrhs, ldx, forward;
};

kernels::PanelRef target(void* b[], const PanelLocation& l) {
  return {rt::vector_ptr<double>(b[0]), rt::vector_ptr<const std::int32_t>(b[1]) + l.row_begin, l.nrows, l.ncols, l.first_col};
}

// The descendants of a task as kernel arguments (host or device pointers, as StarPU gives them).
struct Sources {
  std::vector<kernels::ConstPanelRef> ds;
  std::vector<kernels::UpdateRange> rs;
  Sources(void* b[], const void* cl_arg, const UpdateHeader& h) {
    const auto* rows = rt::vector_ptr<const std::int32_t>(b[1]);
    for (const UpdateItem& it : rt::task_items<UpdateHeader, UpdateItem>(cl_arg, h.count)) {
      ds.push_back({rt::vector_ptr<const double>(b[it.src]) + it.d.value_offset, rows + it.d.row_begin, it.d.nrows, it.d.ncols,
                    it.d.first_col});
      rs.push_back({it.r0, it.r1});
    }
  }
  int count() const { return static_cast<int>(ds.size()); }
  // fused_max_flops = 0: room for every product, as the CPU batch needs.
  std::size_t work_bytes(double fused_max_flops) const {
    return kernels::supernode_update_batch_work_bytes(ds.data(), rs.data(), count(), fused_max_flops);
  }
};

// CPU work buffer, one per worker thread, grown as needed.
double* cpu_work(std::size_t doubles) {
  thread_local std::vector<double> work;
  if (work.size() < doubles) work.resize(doubles);
  return work.data();
}

void apply_cpu(void* b[], const void* cl_arg, const UpdateHeader& h) {
  if (h.count == 0) return;
  const Sources s(b, cl_arg, h);
  kernels::supernode_update_batch_cpu(s.ds.data(), s.rs.data(), s.count(), target(b, h.target),
                                      cpu_work(s.work_bytes(0.0) / sizeof(double) + 1));
}

void update_cpu(void* b[], void* cl_arg) { apply_cpu(b, cl_arg, rt::task_args<UpdateHeader>(cl_arg)); }

void factor_cpu(void* b[], void* cl_arg) {
  const auto h = rt::task_args<UpdateHeader>(cl_arg);
  apply_cpu(b, cl_arg, h);
  *rt::vector_ptr<int>(b[2]) = kernels::supernode_factor_cpu(target(b, h.target));
}

void subtree_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SubtreeArgs>(cl_arg);
  double* work = cpu_work(kernels::supernode_subtree_work_doubles(a.loc, a.first, a.last) + 1);
  kernels::supernode_subtree_cpu(a.loc, rt::vector_ptr<const std::int32_t>(b[1]), a.col_to_supernode, a.first, a.last,
                                 rt::vector_ptr<double>(b[0]), a.info + a.first, work);
}

void sweep_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SweepArgs>(cl_arg);
  const double* values = rt::vector_ptr<const double>(b[0]);
  const auto* rows = rt::vector_ptr<const std::int32_t>(b[1]);
  const auto* loc = rt::vector_ptr<const PanelLocation>(b[2]);
  double* x = rt::vector_ptr<double>(b[3]);
  for (std::int32_t k = 0; k < a.num_supernodes; ++k) {
    const PanelLocation& l = loc[a.forward ? k : a.num_supernodes - 1 - k];
    const kernels::ConstPanelRef p{values + l.value_offset, rows + l.row_begin, l.nrows, l.ncols, l.first_col};
    double* work = cpu_work(kernels::supernode_solve_work_doubles(p, a.nrhs));
    if (a.forward)
      kernels::supernode_forward_cpu(p, x, a.nrhs, a.ldx, work);
    else
      kernels::supernode_backward_cpu(p, x, a.nrhs, a.ldx, work);
  }
}

#ifdef HETSPARSE_WITH_CUDA
void apply_cuda(void* b[], const void* cl_arg, const UpdateHeader& h) {
  if (h.count == 0) return;
  const Sources s(b, cl_arg, h);
  const std::size_t bytes = s.work_bytes(kernels::kFusedUpdateMaxFlops);
  kernels::supernode_update_batch_cuda(rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), s.ds.data(),
                                       s.rs.data(), s.count(), target(b, h.target), rt::cuda::local_workspace(bytes),
                                       bytes);
}

void update_cuda(void* b[], void* cl_arg) { apply_cuda(b, cl_arg, rt::task_args<UpdateHeader>(cl_arg)); }

void factor_cuda(void* b[], void* cl_arg) {
  const auto h = rt::task_args<UpdateHeader>(cl_arg);
  apply_cuda(b, cl_arg, h);
  const kernels::PanelRef t = target(b, h.target);
  cusolverDnHandle_t sh = rt::cuda::local_cusolver();
  const std::size_t bytes = kernels::supernode_factor_cuda_work_bytes(sh, t);
  kernels::supernode_factor_cuda(sh, rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), t,
                                 rt::cuda::local_workspace(bytes), bytes, rt::vector_ptr<int>(b[2]));
}
constexpr starpu_cuda_func_t update_cuda_func = rt::guarded<update_cuda>, factor_cuda_func = rt::guarded<factor_cuda>;
#else
constexpr starpu_cuda_func_t update_cuda_func = nullptr, factor_cuda_func = nullptr;
#endif

// Buffers from `first` on: one per distinct source handle; items name their buffer.
void add_sources(rt::TaskSpec& s, const UpdateHeader& h, const std::vector<GroupUpdate>& updates) {
  std::map<rt::HandleId, std::int32_t> buffer;
  std::vector<UpdateItem> items;
  for (const GroupUpdate& u : updates) {
    auto [it, fresh] = buffer.try_emplace(u.source, static_cast<std::int32_t>(s.data.size()));
    if (fresh) s.data.push_back({u.source, rt::Access::Read});
    items.push_back({u.d, it->second, u.r0, u.r1, 0});
  }
  s.set_args(h, items);
}

}  // namespace

const rt::Kernel& supernode_update_kernel() {
  static rt::StarpuKernel k("sn_update", rt::guarded<update_cpu>, update_cuda_func, rt::PerfModel::FlopsRegression);
  return k;
}
const rt::Kernel& supernode_factor_kernel() {
  static rt::StarpuKernel k("sn_factor", rt::guarded<factor_cpu>, factor_cuda_func, rt::PerfModel::FlopsRegression);
  return k;
}
const rt::Kernel& supernode_subtree_kernel() {
  static rt::StarpuKernel k("sn_subtree", rt::guarded<subtree_cpu>, nullptr, rt::PerfModel::FlopsRegression);
  return k;
}
const rt::Kernel& supernodal_sweep_kernel() {
  static rt::StarpuKernel k("sn_sweep", rt::guarded<sweep_cpu>, nullptr);
  return k;
}

void insert_supernode_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<GroupUpdate>& updates,
                             const TargetPanel& t, rt::HandleId rows, double flops) {
  rt::TaskSpec s = rt::make_task(supernode_update_kernel(), opt, flops);
  s.data = {{t.values, rt::Access::Commute}, {rows, rt::Access::Read}};
  add_sources(s, UpdateHeader{t.loc, static_cast<std::int32_t>(updates.size()), 0}, updates);
  rt.submit(std::move(s));
}

void insert_supernode_factor(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const TargetPanel& t, rt::HandleId rows,
                             rt::HandleId info, const std::vector<GroupUpdate>& inline_updates, double flops) {
  rt::TaskSpec s = rt::make_task(supernode_factor_kernel(), opt, flops);
  s.data = {{t.values, rt::Access::ReadWrite}, {rows, rt::Access::Read}, {info, rt::Access::Write}};
  add_sources(s, UpdateHeader{t.loc, static_cast<std::int32_t>(inline_updates.size()), 0}, inline_updates);
  rt.submit(std::move(s));
}

void insert_supernode_subtree(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SubtreeTask& t,
                              rt::HandleId rows, double flops) {
  rt::TaskSpec s = rt::make_task(supernode_subtree_kernel(), opt, flops);
  s.set_args(SubtreeArgs{t.loc, t.col_to_supernode, t.info, t.first, t.last});
  s.data = {{t.values, rt::Access::ReadWrite}, {rows, rt::Access::Read}};
  rt.submit(std::move(s));
}

void insert_supernodal_sweep(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId values, rt::HandleId rows,
                             rt::HandleId locations, rt::HandleId x, int num_supernodes, int nrhs, int ldx,
                             bool forward) {
  rt::TaskSpec s = rt::make_task(supernodal_sweep_kernel(), opt, 0.0);
  s.set_args(SweepArgs{num_supernodes, nrhs, ldx, forward ? 1 : 0});
  s.data = {{values, rt::Access::Read}, {rows, rt::Access::Read}, {locations, rt::Access::Read},
            {x, rt::Access::ReadWrite}};
  rt.submit(std::move(s));
}

}  // namespace hetsparse::codelets
