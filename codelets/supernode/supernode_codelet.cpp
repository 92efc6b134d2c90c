// StarPU glue for the supernodal Cholesky kernels: update (DPQ), batched updates (TPQ), factor with
// inline tiny updates (InstQ), and the forward/backward solve sweeps.
#include "codelets/supernode/supernode_codelet.hpp"

#include <vector>

#include "codelets/supernode/supernode.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct UpdateArgs {
  kernels::UpdateRange range;
  std::int32_t d_first_col, t_first_col;
};
struct BatchHeader {  // followed by `count` BatchItem
  std::int32_t count, t_first_col;
};
struct BatchItem {
  kernels::UpdateRange range;
  std::int32_t d_first_col, pad;
};
struct SolveArgs {
  std::int32_t first_col, nrhs, ldx, pad;
};
struct SweepArgs {
  std::int32_t num_supernodes, nrhs, ldx, forward;
};

template <class Ref, class Ptr>
Ref panel(void* matrix, void* rows, std::int32_t first_col) {
  return Ref{reinterpret_cast<Ptr>(STARPU_MATRIX_GET_PTR(matrix)), rt::vector_ptr<const std::int32_t>(rows),
             static_cast<std::int32_t>(STARPU_MATRIX_GET_NX(matrix)),
             static_cast<std::int32_t>(STARPU_MATRIX_GET_NY(matrix)), first_col};
}
kernels::PanelRef target(void* m, void* r, std::int32_t c) { return panel<kernels::PanelRef, double*>(m, r, c); }
kernels::ConstPanelRef source(void* m, void* r, std::int32_t c) {
  return panel<kernels::ConstPanelRef, const double*>(m, r, c);
}

// CPU work buffer, one per worker thread, grown as needed.
double* cpu_work(std::size_t doubles) {
  thread_local std::vector<double> work;
  if (work.size() < doubles) work.resize(doubles);
  return work.data();
}

// Buffers [first .. first + 2*count) hold (panel, rows) pairs of the descendants.
std::vector<kernels::ConstPanelRef> descendants(void* b[], int first, const std::vector<BatchItem>& items) {
  std::vector<kernels::ConstPanelRef> ds;
  for (std::size_t i = 0; i < items.size(); ++i)
    ds.push_back(source(b[first + 2 * i], b[first + 2 * i + 1], items[i].d_first_col));
  return ds;
}
std::vector<kernels::UpdateRange> ranges(const std::vector<BatchItem>& items) {
  std::vector<kernels::UpdateRange> rs;
  for (const BatchItem& it : items) rs.push_back(it.range);
  return rs;
}

void update_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<UpdateArgs>(cl_arg);
  const kernels::ConstPanelRef d = source(b[0], b[1], a.d_first_col);
  kernels::supernode_update_cpu(d, a.range, target(b[2], b[3], a.t_first_col),
                                cpu_work(kernels::supernode_update_work_doubles(d, a.range)));
}

void batch_cpu(void* b[], void* cl_arg) {
  const auto h = rt::task_args<BatchHeader>(cl_arg);
  const auto items = rt::task_items<BatchHeader, BatchItem>(cl_arg, h.count);
  const auto ds = descendants(b, 2, items);
  const auto rs = ranges(items);
  const std::size_t bytes = kernels::supernode_update_batch_work_bytes(ds.data(), rs.data(), h.count);
  kernels::supernode_update_batch_cpu(ds.data(), rs.data(), h.count, target(b[0], b[1], h.t_first_col),
                                      cpu_work(bytes / sizeof(double) + 1));
}

void factor_cpu(void* b[], void* cl_arg) {
  const auto h = rt::task_args<BatchHeader>(cl_arg);
  const kernels::PanelRef t = target(b[0], b[2], h.t_first_col);
  if (h.count > 0) {
    const auto items = rt::task_items<BatchHeader, BatchItem>(cl_arg, h.count);
    const auto ds = descendants(b, 3, items);
    const auto rs = ranges(items);
    const std::size_t bytes = kernels::supernode_update_batch_work_bytes(ds.data(), rs.data(), h.count);
    kernels::supernode_update_batch_cpu(ds.data(), rs.data(), h.count, t, cpu_work(bytes / sizeof(double) + 1));
  }
  *rt::vector_ptr<int>(b[1]) = kernels::supernode_factor_cpu(t);
}

void forward_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SolveArgs>(cl_arg);
  const kernels::ConstPanelRef p = source(b[0], b[1], a.first_col);
  kernels::supernode_forward_cpu(p, rt::vector_ptr(b[2]), a.nrhs, a.ldx, cpu_work(kernels::supernode_solve_work_doubles(p, a.nrhs)));
}

