// Kernels of the supernodal triangular solves L Y = B and L^T X = Y as a task graph (planners/
// supernodal_solve.hpp). The unknowns are cut into blocks that follow the factor's groups (a leaf
// subtree's columns, a top supernode's columns); a group's rows outside its columns, its "external
// rows", carry what it sends to its ancestors (forward) and what it reads from them (backward) as a
// compact block of |ext| rows. Blocks are column-major, nrhs columns. CPU kernels take host pointers,
// CUDA kernels device pointers and run asynchronously on the stream they are given (cuBLAS handles
// are bound to it for the call and given back as found).
#pragma once
#include <cstddef>
#include <cstdint>

#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels {

// One supernode with its own unknowns x (ncols x nrhs, ld ldx) and its rows below the diagonal
// block as a dense block `below` ((nrows - ncols) x nrhs, ld ldb, in the panel's row order):
//   forward:  x = L11^-1 x;  below = L21 x                    (below is overwritten)
//   backward: x = L11^-T (x - L21^T below)
// Level-2 BLAS for one right-hand side, TRSM / GEMM for more. Only values, nrows and ncols are read.
void supernode_panel_forward_cpu(ConstPanelRef p, double* x, int ldx, double* below, int ldb, int nrhs);
void supernode_panel_backward_cpu(ConstPanelRef p, double* x, int ldx, const double* below, int ldb, int nrhs);
// The CUDA ones solve wide diagonal blocks in column blocks of kSolveBlock (cuBLAS's single-call
// TRSV walks a 10^4-wide triangle on one block of threads).
inline constexpr int kSolveBlock = 256;
void supernode_panel_forward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int ldx,
                                  double* below, int ldb, int nrhs);
void supernode_panel_backward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int ldx,
                                   const double* below, int ldb, int nrhs);
// Their diagonal-block halves: x = D^-1 x (forward) or D^-T x (backward) for the nc x nc lower
// triangle at D (leading dimension ld), in column blocks of kSolveBlock.
void supernode_diagonal_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc,
                                     double* x, int ldx, int nrhs);
void supernode_diagonal_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc,
                                      double* x, int ldx, int nrhs);

// Positions [p0, p1) of a compact block whose rows are rows[0 ..] (global row numbers), against a
// block of unknowns holding global rows [c0, c0 + block rows) with leading dimension ldb:
//   gather:   compact[p] = block[rows[p] - c0]     (backward: an ancestor's solved unknowns)
//   subtract: block[rows[p] - c0] -= compact[p]    (forward: a descendant's contribution)
// for every right-hand side (compact has leading dimension ldc). Rows outside the block are a
// planner error: the CPU kernels throw InvalidArgument, the CUDA ones skip them.
struct SolveMove {
  double* compact;
  const std::int32_t* rows;
  double* block;
  std::int32_t p0, p1, ldc, c0, ldb, block_rows;
};
void supernode_solve_gather_cpu(const SolveMove* moves, int count, int nrhs);
void supernode_solve_subtract_cpu(const SolveMove* moves, int count, int nrhs);
void supernode_solve_gather_cuda(cudaStream_t stream, const SolveMove* moves, int count, int nrhs);
void supernode_solve_subtract_cuda(cudaStream_t stream, const SolveMove* moves, int count, int nrhs);

// out[i + r * ldo] = in[perm[i] + r * ldi] for i < n (perm null: the identity), every right-hand side.
void supernode_solve_permute_cpu(const double* in, int ldi, const std::int32_t* perm, int n, int nrhs, double* out,
                                 int ldo);
void supernode_solve_permute_cuda(cudaStream_t stream, const double* in, int ldi, const std::int32_t* perm, int n,
                                  int nrhs, double* out, int ldo);
// Blocks of solved unknowns back to the caller's order: out[perm[c0 + i] + r * ldo] = x[i + r * ld]
// (ld 0: c1 - c0; perm null: the identity, the factor's order).
struct SolveBlock {
  const double* x;
  std::int32_t c0, c1;
  std::int32_t ld = 0;
};
void supernode_solve_store_cpu(const SolveBlock* blocks, int count, const std::int32_t* perm, int nrhs, double* out,
                               int ldo);
void supernode_solve_store_cuda(cudaStream_t stream, const SolveBlock* blocks, int count, const std::int32_t* perm,
                                int nrhs, double* out, int ldo);

