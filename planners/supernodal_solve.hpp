// The supernodal solve A X = B (L Y = P B, then L^T Z = Y, X = P^T Z), two ways. With a GPU, the
// level-ordered solve (plan_level_solve / submit_level_solve): every supernode level by level in
// place on one stage vector, a few tasks per direction. Otherwise (and for comparison) a task graph
// over the groups of a FactorLayout, on the devices where the factorization left the panels: leaf
// subtrees and small targets on CPU workers, GPU-home targets on the GPU, Any-home ones where the
// scheduler finds their panels.
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

// Whether group g's forward task reads the stage in a host solve (it may run off the CPUs).
inline bool needs_stage(const SolvePlan& plan, index_t g) { return plan.where[g] != rt::Where::Cpu; }

// One step of a sweep direction: a group's own task(s) (swept[g] 0), or a sweep over single-supernode
// groups on the GPU (swept[g] 1) in one task per kMaxTaskData handles; groups solved elsewhere
// (swept[g] 2) have no step. Groups in the order they are solved; without
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

// The level-ordered solve. Supernodes are split into classes for the GPU kernels
// (kernels::LevelSolveSchedule): a warp solves a panel of at most warp_max_entries entries whole; a
// thread block the diagonal block of a larger one, cuBLAS one of wide_min_cols columns or more; the
// rows below of both go in tiles.
struct LevelSolveOptions {
  int max_groups = kernels::kLevelSolveMaxGroups;  // groups (panel handles) per task
  std::int64_t warp_max_entries = 4096;
  int wide_min_cols = 1024;
};
// One task per direction: its groups (entry group k is groups[k]) and their levels.
struct LevelSolveChunk {
  std::vector<index_t> groups;
  std::vector<std::int32_t> segments;  // 3 * levels + 1 offsets into LevelSolvePlan::entries
  std::vector<std::int32_t> tiles;     // per level
  std::vector<kernels::LevelSolveWide> wide;
};
// Chunks in forward order (backward: reversed). The leaf subtrees (layout.subtree) come first, in
// chunks of nearly equal numbers of groups, a supernode's level its height in its subtree; then the
// groups above, a supernode's level its height among them, in consecutive chunks.
struct LevelSolvePlan {
  std::vector<kernels::LevelSolveEntry> entries;
  std::vector<LevelSolveChunk> chunks;
};
LevelSolvePlan plan_level_solve(const cholesky::SymbolicFactor& sym, const FactorLayout& layout,
                                const LevelSolveOptions& options = {});

// Its handles: the factor's panels per group and row lists (RegisteredFactor), its PanelLocations
// (layout.loc), the plan's entries, and the stage (n x nrhs, ld n, the factor's order).
struct LevelSolveHandles {
  const std::vector<rt::HandleId>* panels;
  rt::HandleId rows, loc, entries, stage;
};
// Host rhs: the caller filled the stage with b in the factor's order; collect tasks on CPU workers
// write the solution into b. Device rhs: a permute task on the GPU fills the stage, a store task
// there writes x. Every level task reads and writes the stage: they run one after another.
SolvePlanStats submit_level_solve(rt::TaskRuntime& rt, const cholesky::SymbolicFactor& sym, const LevelSolvePlan& plan,
                                  const LevelSolveHandles& h, const SolveRhs& rhs);

}  // namespace hetsparse::planners
