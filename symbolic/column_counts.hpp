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
// With `weight` (g's numbering), vertex i stands for weight[i] rows and counts[j] is the sum of
// the weights of the rows of column j (the graph of supervariables: supervariable_symbolic.hpp).
std::vector<offset_t> column_counts(const PermutedGraph& g, const std::vector<index_t>& parent,
                                    const std::vector<index_t>& post, const std::vector<index_t>* weight = nullptr);

}  // namespace hetsparse::cholesky
