// The elimination tree of L and its postorders.
#pragma once
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// parent[j] = min { i > j : L(i, j) != 0 } for the Cholesky factor of the matrix whose graph is g
// (in g's numbering), -1 at roots. Liu's algorithm with path compression: O(|E| log n) worst
// case, near-linear in practice, and it never forms L.
std::vector<index_t> elimination_tree(const PermutedGraph& g);

// post[k] = the k-th node of a depth-first postorder of the forest `parent` (parent[j] > j or -1).
// Siblings are visited by increasing index, or, when weights is given, by increasing weight
// (ties by index): with column counts as weights the child with the most structure comes last,
// next to its parent, where relaxed amalgamation can merge it cheaply (CHOLMOD does the same).
// InvalidArgument for a parent outside (j, n) or a weight outside [0, n].
std::vector<index_t> postorder(const std::vector<index_t>& parent, const std::vector<offset_t>* weights = nullptr);

}  // namespace hetsparse::cholesky
