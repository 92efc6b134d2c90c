// Gilbert-Ng-Peyton column counts. Row i of L is the row subtree of i: the union of the etree
// paths from each j with A(i, j) != 0, j < i, up to i. Counting, for every column j, the rows
// whose subtree contains j is done by difference counts: delta[j] = 1 if j is a leaf of the
// etree, +1 for every A(i, j) that makes j a leaf of row i's subtree (a "skeleton" entry), -1 at
// the least common ancestor of consecutive leaves of the same row subtree (where two paths merge),
// -1 for each child; counts[j] is then the sum of delta over the subtree rooted at j. Each +1 and
// -1 belongs to one row; a weighted row adds and removes its weight instead.
#include "symbolic/column_counts.hpp"

namespace hetsparse::cholesky {

std::vector<offset_t> column_counts(const PermutedGraph& g, const std::vector<index_t>& parent,
                                    const std::vector<index_t>& post, const std::vector<index_t>* weight) {
  const index_t n = g.n();
  const auto w = [weight](index_t i) -> offset_t { return weight == nullptr ? 1 : (*weight)[i]; };
  const auto size = static_cast<std::size_t>(n);
  std::vector<offset_t> delta(size);
  // first[j]: postorder position of the first (leftmost) descendant of j.
  std::vector<index_t> first(size, -1);
  for (index_t k = 0; k < n; ++k) {
    index_t j = post[k];
    delta[j] = first[j] == -1 ? w(j) : 0;  // j is a leaf: no descendant reached it yet
    for (; j != -1 && first[j] == -1; j = parent[j]) first[j] = k;
  }

  // max_first[i]: largest first[] among the leaves of row subtree i met so far (leaves arrive in
  // postorder, so j is a new leaf of subtree i exactly when first[j] exceeds it);
  // prev_leaf[i]: the last of those leaves; ancestor: disjoint sets of the processed nodes, each
  // set named by its root in the tree processed so far, to find least common ancestors.
  std::vector<index_t> max_first(size, -1), prev_leaf(size, -1), ancestor(size);
  for (index_t j = 0; j < n; ++j) ancestor[j] = j;
  const auto find_root = [&ancestor](index_t s) {
    index_t root = s;
    while (root != ancestor[root]) root = ancestor[root];
    while (s != root) {  // path compression
      const index_t up = ancestor[s];
      ancestor[s] = root;
      s = up;
    }
    return root;
  };

  for (index_t k = 0; k < n; ++k) {
    const index_t j = post[k];
    if (parent[j] != -1) delta[parent[j]] -= w(j);
    g.for_each_neighbor(j, [&](index_t i) {
      if (i <= j || first[j] <= max_first[i]) return;  // not in L's lower part, or j not a leaf of subtree i
      max_first[i] = first[j];
      const index_t previous = prev_leaf[i];
      prev_leaf[i] = j;
      delta[j] += w(i);
      if (previous != -1) delta[find_root(previous)] -= w(i);  // the paths from previous and j meet there
    });
    if (parent[j] != -1) ancestor[j] = parent[j];
  }

  // Subtree sums; etree parents have larger indices, so increasing j visits children first.
  for (index_t j = 0; j < n; ++j) {
    if (parent[j] != -1) delta[parent[j]] += delta[j];
  }
  return delta;
}

}  // namespace hetsparse::cholesky
