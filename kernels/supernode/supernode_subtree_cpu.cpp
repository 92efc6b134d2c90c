// Right-looking factorization of whole leaf subtrees on one core. A subtree is one task: its
// supernodes are small, and one task per supernode (plus a StarPU handle per panel) cost more than
// the arithmetic (see docs/benchmarks.md, "registration cost").
#include <algorithm>
#include <cmath>

#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_narrow_cpu.hpp"
#include "kernels/supernode/supernode_update_detail.hpp"

namespace hetsparse::kernels {
namespace {

// A run of n 1 x 1 panels, nothing below them: their square roots in one loop, without a panel's
// bookkeeping each (a diagonal matrix is all such panels), up to the first pivot <= 0 or NaN.
// Returns how many were factored.
std::int32_t unit_panels(double* v, std::int32_t n, int* info) {
  std::int32_t good = 0;
  while (good < n && v[good] > 0.0) ++good;
  for (std::int32_t k = 0; k < good; ++k) v[k] = std::sqrt(v[k]);
  std::fill(info, info + good, 0);
  return good;
}

}  // namespace

std::size_t supernode_subtree_work_doubles(const PanelLocation* loc, std::int32_t first, std::int32_t last) {
  // An update from s has m <= nrows - ncols rows and k <= m columns.
  std::size_t most = 0;
  for (std::int32_t s = first; s < last; ++s) {
    const auto below = static_cast<std::size_t>(loc[s].nrows - loc[s].ncols);
    most = std::max(most, below * below);
  }
  return most;
}

std::int32_t supernode_subtree_cpu(const PanelLocation* loc, const std::int32_t* rows,
                                   const std::int32_t* col_to_supernode, std::int32_t first, std::int32_t last,
                                   double* values, int* info, double* work) {
  const std::int64_t base = first < last ? loc[first].value_offset : 0;
  auto panel = [&](std::int32_t s) {
    const PanelLocation& l = loc[s];
    return PanelRef{values + (l.value_offset - base), rows + l.row_begin, l.nrows, l.ncols, l.first_col};
  };
  for (std::int32_t s = first; s < last; ++s) {
    if (loc[s].nrows == 1) {  // 1 x 1 panels (a diagonal part of A) stored back to back
      std::int32_t e = s + 1;
      while (e < last && loc[e].nrows == 1 && loc[e].value_offset == loc[e - 1].value_offset + 1) ++e;
      if (e - s > 1) {
        s += unit_panels(values + (loc[s].value_offset - base), e - s, info + (s - first));
        if (s == e) {  // the whole run
          --s;
          continue;
        }  // else s is the run's first failing pivot: the path below reports it
      }
    }
    const PanelRef d = panel(s);
    // One-column panels (a diagonal matrix has nothing else) without a call and its checks.
    const bool one_column = d.ncols == 1 && d.nrows >= 1 && d.values;
    info[s - first] = one_column ? supernode_detail::factor_narrow(d.values, d.nrows, 1) : supernode_factor_cpu(d);
    if (info[s - first] != 0) return s - first + 1;
    // Rows below the diagonal block are sorted, so their supernodes come in increasing order: the
    // first one outside the range ends the updates this task owns.
    std::int32_t p = d.ncols;
    while (p < d.nrows) {
      const std::int32_t t = col_to_supernode[d.rows[p]];
      if (t >= last) break;
      const PanelRef target = panel(t);
      std::int32_t q = p;
      while (q < d.nrows && d.rows[q] < target.first_col + target.ncols) ++q;
      supernode_detail::apply_update(as_const(d), {p, q}, target, work);
      p = q;
    }
  }
  return last - first;
}

}  // namespace hetsparse::kernels
