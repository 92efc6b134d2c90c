// Argument checks shared by the CPU and CUDA supernode kernels (internal to kernels/supernode).
// Shape checks use only sizes and pointers, so the CUDA kernels run them too; the row-list checks
// read the lists and are for host pointers, i.e. the CPU kernels. All throw InvalidArgument with
// the routine and the offending argument named.
#pragma once
#include <cstdint>

#include "kernels/supernode/supernode.hpp"

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

// nrhs >= 0, ldx >= first_col + nrows (a lower bound of the largest row + 1), x and work present.
void check_solve_shape(const char* routine, const ConstPanelRef& p, const double* x, int nrhs, int ldx,
                       const double* work);
// Host rows: ldx above the largest row, so that every x entry addressed exists.
void check_solve_rows(const char* routine, const ConstPanelRef& p, int ldx);

}  // namespace hetsparse::kernels::supernode_detail
