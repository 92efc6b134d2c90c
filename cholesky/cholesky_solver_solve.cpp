// CholeskySolver's solves: the supernodal solve's task graph placed where the factorization left
// each group's panels, on host matrices (solve) or on handles the runtime holds (submit_solve).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cholesky/cholesky_solve_state.hpp"
#include "cholesky/cholesky_solver.hpp"
#include "cholesky/cholesky_solver_steps.hpp"
#include "cholesky/numeric/panel_storage.hpp"
#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "hetsparse/error.hpp"
#include "planners/supernodal_solve.hpp"
#include "sparse/host_threads.hpp"

namespace hetsparse::cholesky {
using detail::seconds_since;

SolveState& CholeskySolver::solve_state(int nrhs) {
  const SymbolicFactor& sym = *sym_;
  const planners::FactorLayout& layout = *layout_;
  if (!solve_) {
    solve_ = std::make_unique<SolveState>(rt_);
    solve_->plan = planners::plan_supernodal_solve(sym, layout, homes_);
    auto& ext = solve_->plan.ext_rows;
    solve_->ext_rows = rt_.register_vector({ext.empty() ? static_cast<void*>(&solve_->nrhs) : ext.data(),
                                            std::max<std::size_t>(1, ext.size()), sizeof(std::int32_t), -1, false});
    solve_->perm = rt_.register_vector({const_cast<index_t*>(sym.perm.data()), std::max<std::size_t>(1, sym.perm.size()),
                                        sizeof(index_t), -1, false});
  }
  SolveState& st = *solve_;
  if (!st.placed) {
    // With a GPU the whole solve runs there level by level (planners::plan_level_solve): a solve only
    // reads the panels, so StarPU copies those the factorization left on the host (leaf subtrees,
    // Any-home groups it ran on CPUs) at the first solve and keeps them there until the next
    // factorization; a solve then crosses PCIe only with the right-hand side.
    // HETSPARSE_GPU_SUBTREES=0 takes the task graph instead: leaf subtrees on the CPUs where they
    // were factored, each group where its panels are.
    const bool gpu = rt_.cuda_workers() > 0;
    const char* env = std::getenv("HETSPARSE_GPU_SUBTREES");
    const bool levels = gpu && !(env && std::string(env) == "0");
    if (levels != st.levels) st.release_blocks();
    st.levels = levels;
    if (levels && !st.entries) {
      st.level_plan = planners::plan_level_solve(sym, layout);
      st.loc = rt_.register_vector({const_cast<codelets::PanelLocation*>(layout.loc.data()), layout.loc.size(),
                                    sizeof(codelets::PanelLocation), -1, false});
      auto& e = st.level_plan.entries;
      st.entries = rt_.register_vector({e.data(), std::max<std::size_t>(1, e.size()), sizeof(e[0]), -1, false});
    }
    st.any_stage = false;
    for (index_t g = 0; g < layout.num_groups() && !levels; ++g) {
      // Each group's tasks where its panels are now: an Any-home group's factorization tasks went
      // where the scheduler put them, so its solve follows its valid copy.
      rt::Where w = gpu ? homes_[g] : rt::Where::Cpu;
      if (layout.group_begin[g + 1] - layout.group_begin[g] > 1) w = rt::Where::Cpu;  // a leaf subtree
      if (w == rt::Where::Any) w = rt_.valid_on_host(reg_->group[g]) ? rt::Where::Cpu : rt::Where::Cuda;
      st.plan.where[g] = w;
      st.any_stage = st.any_stage || planners::needs_stage(st.plan, g);
    }
    st.placed = true;
  }
  if (st.nrhs != nrhs) {
    st.release_blocks();
    const planners::SolvePlan& plan = st.plan;
    for (index_t g = 0; g < layout.num_groups() && !st.levels; ++g) {
      st.x.push_back(rt_.register_temporary(std::size_t(plan.rows(g)) * nrhs, sizeof(double)));
      st.ext.push_back(plan.next(g) > 0 ? rt_.register_temporary(std::size_t(plan.next(g)) * nrhs, sizeof(double)) : 0);
    }
    if (rt_.cuda_workers() > 0 && !st.levels) {  // some group may read its right-hand side off the host
      st.stage.assign(std::size_t(sym.n) * nrhs, 0.0);
      st.stage_handle = rt_.register_vector({st.stage.data(), st.stage.size(), sizeof(double)});
    }
    st.device_stage = rt_.register_temporary(std::size_t(sym.n) * nrhs, sizeof(double));
    st.nrhs = nrhs;
  }
  return st;
}

namespace {
// The GPU groups' solve steps swept together, one task for many groups (HETSPARSE_GPU_SWEEPS=0: one
// task per group and direction, for comparison).
bool gpu_sweeps() {
  const char* env = std::getenv("HETSPARSE_GPU_SWEEPS");
  return !(env && std::string(env) == "0");
}
}  // namespace

planners::SolvePlanStats CholeskySolver::submit(const SolveState& st, rt::HandleId stage, const planners::SolveRhs& rhs) {
  if (st.levels)
    return planners::submit_level_solve(rt_, *sym_, st.level_plan, {&reg_->group, reg_->rows, st.loc, st.entries, stage},
                                        rhs);
  const planners::SolveHandles h{&reg_->group, reg_->rows, st.ext_rows, st.x, st.ext, stage};
  return planners::submit_supernodal_solve(rt_, *sym_, *layout_, st.plan, h, rhs, gpu_sweeps());
}

void CholeskySolver::solve(double* B, int nrhs, int ldb) {
  require_factor("solve()");
  const SymbolicFactor& sym = *sym_;
  if (nrhs < 1 || ldb < sym.n || B == nullptr) throw InvalidArgument("Cholesky solve: need nrhs >= 1 and ldb >= n");
  auto t = std::chrono::steady_clock::now();
  solve_times_ = SolveTimes{};
  SolveState& st = solve_state(nrhs);
  solve_times_.setup_s = seconds_since(t);
  if (st.levels) {
    solve_levels(st, B, nrhs, ldb);
    return;
  }
  t = std::chrono::steady_clock::now();
  const planners::SolvePlan& plan = st.plan;
  if (st.any_stage) {  // the rows of the groups whose tasks may run on a GPU, in the factor's order
    rt::HostAccess w(rt_, st.stage_handle, rt::Access::Write);
    rt::PausedWorkers paused(rt_);  // a gather over n x nrhs entries: all cores
    parallel_chunks(static_cast<std::size_t>(layout_->num_groups()), 1, [&](std::size_t g0, std::size_t g1) {
      for (std::size_t g = g0; g < g1; ++g) {
        if (!planners::needs_stage(plan, static_cast<index_t>(g))) continue;
        for (int r = 0; r < nrhs; ++r)
          for (index_t i = plan.col_begin[g]; i < plan.col_begin[g + 1]; ++i)
            st.stage[i + std::size_t(r) * sym.n] = B[sym.perm[i] + std::size_t(r) * ldb];
      }
    });
  }
  planners::SolveRhs rhs;
  rhs.nrhs = nrhs;
  rhs.host_b = B;
  rhs.ldb = ldb;
  solve_times_.stage_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  solve_stats_ = submit(st, st.stage_handle, rhs);
  solve_times_.submit_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  rt_.wait_all();
  solve_times_.wait_s = seconds_since(t);
}

namespace {
// b's columns into the stage or back (ld n), straight copies over all cores.
void copy_columns(const double* from, int ldf, double* to, int ldt, index_t n, int nrhs) {
  parallel_chunks(static_cast<std::size_t>(n), 1 << 16, [&](std::size_t i0, std::size_t i1) {
    for (int r = 0; r < nrhs; ++r)
      std::memcpy(to + std::size_t(r) * ldt + i0, from + std::size_t(r) * ldf + i0, (i1 - i0) * sizeof(double));
  });
}
}  // namespace

// A host solve through the level solve: b takes the device path (permuted on the GPU into the
// device stage, the solution stored back unpermuted), so the host does no gather. With ldb == n the
// caller's array itself is registered for the call (pinned in place: the DMA reads and writes it,
// and unregistering brings the solution back into it); a copy into the pinned stage and back ran at
// host memcpy speed and cost more than pinning (docs/benchmarks.md, issue 15). With ldb > n b's
// columns are copied into the stage (ld n) and back.
void CholeskySolver::solve_levels(SolveState& st, double* B, int nrhs, int ldb) {
  const SymbolicFactor& sym = *sym_;
  auto t = std::chrono::steady_clock::now();
  rt::DataHandle own;
  if (ldb == sym.n) {
    own = rt::DataHandle(rt_, rt_.register_vector({B, std::size_t(sym.n) * nrhs, sizeof(double)}));
  } else {
    if (!st.stage_handle) {  // the first such call with these nrhs
      st.stage.assign(std::size_t(sym.n) * nrhs, 0.0);
      st.stage_handle = rt_.register_vector({st.stage.data(), st.stage.size(), sizeof(double)});
    }
    rt::HostAccess w(rt_, st.stage_handle, rt::Access::Write);
    rt::PausedWorkers paused(rt_);
    copy_columns(B, ldb, st.stage.data(), sym.n, sym.n, nrhs);
  }
  solve_times_.stage_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  planners::SolveRhs rhs;
  rhs.nrhs = nrhs;
  rhs.device_b = rhs.device_x = own ? own.id() : st.stage_handle;
  rhs.perm = st.perm;
  solve_stats_ = submit(st, st.device_stage, rhs);
  solve_times_.submit_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  rt_.wait_all();
  solve_times_.wait_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  if (own) {
    own.reset();
  } else {
    rt::HostAccess r(rt_, st.stage_handle, rt::Access::Read);
    rt::PausedWorkers paused(rt_);
    copy_columns(st.stage.data(), sym.n, B, ldb, sym.n, nrhs);
  }
  solve_times_.unstage_s = seconds_since(t);
}

void CholeskySolver::submit_solve(rt::HandleId b, rt::HandleId x, int nrhs) {
  require_factor("submit_solve()");
  if (nrhs < 1 || b == 0 || x == 0) throw InvalidArgument("Cholesky submit_solve: need nrhs >= 1 and two handles");
  SolveState& st = solve_state(nrhs);
  planners::SolveRhs rhs;
  rhs.nrhs = nrhs;
  rhs.device_b = b;
  rhs.device_x = x;
  rhs.perm = st.perm;
  solve_stats_ = submit(st, st.device_stage, rhs);
}

}  // namespace hetsparse::cholesky
