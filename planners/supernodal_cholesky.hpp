// The numeric supernodal Cholesky as a task graph over a FactorLayout (planners/supernodal_layout.hpp).
// Each leaf subtree is one CPU task. For each supernode t above them, the updates from its
// descendants, gathered per source group, are sorted into swCholesky-style size classes adapted to
// CPUs + GPUs:
//   InstQ  tiny updates, applied inside t's factor task (no task of their own);
//   TPQ    medium updates, batched into one task per target;
//   DPQ    large updates, one task each, that StarPU may put on a GPU (cuBLAS + scatter) or a CPU.
// Then t's factor task (potrf + trsm). Updates of one target commute; priorities follow the
// critical path of the elimination tree; small tasks are kept off the GPU. The solve's task graph is
// planners/supernodal_solve.hpp.
#pragma once
#include <array>
#include <vector>

#include "symbolic/symbolic_factor.hpp"
#include "planners/supernodal_layout.hpp"
#include "runtime/task_runtime.hpp"

namespace hetsparse::planners {

struct SubtreePlans;  // planners/subtree_plans.hpp

// Placement: every task of a top target t runs where t's panel lives (its "home"), chosen from t's
// whole work (factorization + every update into it), so panels do not shuttle between host and
// device memory mid-factorization (a 100^3 trace moved 12 GB each way for 6 GB of top panels when
// each task was placed on its own). Small updates are no reason to keep a panel off the GPU: the
// CUDA batch sends them to one fused kernel (kernels::kFusedUpdateMaxFlops).
struct SizeClassThresholds {
  double inst_max_flops = 2.0e4;       // below: InstQ
  double dpq_min_flops = 5.0e7;        // at or above: DPQ (own task)
  double gpu_min_task_flops = 2.0e7;   // targets whose work is below this stay on CPUs
  // Targets whose work is at or above this live on the GPUs when there are any; between
  // gpu_min_task_flops and this, the scheduler places each task. No such band by default: the
  // scheduler put nearly all of those tasks on the GPU anyway, except in a process's first
  // factorization, where the GPU's queue of fresh assemblies looked long and it sent factor tasks of
  // GPU-assembled panels to the CPUs, moving the panels down and back up again.
  double gpu_only_min_flops = 2.0e7;
  double subtree_max_flops = -1;       // leaf subtree tasks (plan_factor_layout); < 0 automatic, 0 none
  // Leaf subtree tasks of at least this much work run on a GPU (level-batched kernel). Low, because
  // the GPU idles until the subtrees below the top separators are done: on a GPU node the few cores
  // took about as long over the 3D leaf subtrees (a fraction of a percent of the flops, at a few
  // GFLOP/s a core) as the GPU over everything else, and the subtrees of medium size go faster on
  // the GPU that waits for them. The small ones stay on the cores, which do them while it starts.
  double gpu_subtree_only_min_flops = 5.0e7;
  // From this much work on the scheduler may put smaller subtree tasks on a GPU too (< 0: it may
  // not). Off by default: placed task by task, subtrees moved between the devices' queues.
  double gpu_subtree_min_flops = -1;
  // With a GPU and an automatic subtree limit, factors whose work per entry of L is below this
  // (2D meshes: ~400-700 flops per entry, 3D: 2500-8000) are factored whole on the GPU, as one
  // subtree task: StarPU's task per medium front, and the CPUs' share, cost more than copying L both
  // ways. Work below gpu_subtree_only_min_flops stays with the CPU path. 0: never.
  double gpu_whole_max_flops_per_entry = 1500;
  // Factors of less work than gpu_whole_any_max_flops and at least gpu_whole_min_flops go to a GPU
  // whole too, whatever their work per entry: there the CPU path is a few StarPU tasks over small
  // fronts, whose overheads cost 2-7x cuDSS on the shared SPD matrices, and the GPU's level-batched
  // kernels take them in a few launches per level (gpu_whole_min_flops < 0: never).
  double gpu_whole_any_max_flops = 1.0e9;
  double gpu_whole_min_flops = 1.5e6;
  // Factors of at most this much work are factored on the calling thread, without tasks: below it
  // StarPU's fixed cost per factorization (acquiring the data, waking workers, waiting) and a GPU's
  // launches exceed the arithmetic of one core (< 0: never). Taken before gpu_whole_min_flops, and
  // like it only with an automatic subtree limit.
  double host_whole_max_flops = 1.5e6;
  // The GPU subtree kernel's limits (kernels::SubtreeLevels): updates under this go to its fused
  // kernel, panels of at most this many columns to its batched factor kernel.
  double gpu_subtree_fused_max_flops = kernels::kSubtreeFusedMaxFlops;
  std::int32_t gpu_subtree_batched_max_cols = kernels::kSubtreeBatchedMaxCols;
  rt::Where restrict_to = rt::Where::Any;  // Cpu or Cuda: every task that has the choice goes there
};

// Inst/Tpq/Dpq as above; Subtree: an update inside a leaf subtree, done by the subtree's task.
enum class SizeClass { Inst = 0, Tpq = 1, Dpq = 2, Subtree = 3 };

struct UpdatePlanStats {
  std::array<long long, 4> updates{};  // (descendant, target) pairs per SizeClass
  std::array<double, 4> flops{};
  long long tasks = 0, gpu_eligible_tasks = 0, subtree_tasks = 0, groups = 0;
  double factor_flops = 0;
};

// One descendant -> target update found in the symbolic structure.
struct PlannedUpdate {
  index_t d, t;
  std::int32_t r0, r1;
  double flops;
};
// Every update of the symbolic structure, grouped by target (targets in postorder).
std::vector<std::vector<PlannedUpdate>> updates_by_target(const cholesky::SymbolicFactor& sym);
double update_flops(const cholesky::Supernode& d, std::int32_t r0, std::int32_t r1);
double factor_flops(const cholesky::Supernode& s);

// What the plan takes from the symbolic factor alone, whatever the layout and thresholds: computed
// once per analysis (CholeskySolver keeps it) rather than at every factorization's submission.
struct SymbolicWork {
  std::vector<double> work;         // per supernode as a target: its factorization + the updates into it
  std::vector<long long> incoming;  // the number of updates into it
  std::vector<double> crit;         // the longest path from it to its root, its own work included
  // updates_by_target(), filled by add_update_lists (empty until then): only layouts with top
  // targets need them (a 2D factor the GPU takes whole has ~1M updates whose lists would cost more
  // than the scan).
  std::vector<std::vector<PlannedUpdate>> by_target;
};
SymbolicWork symbolic_work(const cholesky::SymbolicFactor& sym);
void add_update_lists(const cholesky::SymbolicFactor& sym, SymbolicWork& w);  // no-op when done

// Whether the whole factor is factored on the calling thread (host_whole_max_flops).
bool host_takes_whole_factor(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th);
// Whether the whole factor should be one GPU subtree task (see gpu_whole_max_flops_per_entry and
// gpu_whole_min_flops).
bool gpu_takes_whole_factor(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th, int gpus);
// The subtree limit for plan_factor_layout that does it: infinite (one group) with one GPU, however
// many CUDA workers drive it (TaskRuntime::cuda_devices); with several GPUs, a quarter of each one's
// share of the work (at least gpu_subtree_only_min_flops, so that every subtree goes to a GPU), so that the
// subtrees spread over the GPUs and the top separators above them are tasks of their own.
// th.subtree_max_flops when the whole factor does not go to the GPU.
double gpu_factor_subtree_limit(const cholesky::SymbolicFactor& sym, const SizeClassThresholds& th, int gpus);

// `work`: symbolic_work(sym) kept by the caller (its update lists are added when the layout needs
// them); nullptr: computed for this call. `plans`: the GPU subtree schedules kept by the caller for
// this layout (planned here where missing); nullptr: each GPU subtree task plans its own.
UpdatePlanStats submit_supernodal_cholesky(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                           const FactorLayout& layout, const RegisteredFactor& data,
                                           const SizeClassThresholds& th = {}, SymbolicWork* work = nullptr,
                                           SubtreePlans* plans = nullptr);

// Where each group's panels live (FactorLayout groups): Cpu for leaf subtrees and targets whose work
// is under gpu_min_task_flops, Cuda from gpu_only_min_flops on when CUDA workers can run the panel
// kernels, Any (the scheduler's choice, task by task) in between (no such band by default); leaf
// subtrees from gpu_subtree_only_min_flops on Cuda, from gpu_subtree_min_flops on Any (when set);
// restrict_to overrides every choice but Cpu for small work.
// Every task of a group runs there. The caller assembles a Cuda group's panels on the GPU, where
// they stay after the factorization (the solve reads them there).
std::vector<rt::Where> panel_homes(const rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                   const FactorLayout& layout, const SizeClassThresholds& th,
                                   const SymbolicWork* work = nullptr);

}  // namespace hetsparse::planners
