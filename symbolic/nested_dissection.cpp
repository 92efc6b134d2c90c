// Parallel nested dissection over METIS. A part of the graph is either split by a vertex separator
// into two halves (queued as new parts) plus the separator (numbered after both halves), or ordered
// whole by METIS_NodeND. Every part owns a fixed block of the result, decided when it is created,
// so the threads write disjoint ranges and the order never depends on their timing.
#include "symbolic/nested_dissection.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <utility>

#include "symbolic/metis_graph.hpp"
#include "symbolic/metis_random.hpp"
#include "symbolic/ordering.hpp"
#include "sparse/host_threads.hpp"
#include "symbolic/task_pool.hpp"

namespace hetsparse::cholesky {
namespace {

using detail::MetisGraph;

// A part awaiting its ordering, in its own numbering: vertex[v] is v's index in the whole graph,
// and its vertices take positions first .. first + n - 1 of the result.
struct Part {
  MetisGraph graph;
  std::vector<index_t> vertex;
  index_t first = 0;
  int splits_left = 0;
};

// The vertices on `side` as a graph of their own, like METIS's SplitGraphOrder: edges to the
// separator are dropped, and numbering in increasing order (local[v] is v's index on its side)
// keeps the adjacency lists sorted.
Part extract(const Part& whole, const std::vector<idx_t>& side_of, idx_t side, const std::vector<idx_t>& local,
             idx_t size) {
  Part p;
  p.vertex.reserve(static_cast<std::size_t>(size));
  p.graph.xadj.reserve(static_cast<std::size_t>(size) + 1);
  const MetisGraph& g = whole.graph;
  for (idx_t v = 0; v < g.n(); ++v) {
    if (side_of[v] != side) continue;
    p.vertex.push_back(whole.vertex[v]);
    if (!g.vwgt.empty()) p.graph.vwgt.push_back(g.vwgt[v]);
    for (idx_t a = g.xadj[v]; a < g.xadj[v + 1]; ++a) {
      const idx_t u = g.adj[a];
      if (side_of[u] == side) p.graph.adj.push_back(local[u]);
    }
    p.graph.xadj.push_back(static_cast<idx_t>(p.graph.adj.size()));
  }
  return p;
}

class Dissection {
 public:
  Dissection(index_t n, index_t min_part) : perm_(static_cast<std::size_t>(n)), min_part_(min_part) {}

  void add(Part part) {
    auto shared = std::make_shared<Part>(std::move(part));
    const std::int64_t size = shared->graph.n();
    pool_.add(size, [this, shared] { process(*shared); });
  }

  std::vector<index_t> run(int threads) {
    pool_.run(threads, run_on_startup_cpus);  // not all on a core the caller may be pinned to
    return std::move(perm_);
  }

 private:
  void process(Part& part) {
    const detail::PrivateRandScope private_rand;  // METIS draws from this thread's generator only
    if (part.splits_left > 0 && part.graph.n() >= min_part_ && part.graph.has_edges() && split(part)) return;
    order_whole(part);
  }

  void order_whole(Part& part) {
    const auto n = static_cast<std::size_t>(part.graph.n());
    if (!part.graph.has_edges()) {  // fill-free in any order: keep the natural one, like the serial path
      std::copy(part.vertex.begin(), part.vertex.end(), perm_.begin() + part.first);
      return;
    }
    const std::vector<idx_t> local = detail::metis_node_nd(part.graph);
    for (std::size_t k = 0; k < n; ++k) perm_[part.first + k] = part.vertex[local[k]];
  }

  // false when METIS leaves a half empty (e.g. a clique): the part is then ordered whole.
  bool split(Part& part) {
    const std::vector<idx_t> side_of = detail::metis_vertex_separator(part.graph);
    std::vector<idx_t> local(side_of.size());
    idx_t count[3] = {0, 0, 0};
    for (std::size_t v = 0; v < side_of.size(); ++v) local[v] = count[side_of[v]]++;
    if (count[0] == 0 || count[1] == 0) return false;

    // Both halves first, then the separator in the part's own vertex order.
    index_t next = part.first + count[0] + count[1];
    for (std::size_t v = 0; v < side_of.size(); ++v) {
      if (side_of[v] == 2) perm_[next++] = part.vertex[v];
    }
    Part left = extract(part, side_of, 0, local, count[0]);
    Part right = extract(part, side_of, 1, local, count[1]);
    left.first = part.first;
    right.first = part.first + count[0];
    left.splits_left = right.splits_left = part.splits_left - 1;
    part = Part{};  // the halves replace it: release its arrays before they are ordered
    add(std::move(left));
    add(std::move(right));
    return true;
  }

  detail::TaskPool pool_;
  std::vector<index_t> perm_;
  index_t min_part_;
};

}  // namespace

std::vector<index_t> parallel_nested_dissection(const AdjacencyGraph& g, int threads, index_t min_part,
                                                const std::vector<index_t>& weight) {
  min_part = std::max<index_t>(min_part, 2);  // a part needs two vertices to be split
  if (threads <= 1 || g.n < min_part || g.num_arcs() == 0 || !detail::metis_uses_private_rand()) {
    return metis_nested_dissection(g, weight);
  }
  Part root;
  root.graph = detail::to_metis_graph(g, weight);
  root.vertex.resize(static_cast<std::size_t>(g.n));
  std::iota(root.vertex.begin(), root.vertex.end(), index_t{0});
  // About as many independent parts as threads: 2^depth >= threads.
  while ((1 << root.splits_left) < threads && root.splits_left < 30) ++root.splits_left;
  // No more threads than parts can exist: only parts of min_part vertices or more are split.
  const auto most_parts = std::min<std::int64_t>(std::int64_t{1} << root.splits_left, 2 * (g.n / min_part) + 1);
  // A degenerate first split orders the root whole: the same call as metis_nested_dissection(g).
  Dissection dissection(g.n, min_part);
  dissection.add(std::move(root));
  return dissection.run(static_cast<int>(std::min<std::int64_t>(threads, most_parts)));
}

}  // namespace hetsparse::cholesky