void backward_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SolveArgs>(cl_arg);
  const kernels::ConstPanelRef p = source(b[0], b[1], a.first_col);
  kernels::supernode_backward_cpu(p, rt::vector_ptr(b[2]), a.nrhs, a.ldx, cpu_work(kernels::supernode_solve_work_doubles(p, a.nrhs)));
}

void sweep_cpu(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SweepArgs>(cl_arg);
  const double* values = rt::vector_ptr<const double>(b[0]);
  const auto* rows = rt::vector_ptr<const std::int32_t>(b[1]);
  const auto* loc = rt::vector_ptr<const SupernodeLocation>(b[2]);
  double* x = rt::vector_ptr(b[3]);
  for (std::int32_t k = 0; k < a.num_supernodes; ++k) {
    const SupernodeLocation& l = loc[a.forward ? k : a.num_supernodes - 1 - k];
    const kernels::ConstPanelRef p{values + l.value_offset, rows + l.row_begin, l.nrows, l.ncols, l.first_col};
    double* work = cpu_work(kernels::supernode_solve_work_doubles(p, a.nrhs));
    if (a.forward)
      kernels::supernode_forward_cpu(p, x, a.nrhs, a.ldx, work);
    else
      kernels::supernode_backward_cpu(p, x, a.nrhs, a.ldx, work);
  }
}

#ifdef HETSPARSE_WITH_CUDA
void update_cuda(void* b[], void* cl_arg) {
  const auto a = rt::task_args<UpdateArgs>(cl_arg);
  const kernels::ConstPanelRef d = source(b[0], b[1], a.d_first_col);
  const std::size_t bytes = kernels::supernode_update_work_doubles(d, a.range) * sizeof(double);
  kernels::supernode_update_cuda(rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), d, a.range,
                                 target(b[2], b[3], a.t_first_col),
                                 static_cast<double*>(rt::cuda::local_workspace(bytes)));
}

void apply_batch_cuda(void* b[], int first, const void* cl_arg, const BatchHeader& h, const kernels::PanelRef& t) {
  const auto items = rt::task_items<BatchHeader, BatchItem>(cl_arg, h.count);
  const auto ds = descendants(b, first, items);
  const auto rs = ranges(items);
  const std::size_t bytes = kernels::supernode_update_batch_work_bytes(ds.data(), rs.data(), h.count);
  kernels::supernode_update_batch_cuda(rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), ds.data(), rs.data(),
                                       h.count, t, rt::cuda::local_workspace(bytes), bytes);
}

void batch_cuda(void* b[], void* cl_arg) {
  const auto h = rt::task_args<BatchHeader>(cl_arg);
  apply_batch_cuda(b, 2, cl_arg, h, target(b[0], b[1], h.t_first_col));
}

void factor_cuda(void* b[], void* cl_arg) {
  const auto h = rt::task_args<BatchHeader>(cl_arg);
  const kernels::PanelRef t = target(b[0], b[2], h.t_first_col);
  if (h.count > 0) apply_batch_cuda(b, 3, cl_arg, h, t);
  cusolverDnHandle_t sh = rt::cuda::local_cusolver();
  const std::size_t bytes = kernels::supernode_factor_cuda_work_bytes(sh, t);
  kernels::supernode_factor_cuda(sh, rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), t,
                                 rt::cuda::local_workspace(bytes), bytes, rt::vector_ptr<int>(b[1]));
}

void forward_cuda(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SolveArgs>(cl_arg);
  const kernels::ConstPanelRef p = source(b[0], b[1], a.first_col);
  kernels::supernode_forward_cuda(
      rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), p, rt::vector_ptr(b[2]), a.nrhs, a.ldx,
      static_cast<double*>(rt::cuda::local_workspace(kernels::supernode_solve_work_doubles(p, a.nrhs) * sizeof(double))));
}

void backward_cuda(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SolveArgs>(cl_arg);
  const kernels::ConstPanelRef p = source(b[0], b[1], a.first_col);
  kernels::supernode_backward_cuda(
      rt::cuda::local_cublas(), starpu_cuda_get_local_stream(), p, rt::vector_ptr(b[2]), a.nrhs, a.ldx,
      static_cast<double*>(rt::cuda::local_workspace(kernels::supernode_solve_work_doubles(p, a.nrhs) * sizeof(double))));
}
constexpr starpu_cuda_func_t update_cuda_func = rt::guarded<update_cuda>, batch_cuda_func = rt::guarded<batch_cuda>,
                             factor_cuda_func = rt::guarded<factor_cuda>, forward_cuda_func = rt::guarded<forward_cuda>,
                             backward_cuda_func = rt::guarded<backward_cuda>;
