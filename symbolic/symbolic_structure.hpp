// Row structure of every supernode panel of L.
#pragma once
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// The row indices of all panels, laid out by Supernode::row_begin/nrows: for each supernode its
// ncols diagonal-block rows, then, increasing, the rows below it, which are the union of A's
// pattern in its columns and its children's structures (rows past its last column). g is A's graph
// in the factor's (final) numbering; supernodes must be in postorder with nrows consistent with
// that union (as fundamental_supernodes/amalgamate produce them).
std::vector<index_t> supernode_rows(const PermutedGraph& g, const std::vector<Supernode>& supernodes,
                                    const std::vector<index_t>& col_to_supernode);

// The same rows from the graph of supervariables (supervariables.hpp), whose vertex k stands for
// the factor's columns first[k] .. first[k] + size[k] - 1 (first increasing in k): each stored
// entry of that graph does the work of size^2 entries of A's.
std::vector<index_t> supernode_rows(const PermutedGraph& blocks, const std::vector<index_t>& first,
                                    const std::vector<index_t>& size, const std::vector<Supernode>& supernodes,
                                    const std::vector<index_t>& col_to_supernode);

}  // namespace hetsparse::cholesky
