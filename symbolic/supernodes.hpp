// Supernode partitions of L's columns: the fundamental supernodes, and the coarser partition
// that relaxed amalgamation makes of them. Both return supernodes in column order (children
// before parents) with first_col, ncols, nrows, parent and row_begin (the prefix sum of nrows)
// set; SymbolicFactor::rows is filled afterwards by supernode_rows().
#pragma once
#include <array>
#include <vector>

#include "symbolic/analyze_options.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// Maximal runs of columns j, j+1, ... where each column is the only child of the next and has
// exactly one more entry (so the columns share one structure below the diagonal block): Liu, Ng
// and Peyton's fundamental supernodes. parent: an elimination tree with parent[j] > j; counts:
// its column counts (InvalidArgument when they cannot be: a count outside [1, n - j], or a
// count of 1 exactly at the roots violated). nrows = counts[first_col].
std::vector<Supernode> fundamental_supernodes(const std::vector<index_t>& parent, const std::vector<offset_t>& counts);

// Relaxed amalgamation (the swCholesky/CHOLMOD rule, see AmalgamationPair): from the last supernode
// down, each supernode is merged into the group of supernodes that follows it when its parent is
// in that group (so the columns stay contiguous) and the merged supernode, with ns columns and a
// fraction z of explicit zeros among its stored entries, satisfies ns <= nrelax and z <= zrelax
// for at least one of the four pairs. The merged row structure is the union of the parts', so
// L's structure only grows. `fundamental` is fundamental_supernodes()'s result (panels without
// explicit zeros). InvalidArgument for a negative or NaN bound.
std::vector<Supernode> amalgamate(const std::vector<Supernode>& fundamental,
                                  const std::array<AmalgamationPair, 4>& pairs);

// col_to_supernode[j] = the supernode that holds column j.
std::vector<index_t> column_to_supernode(const std::vector<Supernode>& supernodes, index_t n);

}  // namespace hetsparse::cholesky
