#include "symbolic/supernode_split.hpp"

#include <algorithm>
#include <utility>

#include "symbolic/supernodes.hpp"

namespace hetsparse::cholesky {

void split_wide_supernodes(SymbolicFactor& f, index_t max_cols) {
  if (max_cols <= 0) return;
  const bool any = std::any_of(f.supernodes.begin(), f.supernodes.end(),
                               [max_cols](const Supernode& s) { return s.ncols > max_cols; });
  if (!any) return;
  std::vector<Supernode> pieces;
  pieces.reserve(f.supernodes.size());
  std::vector<index_t> rows;
  for (const Supernode& s : f.supernodes) {
    const index_t count = (s.ncols + max_cols - 1) / max_cols;
    for (index_t i = 0; i < count; ++i) {
      // Near-equal widths: piece i starts at column floor(i * ncols / count) of s.
      const auto begin = static_cast<index_t>(static_cast<offset_t>(i) * s.ncols / count);
      const auto end = static_cast<index_t>(static_cast<offset_t>(i + 1) * s.ncols / count);
      const auto first = f.rows.begin() + s.row_begin + begin, last = f.rows.begin() + s.row_begin + s.nrows;
      pieces.push_back(Supernode{s.first_col + begin, end - begin, static_cast<offset_t>(rows.size()),
                                 s.nrows - begin, -1});
      rows.insert(rows.end(), first, last);
    }
  }
  f.col_to_supernode = column_to_supernode(pieces, f.n);
  for (Supernode& p : pieces)
    if (p.nrows > p.ncols) p.parent = f.col_to_supernode[rows[p.row_begin + p.ncols]];
  f.supernodes = std::move(pieces);
  f.rows = std::move(rows);
}

}  // namespace hetsparse::cholesky
