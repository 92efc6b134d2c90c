#include "planners/supernodal_solve.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::planners {
namespace {

// Group g's external rows: its panels' rows from c1 on, sorted, once each.
void add_external_rows(const cholesky::SymbolicFactor& sym, const FactorLayout& layout, index_t g, index_t c1,
                       std::vector<std::int32_t>& out) {
  const std::size_t start = out.size();
  for (index_t s = layout.group_begin[g]; s < layout.group_begin[g + 1]; ++s) {
    const cholesky::Supernode& sn = sym.supernodes[s];
    const auto first = sym.rows.begin() + sn.row_begin + sn.ncols, last = sym.rows.begin() + sn.row_begin + sn.nrows;
    out.insert(out.end(), std::lower_bound(first, last, c1), last);
  }
  if (layout.group_begin[g + 1] - layout.group_begin[g] > 1) {
    std::sort(out.begin() + std::ptrdiff_t(start), out.end());
    out.erase(std::unique(out.begin() + std::ptrdiff_t(start), out.end()), out.end());
  }
}

// Tasks take at most rt::kMaxTaskData handles, `reserved` of them their own: longer link lists are
// cut into consecutive chunks (at least one, maybe empty).
std::vector<std::vector<codelets::SolveLink>> chunks(const std::vector<codelets::SolveLink>& links,
                                                     std::size_t reserved) {
  const std::size_t per = rt::kMaxTaskData - reserved;
  std::vector<std::vector<codelets::SolveLink>> out(std::max<std::size_t>(1, (links.size() + per - 1) / per));
  for (std::size_t i = 0; i < links.size(); ++i) out[i / per].push_back(links[i]);
  return out;
}

std::string task_name(const char* what, index_t g, std::size_t part, std::size_t parts) {
  return std::string(what) + std::to_string(g) + (parts > 1 ? "_" + std::to_string(part) : std::string());
}

}  // namespace

SolvePlan plan_supernodal_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                const std::vector<rt::Where>& homes) {
  const index_t G = layout.num_groups();
  if (homes.size() != std::size_t(G) || layout.loc.size() != sym.supernodes.size())
    throw InvalidArgument("supernodal solve: the layout or its homes do not match the symbolic factor");
  SolvePlan p;
  p.where = homes;
  for (index_t g = 0; g < G; ++g) p.col_begin.push_back(sym.supernodes[layout.group_begin[g]].first_col);
  p.col_begin.push_back(sym.n);
  std::vector<double> cost(G, 1.0);
  p.ext_begin.push_back(0);
  p.links_from.push_back(0);
  p.links_into.resize(G);
  for (index_t g = 0; g < G; ++g) {
    add_external_rows(sym, layout, g, p.col_begin[g + 1], p.ext_rows);
    p.ext_begin.push_back(static_cast<std::int64_t>(p.ext_rows.size()));
    for (index_t s = layout.group_begin[g]; s < layout.group_begin[g + 1]; ++s)
      cost[g] += double(sym.supernodes[s].nrows) * double(sym.supernodes[s].ncols);
    // Rows are sorted and groups are consecutive column ranges: each target's rows are one run.
    const std::int64_t base = p.ext_begin[g];
    for (std::int64_t q = base; q < p.ext_begin[g + 1];) {
      const index_t t = layout.group_of[sym.col_to_supernode[p.ext_rows[q]]];
      std::int64_t e = q;
      while (e < p.ext_begin[g + 1] && p.ext_rows[e] < p.col_begin[t + 1]) ++e;
      p.links_into[t].push_back(static_cast<std::int64_t>(p.links.size()));
      p.links.push_back({g, t, static_cast<std::int32_t>(q - base), static_cast<std::int32_t>(e - base)});
      q = e;
    }
    p.links_from.push_back(static_cast<std::int64_t>(p.links.size()));
  }
  // Targets come after their sources: up from the roots down, down from the leaves up.
  p.up.assign(G, 0.0);
  p.down.assign(G, 0.0);
  for (index_t g = G - 1; g >= 0; --g) {
    double after = 0;
    for (std::int64_t l = p.links_from[g]; l < p.links_from[g + 1]; ++l) after = std::max(after, p.up[p.links[l].target]);
    p.up[g] = cost[g] + after;
  }
  for (index_t g = 0; g < G; ++g) {
    double after = 0;
    for (std::int64_t l : p.links_into[g]) after = std::max(after, p.down[p.links[l].source]);
    p.down[g] = cost[g] + after;
  }
  return p;
}

