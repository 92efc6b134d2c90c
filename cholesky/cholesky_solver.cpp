#include "cholesky/cholesky_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <string>

#include "cholesky/cholesky_solve_state.hpp"
#include "cholesky/cholesky_solver_steps.hpp"
#include "cholesky/numeric/entry_handles.hpp"
#include "cholesky/numeric/grouped_assembly.hpp"
#include "cholesky/numeric/panel_storage.hpp"
#include "codelets/supernode/supernode_solve_codelet.hpp"
#include "planners/subtree_plans.hpp"
#include "planners/supernodal_solve.hpp"
#include "sparse/host_threads.hpp"
#include "symbolic/analysis.hpp"
#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode.hpp"
#include "sparse/progress.hpp"

namespace hetsparse::cholesky {
namespace {

using detail::begin_phase;
using detail::device_group;
using detail::seconds_since;

bool same_layout_thresholds(const planners::SizeClassThresholds& a, const planners::SizeClassThresholds& b) {
  return a.subtree_max_flops == b.subtree_max_flops && a.gpu_min_task_flops == b.gpu_min_task_flops &&
         a.gpu_only_min_flops == b.gpu_only_min_flops && a.restrict_to == b.restrict_to &&
         a.gpu_subtree_only_min_flops == b.gpu_subtree_only_min_flops &&
         a.gpu_subtree_min_flops == b.gpu_subtree_min_flops &&
         a.gpu_whole_max_flops_per_entry == b.gpu_whole_max_flops_per_entry &&
         a.gpu_whole_min_flops == b.gpu_whole_min_flops &&
         a.gpu_whole_any_max_flops == b.gpu_whole_any_max_flops;
}

}  // namespace

CholeskySolver::CholeskySolver(rt::TaskRuntime& runtime) : rt_(runtime) {}
CholeskySolver::~CholeskySolver() {
  try {
    release_panels();
  } catch (const std::exception&) {
    // A runtime shut down first has already unregistered every handle: nothing left to release.
  }
}

void CholeskySolver::release_panels() {
  solve_.reset();  // noexcept  // handles on the plan and the permutation
  entries_.reset();  // before grouped_, whose arrays they hold
  reg_.reset();    // discards the panels' handles (waits for their tasks) before L goes
  L_.reset();
}

const SymbolicFactor& CholeskySolver::symbolic() const {
  if (!sym_) throw InvalidArgument("Cholesky: analyze() has not been called");
  return *sym_;
}

void CholeskySolver::require_factor(const char* what) const {
  if (!factorized_) throw InvalidArgument(std::string("Cholesky: ") + what + " needs a successful factorize()");
}

const SymbolicFactor& CholeskySolver::analyze(const Csr& A, const AnalyzeOptions& opts) {
  {
    rt::PausedWorkers paused(rt_);  // host-only work: the workers' polling would slow it down
    sym_ = std::make_unique<SymbolicFactor>(cholesky::analyze(A, opts));
    input_ = opts.input;
    begin_phase(opts.progress, "analysis: assembly map");
    map_ = std::make_unique<AssemblyMap>(build_assembly_map(A, input_, *sym_));
    if (opts.progress) opts.progress->end();
  }
  release_panels();
  work_.reset();
  layout_.reset();
  grouped_.reset();
  homes_.clear();
  factorized_ = false;
  // The factor's storage, layout and handles for the default options, as cuDSS's analysis allocates
  // its factor: a first factorize() with those options then assembles and runs only. A factor that
  // does not fit in memory is left to factorize(), which reports it.
  begin_phase(opts.progress, "analysis: factor layout and handles");
  try {
    prepare_factor(placed_options(FactorizeOptions{}));
  } catch (const InsufficientMemory&) {
    // Nothing was allocated: factorize() reports it.
  }
  if (opts.progress) opts.progress->end();
  if (reg_ && !planners::host_takes_whole_factor(*sym_, FactorizeOptions{}.thresholds)) {
    begin_phase(opts.progress, "analysis: placing the panels");
    place_panels();
    if (opts.progress) opts.progress->end();
  }
  return *sym_;
}

FactorizeOptions CholeskySolver::placed_options(const FactorizeOptions& opts) const {
  FactorizeOptions placed = opts;
  // A factor made here is one group (one handle to take) on the host, and the solve's tasks stay
  // with it.
  if (planners::host_takes_whole_factor(*sym_, opts.thresholds)) {
    placed.thresholds.restrict_to = rt::Where::Cpu;
    placed.thresholds.subtree_max_flops = std::numeric_limits<double>::infinity();
  }
  return placed;
}

void CholeskySolver::prepare_factor(const FactorizeOptions& placed) {
  if (!L_) {
    L_ = std::make_unique<PanelStorage>(*sym_);  // checked to fit; uninitialised: the assembly tasks write it
    panels_written_ = false;
  } else if (!panels_written_) {
    // Allocated by analyze() but not yet touched: L must still fit now that its pages will be used.
    try {
      L_->require_fits(*sym_);
    } catch (const InsufficientMemory&) {
      release_panels();
      throw;
    }
  }
  set_up_layout(placed);
}

void CholeskySolver::set_up_layout(const FactorizeOptions& opts) {
  const SymbolicFactor& sym = *sym_;
  if (layout_ && reg_ && same_layout_thresholds(opts.thresholds, layout_thresholds_)) return;
  solve_.reset();
  reg_.reset();
  entries_.reset();
  // A 2D-like factor goes to the GPUs whole: one subtree group per GPU share or one in all
  // (planners::gpu_factor_subtree_limit).
  const double subtree_max = planners::gpu_factor_subtree_limit(sym, opts.thresholds, rt_.cuda_devices());
  rt::PausedWorkers paused(rt_);  // host-only work, the registration included
  layout_ = std::make_unique<planners::FactorLayout>(planners::plan_factor_layout(sym, subtree_max));
  layout_thresholds_ = opts.thresholds;
  subtree_plans_ = std::make_unique<planners::SubtreePlans>();
  if (!work_) work_ = std::make_unique<planners::SymbolicWork>(planners::symbolic_work(sym));
  // The top groups' update lists, listed here rather than at the first submission.
  if (layout_->has_top_groups()) planners::add_update_lists(sym, *work_);
  homes_ = planners::panel_homes(rt_, sym, *layout_, opts.thresholds, work_.get());
  info_.assign(static_cast<std::size_t>(sym.num_supernodes()), 0);
  host_work_.clear();
  // The panels are registered once and stay so: each factorization's assembly tasks write them
  // where their tasks run (host pages of a GPU group are never touched, nothing is pinned).
  reg_ = std::make_unique<planners::RegisteredFactor>(rt_, sym, *layout_, L_->values.data(), info_.data());

  std::vector<bool> device(static_cast<std::size_t>(layout_->num_groups()));
  for (index_t g = 0; g < layout_->num_groups(); ++g) device[g] = device_group(homes_, g);
  grouped_ = std::make_unique<GroupedAssembly>(group_entries(*map_, *layout_, device));
  entries_ = std::make_unique<EntryHandles>(rt_, *grouped_);
}

const FactorizeReport& CholeskySolver::factorize(const Csr& A, const FactorizeOptions& opts) {
  const SymbolicFactor& sym = symbolic();
  const auto t0 = std::chrono::steady_clock::now();
  factorized_ = false;
  options_ = opts;
  report_ = FactorizeReport{};
  check_assembly_pattern(A, *map_);
  report_.on_calling_thread = planners::host_takes_whole_factor(sym, opts.thresholds);
  {
    const auto t = std::chrono::steady_clock::now();
    begin_phase(opts.progress, "data registration");
    prepare_factor(placed_options(opts));  // done by analyze() for the default options
    report_.register_s = seconds_since(t);
  }
  panels_written_ = true;
  if (report_.on_calling_thread)
    factorize_here(A, opts.progress);
  else
    run_factor_tasks(A, opts);
  report_.total_s = seconds_since(t0);
  report_.flops = sym.flops_amalgamated;
  // The first failure in elimination order is the informative one; later ones follow from it.
  index_t failed = std::numeric_limits<index_t>::max();
  for (index_t s = 0; s < sym.num_supernodes(); ++s)
    if (info_[s] > 0) failed = std::min(failed, sym.supernodes[s].first_col + info_[s] - 1);
  if (failed != std::numeric_limits<index_t>::max())
    throw NotPositiveDefinite(sym.perm[failed], "Cholesky: the matrix is not positive definite: non-positive pivot");
  factorized_ = true;
  if (solve_) solve_->placed = false;  // Any-home panels may have moved
  return report_;
}

void CholeskySolver::factorize_here(const Csr& A, ProgressReporter* progress) {
  const SymbolicFactor& sym = *sym_;
  const planners::FactorLayout& layout = *layout_;
  auto t = std::chrono::steady_clock::now();
  // Taken for writing on the host: StarPU drops any other copy (a solve's, a previous factor's).
  auto held = host_panels(rt::Access::Write, true);
  auto paused = std::make_unique<rt::PausedWorkers>(rt_);  // their polling would take this thread's core
  begin_phase(progress, "assembly");
  assemble(A, *map_, *L_);
  report_.assemble_s = seconds_since(t);
  t = std::chrono::steady_clock::now();
  begin_phase(progress, "factorization on the calling thread");
  const index_t ns = sym.num_supernodes();
  std::fill(info_.begin(), info_.end(), 0);
  if (host_work_.empty()) host_work_.resize(kernels::supernode_subtree_work_doubles(layout.loc.data(), 0, ns) + 1);
  kernels::supernode_subtree_cpu(layout.loc.data(), sym.rows.data(), sym.col_to_supernode.data(), 0, ns,
                                 L_->values.data(), info_.data(), host_work_.data());
  report_.factorize_s = report_.wait_s = seconds_since(t);
  report_.groups_cpu = layout.num_groups();
  report_.values_cpu = double(L_->values.size());
  held.clear();  // released before the workers resume: they would take this thread's core meanwhile
  paused.reset();
  if (progress) progress->end();
}

std::vector<std::unique_ptr<rt::HostAccess>> CholeskySolver::host_panels(rt::Access mode, bool with_status) const {
  std::vector<std::unique_ptr<rt::HostAccess>> held;
  for (std::size_t g = 0; g < reg_->group.size(); ++g) {
    held.push_back(std::make_unique<rt::HostAccess>(rt_, reg_->group[g], mode));
    if (with_status && reg_->info[g]) held.push_back(std::make_unique<rt::HostAccess>(rt_, reg_->info[g], mode));
  }
  return held;
}

}  // namespace hetsparse::cholesky