// A group of supernodes [first, last) (whole subtrees in postorder, or one supernode) on the CPU:
// columns [c0, c1), panels at values + (loc[s].value_offset - loc[first].value_offset), row lists in
// rows, and its sorted external rows ext[0 .. next) (every row >= c1 of its panels).
struct SolveGroup {
  const PanelLocation* loc;
  const std::int32_t* rows;
  const double* values;
  const std::int32_t* ext;
  std::int32_t first, last, c0, c1, next, pad;
};
// Forward over the group in postorder on its unknowns x ((c1 - c0) x nrhs, ld ldx), after the
// contributions from outside were subtracted: c (next x nrhs, ld ldc) receives what its rows send to
// the external rows (overwritten). Backward in reverse postorder, w holding the solved external
// unknowns. work: supernode_group_solve_work_doubles(g, nrhs) doubles.
std::size_t supernode_group_solve_work_doubles(const SolveGroup& g, int nrhs);
void supernode_group_forward_cpu(const SolveGroup& g, double* x, int ldx, double* c, int ldc, int nrhs, double* work);
void supernode_group_backward_cpu(const SolveGroup& g, double* x, int ldx, const double* w, int ldw, int nrhs,
                                  double* work);

// The whole solve level by level, in place on the stage (the right-hand side in the factor's order,
// n x nrhs, ld ldn): forward, each supernode's unknowns (the stage's rows of its columns) are solved
// with its diagonal block and what its rows below send is subtracted from the stage's rows there
// (its ancestors'); backward, its unknowns take off what the stage's rows below send back (already
// solved) and are solved with the transposed diagonal block. The supernodes of one level are
// independent (none is an ancestor of another), so a level runs in parallel; forward goes up the
// levels, backward down. On the GPU the stage's rows are updated with atomic adds, so the summation
// order (and the last bits) may change from run to run.
struct LevelSolveEntry {
  std::int64_t offset;      // the panel's first value within its group's panels
  std::int32_t supernode;   // index into loc
  std::int32_t group;       // index into LevelSolvePanels::values
  std::int32_t tile_begin;  // block and wide classes: its first tile of rows below within its level
  std::int32_t pad;
};
// Groups one call may take: their panel pointers travel as a kernel parameter (under 4 KB).
inline constexpr int kLevelSolveMaxGroups = 240;
struct LevelSolvePanels {
  const double* values[kLevelSolveMaxGroups];
};
// The rows below a supernode of the block and wide classes go in tiles of kLevelTileRows rows by
// kLevelTileCols columns, many thread blocks per supernode.
inline constexpr int kLevelTileRows = 128;
inline constexpr int kLevelTileCols = 32;
inline std::int32_t level_solve_tiles(const PanelLocation& l) {
  const std::int32_t m = l.nrows - l.ncols;
  return (m + kLevelTileRows - 1) / kLevelTileRows * ((l.ncols + kLevelTileCols - 1) / kLevelTileCols);
}
// A supernode of the wide class, whose diagonal block cuBLAS solves (supernode_diagonal_*_cuda).
struct LevelSolveWide {
  std::int64_t offset;
  std::int32_t group, nrows, ncols, first_col;
};
// Level l is entries [segments[3l], segments[3l + 3]): the warp class [3l, 3l + 1) (a warp solves
// each supernode whole), the block class [3l + 1, 3l + 2) (a thread block solves each diagonal
// block) and the wide class [3l + 2, 3l + 3) (cuBLAS does, wide[] in the same order); the rows below
// of both are tiles, tiles[l] of them (tile_begin counts from the level's first block-class entry).
// The CPU ones are the serial reference (supernode_panel_{forward,backward}_cpu per entry, classes
// ignored); the CUDA ones take device entries, loc, rows and stage, the rest from the host.
struct LevelSolveSchedule {
  const LevelSolveEntry* entries;
  const std::int32_t* segments;  // 3 * levels + 1
  const std::int32_t* tiles;     // levels
  const LevelSolveWide* wide;    // segments' wide classes, level after level
  int levels;
};
void supernode_levels_forward_cpu(const LevelSolvePanels& panels, const LevelSolveSchedule& s,
                                  const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn, int nrhs);
void supernode_levels_backward_cpu(const LevelSolvePanels& panels, const LevelSolveSchedule& s,
                                   const PanelLocation* loc, const std::int32_t* rows, double* stage, int ldn,
                                   int nrhs);
void supernode_levels_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                   const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                   double* stage, int ldn, int nrhs);
void supernode_levels_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const LevelSolvePanels& panels,
                                    const LevelSolveSchedule& s, const PanelLocation* loc, const std::int32_t* rows,
                                    double* stage, int ldn, int nrhs);

}  // namespace hetsparse::kernels
