// Fill-reducing orderings of the graph of A. Every permutation here maps new to old indices:
// row/column k of P A P^T is row/column perm[k] of A.
#pragma once
#include <optional>
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analyze_options.hpp"
#include "symbolic/supervariables.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// One serial METIS_NodeND (multilevel nested dissection) with METIS's default options; a graph
// without edges keeps the natural order. RuntimeFailure when METIS fails, InvalidArgument when the
// graph is too large for METIS's index type. `weight`: METIS vertex weights (empty: all 1).
std::vector<index_t> metis_nested_dissection(const AdjacencyGraph& g, const std::vector<index_t>& weight = {});

struct FillReducingOrder {
  std::vector<index_t> order;  // new to old
  // Set when order was found on g's supervariables: order == expand_order(*supervariables,
  // compressed), so the later phases may work on their graph (supervariable_symbolic.hpp).
  std::optional<Supervariables> supervariables;
  std::vector<index_t> compressed;
};

// The ordering that opts asks for: Ordering::Metis serially or by parallel_nested_dissection()
// per opts.ordering_threads (InvalidArgument when negative), the latter on the graph of
// supervariables when it has few enough vertices (supervariables.hpp); opts.user_perm validated
// against g.n (InvalidArgument).
FillReducingOrder fill_reducing_ordering(const AdjacencyGraph& g, const AnalyzeOptions& opts);

// InvalidArgument unless perm has n entries forming a permutation of 0 .. n-1; `what` names it.
void check_permutation(const std::vector<index_t>& perm, index_t n, const char* what);

// inverse[perm[k]] = k.
std::vector<index_t> inverse_permutation(const std::vector<index_t>& perm);

}  // namespace hetsparse::cholesky
