// Task insertion for the supernodal solve as a task graph (planners/supernodal_solve.hpp) and for the
// assembly of panels that live on a GPU. The solve's unknowns are one temporary vector handle per
// group of the factor layout ((c1 - c0) x nrhs, ld c1 - c0), and each group has one more, its
// external block (next x nrhs, ld next): the contribution it sends to its ancestors in the forward
// sweep, then the ancestors' solved unknowns it reads in the backward sweep. The external rows of
// every group are one int32 vector handle, read by every task.
#pragma once
#include <cstdint>
#include <vector>

#include "codelets/supernode/supernode_codelet.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::codelets {

// The group of a solve task: supernodes [first, last), columns [c0, c1), external rows [ext_offset,
// ext_offset + next) of the external-rows handle. loc: the whole factor's locations (host memory,
// read by CPU tasks); top: loc[first] with value_offset 0 (the GPU tasks' one supernode).
struct SolveGroupArgs {
  const PanelLocation* loc;
  PanelLocation top;
  std::int64_t ext_offset;
  std::int32_t first, last, c0, c1, next, nrhs;
};

// Handles of the factor a solve task reads, and of the group's own blocks.
struct SolveFactorData {
  rt::HandleId panels;    // the group's panels
  rt::HandleId rows;      // every row list
  rt::HandleId ext_rows;  // every group's external rows
};

// Where a forward task takes its right-hand side when it starts the group (init): the permuted
// stage handle (n x nrhs, ld n, the factor's order), or, for a CPU task, the caller's host b in its
// own order through the host permutation (old = perm[new]).
struct SolveInput {
  rt::HandleId stage = 0;  // 0: host_b
  std::int32_t n = 0;
  const double* host_b = nullptr;
  std::int32_t ldb = 0;
  const std::int32_t* host_perm = nullptr;
};

// A contribution from (forward) or an unknown block of (backward) another group: its handle and
// positions [p0, p1) of the external rows involved. Forward: the source's external block, whose
// rows start at src_ext_offset (ld ld). Backward: the target's unknowns, rows [c0, c0 + ld).
struct SolveLink {
  rt::HandleId handle;
  std::int64_t src_ext_offset;
  std::int32_t p0, p1, c0, ld;
};

struct SolveForwardHeader {  // followed by `count` SolveLinkItem
  SolveGroupArgs g;
  const double* host_b;
  const std::int32_t* host_perm;
  std::int32_t ldb, n, init, solve, ext_buffer, stage_buffer, count, pad;
};
struct SolveBackwardHeader {  // followed by `count` SolveLinkItem
  SolveGroupArgs g;
  std::int32_t solve, ext_buffer, count, pad;
};
struct SolveLinkItem {
  std::int64_t src_ext_offset;
  std::int32_t buffer, p0, p1, c0, ld, pad;
};
struct SolveStoreHeader {  // followed by `count` SolveStoreItem
  double* host_out;        // collect: the caller's host x; store: null (buffer 0)
  const std::int32_t* host_perm;
  std::int32_t ldo, nrhs, count, identity;  // store with identity: no perm buffer, the factor's order
};
struct SolveStoreItem {  // block rows start at row0 of the buffer, ld 0: c1 - c0
  std::int32_t buffer, c0, c1, row0, ld, pad;
};
struct SolvePermuteArgs {
  std::int32_t n, nrhs, ldi, pad;
};
struct AssembleArgs {
  std::int64_t count, entry_offset, entries;
};

const rt::Kernel& supernode_solve_forward_kernel();
const rt::Kernel& supernode_solve_backward_kernel();
const rt::Kernel& supernode_solve_collect_kernel();
const rt::Kernel& supernode_solve_store_kernel();
const rt::Kernel& supernode_solve_permute_kernel();
const rt::Kernel& supernode_assemble_kernel();
const rt::Kernel& supernode_solve_levels_kernel();

// Supernodes solved level by level on the stage in one task (kernels::supernode_levels_{forward,
// backward}_{cpu,cuda}, the GPU path of the supernodal solve): the unknowns are the stage's rows (the
// factor's order); forward, the rows below send straight into the stage's rows of the ancestors;
// backward, they read the ancestors' solutions there. Buffers: rows, locations, stage (ReadWrite),
// the schedule's entries, then each group's panels (an entry's group k is buffer kLevelFirstPanel +
// k). The levels: kernels::LevelSolveSchedule's segments, tiles and wide list for this task.
inline constexpr int kLevelFirstPanel = 4;
struct LevelSolveLevels {
  std::vector<std::int32_t> segments;  // 3 * levels + 1
  std::vector<std::int32_t> tiles;     // levels
  std::vector<kernels::LevelSolveWide> wide;
};
struct LevelSolveHeader {  // then `wide` LevelSolveWide, 3 * levels + 1 segments, levels tiles
  std::int32_t forward, nrhs, ldn, groups, levels, wide;
};
void insert_solve_levels(rt::TaskRuntime& rt, const rt::TaskOptions& opt, bool forward, rt::HandleId rows,
                         rt::HandleId loc, rt::HandleId stage, rt::HandleId entries, int ldn, int nrhs,
                         const std::vector<rt::HandleId>& panels, const LevelSolveLevels& levels);
