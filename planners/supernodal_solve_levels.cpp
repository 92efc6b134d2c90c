// The level-ordered supernodal solve: its schedule and its tasks. A supernode's level is its height
// among the supernodes of its phase (leaf subtrees, then the groups above): every supernode it
// sends to (its ancestors) sits on a later level forward, or in a later chunk, and a level's
// supernodes are independent.
#include <algorithm>
#include <string>

#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "hetsparse/error.hpp"
#include "planners/supernodal_solve.hpp"

namespace hetsparse::planners {
namespace {

enum Class : std::int32_t { kWarp = 0, kBlock = 1, kWide = 2 };

Class class_of(const kernels::PanelLocation& l, const LevelSolveOptions& o) {
  if (static_cast<std::int64_t>(l.nrows) * l.ncols <= o.warp_max_entries) return kWarp;
  return l.ncols >= o.wide_min_cols ? kWide : kBlock;
}

// One chunk from its groups and each supernode's height: entries by (height, class), heights
// renumbered from 0, tiles counted per level.
void add_chunk(LevelSolvePlan& out, std::vector<index_t> groups, const FactorLayout& layout,
               const std::vector<std::int32_t>& height, const LevelSolveOptions& o) {
  struct Item {
    std::int32_t height, cls;
    kernels::LevelSolveEntry e;
  };
  std::vector<Item> items;
  for (std::size_t k = 0; k < groups.size(); ++k)
    for (index_t s = layout.group_begin[groups[k]]; s < layout.group_begin[groups[k] + 1]; ++s)
      items.push_back({height[s], class_of(layout.loc[s], o),
                       {layout.offset_in_group(s), static_cast<std::int32_t>(s), static_cast<std::int32_t>(k), 0, 0}});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.height != b.height ? a.height < b.height : a.cls < b.cls;
  });
  LevelSolveChunk chunk;
  chunk.groups = std::move(groups);
  const auto base = static_cast<std::int32_t>(out.entries.size());
  for (std::size_t i = 0; i < items.size();) {
    const std::int32_t h = items[i].height;
    std::int32_t tiles = 0;
    for (std::int32_t cls = kWarp; cls <= kWide; ++cls) {
      chunk.segments.push_back(base + static_cast<std::int32_t>(i));
      for (; i < items.size() && items[i].height == h && items[i].cls == cls; ++i) {
        kernels::LevelSolveEntry e = items[i].e;
        if (cls != kWarp) {
          e.tile_begin = tiles;
          tiles += kernels::level_solve_tiles(layout.loc[e.supernode]);
        }
        if (cls == kWide) {
          const kernels::PanelLocation& l = layout.loc[e.supernode];
          chunk.wide.push_back({e.offset, e.group, l.nrows, l.ncols, l.first_col});
        }
        out.entries.push_back(e);
      }
    }
    chunk.tiles.push_back(tiles);
  }
  chunk.segments.push_back(base + static_cast<std::int32_t>(items.size()));
  out.chunks.push_back(std::move(chunk));
}

}  // namespace

LevelSolvePlan plan_level_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                const LevelSolveOptions& o) {
  if (o.max_groups < 1 || o.max_groups > kernels::kLevelSolveMaxGroups || o.warp_max_entries < 0 || o.wide_min_cols < 1)
    throw InvalidArgument("plan_level_solve: " + std::to_string(o.max_groups) + " groups per task (1 to " +
                          std::to_string(kernels::kLevelSolveMaxGroups) + "), warp_max_entries " +
                          std::to_string(o.warp_max_entries) + ", wide_min_cols " + std::to_string(o.wide_min_cols));
  if (layout.loc.size() != sym.supernodes.size())
    throw InvalidArgument("plan_level_solve: the layout does not match the symbolic factor");
  const index_t G = layout.num_groups(), ns = sym.num_supernodes();
  // Heights within each phase: supernodes are in postorder, so children come first.
  auto phase = [&](index_t s) { return layout.subtree[layout.group_of[s]] != 0; };
  std::vector<std::int32_t> height(static_cast<std::size_t>(ns), 0);
  for (index_t s = 0; s < ns; ++s) {
    const index_t p = sym.supernodes[s].parent;
    if (p >= 0 && phase(p) == phase(s) && (!phase(s) || layout.group_of[p] == layout.group_of[s]))
      height[p] = std::max(height[p], height[s] + 1);
  }
  LevelSolvePlan out;
  std::vector<index_t> subtrees, tops;
  for (index_t g = 0; g < G; ++g) (layout.subtree[g] ? subtrees : tops).push_back(g);
  const std::size_t per = static_cast<std::size_t>(o.max_groups);
  const std::size_t n1 = (subtrees.size() + per - 1) / per;
  for (std::size_t c = 0; c < n1; ++c)
    add_chunk(out, {subtrees.begin() + std::ptrdiff_t(subtrees.size() * c / n1),
                    subtrees.begin() + std::ptrdiff_t(subtrees.size() * (c + 1) / n1)},
              layout, height, o);
  // Groups above by the lowest height of their supernodes (one each in practice).
  auto low = [&](index_t g) {
    std::int32_t h = height[layout.group_begin[g]];
    for (index_t s = layout.group_begin[g]; s < layout.group_begin[g + 1]; ++s) h = std::min(h, height[s]);
    return h;
  };
  std::stable_sort(tops.begin(), tops.end(), [&](index_t a, index_t b) { return low(a) < low(b); });
  for (index_t g : tops)
    if (layout.group_begin[g + 1] - layout.group_begin[g] != 1)
      throw InvalidArgument("plan_level_solve: group " + std::to_string(g) + " above the subtrees has several supernodes");
  for (std::size_t i = 0; i < tops.size(); i += per)
    add_chunk(out, {tops.begin() + std::ptrdiff_t(i), tops.begin() + std::ptrdiff_t(std::min(tops.size(), i + per))},
              layout, height, o);
  return out;
}

