// The level schedule of a GPU subtree (supernode_subtree_gpu.hpp): host side, no CUDA.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_subtree_gpu.hpp"

namespace hetsparse::kernels {

SubtreeLevels plan_subtree_levels(const PanelLocation* loc, const std::int32_t* rows,
                                  const std::int32_t* col_to_supernode, std::int32_t first, std::int32_t last) {
  if (first > last || (first < last && (loc == nullptr || rows == nullptr || col_to_supernode == nullptr)))
    throw InvalidArgument("plan_subtree_levels: bad range [" + std::to_string(first) + ", " + std::to_string(last) +
                          ") or null arrays");
  const std::int32_t n = last - first;
  std::vector<SubtreeLevels::Update> all;
  std::vector<std::int32_t> level(n, 0), first_update(n + 1, 0);
  for (std::int32_t s = first; s < last; ++s) {  // postorder: every update into s comes from before s
    first_update[s - first] = static_cast<std::int32_t>(all.size());
    const PanelLocation& l = loc[s];
    const std::int32_t* r = rows + l.row_begin;
    // Rows below the diagonal block are sorted, so targets come in increasing order.
    std::int32_t p = l.ncols;
    while (p < l.nrows) {
      const std::int32_t t = col_to_supernode[r[p]];
      if (t >= last) break;
      if (t <= s) throw InvalidArgument("plan_subtree_levels: supernode " + std::to_string(s) + " updates " +
                                        std::to_string(t) + ", not a later supernode");
      std::int32_t q = p;
      while (q < l.nrows && r[q] < loc[t].first_col + loc[t].ncols) ++q;
      all.push_back({s, t, p, q});
      level[t - first] = std::max(level[t - first], level[s - first] + 1);
      p = q;
    }
  }
  first_update[n] = static_cast<std::int32_t>(all.size());
  const int levels = n == 0 ? 0 : *std::max_element(level.begin(), level.end()) + 1;
  SubtreeLevels plan;
  plan.level_begin.assign(levels + 1, 0);
  for (std::int32_t i = 0; i < n; ++i) ++plan.level_begin[level[i] + 1];
  for (int l = 0; l < levels; ++l) plan.level_begin[l + 1] += plan.level_begin[l];
  plan.order.resize(n);
  std::vector<std::int32_t> next(plan.level_begin.begin(), plan.level_begin.end() - (levels > 0 ? 1 : 0));
  for (std::int32_t i = 0; i < n; ++i) plan.order[next[level[i]]++] = first + i;
  plan.update_begin.assign(levels + 1, 0);
  plan.updates.reserve(all.size());
  for (int l = 0; l < levels; ++l) {
    plan.update_begin[l] = static_cast<std::int32_t>(plan.updates.size());
    for (std::int32_t k = plan.level_begin[l]; k < plan.level_begin[l + 1]; ++k) {
      const std::int32_t i = plan.order[k] - first;
      plan.updates.insert(plan.updates.end(), all.begin() + first_update[i], all.begin() + first_update[i + 1]);
    }
  }
  plan.update_begin[levels] = static_cast<std::int32_t>(plan.updates.size());
  if (levels == 0) plan.level_begin.assign(1, 0), plan.update_begin.assign(1, 0);
  return plan;
}

}  // namespace hetsparse::kernels
