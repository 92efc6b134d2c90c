// The supernodal Cholesky tasks: their kernels and insert functions (no StarPU; the glue is
// supernode_starpu.cpp).
#include "codelets/supernode/supernode_codelet.hpp"

#include <map>
#include <vector>

#include "codelets/cuda_build.hpp"

namespace hetsparse::codelets {
namespace {

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
  static const rt::Kernel k{"sn_update", kCpuAndCuda, rt::TaskKind::Sequential, rt::PerfModel::FlopsRegression};
  return k;
}
const rt::Kernel& supernode_factor_kernel() {
  static const rt::Kernel k{"sn_factor", kCpuAndCuda, rt::TaskKind::Sequential, rt::PerfModel::FlopsRegression};
  return k;
}
const rt::Kernel& supernode_subtree_kernel() {
  // CUDA too: dmdas sends a subtree to the GPU when its perf model says the level-batched kernel
  // finishes it first (the CPUs' leaf-subtree phase was the longest stretch of a 3D factorization).
  static const rt::Kernel k{"sn_subtree", kCpuAndCuda, rt::TaskKind::Sequential, rt::PerfModel::FlopsRegression};
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
  s.set_args(SubtreeArgs{t.loc, t.col_to_supernode, t.host_rows, t.gpu_fused_max_flops, t.gpu_batched_max_cols, 0,
                         t.info, t.first, t.last, t.plan});
  s.data = {{t.values, rt::Access::ReadWrite}, {rows, rt::Access::Read}};
  rt.submit(std::move(s));
}

}  // namespace hetsparse::codelets
