// Supervariables (symbolic/supervariables.hpp) against a brute-force grouping by closed
// neighbourhood, on graphs with planted groups of every size; the order they give the parallel
// ordering keeps each group together and the fill of the serial METIS ordering; the tree, counts
// and panel rows computed on their graph equal those computed on A's.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analysis.hpp"
#include "symbolic/column_counts.hpp"
#include "symbolic/etree.hpp"
#include "symbolic/ordering.hpp"
#include "symbolic/supernodes.hpp"
#include "symbolic/supervariable_symbolic.hpp"
#include "symbolic/supervariables.hpp"
#include "symbolic/symbolic_structure.hpp"

namespace hetsparse::cholesky {
namespace {

AdjacencyGraph from_sets(const std::vector<std::set<index_t>>& nb) {
  AdjacencyGraph g;
  g.n = static_cast<index_t>(nb.size());
  g.xadj.assign(1, 0);
  for (const auto& s : nb) {
    g.adj.insert(g.adj.end(), s.begin(), s.end());
    g.xadj.push_back(static_cast<offset_t>(g.adj.size()));
  }
  return g;
}

// A random graph on `base` vertices, each blown up into 1-4 copies joined to each other and to all
// copies of its neighbours, plus random extra edges between single copies (which split groups).
AdjacencyGraph planted(index_t base, double density, int extra, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<index_t>> copies(static_cast<std::size_t>(base));
  index_t n = 0;
  for (auto& c : copies)
    for (int k = 0, m = 1 + static_cast<int>(rng() % 4); k < m; ++k) c.push_back(n++);
  // Copies interleaved with other vertices' copies: shuffle the labels.
  std::vector<index_t> label(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) label[i] = i;
  std::shuffle(label.begin(), label.end(), rng);
  std::vector<std::set<index_t>> nb(static_cast<std::size_t>(n));
  auto join = [&](index_t a, index_t b) {
    if (a == b) return;
    nb[label[a]].insert(label[b]);
    nb[label[b]].insert(label[a]);
  };
  std::bernoulli_distribution edge(density);
  for (index_t u = 0; u < base; ++u) {
    for (index_t a : copies[u])
      for (index_t b : copies[u]) join(a, b);
    for (index_t v = u + 1; v < base; ++v)
      if (edge(rng))
        for (index_t a : copies[u])
          for (index_t b : copies[v]) join(a, b);
  }
  for (int e = 0; e < extra; ++e) join(static_cast<index_t>(rng() % n), static_cast<index_t>(rng() % n));
  return from_sets(nb);
}

void expect_brute_force_grouping(const AdjacencyGraph& g) {
  {
    const auto s = find_supervariables(g, 1.0);
    ASSERT_TRUE(s.has_value());
    // Oracle: vertices keyed by their closed neighbourhood.
    std::map<std::vector<index_t>, std::vector<index_t>> groups;
    for (index_t v = 0; v < g.n; ++v) {
      std::vector<index_t> closed(g.adj.begin() + g.xadj[v], g.adj.begin() + g.xadj[v + 1]);
      closed.insert(std::upper_bound(closed.begin(), closed.end(), v), v);
      groups[closed].push_back(v);
    }
    ASSERT_EQ(static_cast<std::size_t>(s->graph.n), groups.size());
    EXPECT_LT(3 * s->graph.n, 2 * g.n);  // most planted groups survive the extra edges
    ASSERT_EQ(s->member.size(), static_cast<std::size_t>(g.n));
    std::vector<index_t> id(static_cast<std::size_t>(g.n), -1);
    index_t previous_first = -1;
    for (index_t k = 0; k < s->graph.n; ++k) {
      const std::vector<index_t> members(s->member.begin() + s->begin[k], s->member.begin() + s->begin[k + 1]);
      ASSERT_FALSE(members.empty());
      EXPECT_TRUE(std::is_sorted(members.begin(), members.end()));
      EXPECT_GT(members.front(), previous_first);  // numbered by smallest member
      previous_first = members.front();
      EXPECT_EQ(s->weight[k], static_cast<index_t>(members.size()));
      std::vector<index_t> closed(g.adj.begin() + g.xadj[members[0]], g.adj.begin() + g.xadj[members[0] + 1]);
      closed.insert(std::upper_bound(closed.begin(), closed.end(), members[0]), members[0]);
      EXPECT_EQ(groups.at(closed), members);
      for (index_t v : members) id[v] = k;
    }
    // The quotient graph: supervariables adjacent when any members are.
    for (index_t k = 0; k < s->graph.n; ++k) {
      std::set<index_t> want;
      for (offset_t m = s->begin[k]; m < s->begin[k + 1]; ++m) {
        const index_t v = s->member[m];
        for (offset_t p = g.xadj[v]; p < g.xadj[v + 1]; ++p)
          if (id[g.adj[p]] != k) want.insert(id[g.adj[p]]);
      }
      const std::vector<index_t> got(s->graph.adj.begin() + s->graph.xadj[k], s->graph.adj.begin() + s->graph.xadj[k + 1]);
      EXPECT_EQ(got, std::vector<index_t>(want.begin(), want.end())) << "supervariable " << k;
    }
  }
}

TEST(Supervariables, MatchABruteForceGrouping) {
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    expect_brute_force_grouping(planted(300, 0.02, 40, seed));
  }
  // Large enough for the passes to be cut into chunks on several threads.
  expect_brute_force_grouping(planted(14000, 6.0 / 14000, 3000, 4));
}

TEST(Supervariables, NoneWhereNeighbourhoodsDiffer) {
  const AdjacencyGraph lap = symmetric_graph(triangle(laplacian_3d(9, 8, 7), Triangle::Lower), InputTriangle::Lower);
  EXPECT_FALSE(find_supervariables(lap).has_value());
  const auto all = find_supervariables(lap, 1.0);
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->graph.n, lap.n);
}

