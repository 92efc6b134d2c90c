#include "planners/supernodal_cholesky.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hetsparse/error.hpp"
#include "planners/subtree_plans.hpp"

namespace hetsparse::planners {

double update_flops(const cholesky::Supernode& d, std::int32_t r0, std::int32_t r1) {
  // Fused GEMM of the (m x ncols) rows from r0 down with the (k x ncols) rows inside the target.
  const double m = double(d.nrows - r0), k = double(r1 - r0);
  return 2.0 * m * k * double(d.ncols);
}

double factor_flops(const cholesky::Supernode& s) {
  const double n = s.ncols, below = double(s.nrows - s.ncols);
  return n * n * n / 3.0 + below * n * n;  // potrf + trsm
}

std::vector<std::vector<PlannedUpdate>> updates_by_target(const cholesky::SymbolicFactor& sym) {
  std::vector<std::vector<PlannedUpdate>> by_t(sym.supernodes.size());
  for (index_t d = 0; d < sym.num_supernodes(); ++d) {
    const cholesky::Supernode& sd = sym.supernodes[d];
    const index_t* rows = sym.rows.data() + sd.row_begin;
    // Rows below the diagonal block are sorted, so rows of one target are consecutive.
    auto p = static_cast<std::int32_t>(sd.ncols);
    const auto nrows = static_cast<std::int32_t>(sd.nrows);
    while (p < nrows) {
      const index_t t = sym.col_to_supernode[rows[p]];
      const cholesky::Supernode& st = sym.supernodes[t];
      std::int32_t q = p;
      while (q < nrows && rows[q] < st.first_col + st.ncols) ++q;
      by_t[t].push_back({d, t, p, q, update_flops(sd, p, q)});
      p = q;
    }
  }
  return by_t;
}

namespace {

// Work of each supernode as a target: its factorization and every update into it; and the number
// of updates into each supernode, from one scan of the row lists without storing the updates: a
// factor the GPU takes whole (one subtree group, ~1M updates on a 2D mesh of 4M rows) needs no
// per-target lists, whose allocation cost more than the scan.
std::vector<double> scanned_work(const cholesky::SymbolicFactor& sym, std::vector<long long>& incoming) {
  std::vector<double> work(sym.supernodes.size());
  incoming.assign(sym.supernodes.size(), 0);
  for (index_t d = 0; d < sym.num_supernodes(); ++d) {
    const cholesky::Supernode& sd = sym.supernodes[d];
    work[d] += factor_flops(sd);
    const index_t* rows = sym.rows.data() + sd.row_begin;
    auto p = static_cast<std::int32_t>(sd.ncols);
    const auto nrows = static_cast<std::int32_t>(sd.nrows);
    while (p < nrows) {
      const index_t t = sym.col_to_supernode[rows[p]];
      const cholesky::Supernode& st = sym.supernodes[t];
      std::int32_t q = p;
      while (q < nrows && rows[q] < st.first_col + st.ncols) ++q;
      work[t] += update_flops(sd, p, q);
      ++incoming[t];
      p = q;
    }
  }
  return work;
}

// Cost of the longest path from each supernode to the root of its tree (its own work included).
std::vector<double> critical_path(const cholesky::SymbolicFactor& sym, const std::vector<double>& work) {
  const index_t ns = sym.num_supernodes();
  std::vector<double> crit(ns);
  for (index_t s = ns - 1; s >= 0; --s) {  // parents come after children in postorder
    const index_t p = sym.supernodes[s].parent;
    crit[s] = work[s] + (p >= 0 ? crit[p] : 0.0);
  }
  return crit;
}

// See panel_homes: from each target's work, or each subtree group's.
std::vector<rt::Where> homes_from_work(const rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                       const FactorLayout& layout, const std::vector<double>& work,
                                       const SizeClassThresholds& th) {
  // CUDA workers that can run the panel kernels: a build without CUDA codelets has none of its own,
  // whatever StarPU drives.
  const bool gpu = rt.cuda_workers() > 0 && codelets::supernode_update_kernel().devices.has(rt::Device::Cuda) &&
                   codelets::supernode_factor_kernel().devices.has(rt::Device::Cuda);
  const bool subtree_gpu = codelets::supernode_subtree_kernel().devices.has(rt::Device::Cuda);
  std::vector<rt::Where> home(static_cast<std::size_t>(layout.num_groups()), rt::Where::Cpu);
  for (index_t g = 0; g < layout.num_groups(); ++g) {
    if (layout.subtree[g]) {
      // The scheduler may take a big subtree to the GPU (level-batched kernel): on 2D problems most
      // of the work is in subtrees of small and medium fronts, which a core does at a few GFLOP/s.
      // From gpu_subtree_only_min_flops on it must (a core would take far longer).
      if (!gpu || !subtree_gpu) continue;
      double flops = 0;
      for (index_t t = layout.group_begin[g]; t < layout.group_begin[g + 1]; ++t) flops += work[t];
      // The whole factor as one group, when gpu_takes_whole_factor made it so, goes there too.
      const bool whole = layout.num_groups() == 1 && gpu_takes_whole_factor(sym, th, rt.cuda_devices());
      if (th.restrict_to == rt::Where::Cuda && th.gpu_subtree_min_flops >= 0 && flops >= th.gpu_subtree_min_flops)
        home[g] = rt::Where::Cuda;
      else if (th.restrict_to == rt::Where::Any && (flops >= th.gpu_subtree_only_min_flops || whole))
        home[g] = rt::Where::Cuda;
      else if (th.restrict_to == rt::Where::Any && th.gpu_subtree_min_flops >= 0 && flops >= th.gpu_subtree_min_flops)
        home[g] = rt::Where::Any;
      continue;
    }
    const double w = work[layout.group_begin[g]];
    if (th.restrict_to != rt::Where::Any) {
      home[g] = th.restrict_to;
    } else if (w >= th.gpu_min_task_flops) {
      home[g] = w >= th.gpu_only_min_flops && gpu ? rt::Where::Cuda : rt::Where::Any;
    }
  }
  return home;
}

// The updates of one target from one source group: one handle for the task, whatever their number.
struct Bundle {
  std::vector<codelets::GroupUpdate> updates;
  double flops = 0;
};

// Tasks take at most rt::kMaxTaskData handles: `reserved` of their own plus one per bundle.
std::vector<std::vector<const Bundle*>> chunks(const std::vector<const Bundle*>& bundles, std::size_t reserved) {
  const std::size_t per = rt::kMaxTaskData - reserved;
  std::vector<std::vector<const Bundle*>> out;
  for (std::size_t i = 0; i < bundles.size(); i += per)
    out.emplace_back(bundles.begin() + i, bundles.begin() + std::min(bundles.size(), i + per));
  return out;
}
std::vector<codelets::GroupUpdate> flatten(const std::vector<const Bundle*>& bs, double* flops) {
  std::vector<codelets::GroupUpdate> all;
  *flops = 0;
  for (const Bundle* b : bs) {
    all.insert(all.end(), b->updates.begin(), b->updates.end());
    *flops += b->flops;
  }
  return all;
}

}  // namespace

SymbolicWork symbolic_work(const cholesky::SymbolicFactor& sym) {
  SymbolicWork w;
  w.work = scanned_work(sym, w.incoming);
  w.crit = critical_path(sym, w.work);
  return w;
}

void add_update_lists(const cholesky::SymbolicFactor& sym, SymbolicWork& w) {
  if (w.by_target.empty()) w.by_target = updates_by_target(sym);
}

std::vector<rt::Where> panel_homes(const rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                   const FactorLayout& layout, const SizeClassThresholds& th,
                                   const SymbolicWork* work) {
  if (work) return homes_from_work(rt, sym, layout, work->work, th);
  std::vector<long long> incoming;
  return homes_from_work(rt, sym, layout, scanned_work(sym, incoming), th);
}

bool host_takes_whole_factor(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th) {
  // A caller-set subtree limit asks for that layout's tasks.
  return th.host_whole_max_flops >= 0 && th.subtree_max_flops < 0 && sym.flops <= th.host_whole_max_flops;
}

bool gpu_takes_whole_factor(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th, int gpus) {
  const bool gpu = gpus > 0 && codelets::supernode_subtree_kernel().devices.has(rt::Device::Cuda);
  if (!gpu || th.restrict_to == rt::Where::Cpu || host_takes_whole_factor(sym, th) || th.subtree_max_flops >= 0 ||
      sym.nnz_L_exact <= 0)
    return false;
  if (sym.flops < th.gpu_whole_any_max_flops) return th.gpu_whole_min_flops >= 0 && sym.flops >= th.gpu_whole_min_flops;
  return sym.flops < th.gpu_whole_max_flops_per_entry * double(sym.nnz_L_exact);
}

double gpu_factor_subtree_limit(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th, int gpus) {
  if (!gpu_takes_whole_factor(sym, th, gpus)) return th.subtree_max_flops;
  if (gpus == 1) return std::numeric_limits<double>::infinity();
  const std::vector<double> w = subtree_work(sym);
  double total = 0;
  for (index_t s = 0; s < sym.num_supernodes(); ++s)
    if (sym.supernodes[s].parent < 0) total += w[s];
  return std::max(th.gpu_subtree_only_min_flops, total / (4.0 * gpus));
}

UpdatePlanStats submit_supernodal_cholesky(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                           const FactorLayout& layout, const RegisteredFactor& data,
                                           const SizeClassThresholds& th, SymbolicWork* kept,
                                           SubtreePlans* plans) {
  const index_t ns = sym.num_supernodes();
  if (layout.loc.size() != std::size_t(ns) || data.group.size() != std::size_t(layout.num_groups()))
    throw InvalidArgument("supernodal Cholesky: the layout and its handles do not match the symbolic factor");
  if (kept && kept->work.size() != std::size_t(ns))
    throw InvalidArgument("supernodal Cholesky: the symbolic work does not match the symbolic factor");
  const bool tops = layout.has_top_groups();
  SymbolicWork local;
  SymbolicWork& sw = kept ? *kept : (local = symbolic_work(sym));
  if (tops) add_update_lists(sym, sw);
  const std::vector<long long>& incoming = sw.incoming;
  const std::vector<double>& work = sw.work;
  const std::vector<double>& crit = sw.crit;
  const std::vector<std::vector<PlannedUpdate>> no_lists;
  const auto& by_t = tops ? sw.by_target : no_lists;
  const double top = std::max(1.0, *std::max_element(crit.begin(), crit.end()));
  const int lo = rt.min_priority(), hi = rt.max_priority();
  // In doubles, lo included: hi - lo overflows an int under schedulers whose range is all of int
  // (dmdas), and so did lo + (hi - lo) before the sum came back into [lo, hi] (UBSan).
  auto priority = [&](index_t s) { return static_cast<int>(double(lo) + (double(hi) - double(lo)) * crit[s] / top); };
  const auto home = homes_from_work(rt, sym, layout, work, th);
  if (plans) plan_gpu_subtrees(*plans, sym, layout, home, th.gpu_subtree_fused_max_flops, th.gpu_subtree_batched_max_cols);

  UpdatePlanStats st;
  st.groups = layout.num_groups();
  auto count_task = [&](rt::Where w) {
    ++st.tasks;
    st.gpu_eligible_tasks += w != rt::Where::Cpu;
  };
  for (index_t g = 0; g < layout.num_groups(); ++g) {
    const index_t first = layout.group_begin[g], end = layout.group_begin[g + 1];
    if (layout.subtree[g]) {
      double flops = 0;
      for (index_t t = first; t < end; ++t) {
        st.factor_flops += factor_flops(sym.supernodes[t]);
        flops += work[t];
        st.updates[int(SizeClass::Subtree)] += incoming[t];
      }
      st.flops[int(SizeClass::Subtree)] += flops;
      const std::string name = "subtree_" + std::to_string(first) + "_" + std::to_string(end - 1);
      const rt::Where sub = home[g];  // see homes_from_work
      const codelets::SubtreeTask task{data.group[g], layout.loc.data(), sym.col_to_supernode.data(),
                                       data.host_info, first, end, sym.rows.data(), th.gpu_subtree_fused_max_flops,
                                       th.gpu_subtree_batched_max_cols,
                                       plans ? plans->group[g].get() : nullptr};
      codelets::insert_supernode_subtree(rt, {name, priority(end - 1), sub, flops}, task, data.rows, flops);
      if (sub != rt::Where::Cpu) ++st.gpu_eligible_tasks;
      ++st.tasks;
      ++st.subtree_tasks;
      continue;
    }
    const index_t t = first;  // a group of its own
    const double ff = factor_flops(sym.supernodes[t]);
    // No prefetch nor write-back of a GPU home: its panel is assembled on the GPU and stays there
    // (a 100^3 factor moved 6 GB each way when panels were assembled on the host).
    const rt::Where where = home[g];
    codelets::TargetPanel target{data.group[g], layout.loc[t]};
    target.loc.value_offset = 0;
    // by_t[t] is in increasing d, so the updates of one source group are consecutive.
    std::vector<Bundle> bundles;
    index_t last_group = -1;
    for (const PlannedUpdate& u : by_t[t]) {
      const index_t sg = layout.group_of[u.d];
      if (sg != last_group) bundles.emplace_back();
      last_group = sg;
      codelets::PanelLocation d = layout.loc[u.d];
      d.value_offset = layout.offset_in_group(u.d);
      bundles.back().updates.push_back({data.group[sg], d, u.r0, u.r1});
      bundles.back().flops += u.flops;
    }
    std::vector<const Bundle*> inst, tpq;
    for (const Bundle& b : bundles) {
      const auto cls = b.flops < th.inst_max_flops ? SizeClass::Inst
                       : b.flops < th.dpq_min_flops ? SizeClass::Tpq
                                                    : SizeClass::Dpq;
      st.updates[int(cls)] += static_cast<long long>(b.updates.size());
      st.flops[int(cls)] += b.flops;
      if (cls == SizeClass::Inst) {
        inst.push_back(&b);
      } else if (cls == SizeClass::Tpq) {
        tpq.push_back(&b);
      } else {
        const rt::TaskOptions o{"dpq_" + std::to_string(t) + "_" + std::to_string(&b - bundles.data()), priority(t),
                                where, b.flops};
        codelets::insert_supernode_update(rt, o, b.updates, target, data.rows, b.flops);
        count_task(o.where);
      }
    }
    // Tasks take at most kMaxTaskData handles: long lists become several tasks, which commute.
    auto submit_updates = [&](const std::vector<const Bundle*>& list, const char* tag) {
      int part = 0;
      for (const auto& chunk : chunks(list, 2)) {
        double f = 0;
        const auto updates = flatten(chunk, &f);
        const rt::TaskOptions o{std::string(tag) + std::to_string(t) + "_" + std::to_string(part++), priority(t),
                                where, f};
        codelets::insert_supernode_update(rt, o, updates, target, data.rows, f);
        count_task(o.where);
      }
    };
    submit_updates(tpq, "tpq_");
    constexpr std::size_t kInline = rt::kMaxTaskData - 3;
    if (inst.size() > kInline) {  // the first kInline ride in the factor task, the rest in update tasks
      submit_updates(std::vector<const Bundle*>(inst.begin() + kInline, inst.end()), "inst_");
      inst.resize(kInline);
    }
    double inst_flops = 0;
    const auto inline_updates = flatten(inst, &inst_flops);
    st.factor_flops += ff;
    // InstQ updates ride inside the factor task.
    const rt::TaskOptions o{"factor_" + std::to_string(t), priority(t), where, ff + inst_flops};
    codelets::insert_supernode_factor(rt, o, target, data.rows, data.info[g], inline_updates, ff + inst_flops);
    count_task(o.where);
  }
  return st;
}

}  // namespace hetsparse::planners
