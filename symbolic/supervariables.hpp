// Supervariables: vertices with the same closed neighbourhood (adj(v) and v itself), such as the
// degrees of freedom of one mesh node in an elasticity problem. They are eliminated together by any
// minimum-fill ordering, so the ordering may work on the graph with one vertex per supervariable
// (weighted by its size), as METIS_NodeND does inside; the parallel ordering's own top-level
// separators would otherwise run on the whole uncompressed graph.
#pragma once
#include <optional>
#include <vector>

#include "symbolic/adjacency_graph.hpp"

namespace hetsparse::cholesky {

struct Supervariables {
  AdjacencyGraph graph;          // one vertex per supervariable, numbered by their smallest members
  std::vector<index_t> weight;   // member counts
  std::vector<offset_t> begin;   // members of s: member[begin[s] .. begin[s + 1]), increasing
  std::vector<index_t> member;
};

// Nothing (std::nullopt) when the graph would keep more than max_ratio of its vertices: too little
// to gain for the pass (METIS uses the same rule, 0.85).
std::optional<Supervariables> find_supervariables(const AdjacencyGraph& g, double max_ratio = 0.85);

// An order of g's vertices from an order of the supervariables (perm[k] = supervariable eliminated
// k-th): each one's members in its place, in increasing order.
std::vector<index_t> expand_order(const Supervariables& s, const std::vector<index_t>& perm);

}  // namespace hetsparse::cholesky
