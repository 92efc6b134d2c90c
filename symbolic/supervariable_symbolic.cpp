// Symbolic phases on the graph of supervariables, unrolled to A's columns.
#include "symbolic/supervariable_symbolic.hpp"

#include <stdexcept>
#include <string>

#include "symbolic/column_counts.hpp"
#include "symbolic/etree.hpp"
#include "symbolic/ordering.hpp"
#include "symbolic/symbolic_structure.hpp"

namespace hetsparse::cholesky {

std::vector<index_t> supervariable_etree(const Supervariables& s, const std::vector<index_t>& compressed) {
  const std::vector<index_t> inverse = inverse_permutation(compressed);
  return elimination_tree(PermutedGraph{s.graph, compressed, inverse});
}

ExpandedTree expand_supervariable_tree(const Supervariables& s, const std::vector<index_t>& compressed,
                                       const std::vector<index_t>& compressed_parent) {
  const std::vector<index_t> inverse = inverse_permutation(compressed);
  const std::size_t count = compressed.size();
  std::vector<index_t> weight(count);
  std::vector<index_t> first(count + 1, 0);  // first expanded column of each supervariable, in order
  for (std::size_t k = 0; k < count; ++k) {
    weight[k] = s.weight[compressed[k]];
    first[k + 1] = first[k] + weight[k];
  }
  const std::vector<offset_t> compressed_counts = column_counts(
      PermutedGraph{s.graph, compressed, inverse}, compressed_parent, postorder(compressed_parent), &weight);

  ExpandedTree t;
  t.parent.resize(static_cast<std::size_t>(first[count]));
  t.counts.resize(t.parent.size());
  for (std::size_t k = 0; k < count; ++k) {
    const index_t up = compressed_parent[k];
    for (index_t i = 0; i < weight[k]; ++i) {
      const index_t col = first[k] + i;
      t.parent[col] = i + 1 < weight[k] ? col + 1 : (up == -1 ? -1 : first[up]);
      t.counts[col] = compressed_counts[k] - i;
    }
  }
  return t;
}

std::vector<index_t> supervariable_supernode_rows(const Supervariables& s, const std::vector<index_t>& iperm,
                                                  const std::vector<Supernode>& supernodes,
                                                  const std::vector<index_t>& col_to_supernode) {
  // The supervariables in the final order, found by the new index of their first members.
  std::vector<index_t> starting_at(iperm.size(), -1);
  for (index_t v = 0; v < s.graph.n; ++v) {
    const index_t at = iperm[s.member[s.begin[v]]];
    for (index_t m = 1; m < s.weight[v]; ++m) {
      if (iperm[s.member[s.begin[v] + m]] != at + m) {
        throw std::logic_error("supervariable_supernode_rows: the members of supervariable " + std::to_string(v) +
                               " are not consecutive in the permutation");
      }
    }
    starting_at[at] = v;
  }
  std::vector<index_t> order, first, size;
  order.reserve(static_cast<std::size_t>(s.graph.n));
  first.reserve(order.capacity());
  size.reserve(order.capacity());
  for (std::size_t at = 0; at < starting_at.size(); ++at) {
    if (starting_at[at] == -1) continue;
    order.push_back(starting_at[at]);
    first.push_back(static_cast<index_t>(at));
    size.push_back(s.weight[starting_at[at]]);
  }
  const std::vector<index_t> inverse = inverse_permutation(order);
  return supernode_rows(PermutedGraph{s.graph, order, inverse}, first, size, supernodes, col_to_supernode);
}

}  // namespace hetsparse::cholesky
