// Argument checks shared by the CPU and CUDA supernode kernels (internal to kernels/supernode).
// Shape checks use only sizes and pointers, so the CUDA kernels run them too; the row-list checks
// read the lists and are for host pointers, i.e. the CPU kernels. All throw InvalidArgument with
// the routine and the offending argument named.
#pragma once
#include <cstdint>

#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels::supernode_detail {

// ncols >= 1, nrows >= ncols, first_col >= 0, rows up to first_col + nrows - 1 fit int32, fewer
// than 2^31 entries, non-null values (and rows when `needs_rows`).
void check_panel_shape(const char* routine, const char* name, const ConstPanelRef& p, bool needs_rows);

// d before t, d.ncols <= r0 <= r1 <= d.nrows, k <= t.ncols, m <= t.nrows, work present when m*k > 0.
// Implies m * k <= t.nrows * t.ncols < 2^31.
void check_update_shape(const char* routine, const ConstPanelRef& d, UpdateRange r, const ConstPanelRef& t,
                        const void* work);

// Host row list: rows[c] == first_col + c for c < ncols, strictly increasing after that.
void check_panel_rows(const char* routine, const char* name, const ConstPanelRef& p);

// Host row lists, both already checked with check_panel_rows: r is update_range of d against t, and
// every row of d from r1 on is in t's list below its own columns (the structure theorem).
void check_update_rows(const char* routine, const ConstPanelRef& d, UpdateRange r, const ConstPanelRef& t);

// A panel solve (supernode_solve.hpp): nrhs >= 0, ldx >= ncols, ldb >= max(1, nrows - ncols), x and
// below present when there is something to solve. Only sizes and pointers: the CUDA kernels run it too.
void check_panel_solve(const char* routine, const ConstPanelRef& p, const double* x, int ldx, const double* below,
                       int ldb, int nrhs);
// A diagonal-block solve (supernode_diagonal_*_cuda, level_wide_*_cuda): nc >= 0, ld and ldx >=
// max(1, nc), nrhs >= 0, D and x present when there is something to solve.
void check_diagonal_solve(const char* routine, const double* D, int ld, int nc, const double* x, int ldx, int nrhs);
// Moves between compact blocks and blocks of unknowns: 0 <= p0 <= p1 <= ldc, ldb >= block_rows,
// pointers present where entries move; nrhs >= 0.
void check_solve_moves(const char* routine, const SolveMove* moves, int count, int nrhs);

}  // namespace hetsparse::kernels::supernode_detail
