// Argument checks of the supernode kernels. Every check runs before anything is written, so a
// rejected call leaves its outputs as they were.
#include "kernels/supernode/supernode_checks.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::kernels::supernode_detail {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

[[noreturn]] void fail(const char* routine, const std::string& what) {
  throw InvalidArgument(std::string(routine) + ": " + what);
}

std::string describe(const char* name, const ConstPanelRef& p) {
  return std::string(name) + " (nrows " + std::to_string(p.nrows) + ", ncols " + std::to_string(p.ncols) +
         ", first_col " + std::to_string(p.first_col) + ")";
}

}  // namespace

void check_panel_shape(const char* routine, const char* name, const ConstPanelRef& p, bool needs_rows) {
  if (p.ncols < 1) fail(routine, describe(name, p) + " has no columns");
  if (p.nrows < p.ncols) fail(routine, describe(name, p) + " has fewer rows than columns");
  if (p.first_col < 0) fail(routine, describe(name, p) + " starts at a negative column");
  if (static_cast<std::int64_t>(p.first_col) + p.nrows - 1 > kInt32Max) {
    fail(routine, describe(name, p) + " has rows beyond the int32 range");
  }
  // Kernels index panels with int32 offsets; supernodes are orders of magnitude below this.
  if (static_cast<std::int64_t>(p.nrows) * p.ncols > kInt32Max) {
    fail(routine, describe(name, p) + " holds 2^31 entries or more");
  }
  if (p.values == nullptr) fail(routine, describe(name, p) + " has no values");
  if (needs_rows && p.rows == nullptr) fail(routine, describe(name, p) + " has no row list");
}

void check_update_shape(const char* routine, const ConstPanelRef& d, UpdateRange r, const ConstPanelRef& t,
                        const void* work) {
  check_panel_shape(routine, "descendant", d, true);
  check_panel_shape(routine, "target", t, true);
  if (static_cast<std::int64_t>(d.first_col) + d.ncols > t.first_col) {
    fail(routine, describe("descendant", d) + " does not precede " + describe("target", t));
  }
  const std::string range = "range [" + std::to_string(r.r0) + ", " + std::to_string(r.r1) + ")";
  if (r.r0 < d.ncols || r.r1 < r.r0 || r.r1 > d.nrows) {
    fail(routine, range + " is not within the rows below the descendant's diagonal block [" +
                      std::to_string(d.ncols) + ", " + std::to_string(d.nrows) + "]");
  }
  if (r.r1 - r.r0 > t.ncols) fail(routine, range + " spans more rows than the target has columns");
  if (d.nrows - r.r0 > t.nrows) fail(routine, range + " leaves more rows than the target has");
  if (r.r1 > r.r0 && work == nullptr) fail(routine, "no work buffer");
}

void check_panel_rows(const char* routine, const char* name, const ConstPanelRef& p) {
  for (std::int32_t c = 0; c < p.ncols; ++c) {
    if (p.rows[c] != p.first_col + c) {
      fail(routine, describe(name, p) + ": rows[" + std::to_string(c) + "] = " + std::to_string(p.rows[c]) +
                        " is not its own column " + std::to_string(p.first_col + c));
    }
  }
  for (std::int32_t i = p.ncols; i < p.nrows; ++i) {
    if (p.rows[i] <= p.rows[i - 1]) {
      fail(routine, describe(name, p) + ": rows[" + std::to_string(i) + "] = " + std::to_string(p.rows[i]) +
                        " does not increase");
    }
  }
}

void check_update_rows(const char* routine, const ConstPanelRef& d, UpdateRange r, const ConstPanelRef& t) {
  const UpdateRange expected = update_range(d.rows, d.nrows, t.first_col, t.ncols);
  if (expected.r0 != r.r0 || expected.r1 != r.r1) {
    fail(routine, "range [" + std::to_string(r.r0) + ", " + std::to_string(r.r1) +
                      ") does not match the rows, which give [" + std::to_string(expected.r0) + ", " +
                      std::to_string(expected.r1) + ")");
  }
  // Rows in [r0, r1) are t's own columns by the range; the rest must be in t's list below them.
  const std::int32_t* cursor = t.rows + t.ncols;
  const std::int32_t* const end = t.rows + t.nrows;
  for (std::int32_t i = r.r1; i < d.nrows; ++i) {
    cursor = std::lower_bound(cursor, end, d.rows[i]);
    if (cursor == end || *cursor != d.rows[i]) {
      fail(routine, "row " + std::to_string(d.rows[i]) + " of " + describe("descendant", d) + " is not in " +
                        describe("target", t) + " (structure theorem violated)");
    }
  }
}

void check_panel_solve(const char* routine, const ConstPanelRef& p, const double* x, int ldx, const double* below,
                       int ldb, int nrhs) {
  check_panel_shape(routine, "panel", p, false);
  if (nrhs < 0) fail(routine, "nrhs = " + std::to_string(nrhs) + " is negative");
  const int rows_below = p.nrows - p.ncols;
  if (ldx < p.ncols) fail(routine, "ldx = " + std::to_string(ldx) + " is below the " + describe("panel", p) + "'s ncols");
  if (ldb < std::max(1, rows_below)) {
    fail(routine, "ldb = " + std::to_string(ldb) + " is below the " + std::to_string(rows_below) + " rows below");
  }
  if (nrhs > 0 && x == nullptr) fail(routine, "no x");
  if (nrhs > 0 && rows_below > 0 && below == nullptr) fail(routine, "no block for the rows below");
}

void check_diagonal_solve(const char* routine, const double* D, int ld, int nc, const double* x, int ldx, int nrhs) {
  if (nc < 0 || ld < std::max(1, nc) || ldx < std::max(1, nc) || nrhs < 0 || (nc > 0 && nrhs > 0 && (!D || !x)))
    fail(routine, "nc = " + std::to_string(nc) + ", ld = " + std::to_string(ld) + ", ldx = " + std::to_string(ldx) +
                      ", nrhs = " + std::to_string(nrhs) + " or a null block");
}

void check_solve_moves(const char* routine, const SolveMove* moves, int count, int nrhs) {
  if (count < 0 || nrhs < 0) fail(routine, "count = " + std::to_string(count) + ", nrhs = " + std::to_string(nrhs));
  if (count > 0 && moves == nullptr) fail(routine, "no moves");
  for (int u = 0; u < count; ++u) {
    const SolveMove& m = moves[u];
    const std::string which = "move " + std::to_string(u);
    if (m.p0 < 0 || m.p1 < m.p0 || m.p1 > m.ldc)
      fail(routine, which + ": positions [" + std::to_string(m.p0) + ", " + std::to_string(m.p1) +
                        ") are not within ldc = " + std::to_string(m.ldc));
    if (m.block_rows < 0 || m.ldb < std::max(1, m.block_rows))
      fail(routine, which + ": ldb = " + std::to_string(m.ldb) + " is below the block's " +
                        std::to_string(m.block_rows) + " rows");
    if (nrhs > 0 && m.p1 > m.p0 && (m.compact == nullptr || m.rows == nullptr || m.block == nullptr))
      fail(routine, which + ": a null pointer");
  }
}

}  // namespace hetsparse::kernels::supernode_detail