#else
constexpr starpu_cuda_func_t update_cuda_func = nullptr, batch_cuda_func = nullptr, factor_cuda_func = nullptr,
                             forward_cuda_func = nullptr, backward_cuda_func = nullptr;
#endif

std::vector<BatchItem> items_of(const std::vector<SupernodeUpdate>& us) {
  std::vector<BatchItem> items;
  for (const SupernodeUpdate& u : us) items.push_back({{u.r0, u.r1}, u.d.first_col, 0});
  return items;
}
void add_descendants(rt::TaskSpec& t, const std::vector<SupernodeUpdate>& us) {
  for (const SupernodeUpdate& u : us) {
    t.data.push_back({u.d.panel, rt::Access::Read});
    t.data.push_back({u.d.rows, rt::Access::Read});
  }
}

}  // namespace

const rt::Kernel& supernode_update_kernel() {
  static rt::StarpuKernel k("sn_update", rt::guarded<update_cpu>, update_cuda_func);
  return k;
}
const rt::Kernel& supernode_update_batch_kernel() {
  static rt::StarpuKernel k("sn_update_batch", rt::guarded<batch_cpu>, batch_cuda_func);
  return k;
}
const rt::Kernel& supernode_factor_kernel() {
  static rt::StarpuKernel k("sn_factor", rt::guarded<factor_cpu>, factor_cuda_func);
  return k;
}
const rt::Kernel& supernode_forward_kernel() {
  static rt::StarpuKernel k("sn_forward", rt::guarded<forward_cpu>, forward_cuda_func);
  return k;
}
const rt::Kernel& supernode_backward_kernel() {
  static rt::StarpuKernel k("sn_backward", rt::guarded<backward_cpu>, backward_cuda_func);
  return k;
}

const rt::Kernel& supernodal_sweep_kernel() {
  static rt::StarpuKernel k("sn_sweep", rt::guarded<sweep_cpu>, nullptr);
  return k;
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

void insert_supernode_update(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeUpdate& u,
                             const SupernodeHandles& t, double flops) {
  rt::TaskSpec s = rt::make_task(supernode_update_kernel(), opt, flops);
  s.set_args(UpdateArgs{{u.r0, u.r1}, u.d.first_col, t.first_col});
  s.data = {{u.d.panel, rt::Access::Read}, {u.d.rows, rt::Access::Read}, {t.panel, rt::Access::Commute},
            {t.rows, rt::Access::Read}};
  rt.submit(std::move(s));
}

void insert_supernode_update_batch(rt::TaskRuntime& rt, const rt::TaskOptions& opt,
                                   const std::vector<SupernodeUpdate>& updates, const SupernodeHandles& t,
                                   double flops) {
  rt::TaskSpec s = rt::make_task(supernode_update_batch_kernel(), opt, flops);
  s.set_args(BatchHeader{static_cast<std::int32_t>(updates.size()), t.first_col}, items_of(updates));
  s.data = {{t.panel, rt::Access::Commute}, {t.rows, rt::Access::Read}};
  add_descendants(s, updates);
  rt.submit(std::move(s));
}

void insert_supernode_factor(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& t,
                             rt::HandleId info, const std::vector<SupernodeUpdate>& inline_updates, double flops) {
  rt::TaskSpec s = rt::make_task(supernode_factor_kernel(), opt, flops);
  s.set_args(BatchHeader{static_cast<std::int32_t>(inline_updates.size()), t.first_col}, items_of(inline_updates));
  s.data = {{t.panel, rt::Access::ReadWrite}, {info, rt::Access::Write}, {t.rows, rt::Access::Read}};
  add_descendants(s, inline_updates);
  rt.submit(std::move(s));
}

void insert_supernode_forward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& p,
                              rt::HandleId x, int nrhs, int ldx) {
  rt::TaskSpec s = rt::make_task(supernode_forward_kernel(), opt, 0.0);
  s.set_args(SolveArgs{p.first_col, nrhs, ldx, 0});
  s.data = {{p.panel, rt::Access::Read}, {p.rows, rt::Access::Read}, {x, rt::Access::ReadWrite}};
  rt.submit(std::move(s));
}

void insert_supernode_backward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SupernodeHandles& p,
                               rt::HandleId x, int nrhs, int ldx) {
  rt::TaskSpec s = rt::make_task(supernode_backward_kernel(), opt, 0.0);
  s.set_args(SolveArgs{p.first_col, nrhs, ldx, 0});
  s.data = {{p.panel, rt::Access::Read}, {p.rows, rt::Access::Read}, {x, rt::Access::ReadWrite}};
  rt.submit(std::move(s));
}

}  // namespace hetsparse::codelets
