#include "planners/subtree_plans.hpp"

#include <exception>

#include "sparse/host_threads.hpp"

namespace hetsparse::planners {

void plan_gpu_subtrees(SubtreePlans& plans, const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                       const std::vector<rt::Where>& homes, double fused_max_flops, std::int32_t batched_max_cols) {
  const auto groups = static_cast<std::size_t>(layout.num_groups());
  plans.group.resize(groups);
  std::vector<index_t> missing;
  for (index_t g = 0; g < layout.num_groups(); ++g)
    if (layout.subtree[g] && homes[g] != rt::Where::Cpu && !plans.group[g]) missing.push_back(g);
  std::vector<std::exception_ptr> failed(missing.size());  // parallel_chunks' threads must not throw
  parallel_chunks(missing.size(), 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const index_t g = missing[i];
      try {
        plans.group[g] = std::make_unique<kernels::SubtreeLevels>(
            kernels::plan_subtree_levels(layout.loc.data(), sym.rows.data(), sym.col_to_supernode.data(),
                                         layout.group_begin[g], layout.group_begin[g + 1]));
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  });
  for (const auto& f : failed)
    if (f) std::rethrow_exception(f);
  for (auto& p : plans.group) {
    if (!p) continue;
    p->fused_max_flops = fused_max_flops;
    p->batched_max_cols = batched_max_cols;
  }
}

}  // namespace hetsparse::planners
