// The factorization's task graph: the GPU panel groups placed at analysis, then per factorize()
// the values gathered by group, one assembly task per group on its home, the factorization's
// tasks (planners/supernodal_cholesky.hpp) and the wait.
#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "cholesky/cholesky_solver.hpp"
#include "cholesky/cholesky_solver_steps.hpp"
#include "cholesky/numeric/entry_handles.hpp"
#include "cholesky/numeric/grouped_assembly.hpp"
#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "planners/supernodal_cholesky.hpp"
#include "sparse/host_threads.hpp"

namespace hetsparse::cholesky {
namespace {

using detail::begin_phase;
using detail::device_group;
using detail::group_values;
using detail::seconds_since;

// Waits for the submitted tasks while reporting how many are done (a task graph of a large problem
// runs for minutes); the caller's wait_all() then returns at once and rethrows task errors.
void report_tasks_until_done(const rt::TaskRuntime& rt, long long total, ProgressReporter& progress) {
  progress.begin("factorization tasks");
  for (std::size_t pending; (pending = rt.pending_tasks()) > 0;) {
    progress.update(std::max(0LL, total - static_cast<long long>(pending)), total, "tasks");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the end is noticed within 20 ms
  }
  progress.end();
}

}  // namespace

// An allocation on a GPU serializes its streams: among the first factorization's kernels, one per
// panel group slowed its assembly several times over. Zeroing the GPU groups on their GPUs moves the
// allocations here. Host groups are left untouched, so factorize() still refuses an L whose pages
// no longer fit; under a GPU memory cap smaller than the GPU groups nothing is placed, as StarPU
// would evict zeroed panels to make room.
void CholeskySolver::place_panels() {
  const planners::FactorLayout& layout = *layout_;
  double gpu_bytes = 0;
  for (index_t g = 0; g < layout.num_groups(); ++g)
    if (homes_[g] == rt::Where::Cuda) gpu_bytes += 8.0 * double(group_values(layout, g));
  if (gpu_bytes == 0) return;
  const std::size_t cap = rt_.cuda_memory_cap();
  if (cap > 0 && gpu_bytes > 0.8 * double(cap) * std::max(1, rt_.cuda_devices())) return;
  const EntryHandles& e = *entries_;
  const int hi = rt_.max_priority();
  for (index_t g = 0; g < layout.num_groups(); ++g) {
    if (homes_[g] != rt::Where::Cuda) continue;
    codelets::insert_supernode_assemble(rt_, {"place_" + std::to_string(g), hi, rt::Where::Cuda}, reg_->group[g], e.dv,
                                        e.dp, {group_values(layout, g), 0, 0});
  }
  rt_.wait_all();
}

void CholeskySolver::run_factor_tasks(const Csr& A, const FactorizeOptions& opts) {
  const SymbolicFactor& sym = *sym_;
  const planners::FactorLayout& layout = *layout_;
  GroupedAssembly& ga = *grouped_;
  const auto ta = std::chrono::steady_clock::now();
  begin_phase(opts.progress, "assembly");
  {
    // Written on the host: StarPU drops the GPU's copy of the values (not of the positions).
    rt::HostAccess device_values(rt_, entries_->dv, rt::Access::Write);
    rt::HostAccess cpu_values(rt_, entries_->cv, rt::Access::Write);
    rt::PausedWorkers paused(rt_);
    parallel_chunks(ga.src.size(), std::size_t(1) << 20, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) ga.values[i] = A.values[static_cast<std::size_t>(ga.src[i])];
    });
    // Subtree tasks write their supernodes' status directly; the others through their handles.
    for (index_t g = 0; g < layout.num_groups(); ++g)
      if (layout.subtree[g])
        std::fill(info_.begin() + layout.group_begin[g], info_.begin() + layout.group_begin[g + 1], 0);
  }
  report_.assemble_s = seconds_since(ta);
  const auto t1 = std::chrono::steady_clock::now();
  {
    auto t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "task submission");
    const EntryHandles& e = *entries_;
    const int hi = rt_.max_priority();
    for (index_t g = 0; g < layout.num_groups(); ++g) {
      const bool dev = device_group(homes_, g);
      const std::int64_t count = group_values(layout, g);
      const rt::Where home = homes_[g];
      (home == rt::Where::Cuda ? report_.groups_cuda : home == rt::Where::Any ? report_.groups_any : report_.groups_cpu)++;
      (home == rt::Where::Cuda ? report_.values_cuda : home == rt::Where::Any ? report_.values_any : report_.values_cpu) +=
          double(count);
      const std::int64_t base = dev ? 0 : ga.device_entries;
      codelets::insert_supernode_assemble(
          rt_, {"assemble_" + std::to_string(g), hi, dev ? homes_[g] : rt::Where::Cpu}, reg_->group[g],
          dev ? e.dv : e.cv, dev ? e.dp : e.cp, {count, ga.begin[g] - base, ga.end[g] - ga.begin[g]});
    }
    report_.plan = planners::submit_supernodal_cholesky(rt_, sym, layout, *reg_, opts.thresholds, work_.get(),
                                                       subtree_plans_.get());
    report_.plan.tasks += layout.num_groups();
    for (index_t g = 0; g < layout.num_groups(); ++g)
      if (reg_->info[g] && homes_[g] != rt::Where::Cpu) rt_.write_back_when_done(reg_->info[g]);
    report_.submit_s = seconds_since(t);
    t = std::chrono::steady_clock::now();
    // Polling only when the lines are shown: a blocking wait notices the end at once.
    if (opts.progress && opts.progress->enabled()) report_tasks_until_done(rt_, report_.plan.tasks, *opts.progress);
    rt_.wait_all();
    report_.wait_s = seconds_since(t);
    t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "pivot status");
    for (index_t g = 0; g < layout.num_groups(); ++g)
      if (reg_->info[g]) rt::HostAccess read(rt_, reg_->info[g], rt::Access::Read);  // info_ up to date
    report_.unregister_s = seconds_since(t);
    if (opts.progress) opts.progress->end();
  }
  report_.factorize_s = seconds_since(t1);
}

}  // namespace hetsparse::cholesky
