// What the host half of AG-SpTRSV (sptrsv/ag/: sections 4.3-4.4) hands the CUDA solver: the graph
// transform (rows -> nodes) and the three scheduling hierarchies (nodes -> node groups -> persistent
// warps -> kernels) as plain arrays. Positions are the solve order: natural (row p for lower, n-1-p for upper) or, with
// level_reorder, the analysis's level order; every dependency of a row sits at an earlier position.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_ag.hpp"

namespace hetsparse::kernels::ag {

// The GPU the schedule is made for: blocks (one per SM) of warps_per_block persistent warps, and
// the GPU's maximum of resident warps, which alpha_level is measured in.
struct AgMachine {
  index_t num_blocks = 1;
  index_t warps_per_block = 1;
  std::int64_t hardware_warps = 64;
};

// One kernel launch of the third hierarchy: node groups [group_begin, group_end), levels
// [level_begin, level_end) of the node graph.
struct AgKernel {
  index_t group_begin = 0, group_end = 0;
  index_t level_begin = 0, level_end = 0;
  index_t blocks = 0;    // enough blocks for the highest warp holding one of its groups
  bool wait = true;      // waits on ready flags; false only for a single-level kernel without
                         // dependencies inside its nodes (sync elimination)
  bool publish = true;   // sets ready flags; false when no kernel from this one on waits
};

struct AgPlan {
  index_t n = 0;
  std::vector<index_t> position_rows;  // n: the row at each solve position
  // Nodes: node i holds positions [node_ptr[i], node_ptr[i+1]).
  std::vector<index_t> node_ptr;
  std::vector<index_t> node_level;               // level in the node graph
  std::vector<std::uint8_t> node_collaborative;  // 1: rows one by one by the whole subwarp
  std::vector<std::uint8_t> node_internal_dep;   // 1: a row depends on another row of the node
  // Node groups (first hierarchy), numbered in schedule order, i.e. by non-decreasing level:
  // group g holds nodes group_nodes[group_ptr[g] .. group_ptr[g+1]), one per subwarp.
  std::vector<index_t> group_ptr;
  std::vector<index_t> group_nodes;
  std::vector<index_t> group_warp;  // second hierarchy: the persistent warp that owns it
  // Each warp's groups, in increasing group id: warp_groups[warp_ptr[w] .. warp_ptr[w+1]).
  std::vector<index_t> warp_ptr;
  std::vector<index_t> warp_groups;
  std::vector<AgKernel> kernels;  // third hierarchy, in launch order
  index_t num_node_levels = 0;
  AgMachine machine;     // what it was made for
  double seconds = 0.0;  // host time to make it
};

}  // namespace hetsparse::kernels::ag
