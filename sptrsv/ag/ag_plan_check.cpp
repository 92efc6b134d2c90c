// The host check that an AG-SpTRSV plan solves every row once and cannot deadlock.
//
// Deadlock freedom (AG-SpTRSV 4.3-4.4, made precise for static persistent warps). Within one
// kernel, warps do not claim work: warp w walks its own list of node groups, and the lists were
// built so that group ids are one global schedule order. The kernel never waits for a group
// outside its own launch except through stream order (earlier kernels have finished). Enforced
// here, for every dependency d of every row r (r in node i of group g, kernel K):
//   (1) d lies in node i at an earlier position (solved earlier by the same subwarp: one row
//       after another, or lane by lane in "writing first" order, where the earliest unsolved row
//       always has its inputs), or in a group g' < g: nodes of one group never depend on each
//       other, and no warp waits on a group numbered after the one it is solving;
//   (2) every warp's list is strictly increasing, so when a warp reaches g it has finished all of
//       its own groups before g;
//   (3) if g' is in K, K waits on flags and publishes them; if g' is in an earlier kernel, that
//       kernel publishes when K waits; if K does not wait, d is in an earlier kernel.
// Then, inside K, take the unfinished group g* with the smallest id. By (2) its warp has finished
// its earlier groups and is at g*; by (1) and (3) every input of g* is final (earlier groups of K
// are finished by minimality, earlier kernels by stream order) and flagged when g* reads flags. So
// g* completes provided its warp runs: AgSolver launches at most one block per SM with every block
// able to be resident at once (checked with the occupancy API), so every warp is eventually
// scheduled and nothing a resident warp waits on sits in a block that cannot start. By induction
// every group completes.
#include <string>
#include <vector>

#include "sptrsv/ag/ag_plan.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv::ag {
namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidArgument("validate_ag_plan: " + what); }

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

void validate_ag_plan(const TriangularView& t, const AgScheme& s, const AgMachine& machine, const AgPlan& plan) {
  const index_t n = t.n;
  const auto nodes = static_cast<index_t>(plan.node_ptr.size()) - 1;
  const auto groups = static_cast<index_t>(plan.group_ptr.size()) - 1;
  const std::int64_t warps = std::int64_t{machine.num_blocks} * machine.warps_per_block;
  if (plan.n != n || static_cast<index_t>(plan.position_rows.size()) != n) fail("plan is for another matrix");
  if (nodes < 0 || plan.node_ptr[0] != 0 || plan.node_ptr[nodes] != n) fail("nodes do not cover positions 0..n");
  if (static_cast<std::int64_t>(plan.warp_ptr.size()) != warps + 1) fail("warp lists do not match the machine");

  // Every row exactly once: positions are a permutation and nodes non-empty consecutive ranges.
  std::vector<index_t> node_of_row(static_cast<std::size_t>(n), -1), position_of_row(static_cast<std::size_t>(n), -1);
  for (index_t i = 0; i < nodes; ++i) {
    if (plan.node_ptr[i + 1] <= plan.node_ptr[i]) fail("node " + str(i) + " is empty");
    for (index_t p = plan.node_ptr[i]; p < plan.node_ptr[i + 1]; ++p) {
      const index_t row = plan.position_rows[p];
      if (row < 0 || row >= n || node_of_row[row] != -1) fail("row at position " + str(p) + " is not scheduled exactly once");
      node_of_row[row] = i;
      position_of_row[row] = p;
    }
  }
  std::vector<index_t> group_of_node(static_cast<std::size_t>(nodes), -1);
  for (index_t g = 0; g < groups; ++g) {
    const index_t size = plan.group_ptr[g + 1] - plan.group_ptr[g];
    if (size < 1 || size > s.subwarps) fail("group " + str(g) + " holds " + str(size) + " nodes");
    for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1]; ++j) {
      const index_t node = plan.group_nodes[j];
      if (node < 0 || node >= nodes || group_of_node[node] != -1) fail("node " + str(node) + " not in exactly one group");
      group_of_node[node] = g;
    }
  }
  for (index_t i = 0; i < nodes; ++i) {
    if (group_of_node[i] == -1) fail("node " + str(i) + " is in no group");
  }
  // Kernels: consecutive group ranges covering all groups; warps inside the launched blocks.
  std::vector<index_t> kernel_of_group(static_cast<std::size_t>(groups), -1);
  index_t next = 0;
  for (index_t k = 0; k < static_cast<index_t>(plan.kernels.size()); ++k) {
    const AgKernel& kernel = plan.kernels[k];
    if (kernel.group_begin != next || kernel.group_end <= kernel.group_begin) fail("kernel " + str(k) + " range");
    if (kernel.wait && !kernel.publish) fail("kernel " + str(k) + " waits on flags it does not set");
    if (kernel.blocks < 1 || kernel.blocks > machine.num_blocks) fail("kernel " + str(k) + " block count");
    for (index_t g = kernel.group_begin; g < kernel.group_end; ++g) {
      kernel_of_group[g] = k;
      if (plan.group_warp[g] >= std::int64_t{kernel.blocks} * machine.warps_per_block) {
        fail("group " + str(g) + " is on a warp kernel " + str(k) + " does not launch");
      }
    }
    next = kernel.group_end;
  }
  if (next != groups) fail("kernels do not cover every group");
  // (2) each group in exactly its warp's list, lists strictly increasing.
  std::vector<char> listed(static_cast<std::size_t>(groups), 0);
  for (std::int64_t w = 0; w < warps; ++w) {
    for (index_t e = plan.warp_ptr[w]; e < plan.warp_ptr[w + 1]; ++e) {
      const index_t g = plan.warp_groups[e];
      if (g < 0 || g >= groups || listed[g] || plan.group_warp[g] != w) fail("warp " + str(w) + " list entry " + str(e));
      if (e > plan.warp_ptr[w] && plan.warp_groups[e - 1] >= g) fail("warp " + str(w) + " list is not increasing");
      listed[g] = 1;
    }
  }
  // (1) and (3) for every dependency.
  for (index_t row = 0; row < n; ++row) {
    const index_t i = node_of_row[row], g = group_of_node[i];
    const AgKernel& kernel = plan.kernels[kernel_of_group[g]];
    index_t begin = 0, end = 0;
    off_diagonal_range(t, row, begin, end);
    for (index_t e = begin; e < end; ++e) {
      const index_t d = t.colind[e];
      if (d < 0 || d >= n) fail("row " + str(row) + " has column " + str(d) + " out of range");
      const index_t gd = group_of_node[node_of_row[d]];
      const std::string where = "row " + str(row) + " (group " + str(g) + ", warp " + str(plan.group_warp[g]) +
                                ") depends on row " + str(d);
      if (node_of_row[d] == i) {
        if (position_of_row[d] >= position_of_row[row]) fail(where + " later in its own node");
        if (!kernel.wait) fail(where + " in its own node, in a kernel without flag waits");
        continue;
      }
      if (gd >= g) fail(where + " in group " + str(gd) + ", not scheduled before it");
      const AgKernel& source = plan.kernels[kernel_of_group[gd]];
      if (!kernel.wait && kernel_of_group[gd] == kernel_of_group[g]) fail(where + " in the same kernel without waits");
      if (kernel.wait && !source.publish) fail(where + " whose kernel sets no flag");
    }
  }
}

}  // namespace hetsparse::sptrsv::ag
