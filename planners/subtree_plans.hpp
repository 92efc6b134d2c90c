// The GPU subtree kernel's level schedules (kernels::SubtreeLevels), kept between factorizations of
// one layout: a 2D factor the GPU takes whole is one subtree of ~10^5 supernodes, whose schedule
// took as long to build on the host as a third of the GPU's factorization, at every call.
#pragma once
#include <memory>
#include <vector>

#include "kernels/supernode/supernode_subtree_gpu.hpp"
#include "planners/supernodal_layout.hpp"
#include "runtime/task_runtime.hpp"
#include "symbolic/symbolic_factor.hpp"

namespace hetsparse::planners {

struct SubtreePlans {
  std::vector<std::unique_ptr<kernels::SubtreeLevels>> group;  // by layout group; null: not planned
};

// Plans every subtree group whose home is not the CPUs and that has no plan yet (groups in
// parallel), and sets the kernel's two limits in every plan. plans.group is sized to the layout.
void plan_gpu_subtrees(SubtreePlans& plans, const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                       const std::vector<rt::Where>& homes, double fused_max_flops, std::int32_t batched_max_cols);

}  // namespace hetsparse::planners
