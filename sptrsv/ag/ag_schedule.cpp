// AG-SpTRSV second hierarchy (section 4.4): node groups onto persistent warps, kernel by kernel in
// group order. ws_rr deals them round-robin, ws_balance to the least-loaded warp (load = stored
// entries), ws_locality to the least-loaded warp of a block that holds one of the group's parents
// (same SM, shared L1), else as ws_balance. Loads restart with each kernel, so a small kernel uses
// the first warps only and launches few blocks.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "sptrsv/ag/ag_plan.hpp"

namespace hetsparse::sptrsv::ag {
namespace {

class WarpLoads {
 public:
  WarpLoads(index_t blocks, index_t warps_per_block)
      : warps_per_block_(warps_per_block),
        load_(static_cast<std::size_t>(blocks) * warps_per_block, 0),
        block_min_(static_cast<std::size_t>(blocks)) {
    for (index_t b = 0; b < blocks; ++b) block_min_[b] = b * warps_per_block;
  }
  index_t warps() const { return static_cast<index_t>(load_.size()); }
  // Least-loaded warp of block b (lowest index on ties).
  index_t best_in(index_t b) const { return block_min_[b]; }
  index_t best() const {
    index_t best_block = 0;
    for (index_t b = 1; b < static_cast<index_t>(block_min_.size()); ++b) {
      if (load_[block_min_[b]] < load_[block_min_[best_block]]) best_block = b;
    }
    return block_min_[best_block];
  }
  std::int64_t load(index_t w) const { return load_[w]; }
  void add(index_t w, std::int64_t work) {
    if (load_[w] == 0) touched_.push_back(w);
    load_[w] += std::max<std::int64_t>(work, 1);  // a group always counts, even an empty one
    const index_t b = w / warps_per_block_;
    index_t m = b * warps_per_block_;
    for (index_t v = m + 1; v < (b + 1) * warps_per_block_; ++v) {
      if (load_[v] < load_[m]) m = v;
    }
    block_min_[b] = m;
  }
  // Back to all zero, touching only the warps used since the last reset.
  void reset() {
    for (index_t w : touched_) {
      load_[w] = 0;
      block_min_[w / warps_per_block_] = (w / warps_per_block_) * warps_per_block_;
    }
    touched_.clear();
  }

 private:
  index_t warps_per_block_;
  std::vector<std::int64_t> load_;
  std::vector<index_t> block_min_;
  std::vector<index_t> touched_;
};

}  // namespace

void schedule_warps(const TriangularView& t, const AgScheme& s, const AgMachine& machine,
                    const std::vector<std::int64_t>& group_work, AgPlan& plan) {
  const auto groups = static_cast<index_t>(group_work.size());
  const index_t nw = machine.warps_per_block;
  WarpLoads loads(machine.num_blocks, nw);
  plan.group_warp.assign(static_cast<std::size_t>(groups), 0);

  // Locality needs each row's group: row -> node -> group.
  std::vector<index_t> group_of_row;
  if (s.ws == AgWarpSchedule::Locality) {
    group_of_row.resize(static_cast<std::size_t>(t.n));
    for (index_t g = 0; g < groups; ++g) {
      for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1]; ++j) {
        const index_t node = plan.group_nodes[j];
        for (index_t p = plan.node_ptr[node]; p < plan.node_ptr[node + 1]; ++p) group_of_row[plan.position_rows[p]] = g;
      }
    }
  }
  std::vector<index_t> stamp(static_cast<std::size_t>(machine.num_blocks), -1);
  std::vector<index_t> parent_blocks;

  for (AgKernel& k : plan.kernels) {
    index_t next_rr = 0, highest = 0;
    for (index_t g = k.group_begin; g < k.group_end; ++g) {
      index_t warp = 0;
      if (s.ws == AgWarpSchedule::RoundRobin) {
        warp = next_rr;
        next_rr = (next_rr + 1) % loads.warps();
      } else if (s.ws == AgWarpSchedule::Balance) {
        warp = loads.best();
      } else {
        parent_blocks.clear();
        for (index_t j = plan.group_ptr[g]; j < plan.group_ptr[g + 1]; ++j) {
          const index_t node = plan.group_nodes[j];
          for (index_t p = plan.node_ptr[node]; p < plan.node_ptr[node + 1]; ++p) {
            index_t begin = 0, end = 0;
            off_diagonal_range(t, plan.position_rows[p], begin, end);
            for (index_t e = begin; e < end; ++e) {
              const index_t parent = group_of_row[t.colind[e]];
              if (parent < k.group_begin || parent >= g) continue;  // earlier kernel, or this group
              const index_t b = plan.group_warp[parent] / nw;
              if (stamp[b] != g) {
                stamp[b] = g;
                parent_blocks.push_back(b);
              }
            }
          }
        }
        warp = parent_blocks.empty() ? loads.best() : loads.best_in(parent_blocks[0]);
        for (index_t b : parent_blocks) {
          const index_t w = loads.best_in(b);
          if (loads.load(w) < loads.load(warp) || (loads.load(w) == loads.load(warp) && w < warp)) warp = w;
        }
      }
      plan.group_warp[g] = warp;
      loads.add(warp, group_work[g]);
      highest = std::max(highest, warp);
    }
    k.blocks = k.group_end > k.group_begin ? highest / nw + 1 : 0;
    loads.reset();
  }

  // Per-warp lists: groups visited in id order, so each list is increasing.
  plan.warp_ptr.assign(static_cast<std::size_t>(loads.warps()) + 1, 0);
  for (index_t g = 0; g < groups; ++g) ++plan.warp_ptr[plan.group_warp[g] + 1];
  std::partial_sum(plan.warp_ptr.begin(), plan.warp_ptr.end(), plan.warp_ptr.begin());
  plan.warp_groups.assign(static_cast<std::size_t>(groups), 0);
  std::vector<index_t> fill(plan.warp_ptr.begin(), plan.warp_ptr.end() - 1);
  for (index_t g = 0; g < groups; ++g) plan.warp_groups[fill[plan.group_warp[g]]++] = g;
}

}  // namespace hetsparse::sptrsv::ag
