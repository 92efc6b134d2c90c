// The supernodal solve A X = B (L Y = P B, then L^T Z = Y, X = P^T Z) as a task graph over the groups
// of a FactorLayout, on the devices where the factorization left the panels: leaf subtrees and
// small targets on CPU workers, GPU-home targets on the GPU (no copy of L per solve), Any-home ones
// where the scheduler finds their panels.
//
// The unknowns are cut into blocks following the groups' columns. Forward: a group's task takes its
// right-hand side, subtracts the contributions of its descendant groups (each one's external block:
// what its rows send to rows outside it), solves its panels and writes its own external block.
// Backward, in reverse: a group gathers its ancestors' solved unknowns into its external block and
// solves. A task takes at most rt::kMaxTaskData handles: longer lists become a chain of tasks on the
// same block. Priorities follow the critical path up (forward) and down (backward) the tree.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/supernode/supernode_solve.hpp"
#include "planners/supernodal_layout.hpp"
#include "runtime/task_runtime.hpp"
#include "symbolic/symbolic_factor.hpp"

namespace hetsparse::planners {

// Leaf-subtree groups solved level by level on the stage (kernels::SubtreeSolveSchedule): chunks of
// at most kSubtreeSolveMaxGroups groups, one task per chunk and direction. Each chunk's supernodes by
// height in their subtree (0 at the leaves), warp-team then block-team ones per level; segments are
// offsets into entries, which holds every chunk's.
struct SubtreeSolveChunk {
  std::vector<index_t> groups;
  std::vector<std::int32_t> segments;  // 2 * levels + 1
};
struct SubtreeSolvePlan {
  std::vector<kernels::SubtreeSolveEntry> entries;
  std::vector<SubtreeSolveChunk> chunks;
};
SubtreeSolvePlan plan_subtree_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                    const std::vector<index_t>& groups,
                                    int max_groups = kernels::kSubtreeSolveMaxGroups);

struct SolvePlan {
  // Group g has columns [col_begin[g], col_begin[g + 1]) and external rows
  // ext_rows[ext_begin[g] .. ext_begin[g + 1]) (sorted: its panels' rows past its columns).
  std::vector<index_t> col_begin;
  std::vector<std::int32_t> ext_rows;
  std::vector<std::int64_t> ext_begin;
  // Positions [p0, p1) of source's external rows lie in target's columns. Sorted by source, then p0.
  struct Link {
    index_t source, target;
    std::int32_t p0, p1;
  };
  std::vector<Link> links;
  std::vector<std::int64_t> links_from;               // per group + 1: its links as source
  std::vector<std::vector<std::int64_t>> links_into;  // per group: indices of its links as target
  std::vector<rt::Where> where;                       // per group: its panels' home
  std::vector<double> up, down;  // per group: solve cost (panel entries) on the longest path to a root / a leaf
  // Set by plan_batched_subtrees: per group, 1 when it is solved in a batched subtree task, and 1
  // when it receives from such a group (its forward then starts from the stage, where they send).
  std::vector<char> batched, from_batched;
  SubtreeSolvePlan subtrees;
  std::int64_t next(index_t g) const { return ext_begin[g + 1] - ext_begin[g]; }
  std::int32_t rows(index_t g) const { return static_cast<std::int32_t>(col_begin[g + 1] - col_begin[g]); }
};

// homes: panel_homes() of the factorization (Cpu for every group on a CPU-only machine).
SolvePlan plan_supernodal_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                const std::vector<rt::Where>& homes);

// The handles of one solve: the factor's (RegisteredFactor: panels per group, rows), the external
// rows (plan.ext_rows), and per group its unknowns ((c1 - c0) x nrhs) and its external block
// (next x nrhs; 0 for a group without external rows), plus the stage (n x nrhs, ld n, the right-hand
// side in the factor's order, read by the tasks that do not read a host b).
struct SolveHandles {
  const std::vector<rt::HandleId>* panels;
  rt::HandleId rows, ext_rows;
  std::vector<rt::HandleId> x, ext;
  rt::HandleId stage;
  // For batched subtrees (plan_batched_subtrees): the factor's PanelLocations (layout.loc) and the
  // schedule's entries (plan.subtrees.entries). Their unknowns are the stage's rows: x and ext of a
  // batched group are not used (may be 0).
  rt::HandleId loc = 0, subtree_entries = 0;
};

// Where the right-hand side comes from and the solution goes. Host: b (n x nrhs, ld ldb, the caller's
// order) read directly by the CPU groups' tasks; the other groups read the stage, which the caller
// filled for their columns (needs_stage()); collect tasks on CPU workers write the solution into b.
// Device: a permute task fills the stage from the handle b, store tasks write the handle x (both
// n x nrhs, ld n; x may be b), perm the handle of sym.perm.
struct SolveRhs {
  int nrhs = 1;
  double* host_b = nullptr;
  int ldb = 0;
  rt::HandleId device_b = 0, device_x = 0, perm = 0;
};

// Whether group g's forward task reads the stage in a host solve: it may run off the CPUs, or batched
// subtrees send to it there.
inline bool needs_stage(const SolvePlan& plan, index_t g) {
  return plan.where[g] != rt::Where::Cpu || (!plan.from_batched.empty() && plan.from_batched[g]);
}

// The groups of several supernodes (leaf subtrees) placed on Cuda are solved level by level in
// batched tasks (they need SolveHandles::loc and ::subtree_entries, the handle of
// plan.subtrees.entries): marks them and the groups they send to, and plans their chunks. Call after
// plan.where is final; max_groups: groups per task.
void plan_batched_subtrees(SolvePlan& plan, const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                           int max_groups = kernels::kSubtreeSolveMaxGroups);

// One step of a sweep direction: a group's own task(s) (swept[g] 0), or a sweep over single-supernode
// groups on the GPU (swept[g] 1) in one task per kMaxTaskData handles; groups solved elsewhere
// (swept[g] 2, the batched subtrees) have no step. Groups in the order they are solved; without
// swept groups the plain order (postorder forward, its reverse backward).
struct SolveStep {
  bool sweep;
  std::vector<index_t> groups;
};
std::vector<SolveStep> plan_solve_steps(const SolvePlan& plan, const std::vector<char>& swept, bool forward);

struct SolvePlanStats {
  long long tasks = 0, gpu_tasks = 0;  // gpu_tasks: restricted to CUDA
  long long swept_groups = 0;          // single-supernode CUDA groups solved in sweep tasks
};

SolvePlanStats submit_supernodal_solve(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym,
                                       const FactorLayout& layout, const SolvePlan& plan, const SolveHandles& h,
                                       const SolveRhs& rhs, bool gpu_sweeps = true);

}  // namespace hetsparse::planners
