// StarPU glue for the supernodal Cholesky kernels: updates (DPQ single or TPQ batch), factor with
// inline tiny updates (InstQ) and whole leaf subtrees (the solve's: supernode_solve_starpu.cpp).
#include <vector>

#include "codelets/supernode/supernode_codelet.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"

namespace hetsparse::codelets {
namespace {

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

// inline: emitted only where a CUDA task calls it, i.e. in CUDA builds (starpu_binding.hpp).
inline void apply_cuda(void* b[], const void* cl_arg, const UpdateHeader& h) {
  if (h.count == 0) return;
  const Sources s(b, cl_arg, h);
  const std::size_t bytes = s.work_bytes(kernels::kFusedUpdateMaxFlops);
  kernels::supernode_update_batch_cuda(rt::cuda::local_cublas(), rt::cuda::local_stream(), s.ds.data(),
                                       s.rs.data(), s.count(), target(b, h.target), rt::cuda::local_workspace(bytes),
                                       bytes);
}

struct UpdateTasks {
  static void cpu(void* b[], void* cl_arg) { update_cpu(b, cl_arg); }
  static void cuda(void* b[], void* cl_arg) { apply_cuda(b, cl_arg, rt::task_args<UpdateHeader>(cl_arg)); }
};
struct FactorTasks {
  static void cpu(void* b[], void* cl_arg) { factor_cpu(b, cl_arg); }
  static void cuda(void* b[], void* cl_arg) {
    const auto h = rt::task_args<UpdateHeader>(cl_arg);
    apply_cuda(b, cl_arg, h);
    const kernels::PanelRef t = target(b, h.target);
    cusolverDnHandle_t sh = rt::cuda::local_cusolver();
    const std::size_t bytes = kernels::supernode_factor_cuda_work_bytes(sh, t);
    kernels::supernode_factor_cuda(sh, rt::cuda::local_cublas(), rt::cuda::local_stream(), t,
                                   rt::cuda::local_workspace(bytes), bytes, rt::vector_ptr<int>(b[2]));
  }
};
struct SubtreeTasks {
  static void cpu(void* b[], void* cl_arg) { subtree_cpu(b, cl_arg); }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SubtreeArgs>(cl_arg);
    kernels::SubtreeLevels own;
    if (!a.plan) {
      own = kernels::plan_subtree_levels(a.loc, a.host_rows, a.col_to_supernode, a.first, a.last);
      own.fused_max_flops = a.gpu_fused_max_flops;
      own.batched_max_cols = a.gpu_batched_max_cols;
    }
    const kernels::SubtreeLevels& plan = a.plan ? *a.plan : own;
    cusolverDnHandle_t sh = rt::cuda::local_cusolver();
    const std::size_t bytes = kernels::supernode_subtree_cuda_work_bytes(sh, a.loc, plan);
    kernels::supernode_subtree_cuda(rt::cuda::local_cublas(), sh, rt::cuda::local_stream(), a.loc, plan, a.first,
                                    a.last, rt::vector_ptr<const std::int32_t>(b[1]), rt::vector_ptr<double>(b[0]),
                                    a.info + a.first, rt::cuda::local_workspace(bytes), bytes);
  }
};

}  // namespace

void bind_supernode(rt::StarpuBindings& b) {
  b.bind<UpdateTasks>(supernode_update_kernel());
  b.bind<FactorTasks>(supernode_factor_kernel());
  b.bind<SubtreeTasks>(supernode_subtree_kernel());
}

}  // namespace hetsparse::codelets
