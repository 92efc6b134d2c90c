// The solve sweeps over a group of supernodes on one CPU worker (a leaf subtree, or one supernode of
// the top of the tree): each panel through supernode_panel_{forward,backward}_cpu, its rows below
// moved between the compact work block and either the group's own unknowns (rows inside its
// columns) or the external block (rows of its ancestors).
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

[[noreturn]] void fail(const char* routine, const std::string& what) {
  throw InvalidArgument(std::string(routine) + ": " + what);
}

void check_group(const char* routine, const SolveGroup& g, const double* x, int ldx, const double* ext_block,
                 int ld_ext, int nrhs, const double* work) {
  if (g.first < 0 || g.last <= g.first || g.c1 < g.c0 || g.next < 0 || nrhs < 0)
    fail(routine, "supernodes [" + std::to_string(g.first) + ", " + std::to_string(g.last) + "), columns [" +
                      std::to_string(g.c0) + ", " + std::to_string(g.c1) + "), " + std::to_string(g.next) +
                      " external rows, nrhs " + std::to_string(nrhs));
  if (!g.loc || !g.rows || !g.values || (g.next > 0 && !g.ext)) fail(routine, "the group lacks an array");
  if (ldx < std::max(1, g.c1 - g.c0) || ld_ext < std::max(1, g.next))
    fail(routine, "ldx = " + std::to_string(ldx) + " or ld of the external block = " + std::to_string(ld_ext) +
                      " is below its rows");
  if (nrhs > 0 && (!x || !work || (g.next > 0 && !ext_block))) fail(routine, "a null block");
}

ConstPanelRef panel(const char* routine, const SolveGroup& g, std::int32_t s) {
  const PanelLocation& l = g.loc[s];
  if (l.first_col < g.c0 || std::int64_t{l.first_col} + l.ncols > g.c1 || l.nrows < l.ncols)
    fail(routine, "supernode " + std::to_string(s) + " (columns from " + std::to_string(l.first_col) +
                      ") lies outside the group's columns");
  return {g.values + (l.value_offset - g.loc[g.first].value_offset), g.rows + l.row_begin, l.nrows, l.ncols,
          l.first_col};
}

// Calls fn(i, slot) for each row i below p's diagonal block: slot >= 0 is the row's place in the
// group's unknowns, slot < 0 encodes -1 - its place in ext. Rows increase, so ext is searched
// from the last place found.
template <class Fn>
void for_rows_below(const char* routine, const SolveGroup& g, const ConstPanelRef& p, Fn&& fn) {
  const std::int32_t* cursor = g.ext;
  const std::int32_t* const end = g.ext + g.next;
  for (std::int32_t i = 0; i < p.nrows - p.ncols; ++i) {
    const std::int32_t row = p.rows[p.ncols + i];
    if (row < g.c1) {
      if (row < g.c0) fail(routine, "row " + std::to_string(row) + " precedes the group's columns");
      fn(i, row - g.c0);
      continue;
    }
    cursor = std::lower_bound(cursor, end, row);
    if (cursor == end || *cursor != row)
      fail(routine, "row " + std::to_string(row) + " of supernode " + std::to_string(p.first_col) +
                        " is not among the group's external rows");
    fn(i, -1 - static_cast<std::int32_t>(cursor - g.ext));
  }
}

std::size_t at(std::int64_t i, std::int64_t r, std::int64_t ld) { return static_cast<std::size_t>(i + r * ld); }

}  // namespace

std::size_t supernode_group_solve_work_doubles(const SolveGroup& g, int nrhs) {
  std::size_t most = 1;
  for (std::int32_t s = g.first; s < g.last; ++s)
    most = std::max(most, static_cast<std::size_t>(g.loc[s].nrows - g.loc[s].ncols) * static_cast<std::size_t>(nrhs));
  return most;
}

void supernode_group_forward_cpu(const SolveGroup& g, double* x, int ldx, double* c, int ldc, int nrhs, double* work) {
  constexpr const char* routine = "supernode_group_forward_cpu";
  check_group(routine, g, x, ldx, c, ldc, nrhs, work);
  for (int r = 0; r < nrhs; ++r) std::fill(c + at(0, r, ldc), c + at(g.next, r, ldc), 0.0);
  for (std::int32_t s = g.first; s < g.last; ++s) {
    const ConstPanelRef p = panel(routine, g, s);
    const int m = p.nrows - p.ncols;
    supernode_panel_forward_cpu(p, x + (p.first_col - g.c0), ldx, work, std::max(1, m), nrhs);
    for_rows_below(routine, g, p, [&](std::int32_t i, std::int32_t slot) {
      for (int r = 0; r < nrhs; ++r) {
        if (slot >= 0) {
          x[at(slot, r, ldx)] -= work[at(i, r, m)];
        } else {
          c[at(-1 - slot, r, ldc)] += work[at(i, r, m)];
        }
      }
    });
  }
}

void supernode_group_backward_cpu(const SolveGroup& g, double* x, int ldx, const double* w, int ldw, int nrhs,
                                  double* work) {
  constexpr const char* routine = "supernode_group_backward_cpu";
  check_group(routine, g, x, ldx, w, ldw, nrhs, work);
  for (std::int32_t s = g.last - 1; s >= g.first; --s) {
    const ConstPanelRef p = panel(routine, g, s);
    const int m = p.nrows - p.ncols;
    for_rows_below(routine, g, p, [&](std::int32_t i, std::int32_t slot) {
      for (int r = 0; r < nrhs; ++r)
        work[at(i, r, m)] = slot >= 0 ? x[at(slot, r, ldx)] : w[at(-1 - slot, r, ldw)];
    });
    supernode_panel_backward_cpu(p, x + (p.first_col - g.c0), ldx, work, std::max(1, m), nrhs);
  }
}

}  // namespace hetsparse::kernels
