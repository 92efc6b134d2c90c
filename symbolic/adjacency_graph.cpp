// Graph construction for the symbolic analysis.
#include "symbolic/adjacency_graph.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "sparse/host_threads.hpp"
#include "symbolic/input_checks.hpp"

namespace hetsparse::cholesky {
namespace {

// Each off-diagonal pair once: the stored triangle (above the diagonal when `upper`), or the strict
// lower part of a full matrix.
bool kept(bool upper, index_t i, index_t j) { return upper ? j > i : j < i; }

// visit(i, j) for row i's kept entries, rows in increasing order, each row in storage order.
template <class Visit>
void for_each_kept_entry(const Csr& a, bool upper, Visit&& visit) {
  for (index_t i = 0; i < a.rows; ++i)
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (kept(upper, i, a.colind[p])) visit(i, a.colind[p]);
}

// Whether each row's entries on the kept side (above the diagonal when `upper`, else below) rise
// strictly: sorted, without duplicates, as the Matrix Market reader and the generators give them.
bool kept_entries_rise(const Csr& a, bool upper) {
  std::atomic<bool> rise{true};
  parallel_chunks(static_cast<std::size_t>(a.rows), std::size_t(1) << 15, [&](std::size_t b, std::size_t e) {
    for (auto i = static_cast<index_t>(b); i < static_cast<index_t>(e); ++i) {
      index_t last = -1;
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        const index_t j = a.colind[p];
        if (!kept(upper, i, j)) continue;
        if (j <= last) {
          rise.store(false, std::memory_order_relaxed);
          return;
        }
        last = j;
      }
      if (!rise.load(std::memory_order_relaxed)) return;
    }
  });
  return rise.load();
}

// Then the graph needs no sorting: a vertex's neighbours on the kept side are its row's kept
// entries, copied in parallel, and those on the other side come from one transpose of the kept
// entries, which visits the rows in increasing order. Lower: the row's own part first (all below
// the vertex); upper: the transposed part first.
AdjacencyGraph graph_from_rising_rows(const Csr& a, bool upper) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<offset_t> own(n, 0), other(n, 0);
  for_each_kept_entry(a, upper, [&](index_t i, index_t j) {
    ++own[i];
    ++other[j];
  });
  AdjacencyGraph g;
  g.n = a.rows;
  g.xadj.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) g.xadj[v + 1] = g.xadj[v] + own[v] + other[v];
  g.adj.resize(static_cast<std::size_t>(g.xadj[n]));
  parallel_chunks(n, std::size_t(1) << 15, [&](std::size_t b, std::size_t e) {
    for (std::size_t v = b; v < e; ++v) {
      offset_t out = g.xadj[v] + (upper ? other[v] : 0);
      const auto i = static_cast<index_t>(v);
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
        if (kept(upper, i, a.colind[p])) g.adj[out++] = a.colind[p];
    }
  });
  std::vector<offset_t> next(n);
  for (std::size_t v = 0; v < n; ++v) next[v] = g.xadj[v] + (upper ? 0 : own[v]);
  for_each_kept_entry(a, upper, [&](index_t i, index_t j) { g.adj[next[j]++] = i; });
  return g;
}

}  // namespace

AdjacencyGraph symmetric_graph(const Csr& a, InputTriangle input) {
  check_input(a, input);

  const bool upper = input == InputTriangle::Upper;
  if (kept_entries_rise(a, upper)) return graph_from_rising_rows(a, upper);
  // Arcs in A's storage order, both directions, duplicates kept.
  AdjacencyGraph stored;
  stored.n = a.rows;
  stored.xadj.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for_each_kept_entry(a, upper, [&stored](index_t i, index_t j) {
    ++stored.xadj[i + 1];
    ++stored.xadj[j + 1];
  });
  for (index_t v = 0; v < a.rows; ++v) stored.xadj[v + 1] += stored.xadj[v];
  stored.adj.resize(static_cast<std::size_t>(stored.xadj[a.rows]));
  std::vector<offset_t> next(stored.xadj.begin(), stored.xadj.end() - 1);
  for_each_kept_entry(a, upper, [&stored, &next](index_t i, index_t j) {
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
