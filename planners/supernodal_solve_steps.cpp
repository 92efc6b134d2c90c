// The order of the supernodal solve's steps when some groups are swept together (one task over many
// single-supernode GPU groups): levels of the group tree, the sweep flushed before any other group
// that reads one of its groups.
#include <algorithm>

#include "planners/supernodal_solve.hpp"

namespace hetsparse::planners {

std::vector<SolveStep> plan_solve_steps(const SolvePlan& plan, const std::vector<char>& swept, bool forward) {
  const index_t G = static_cast<index_t>(plan.where.size());
  std::vector<SolveStep> steps;
  const bool any = std::find(swept.begin(), swept.end(), char(1)) != swept.end();
  if (!any) {  // the plain order: postorder forward, reverse backward
    for (index_t k = 0; k < G; ++k)
      if (swept[forward ? k : G - 1 - k] != 2) steps.push_back({false, {forward ? k : G - 1 - k}});
    return steps;
  }
  // Groups a group reads in this direction: its sources forward, its targets backward.
  auto each_read = [&](index_t g, auto&& fn) {
    if (forward) {
      for (std::int64_t l : plan.links_into[g]) fn(plan.links[l].source);
    } else {
      for (std::int64_t l = plan.links_from[g]; l < plan.links_from[g + 1]; ++l) fn(plan.links[l].target);
    }
  };
  // Level: 1 + the deepest group read (sources come before targets in postorder, targets after).
  std::vector<index_t> level(G, 0);
  index_t top = 0;
  for (index_t k = 0; k < G; ++k) {
    const index_t g = forward ? k : G - 1 - k;
    each_read(g, [&](index_t o) { level[g] = std::max(level[g], level[o] + 1); });
    top = std::max(top, level[g]);
  }
  std::vector<std::vector<index_t>> at(top + 1);
  for (index_t k = 0; k < G; ++k) {
    const index_t g = forward ? k : G - 1 - k;
    at[level[g]].push_back(g);
  }
  std::vector<char> in_sweep(G, 0);
  SolveStep sweep{true, {}};
  auto flush = [&] {
    if (sweep.groups.empty()) return;
    for (index_t g : sweep.groups) in_sweep[g] = 0;
    steps.push_back(std::move(sweep));
    sweep = SolveStep{true, {}};
  };
  for (const auto& groups : at) {
    bool reads_sweep = false;
    for (index_t g : groups)
      if (swept[g] == 0) each_read(g, [&](index_t o) { reads_sweep = reads_sweep || in_sweep[o]; });
    if (reads_sweep) flush();
    for (index_t g : groups) {
      if (swept[g] == 1) {
        sweep.groups.push_back(g);
        in_sweep[g] = 1;
      } else if (swept[g] == 0) {
        steps.push_back({false, {g}});
      }
    }
  }
  flush();
  return steps;
}

}  // namespace hetsparse::planners
