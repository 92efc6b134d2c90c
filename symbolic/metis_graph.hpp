// The two METIS 5.1 calls the ordering makes, on a graph held in METIS's own index type. Internal
// to the symbolic analysis (it includes metis.h). METIS keeps its workspaces per call and its error
// jump buffers thread-local, and reseeds its generator (fixed seed 4321 by default) at every call,
// so separate calls on separate arrays may run concurrently; Debian's build draws from libc's
// process-wide rand(), though, so concurrent calls give their serial results only inside a
// PrivateRandScope (metis_random.hpp).
#pragma once
#include <metis.h>

#include <vector>

#include "symbolic/adjacency_graph.hpp"

namespace hetsparse::cholesky::detail {

// METIS takes non-const arrays: the graph is owned, adjacency lists as in AdjacencyGraph.
struct MetisGraph {
  std::vector<idx_t> xadj{0};
  std::vector<idx_t> adj;
  std::vector<idx_t> vwgt;  // vertex weights (supervariable sizes); empty: every vertex weighs 1

  idx_t n() const { return static_cast<idx_t>(xadj.size()) - 1; }
  bool has_edges() const { return !adj.empty(); }
};

// A copy of g (with its vertex weights when `weight` is not empty); InvalidArgument when g has more
// adjacency entries than idx_t can address.
MetisGraph to_metis_graph(const AdjacencyGraph& g, const std::vector<index_t>& weight = {});

// METIS_NodeND with default options: perm[k] = vertex eliminated k-th. RuntimeFailure on failure.
std::vector<idx_t> metis_node_nd(MetisGraph& g);

// METIS_ComputeVertexSeparator with default options (the bisection METIS_NodeND makes at each
// level): part[v] = 0 or 1 for the two halves, 2 for the separator. RuntimeFailure on failure.
std::vector<idx_t> metis_vertex_separator(MetisGraph& g);

}  // namespace hetsparse::cholesky::detail