SolvePlanStats submit_level_solve(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym, const LevelSolvePlan& plan,
                                  const LevelSolveHandles& h, const SolveRhs& rhs) {
  const bool host = rhs.device_b == 0;
  if (rhs.nrhs < 1 || (host && (rhs.host_b == nullptr || rhs.ldb < sym.n)) ||
      (!host && (rhs.device_x == 0 || rhs.perm == 0)))
    throw InvalidArgument("level solve: need nrhs >= 1 and a host b with ldb >= n, or device b, x and perm");
  if (!h.panels || !h.loc || (!plan.entries.empty() && !h.entries) || !h.stage)
    throw InvalidArgument("level solve: a handle is missing");
  const int lo = rt.min_priority(), hi = rt.max_priority();
  SolvePlanStats st;
  if (!host) {  // on the GPU where the levels run: b and x cross PCIe once each, unpermuted
    codelets::insert_solve_permute(rt, {"solve_permute", hi, rt::Where::Cuda}, rhs.device_b, sym.n, rhs.perm, h.stage,
                                   sym.n, rhs.nrhs);
    ++st.tasks;
  }
  auto submit = [&](const LevelSolveChunk& c, bool forward) {
    std::vector<rt::HandleId> panels;
    for (index_t g : c.groups) {
      if (g < 0 || std::size_t(g) >= h.panels->size())
        throw InvalidArgument("level solve: group " + std::to_string(g) + " has no panels handle");
      panels.push_back((*h.panels)[g]);
    }
    const std::string name = std::string(forward ? "solve_levels_fwd_" : "solve_levels_bwd_") +
                             std::to_string(c.groups.front());
    codelets::insert_solve_levels(rt, {name, forward ? hi : lo, rt::Where::Cuda}, forward, h.rows, h.loc, h.stage,
                                  h.entries, sym.n, rhs.nrhs, panels, {c.segments, c.tiles, c.wide});
    ++st.tasks;
    ++st.gpu_tasks;
  };
  for (const LevelSolveChunk& c : plan.chunks) submit(c, true);
  for (auto c = plan.chunks.rbegin(); c != plan.chunks.rend(); ++c) submit(*c, false);
  if (!host) {
    codelets::insert_solve_store(rt, {"solve_store_stage", lo, rt::Where::Cuda}, {{h.stage, 0, sym.n, 0, sym.n}},
                                 rhs.device_x, sym.n, rhs.perm, rhs.nrhs);
    ++st.tasks;
    return st;
  }
  // The caller's b from the stage: row ranges on several CPU workers (a gather through perm).
  const index_t parts = std::max(1, std::min(rt.cpu_workers(), 16));
  for (index_t k = 0; k < parts; ++k) {
    const index_t c0 = static_cast<index_t>(std::int64_t(sym.n) * k / parts);
    const index_t c1 = static_cast<index_t>(std::int64_t(sym.n) * (k + 1) / parts);
    if (c1 == c0) continue;
    codelets::insert_solve_collect(rt, {"solve_collect_stage_" + std::to_string(k), lo, rt::Where::Cpu},
                                   {{h.stage, c0, c1, c0, sym.n}}, rhs.host_b, rhs.ldb, sym.perm.data(), rhs.nrhs);
    ++st.tasks;
  }
  return st;
}

}  // namespace hetsparse::planners