// The levels back from a task's arguments (the glue's half of insert_solve_levels).
LevelSolveHeader solve_levels_args(const void* cl_arg, LevelSolveLevels& levels);

// A sweep: single-supernode groups solved one after another in one task (on the GPU: the per-group
// kernels queued on the task's stream, one task instead of one per group and direction). Groups in
// the order given (sources before targets forward, targets before sources backward); each group's
// links name the groups it reads, inside the sweep (solved earlier in it) or outside (submitted
// before it). Forward: x from the stage (init), contributions subtracted, panel solved, ext written.
// Backward: ext gathered from the targets' unknowns, panel solved on x.
struct SweepGroup {
  SolveGroupArgs g;  // g.top: the group's one supernode
  rt::HandleId panels, x, ext;  // ext 0 when g.next == 0
  std::vector<SolveLink> links;
};
struct SolveSweepHeader {  // followed by `count` SolveSweepItem
  std::int32_t forward, nrhs, ldn, count;
};
// A group (kind 0), then its links (kind 1) naming the buffer they read.
struct SolveSweepItem {
  PanelLocation top;
  std::int64_t ext_offset;
  std::int32_t kind, x, panels, ext, c0, c1, next, p0, p1, lc0, ld, pad;
};
const rt::Kernel& supernode_solve_sweep_kernel();
// rows, ext_rows, stage (forward: Read) first, then per group and link one buffer per distinct
// handle, with the access the sweep needs (a handle written in the sweep before it is read there is
// Write, not ReadWrite). Throws when more than kMaxTaskData handles would be needed.
void insert_solve_sweep(rt::TaskRuntime& rt, const rt::TaskOptions& opt, bool forward, rt::HandleId rows,
                        rt::HandleId ext_rows, rt::HandleId stage, int ldn, int nrhs,
                        const std::vector<SweepGroup>& groups);
// Forward step of a group on x (its unknowns): init copies its right-hand side in (x Write, else
// ReadWrite), then the contributions `from` are subtracted, then (solve) the group is solved and its
// external block `ext` (0 for a root) written. A CUDA task needs a group of one supernode.
void insert_solve_forward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SolveGroupArgs& g,
                          const SolveFactorData& f, rt::HandleId x, rt::HandleId ext, bool init, bool solve,
                          const SolveInput& in, const std::vector<SolveLink>& from);
// Backward step of a group: the ancestors' unknowns `to` gathered into its external block (Write for
// the first gathering task, first_gather, else ReadWrite), then (solve) the group solved on x.
void insert_solve_backward(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SolveGroupArgs& g,
                           const SolveFactorData& f, rt::HandleId x, rt::HandleId ext, bool first_gather, bool solve,
                           const std::vector<SolveLink>& to);
// Solved blocks (handle, columns [c0, c1), from row row0 of the handle with leading dimension ld, 0:
// c1 - c0) into the caller's order: collect writes the host array out (ld ldo) through host_perm on a
// CPU worker; store writes the vector handle out (ReadWrite) through the perm handle (perm 0: the
// identity, out in the factor's order), wherever the scheduler puts it.
struct SolveBlockRef {
  rt::HandleId x;
  std::int32_t c0, c1;
  std::int32_t row0 = 0, ld = 0;
};
void insert_solve_collect(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<SolveBlockRef>& blocks,
                          double* out, int ldo, const std::int32_t* host_perm, int nrhs);
void insert_solve_store(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const std::vector<SolveBlockRef>& blocks,
                        rt::HandleId out, int ldo, rt::HandleId perm, int nrhs);
// stage = in permuted into the factor's order (in: n x nrhs, ld ldi, Read; stage Write).
void insert_solve_permute(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId in, int ldi,
                          rt::HandleId perm, rt::HandleId stage, int n, int nrhs);
// A group's panels (count doubles, Write) zeroed and filled with entries [entry_offset, + entries) of
// the values / positions handles (positions relative to the group).
void insert_supernode_assemble(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId group,
                               rt::HandleId values, rt::HandleId positions, const AssembleArgs& a);

}  // namespace hetsparse::codelets
