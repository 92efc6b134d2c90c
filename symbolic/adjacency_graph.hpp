// The graph of a symmetric matrix (a vertex per row, an edge per off-diagonal pair; no self loops,
// no duplicate edges, sorted adjacency lists: the same graph however A is stored), built from
// whichever part of A the caller stores after checking that this part is what the caller says it
// is. Every later phase of the analysis reads A only through this graph, seen in a permuted
// numbering through PermutedGraph.
#pragma once
#include <vector>

#include "symbolic/analyze_options.hpp"
#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

struct AdjacencyGraph {
  index_t n = 0;
  std::vector<offset_t> xadj;  // neighbours of v: adj[xadj[v] .. xadj[v+1]), increasing
  std::vector<index_t> adj;

  offset_t num_arcs() const { return xadj.empty() ? 0 : xadj.back(); }  // twice the number of edges
};

// Checks A with check_input() (input_checks.hpp) and returns its graph. Missing diagonal entries
// are accepted: they do not change the graph.
AdjacencyGraph symmetric_graph(const Csr& a, InputTriangle input);

// The graph relabelled by perm (vertex k here is perm[k] there; iperm is the inverse).
struct PermutedGraph {
  const AdjacencyGraph& graph;
  const std::vector<index_t>& perm;
  const std::vector<index_t>& iperm;

  index_t n() const { return graph.n; }

  // Calls visit(i) for every neighbour i of vertex k, both in the new numbering.
  template <class Visit>
  void for_each_neighbor(index_t k, Visit&& visit) const {
    const index_t old = perm[k];
    const offset_t end = graph.xadj[old + 1];
    for (offset_t p = graph.xadj[old]; p < end; ++p) visit(iperm[graph.adj[p]]);
  }
};

}  // namespace hetsparse::cholesky
