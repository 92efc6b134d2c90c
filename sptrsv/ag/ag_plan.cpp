// AG-SpTRSV host plan: positions, node merging (4.3), node levels, node groups and kernels (4.4);
// the warp schedule is in ag_schedule.cpp and the deadlock check in ag_plan_check.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "sptrsv/ag/ag_plan.hpp"
#include "sptrsv/ag/ag_scheme.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv::ag {
namespace {

std::int64_t row_entries(const TriangularView& t, index_t row) {
  return static_cast<std::int64_t>(t.rowptr[row + 1]) - t.rowptr[row];
}

// Node levels in the node graph (a dependency edge from node j to node i when a row of i needs a
// row of j) and which nodes depend on themselves. Merging consecutive positions keeps every edge
// pointing to an earlier node, so one pass in node order is a topological sweep.
void node_levels(const TriangularView& t, AgPlan& plan) {
  const auto nodes = static_cast<index_t>(plan.node_ptr.size()) - 1;
  std::vector<index_t> node_of_row(static_cast<std::size_t>(t.n));
  for (index_t i = 0; i < nodes; ++i) {
    for (index_t p = plan.node_ptr[i]; p < plan.node_ptr[i + 1]; ++p) node_of_row[plan.position_rows[p]] = i;
  }
  plan.node_level.assign(static_cast<std::size_t>(nodes), 0);
  plan.node_internal_dep.assign(static_cast<std::size_t>(nodes), 0);
  plan.num_node_levels = nodes > 0 ? 1 : 0;
  for (index_t i = 0; i < nodes; ++i) {
    index_t level = 0;
    for (index_t p = plan.node_ptr[i]; p < plan.node_ptr[i + 1]; ++p) {
      index_t begin = 0, end = 0;
      off_diagonal_range(t, plan.position_rows[p], begin, end);
      for (index_t k = begin; k < end; ++k) {
        const index_t j = node_of_row[t.colind[k]];
        if (j == i) {
          plan.node_internal_dep[i] = 1;
        } else if (j < i) {
          level = std::max(level, plan.node_level[j] + 1);
        } else {
          throw InvalidArgument("make_ag_plan: row " + std::to_string(plan.position_rows[p]) +
                                " depends on a later position; the view is not normalised");
        }
      }
    }
    plan.node_level[i] = level;
    plan.num_node_levels = std::max(plan.num_node_levels, level + 1);
  }
}

// First hierarchy: nodes of one level packed subwarps at a time, level by level, so group ids are
// a topological order of the groups and the nodes of a group are independent.
void make_groups(const TriangularView& t, const AgScheme& s, AgPlan& plan, std::vector<std::int64_t>& group_work,
                 std::vector<index_t>& level_group_ptr) {
  const auto nodes = static_cast<index_t>(plan.node_level.size());
  std::vector<std::int64_t> work(static_cast<std::size_t>(nodes), 0);
  for (index_t i = 0; i < nodes; ++i) {
    for (index_t p = plan.node_ptr[i]; p < plan.node_ptr[i + 1]; ++p) work[i] += row_entries(t, plan.position_rows[p]);
  }
  // Counting sort by level keeps start-position order inside a level (rg_sequential).
  std::vector<index_t> level_ptr(static_cast<std::size_t>(plan.num_node_levels) + 1, 0);
  for (index_t i = 0; i < nodes; ++i) ++level_ptr[plan.node_level[i] + 1];
  std::partial_sum(level_ptr.begin(), level_ptr.end(), level_ptr.begin());
  std::vector<index_t> by_level(static_cast<std::size_t>(nodes));
  std::vector<index_t> fill(level_ptr.begin(), level_ptr.end() - 1);
  for (index_t i = 0; i < nodes; ++i) by_level[fill[plan.node_level[i]]++] = i;
  plan.group_ptr.assign(1, 0);
  plan.group_nodes.clear();
  group_work.clear();
  level_group_ptr.assign(1, 0);
  for (index_t l = 0; l < plan.num_node_levels; ++l) {
    const auto first = by_level.begin() + level_ptr[l], last = by_level.begin() + level_ptr[l + 1];
    if (s.rg == AgRowGrouping::Balance) {
      std::stable_sort(first, last, [&](index_t a, index_t b) { return work[a] > work[b]; });
    }
    for (auto it = first; it < last; it += std::min<std::ptrdiff_t>(s.subwarps, last - it)) {
      const auto end = it + std::min<std::ptrdiff_t>(s.subwarps, last - it);
      std::int64_t total = 0;
      for (auto node = it; node < end; ++node) {
        plan.group_nodes.push_back(*node);
        total += work[*node];
      }
      plan.group_ptr.push_back(static_cast<index_t>(plan.group_nodes.size()));
      group_work.push_back(total);
    }
    level_group_ptr.push_back(static_cast<index_t>(group_work.size()));
  }
}

// Third hierarchy: a level with more than alpha * hardware warps groups runs alone (and, its rows
// being independent, without flag waits); runs of smaller levels share one sync-free kernel.
void make_kernels(const AgScheme& s, const AgMachine& machine, const std::vector<index_t>& level_group_ptr,
                  AgPlan& plan) {
  const double thresh_level = s.alpha_level * static_cast<double>(machine.hardware_warps);
  plan.kernels.clear();
  const auto levels = static_cast<index_t>(level_group_ptr.size()) - 1;
  AgKernel open;
  bool has_open = false;
  for (index_t l = 0; l < levels; ++l) {
    const index_t groups = level_group_ptr[l + 1] - level_group_ptr[l];
    const bool alone = static_cast<double>(groups) > thresh_level;
    if (alone && has_open) {
      plan.kernels.push_back(open);
      has_open = false;
    }
    if (!has_open) {
      open = AgKernel{};
      open.group_begin = level_group_ptr[l];
      open.level_begin = l;
      has_open = true;
    }
    open.group_end = level_group_ptr[l + 1];
    open.level_end = l + 1;
    if (alone) {
      plan.kernels.push_back(open);
      has_open = false;
    }
  }
  if (has_open) plan.kernels.push_back(open);
  for (AgKernel& k : plan.kernels) {
    bool internal = false;
    for (index_t g = k.group_begin; g < k.group_end && !internal; ++g) {
      for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1]; ++j) internal |= plan.node_internal_dep[plan.group_nodes[j]] != 0;
    }
    k.wait = !(s.sync_elimination && k.level_end - k.level_begin == 1 && !internal);
  }
  // A kernel's flags are read only by waiting kernels at or after it.
  bool later_waits = false;
  for (auto k = plan.kernels.rbegin(); k != plan.kernels.rend(); ++k) {
    later_waits |= k->wait;
    k->publish = later_waits || !s.sync_elimination;
  }
}

}  // namespace

