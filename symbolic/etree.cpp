// Elimination tree (Liu) and weighted or plain postorder.
#include "symbolic/etree.hpp"

#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::cholesky {

std::vector<index_t> elimination_tree(const PermutedGraph& g) {
  const auto n = static_cast<std::size_t>(g.n());
  std::vector<index_t> parent(n, -1);
  // ancestor[i]: a (path-compressed) ancestor of i in the tree built from rows 0 .. k-1.
  std::vector<index_t> ancestor(n, -1);
  for (index_t k = 0; k < g.n(); ++k) {
    // Every A(k, i), i < k, makes k an ancestor of i: climb from i to its current root, which k
    // adopts, pointing the whole path at k on the way.
    g.for_each_neighbor(k, [&](index_t i) {
      while (i != -1 && i < k) {
        const index_t next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent[i] = k;
        i = next;
      }
    });
  }
  return parent;
}

std::vector<index_t> postorder(const std::vector<index_t>& parent, const std::vector<offset_t>* weights) {
  const auto n = static_cast<index_t>(parent.size());
  // The loops below index by parent and weight: check the documented ranges first.
  for (index_t j = 0; j < n; ++j) {
    if (parent[j] != -1 && (parent[j] <= j || parent[j] >= n)) {
      throw InvalidArgument("postorder: parent[" + std::to_string(j) + "] = " + std::to_string(parent[j]) +
                            " is neither -1 nor in (j, n)");
    }
    if (weights != nullptr && ((*weights)[j] < 0 || (*weights)[j] > n)) {
      throw InvalidArgument("postorder: weight " + std::to_string((*weights)[j]) + " of node " + std::to_string(j) +
                            " is outside [0, n]");
    }
  }
  std::vector<index_t> first_child(parent.size(), -1), next_sibling(parent.size(), -1);
  const auto prepend_to_parent = [&](index_t j) {
    const index_t p = parent[j];
    if (p == -1) return;
    next_sibling[j] = first_child[p];
    first_child[p] = j;
  };
  // Prepending in decreasing visiting order leaves every child list in visiting order.
  if (weights == nullptr) {
    for (index_t j = n - 1; j >= 0; --j) prepend_to_parent(j);
  } else {
    // Counting sort by weight; walking buckets and nodes downwards gives decreasing (weight, index).
    std::vector<index_t> bucket_start(parent.size() + 2, 0);
    for (index_t j = 0; j < n; ++j) ++bucket_start[(*weights)[j] + 1];
    for (std::size_t w = 1; w < bucket_start.size(); ++w) bucket_start[w] += bucket_start[w - 1];
    std::vector<index_t> by_weight(parent.size());
    for (index_t j = 0; j < n; ++j) by_weight[bucket_start[(*weights)[j]]++] = j;
    for (index_t k = n - 1; k >= 0; --k) prepend_to_parent(by_weight[k]);
  }

  std::vector<index_t> post(parent.size()), stack(parent.size());
  index_t k = 0;
  for (index_t root = 0; root < n; ++root) {
    if (parent[root] != -1) continue;
    index_t top = 0;
    stack[0] = root;
    while (top >= 0) {
      const index_t p = stack[top];
      const index_t child = first_child[p];
      if (child == -1) {
        post[k++] = p;  // all children done
        --top;
      } else {
        first_child[p] = next_sibling[child];
        stack[++top] = child;
      }
    }
  }
  return post;
}

}  // namespace hetsparse::cholesky