SolvePlanStats submit_supernodal_solve(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                       const FactorLayout& layout, const SolvePlan& plan, const SolveHandles& h,
                                       const SolveRhs& rhs, bool gpu_sweeps) {
  const index_t G = layout.num_groups();
  if (h.panels->size() != std::size_t(G) || h.x.size() != std::size_t(G) || h.ext.size() != std::size_t(G) ||
      plan.where.size() != std::size_t(G))
    throw InvalidArgument("supernodal solve: the handles do not match the layout");
  const bool host = rhs.device_b == 0;
  if (rhs.nrhs < 1 || (host && (rhs.host_b == nullptr || rhs.ldb < sym.n)) ||
      (!host && (rhs.device_x == 0 || rhs.perm == 0)))
    throw InvalidArgument("supernodal solve: need nrhs >= 1 and a host b with ldb >= n, or device b, x and perm");
  const int lo = rt.min_priority(), hi = rt.max_priority();
  const double top_up = *std::max_element(plan.up.begin(), plan.up.end());
  const double top_down = *std::max_element(plan.down.begin(), plan.down.end());
  auto priority = [&](double v, double top) { return static_cast<int>(double(lo) + (double(hi) - double(lo)) * v / top); };
  SolvePlanStats st;
  auto count = [&](rt::Where w) {
    ++st.tasks;
    st.gpu_tasks += w == rt::Where::Cuda;
  };
  if (!host) {
    codelets::insert_solve_permute(rt, {"solve_permute", hi, rt::Where::Any}, rhs.device_b, sym.n, rhs.perm, h.stage,
                                   sym.n, rhs.nrhs);
    count(rt::Where::Any);
  }
  auto args = [&](index_t g) {
    const index_t first = layout.group_begin[g], last = layout.group_begin[g + 1];
    codelets::PanelLocation top = layout.loc[first];
    top.value_offset = 0;
    return codelets::SolveGroupArgs{layout.loc.data(), top, plan.ext_begin[g], first, last,
                                    plan.col_begin[g], plan.col_begin[g + 1], static_cast<std::int32_t>(plan.next(g)),
                                    rhs.nrhs};
  };
  // A group of several supernodes (a leaf subtree) runs on CPUs (the GPU solves subtrees in the
  // level-ordered solve, supernodal_solve_levels.cpp).
  auto multi = [&](index_t g) { return layout.group_begin[g + 1] - layout.group_begin[g] > 1; };
  auto where = [&](index_t g) { return multi(g) ? rt::Where::Cpu : plan.where[g]; };
  // Single-supernode groups on the GPU: swept together (one task for many groups) where possible.
  std::vector<char> swept(G, 0);
  for (index_t g = 0; g < G; ++g) {
    // A group reading more groups than one task takes keeps its own chain of tasks.
    const std::size_t reads = std::max(plan.links_into[g].size(), std::size_t(plan.links_from[g + 1] - plan.links_from[g]));
    const bool fits = reads + 8 <= rt::kMaxTaskData;
    swept[g] = gpu_sweeps && fits && !multi(g) && where(g) == rt::Where::Cuda ? 1 : 0;
    st.swept_groups += swept[g] == 1;
  }
  auto link_from = [&](const SolvePlan::Link& k) {
    return codelets::SolveLink{h.ext[k.source], plan.ext_begin[k.source], k.p0, k.p1, 0,
                               static_cast<std::int32_t>(std::max<std::int64_t>(1, plan.next(k.source)))};
  };
  auto link_to = [&](const SolvePlan::Link& k) {
    return codelets::SolveLink{h.x[k.target], 0, k.p0, k.p1, plan.col_begin[k.target], plan.rows(k.target)};
  };
  // Sweeps are cut where the next group's handles would take a task past kMaxTaskData; the
  // handles of the part are kept in a set (recounting the part per group is quadratic: 30 ms of
  // submission at 128^3).
  auto submit_sweep = [&](const std::vector<index_t>& groups, bool forward) {
    std::vector<codelets::SweepGroup> part;
    std::unordered_set<rt::HandleId> seen;
    double top = 0;
    auto restart = [&] {
      part.clear();
      seen = {h.rows, h.ext_rows};
      if (forward) seen.insert(h.stage);
      top = 0;
    };
    auto flush = [&] {
      if (part.empty()) return;
      const rt::TaskOptions o{task_name(forward ? "solve_sweep_fwd_" : "solve_sweep_bwd_", part.front().g.first, 0, 1),
                              priority(top, forward ? top_up : top_down), rt::Where::Cuda};
      codelets::insert_solve_sweep(rt, o, forward, h.rows, h.ext_rows, h.stage, sym.n, rhs.nrhs, part);
      count(rt::Where::Cuda);
      restart();
    };
    restart();
    std::vector<rt::HandleId> mine;
    auto fresh = [&] {
      std::size_t k = 0;
      for (rt::HandleId x : mine) k += seen.count(x) == 0;
      return k;
    };
    for (index_t g : groups) {
      codelets::SweepGroup sg{args(g), (*h.panels)[g], h.x[g], h.ext[g], {}};
      if (forward) {
        for (std::int64_t l : plan.links_into[g]) sg.links.push_back(link_from(plan.links[l]));
      } else {
        for (std::int64_t l = plan.links_from[g]; l < plan.links_from[g + 1]; ++l)
          sg.links.push_back(link_to(plan.links[l]));
      }
      // The handles insert_solve_sweep gives this group: panels, unknowns, external block, links.
      mine = {sg.panels, sg.x};
      if (sg.g.next > 0) mine.push_back(sg.ext);
      for (const codelets::SolveLink& l : sg.links) mine.push_back(l.handle);
      std::sort(mine.begin(), mine.end());
      mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
      if (seen.size() + fresh() > rt::kMaxTaskData) {
        flush();
        if (seen.size() + fresh() > rt::kMaxTaskData)
          throw InvalidArgument("supernodal solve: group " + std::to_string(g) + " reads too many groups to sweep");
      }
      seen.insert(mine.begin(), mine.end());
      part.push_back(std::move(sg));
      top = std::max(top, forward ? plan.up[g] : plan.down[g]);
    }
    flush();
  };
  for (const SolveStep& step : plan_solve_steps(plan, swept, true)) {
    if (step.sweep) {
      submit_sweep(step.groups, true);
      continue;
    }
    const index_t g = step.groups.front();
    const codelets::SolveFactorData f{(*h.panels)[g], h.rows, h.ext_rows};
    const rt::Where w = where(g);
    codelets::SolveInput in{h.stage, sym.n};
    if (host && w == rt::Where::Cpu) in = {0, sym.n, rhs.host_b, rhs.ldb, sym.perm.data()};
    std::vector<codelets::SolveLink> from;
    for (std::int64_t l : plan.links_into[g]) from.push_back(link_from(plan.links[l]));
    const auto parts = chunks(from, 6);  // unknowns, panels, rows, external rows, own external block, stage
    for (std::size_t c = 0; c < parts.size(); ++c) {
      const rt::TaskOptions o{task_name("solve_fwd_", g, c, parts.size()), priority(plan.up[g], top_up), w};
      codelets::insert_solve_forward(rt, o, args(g), f, h.x[g], h.ext[g], c == 0, c + 1 == parts.size(), in, parts[c]);
      count(w);
    }
  }
  for (const SolveStep& step : plan_solve_steps(plan, swept, false)) {
    if (step.sweep) {
      submit_sweep(step.groups, false);
      continue;
    }
    const index_t g = step.groups.front();
    const codelets::SolveFactorData f{(*h.panels)[g], h.rows, h.ext_rows};
    const rt::Where w = where(g);
    std::vector<codelets::SolveLink> to;
    for (std::int64_t l = plan.links_from[g]; l < plan.links_from[g + 1]; ++l) to.push_back(link_to(plan.links[l]));
    const auto parts = chunks(to, 5);  // unknowns, panels, rows, external rows, own external block
    for (std::size_t c = 0; c < parts.size(); ++c) {
      const rt::TaskOptions o{task_name("solve_bwd_", g, c, parts.size()), priority(plan.down[g], top_down), w};
      codelets::insert_solve_backward(rt, o, args(g), f, h.x[g], h.ext[g], c == 0, c + 1 == parts.size(), parts[c]);
      count(w);
    }
  }
  // The solution back in the caller's order. Host: CPU groups' blocks collected straight into b;
  // the other groups' first stored into the stage where they are (on the GPU: one transfer back
  // instead of one per block), then collected from it by one CPU task. Device: stored into x.
  auto store = [&](const std::vector<index_t>& groups, rt::HandleId out, rt::HandleId perm, rt::Where w,
                   const char* name) {
    const std::size_t per = rt::kMaxTaskData - 2;
    for (std::size_t i = 0; i < groups.size(); i += per) {
      std::vector<codelets::SolveBlockRef> blocks;
      for (std::size_t k = i; k < std::min(groups.size(), i + per); ++k)
        blocks.push_back({h.x[groups[k]], plan.col_begin[groups[k]], plan.col_begin[groups[k] + 1]});
      codelets::insert_solve_store(rt, {task_name(name, groups[i], 0, 1), lo, w}, blocks, out, sym.n, perm, rhs.nrhs);
      count(w);
    }
  };
  if (!host) {
    std::vector<index_t> all(static_cast<std::size_t>(G));
    for (index_t g = 0; g < G; ++g) all[g] = g;
    store(all, rhs.device_x, rhs.perm, rt::Where::Any, "solve_store_");
    return st;
  }
  std::vector<index_t> on_cpu, on_cuda, on_any;
  for (index_t g = 0; g < G; ++g) {
    const rt::Where w = where(g);
    (w == rt::Where::Cpu ? on_cpu : w == rt::Where::Cuda ? on_cuda : on_any).push_back(g);
  }
  store(on_cuda, h.stage, 0, rt::Where::Cuda, "solve_stage_store_");
  store(on_any, h.stage, 0, rt::Where::Any, "solve_stage_store_");
  std::vector<codelets::SolveBlockRef> from_stage;
  for (const auto* v : {&on_cuda, &on_any})
    for (index_t g : *v)
      from_stage.push_back({h.stage, plan.col_begin[g], plan.col_begin[g + 1], plan.col_begin[g], sym.n});
  if (!from_stage.empty()) {  // one buffer, any number of blocks
    codelets::insert_solve_collect(rt, {"solve_collect_stage", lo, rt::Where::Cpu}, from_stage, rhs.host_b, rhs.ldb,
                                   sym.perm.data(), rhs.nrhs);
    count(rt::Where::Cpu);
  }
  const std::size_t per = rt::kMaxTaskData;
  for (std::size_t i = 0; i < on_cpu.size(); i += per) {
    std::vector<codelets::SolveBlockRef> blocks;
    for (std::size_t k = i; k < std::min(on_cpu.size(), i + per); ++k)
      blocks.push_back({h.x[on_cpu[k]], plan.col_begin[on_cpu[k]], plan.col_begin[on_cpu[k] + 1]});
    codelets::insert_solve_collect(rt, {task_name("solve_collect_", on_cpu[i], 0, 1), lo, rt::Where::Cpu}, blocks,
                                   rhs.host_b, rhs.ldb, sym.perm.data(), rhs.nrhs);
    count(rt::Where::Cpu);
  }
  return st;
}

}  // namespace hetsparse::planners
