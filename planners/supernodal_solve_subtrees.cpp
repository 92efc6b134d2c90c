// Which leaf subtrees the supernodal solve batches, and their level-by-level schedule: a supernode's
// level is its height in its subtree, so every supernode it sends to (its ancestors) sits on a later
// level forward and an earlier one backward, and a level's supernodes are independent.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "planners/supernodal_solve.hpp"

namespace hetsparse::planners {

SubtreeSolvePlan plan_subtree_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                    const std::vector<index_t>& groups, int max_groups) {
  if (max_groups < 1 || max_groups > kernels::kSubtreeSolveMaxGroups)
    throw InvalidArgument("plan_subtree_solve: " + std::to_string(max_groups) + " groups per task (1 to " +
                          std::to_string(kernels::kSubtreeSolveMaxGroups) + ")");
  SubtreeSolvePlan out;
  if (groups.empty()) return out;
  // Chunks of nearly equal numbers of groups, in the order given.
  const std::size_t count = groups.size(), per = static_cast<std::size_t>(max_groups);
  const std::size_t nchunks = (count + per - 1) / per;
  std::vector<std::int32_t> height;
  for (std::size_t c = 0; c < nchunks; ++c) {
    SubtreeSolveChunk chunk;
    chunk.groups.assign(groups.begin() + std::ptrdiff_t(count * c / nchunks),
                        groups.begin() + std::ptrdiff_t(count * (c + 1) / nchunks));
    struct Item {
      std::int32_t level, block;
      kernels::SubtreeSolveEntry e;
    };
    std::vector<Item> items;
    std::int32_t top = 0;
    for (std::size_t k = 0; k < chunk.groups.size(); ++k) {
      const index_t g = chunk.groups[k];
      if (g < 0 || g >= layout.num_groups())
        throw InvalidArgument("plan_subtree_solve: group " + std::to_string(g) + " is not in the layout");
      const index_t first = layout.group_begin[g], last = layout.group_begin[g + 1];
      height.assign(static_cast<std::size_t>(last - first), 0);
      for (index_t s = first; s < last; ++s) {  // postorder: children before their parent
        const index_t p = sym.supernodes[s].parent;
        if (p >= first && p < last) height[p - first] = std::max(height[p - first], height[s - first] + 1);
        items.push_back({height[s - first], kernels::subtree_solve_block_team(layout.loc[s]) ? 1 : 0,
                         {layout.offset_in_group(s), static_cast<std::int32_t>(s), static_cast<std::int32_t>(k)}});
        top = std::max(top, height[s - first]);
      }
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.level != b.level ? a.level < b.level : a.block < b.block;
    });
    // segments[2l + t]: the first item of level l with team kind t (then the end).
    chunk.segments.assign(2 * static_cast<std::size_t>(top + 1) + 1, 0);
    const auto base = static_cast<std::int32_t>(out.entries.size());
    std::size_t i = 0;
    for (std::int32_t seg = 0; seg < 2 * (top + 1); ++seg) {
      chunk.segments[seg] = base + static_cast<std::int32_t>(i);
      while (i < items.size() && 2 * items[i].level + items[i].block == seg) ++i;
    }
    chunk.segments.back() = base + static_cast<std::int32_t>(items.size());
    for (const Item& it : items) out.entries.push_back(it.e);
    out.chunks.push_back(std::move(chunk));
  }
  return out;
}

void plan_batched_subtrees(SolvePlan& plan, const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                           int max_groups) {
  const index_t G = layout.num_groups();
  if (plan.where.size() != std::size_t(G))
    throw InvalidArgument("plan_batched_subtrees: the plan does not match the layout");
  plan.batched.assign(static_cast<std::size_t>(G), 0);
  plan.from_batched.assign(static_cast<std::size_t>(G), 0);
  std::vector<index_t> groups;
  for (index_t g = 0; g < G; ++g) {
    if (layout.group_begin[g + 1] - layout.group_begin[g] < 2 || plan.where[g] != rt::Where::Cuda) continue;
    if (!plan.links_into[g].empty())
      throw InvalidArgument("plan_batched_subtrees: group " + std::to_string(g) + " receives from other groups");
    plan.batched[g] = 1;
    groups.push_back(g);
    for (std::int64_t l = plan.links_from[g]; l < plan.links_from[g + 1]; ++l) plan.from_batched[plan.links[l].target] = 1;
  }
  plan.subtrees = plan_subtree_solve(sym, layout, groups, max_groups);
}

}  // namespace hetsparse::planners