TEST(Supervariables, ElasticityNodesAndTheExpandedOrder) {
  const AdjacencyGraph g = symmetric_graph(triangle(elasticity_3d(6, 5, 4), Triangle::Lower), InputTriangle::Lower);
  const auto s = find_supervariables(g);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->graph.n * 3, g.n);
  for (index_t w : s->weight) EXPECT_EQ(w, 3);
  std::vector<index_t> reversed(static_cast<std::size_t>(s->graph.n));
  for (index_t k = 0; k < s->graph.n; ++k) reversed[k] = s->graph.n - 1 - k;
  const std::vector<index_t> order = expand_order(*s, reversed);
  check_permutation(order, g.n, "expanded order");
  for (index_t k = 0; k < s->graph.n; ++k)  // each node's three dofs together, in increasing order
    for (index_t j = 0; j < 3; ++j) EXPECT_EQ(order[3 * k + j], s->member[s->begin[reversed[k]] + j]);
}

TEST(Supervariables, ParallelOrderingOfTheCompressedGraphKeepsTheFill) {
  const Csr a = elasticity_3d(26, 25, 24);  // 15,600 nodes: the compressed graph is split
  const Csr lower = triangle(a, Triangle::Lower);
  AnalyzeOptions serial;
  serial.ordering_threads = 1;
  AnalyzeOptions parallel;
  parallel.ordering_threads = 3;
  const SymbolicFactor s1 = analyze(lower, serial), s3 = analyze(lower, parallel);
  EXPECT_LT(static_cast<double>(s3.nnz_L_exact), 1.10 * static_cast<double>(s1.nnz_L_exact));
  EXPECT_EQ(analyze(lower, parallel).perm, s3.perm);  // deterministic
}

// The symbolic phases on A's graph and on its supervariables' graph, for a random order of the
// supervariables: same tree, same counts, and (after an amalgamation) the same panel rows.
void expect_same_symbolic_phases(const AdjacencyGraph& g, unsigned seed) {
  const auto s = find_supervariables(g, 1.0);
  ASSERT_TRUE(s.has_value());
  std::vector<index_t> compressed(static_cast<std::size_t>(s->graph.n));
  for (index_t k = 0; k < s->graph.n; ++k) compressed[k] = k;
  std::shuffle(compressed.begin(), compressed.end(), std::mt19937(seed));
  const std::vector<index_t> order = expand_order(*s, compressed);
  const std::vector<index_t> order_inverse = inverse_permutation(order);
  const PermutedGraph ordered{g, order, order_inverse};
  const std::vector<index_t> parent = elimination_tree(ordered);
  const std::vector<offset_t> counts = column_counts(ordered, parent, postorder(parent));

  const ExpandedTree tree = expand_supervariable_tree(*s, compressed, supervariable_etree(*s, compressed));
  ASSERT_EQ(tree.parent, parent);
  ASSERT_EQ(tree.counts, counts);

  // Any etree numbering holds its supernodes in a valid order: the expanded order serves as it is.
  const std::vector<Supernode> supernodes =
      amalgamate(fundamental_supernodes(parent, counts), AnalyzeOptions{}.amalgamation);
  const std::vector<index_t> owner = column_to_supernode(supernodes, g.n);
  EXPECT_EQ(supervariable_supernode_rows(*s, order_inverse, supernodes, owner),
            supernode_rows(ordered, supernodes, owner));

  // A permutation that separates two members of a supervariable is refused.
  for (index_t v = 0; v < s->graph.n; ++v) {
    if (s->weight[v] < 2) continue;
    std::vector<index_t> split = order;
    const index_t a = order_inverse[s->member[s->begin[v]]];
    std::swap(split[a], split[a == 0 ? a + 2 : a - 1]);
    EXPECT_THROW(supervariable_supernode_rows(*s, inverse_permutation(split), supernodes, owner),
                 std::logic_error);
    break;
  }
}

TEST(Supervariables, TreeCountsAndRowsFromTheirGraphEqualThoseFromA) {
  for (unsigned seed : {5u, 6u, 7u}) {
    SCOPED_TRACE(seed);
    expect_same_symbolic_phases(planted(400, 0.01, 30, seed), seed);
  }
  expect_same_symbolic_phases(
      symmetric_graph(triangle(elasticity_3d(7, 6, 5), Triangle::Lower), InputTriangle::Lower), 8);
}

TEST(Supervariables, AnalysisOnTheirGraphEqualsTheAnalysisOfTheSameOrder) {
  const Csr lower = triangle(elasticity_3d(9, 8, 7), Triangle::Lower);
  AnalyzeOptions parallel;
  parallel.ordering_threads = 2;
  const SymbolicFactor f = analyze(lower, parallel);
  // The user ordering gets no supervariables: every phase runs on A's graph.
  AnalyzeOptions user;
  user.ordering = Ordering::User;
  user.user_perm = f.perm;
  const SymbolicFactor g = analyze(lower, user);
  EXPECT_EQ(g.perm, f.perm);
  EXPECT_EQ(g.etree, f.etree);
  EXPECT_EQ(g.col_counts, f.col_counts);
  EXPECT_EQ(g.rows, f.rows);
  EXPECT_EQ(g.nnz_L, f.nnz_L);
  EXPECT_EQ(g.flops, f.flops);
}

}  // namespace
}  // namespace hetsparse::cholesky
