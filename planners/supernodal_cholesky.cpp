#include "planners/supernodal_cholesky.hpp"

#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"

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

// Cost of the longest path from each supernode to the root of its tree (its own work included).
std::vector<double> critical_path(const cholesky::SymbolicFactor& sym,
                                  const std::vector<std::vector<PlannedUpdate>>& by_t) {
  const index_t ns = sym.num_supernodes();
  std::vector<double> work(ns), crit(ns);
  for (index_t t = 0; t < ns; ++t) {
    work[t] = factor_flops(sym.supernodes[t]);
    for (const PlannedUpdate& u : by_t[t]) work[t] += u.flops;
  }
  for (index_t s = ns - 1; s >= 0; --s) {  // parents come after children in postorder
    const index_t p = sym.supernodes[s].parent;
    crit[s] = work[s] + (p >= 0 ? crit[p] : 0.0);
  }
  return crit;
}

}  // namespace

UpdatePlanStats submit_supernodal_cholesky(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                           const SupernodalData& data, const SizeClassThresholds& th) {
  const index_t ns = sym.num_supernodes();
  if (data.sn.size() != std::size_t(ns) || data.info.size() != std::size_t(ns))
    throw InvalidArgument("supernodal Cholesky: one handle set per supernode expected");
  const auto by_t = updates_by_target(sym);
  const auto crit = critical_path(sym, by_t);
  const double top = std::max(1.0, *std::max_element(crit.begin(), crit.end()));
  const int lo = rt.min_priority(), hi = rt.max_priority();
  auto priority = [&](index_t s) { return lo + static_cast<int>(double(hi - lo) * crit[s] / top); };
  auto where = [&](double flops) {
    if (th.restrict_to != rt::Where::Any) return th.restrict_to;
    return flops < th.gpu_min_task_flops ? rt::Where::Cpu : rt::Where::Any;
  };

  UpdatePlanStats st;
  auto count_task = [&](double flops) {
    ++st.tasks;
    st.gpu_eligible_tasks += where(flops) == rt::Where::Any;
  };
  for (index_t t = 0; t < ns; ++t) {
    std::vector<codelets::SupernodeUpdate> inst, tpq;
    double inst_flops = 0, tpq_flops = 0;
    for (const PlannedUpdate& u : by_t[t]) {
      const codelets::SupernodeUpdate su{data.sn[u.d], u.r0, u.r1};
      const auto cls = u.flops < th.inst_max_flops ? SizeClass::Inst
                       : u.flops < th.dpq_min_flops ? SizeClass::Tpq
                                                    : SizeClass::Dpq;
      st.updates[int(cls)] += 1;
      st.flops[int(cls)] += u.flops;
      if (cls == SizeClass::Inst) {
        inst.push_back(su);
        inst_flops += u.flops;
      } else if (cls == SizeClass::Tpq) {
        tpq.push_back(su);
        tpq_flops += u.flops;
      } else {
        const rt::TaskOptions o{"dpq_" + std::to_string(u.d) + "_" + std::to_string(t), priority(t), where(u.flops),
                                u.flops};
        codelets::insert_supernode_update(rt, o, su, data.sn[t], u.flops);
        count_task(u.flops);
      }
    }
    // A task takes at most kMaxTaskData handles (two per descendant): longer lists become several
    // batch tasks, which commute like the rest.
    constexpr std::size_t kPerTask = (rt::kMaxTaskData - 3) / 2;
    auto submit_batches = [&](std::vector<codelets::SupernodeUpdate>& list, double flops, const char* tag) {
      for (std::size_t first = 0, part = 0; first < list.size(); first += kPerTask, ++part) {
        const std::vector<codelets::SupernodeUpdate> chunk(
            list.begin() + first, list.begin() + std::min(list.size(), first + kPerTask));
        const double f = flops * double(chunk.size()) / double(list.size());
        const rt::TaskOptions o{std::string(tag) + std::to_string(t) + "_" + std::to_string(part), priority(t), where(f),
                                f};
        codelets::insert_supernode_update_batch(rt, o, chunk, data.sn[t], f);
        count_task(f);
      }
    };
    submit_batches(tpq, tpq_flops, "tpq_");
    if (inst.size() > kPerTask) {  // the first kPerTask ride in the factor task, the rest in batches
      std::vector<codelets::SupernodeUpdate> rest(inst.begin() + kPerTask, inst.end());
      inst.resize(kPerTask);
      submit_batches(rest, 0.0, "inst_");
    }
    const double ff = factor_flops(sym.supernodes[t]);
    st.factor_flops += ff;
    // InstQ updates ride inside the factor task; a factor with any stays on a CPU unless it is big.
    const rt::TaskOptions o{"factor_" + std::to_string(t), priority(t), where(ff), ff + inst_flops};
    codelets::insert_supernode_factor(rt, o, data.sn[t], data.info[t], inst, ff + inst_flops);
    count_task(ff);
  }
  return st;
}

std::vector<codelets::SupernodeLocation> supernode_locations(const cholesky::SymbolicFactor& sym) {
  std::vector<codelets::SupernodeLocation> loc;
  std::int64_t offset = 0;
  for (const cholesky::Supernode& sn : sym.supernodes) {
    loc.push_back({offset, sn.row_begin, static_cast<std::int32_t>(sn.nrows), sn.ncols, sn.first_col, 0});
    offset += sn.nrows * sn.ncols;
  }
  return loc;
}

void submit_supernodal_solve(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym, const WholeFactorData& L,
                             rt::HandleId x, int nrhs, int ldx) {
  const int ns = sym.num_supernodes();
  codelets::insert_supernodal_sweep(rt, {"forward_sweep", 0, rt::Where::Cpu, -1}, L.values, L.rows, L.locations, x,
                                    ns, nrhs, ldx, true);
  codelets::insert_supernodal_sweep(rt, {"backward_sweep", 0, rt::Where::Cpu, -1}, L.values, L.rows, L.locations, x,
                                    ns, nrhs, ldx, false);
}

}  // namespace hetsparse::planners
