// Supernodal row structure by row subtrees (as CHOLMOD's super_symbolic). The union in the header
// unrolls to: row k lies below supernode s exactly when s is on the path of the supernodal tree
// from the supernode of some column i < k with A(k, i) != 0 up to (not including) k's own
// supernode. Walking rows k in increasing order and appending k to each supernode on those paths
// emits every panel's rows already sorted, touches each stored row index once (plus one step per
// entry of A), and needs no per-supernode merge or sort. A block of columns with one structure (a
// supervariable) walks its paths once and appends all its rows.
#include "symbolic/symbolic_structure.hpp"

#include <stdexcept>
#include <string>

namespace hetsparse::cholesky {
namespace {

// Blocks: first(k) and size(k) of vertex k of g, first(k) increasing in k.
template <class First, class Size>
std::vector<index_t> rows_by_blocks(const PermutedGraph& g, First first, Size size,
                                    const std::vector<Supernode>& supernodes,
                                    const std::vector<index_t>& col_to_supernode) {
  const offset_t total = supernodes.empty() ? 0 : supernodes.back().row_begin + supernodes.back().nrows;
  std::vector<index_t> rows(static_cast<std::size_t>(total));
  std::vector<offset_t> next(supernodes.size());  // where the next row of each panel goes
  for (std::size_t s = 0; s < supernodes.size(); ++s) {
    const Supernode& sn = supernodes[s];
    for (index_t c = 0; c < sn.ncols; ++c) rows[sn.row_begin + c] = sn.first_col + c;
    next[s] = sn.row_begin + sn.ncols;
  }

  // Supernodes or counts that do not describe this graph's factor would send rows past a panel
  // or off the tree: a broken precondition, reported rather than written out of bounds.
  const auto inconsistent = [](index_t s, const char* what) {
    return std::logic_error("supernode_rows: supernode " + std::to_string(s) + " " + what +
                            " (supernodes do not match the graph)");
  };
  std::vector<index_t> visited_by(supernodes.size(), -1);  // == k: already holds block k's rows
  for (index_t k = 0; k < g.n(); ++k) {
    const index_t row = first(k), count = size(k);
    const index_t own = col_to_supernode[row];
    g.for_each_neighbor(k, [&](index_t i) {
      if (i >= k) return;
      for (index_t s = col_to_supernode[first(i)]; s != own; s = supernodes[s].parent) {
        if (s == -1) throw inconsistent(col_to_supernode[first(i)], "is not a descendant of a later row's supernode");
        if (visited_by[s] == k) break;  // the rest of the path already has these rows
        if (next[s] + count > supernodes[s].row_begin + supernodes[s].nrows) throw inconsistent(s, "overflows its nrows");
        visited_by[s] = k;
        for (index_t r = 0; r < count; ++r) rows[next[s]++] = row + r;
      }
    });
  }
  for (std::size_t s = 0; s < supernodes.size(); ++s) {
    if (next[s] != supernodes[s].row_begin + supernodes[s].nrows) {
      throw inconsistent(static_cast<index_t>(s), "received fewer rows than its nrows");
    }
  }
  return rows;
}

}  // namespace

std::vector<index_t> supernode_rows(const PermutedGraph& g, const std::vector<Supernode>& supernodes,
                                    const std::vector<index_t>& col_to_supernode) {
  return rows_by_blocks(
      g, [](index_t k) { return k; }, [](index_t) { return index_t{1}; }, supernodes, col_to_supernode);
}

std::vector<index_t> supernode_rows(const PermutedGraph& blocks, const std::vector<index_t>& first,
                                    const std::vector<index_t>& size, const std::vector<Supernode>& supernodes,
                                    const std::vector<index_t>& col_to_supernode) {
  return rows_by_blocks(
      blocks, [&first](index_t k) { return first[k]; }, [&size](index_t k) { return size[k]; }, supernodes,
      col_to_supernode);
}

}  // namespace hetsparse::cholesky
