// Column counts of the Cholesky factor without forming it.
#pragma once
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// counts[j] = nnz(L(:, j)) including the diagonal, for the factor of the matrix whose graph is g
// (g's numbering). parent is its elimination tree, post any postorder of it. Gilbert, Ng and
// Peyton's algorithm (as in Davis, "Direct Methods for Sparse Linear Systems", cs_counts):
// O(|E| alpha(|E|, n)) time, O(n) workspace.
std::vector<offset_t> column_counts(const PermutedGraph& g, const std::vector<index_t>& parent,
                                    const std::vector<index_t>& post);

}  // namespace hetsparse::cholesky
