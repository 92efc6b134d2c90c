// The elimination tree, column counts and panel rows of A's factor computed on the graph of A's
// supervariables, for orders that keep each supervariable's members together (the parallel METIS
// ordering's expand_order). Members stay indistinguishable in L: they form a chain of the
// elimination tree whose column counts fall by one, and every supernode holds whole supervariables.
// The graph of a 3-dof elasticity matrix's supervariables has a third of its vertices and a ninth
// of its entries.
#pragma once
#include <vector>

#include "symbolic/supervariables.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// Elimination tree of s.graph ordered by `compressed` (supervariable eliminated k-th), in that order.
std::vector<index_t> supervariable_etree(const Supervariables& s, const std::vector<index_t>& compressed);

struct ExpandedTree {
  std::vector<index_t> parent;   // what elimination_tree() gives on A's graph in the expanded order
  std::vector<offset_t> counts;  // what column_counts() gives there
};

// The factor's tree and counts in the numbering of expand_order(s, compressed), from the
// supervariables' tree (supervariable_etree) and their counts weighted by member counts.
ExpandedTree expand_supervariable_tree(const Supervariables& s, const std::vector<index_t>& compressed,
                                       const std::vector<index_t>& compressed_parent);

// supernode_rows() for the final permutation iperm (new = iperm[old]), which must keep each
// supervariable's members together and increasing (std::logic_error otherwise), as the postorder
// of an expanded tree does.
std::vector<index_t> supervariable_supernode_rows(const Supervariables& s, const std::vector<index_t>& iperm,
                                                  const std::vector<Supernode>& supernodes,
                                                  const std::vector<index_t>& col_to_supernode);

}  // namespace hetsparse::cholesky