std::vector<index_t> ag_positions(const TriangularView& t, bool level_reorder) {
  std::vector<index_t> rows(static_cast<std::size_t>(t.n));
  if (level_reorder) {
    if (t.level_rows == nullptr || t.level_ptr == nullptr) {
      throw InvalidArgument("make_ag_plan: level_reorder needs the view's level schedule");
    }
    std::copy(t.level_rows, t.level_rows + t.n, rows.begin());
  } else {
    for (index_t p = 0; p < t.n; ++p) rows[p] = t.upper ? t.n - 1 - p : p;
  }
  return rows;
}

std::vector<index_t> ag_merge_nodes(const TriangularView& t, const std::vector<index_t>& position_rows,
                                    const AgScheme& s) {
  std::vector<index_t> ptr{0};
  const index_t n = t.n;
  const auto entries = [&](index_t p) { return row_entries(t, position_rows[p]); };
  switch (s.transform) {
    case AgTransform::MergeFixed:
      for (index_t p = 0; p < n;) ptr.push_back(p = static_cast<index_t>(std::min<std::int64_t>(n, std::int64_t{p} + s.rb)));
      break;
    case AgTransform::MergeAvg:
      for (index_t p = 0; p < n;) {
        const auto end = static_cast<index_t>(std::min<std::int64_t>(n, std::int64_t{p} + s.rb));
        std::int64_t total = 0;
        for (index_t q = p; q < end; ++q) total += entries(q);
        if (total <= std::int64_t{s.thresh} * (end - p)) {  // mean <= thresh: one node
          ptr.push_back(end);
        } else {
          for (index_t q = p + 1; q <= end; ++q) ptr.push_back(q);
        }
        p = end;
      }
      break;
    case AgTransform::MergeThresh:
      for (index_t p = 0; p < n;) {
        index_t end = p + 1;  // a long row stands alone; short ones gather up to rb
        if (entries(p) <= s.thresh) {
          while (end < n && end - p < s.rb && entries(end) <= s.thresh) ++end;
        }
        ptr.push_back(p = end);
      }
      break;
  }
  return ptr;
}

AgPlan make_ag_plan(const TriangularView& t, const AgScheme& s, const AgMachine& machine) {
  const auto start = std::chrono::steady_clock::now();
  validate(s);
  if (machine.num_blocks < 1 || machine.warps_per_block < 1 || machine.hardware_warps < 1) {
    throw InvalidArgument("make_ag_plan: the machine needs at least one block, warp and hardware warp");
  }
  if (t.n < 0 || (t.n > 0 && (t.rowptr == nullptr || t.colind == nullptr))) {
    throw InvalidArgument("make_ag_plan: the view has no rows arrays");
  }
  AgPlan plan;
  plan.n = t.n;
  plan.position_rows = ag_positions(t, s.level_reorder);
  plan.node_ptr = ag_merge_nodes(t, plan.position_rows, s);
  node_levels(t, plan);
  const auto nodes = static_cast<index_t>(plan.node_level.size());
  plan.node_collaborative.assign(static_cast<std::size_t>(nodes), 0);
  for (index_t i = 0; i < nodes; ++i) {
    std::int64_t total = 0;
    for (index_t p = plan.node_ptr[i]; p < plan.node_ptr[i + 1]; ++p) total += row_entries(t, plan.position_rows[p]);
    const std::int64_t rows = plan.node_ptr[i + 1] - plan.node_ptr[i];
    // Mean row length above sw_rnnz (compared as totals: no rounding); sw=inf never collaborates.
    plan.node_collaborative[i] = s.sw_rnnz != kAgSwInfinity && total > std::int64_t{s.sw_rnnz} * rows;
  }
  std::vector<std::int64_t> group_work;
  std::vector<index_t> level_group_ptr;
  make_groups(t, s, plan, group_work, level_group_ptr);
  make_kernels(s, machine, level_group_ptr, plan);
  schedule_warps(t, s, machine, group_work, plan);
  validate_ag_plan(t, s, machine, plan);
  plan.machine = machine;
  plan.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

}  // namespace hetsparse::sptrsv::ag
