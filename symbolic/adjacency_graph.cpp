// Graph construction for the symbolic analysis.
#include "symbolic/adjacency_graph.hpp"

#include <vector>

#include "symbolic/input_checks.hpp"

namespace hetsparse::cholesky {

AdjacencyGraph symmetric_graph(const Csr& a, InputTriangle input) {
  check_input(a, input);

  // Each off-diagonal pair once: the stored triangle, or the strict lower part of a full matrix.
  const bool upper = input == InputTriangle::Upper;
  const auto for_each_edge = [&a, upper](auto&& visit) {
    for (index_t i = 0; i < a.rows; ++i) {
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const index_t j = a.colind[p];
        if (upper ? j > i : j < i) visit(i, j);
      }
    }
  };
  // Arcs in A's storage order, both directions, duplicates kept.
  AdjacencyGraph stored;
  stored.n = a.rows;
  stored.xadj.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for_each_edge([&stored](index_t i, index_t j) {
    ++stored.xadj[i + 1];
    ++stored.xadj[j + 1];
  });
  for (index_t v = 0; v < a.rows; ++v) stored.xadj[v + 1] += stored.xadj[v];
  stored.adj.resize(static_cast<std::size_t>(stored.xadj[a.rows]));
  std::vector<offset_t> next(stored.xadj.begin(), stored.xadj.end() - 1);
  for_each_edge([&stored, &next](index_t i, index_t j) {
    stored.adj[next[i]++] = j;
    stored.adj[next[j]++] = i;
  });

  // Transposing the (symmetric) arc lists visits sources in increasing order, so every list comes
  // out sorted with the copies of a duplicated arc adjacent, where they are dropped: the graph no
  // longer depends on how A's rows were stored (METIS's result does depend on list order), and
  // METIS gets the simple graph it expects.
  AdjacencyGraph g;
  g.n = a.rows;
  g.xadj = stored.xadj;
  g.adj.resize(stored.adj.size());
  next.assign(g.xadj.begin(), g.xadj.end() - 1);
  for (index_t v = 0; v < a.rows; ++v) {
    for (offset_t p = stored.xadj[v]; p < stored.xadj[v + 1]; ++p) {
      const index_t u = stored.adj[p];
      if (next[u] == g.xadj[u] || g.adj[next[u] - 1] != v) g.adj[next[u]++] = v;
    }
  }
  offset_t write = 0;
  for (index_t v = 0; v < g.n; ++v) {
    const offset_t begin = g.xadj[v];
    g.xadj[v] = write;
    for (offset_t p = begin; p < next[v]; ++p) g.adj[write++] = g.adj[p];
  }
  g.xadj[g.n] = write;
  g.adj.resize(static_cast<std::size_t>(write));
  return g;
}

}  // namespace hetsparse::cholesky
