// Parallel METIS ordering: the top levels of nested dissection are done here, one METIS vertex
// separator per level (the bisection METIS_NodeND itself makes), and the independent parts below
// them are ordered by METIS_NodeND concurrently. Each part is numbered before its separator, as
// nested dissection does, so the fill is that of one METIS_NodeND up to METIS's randomness.
#pragma once
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// Parts with fewer vertices than this are ordered by METIS_NodeND without splitting them further:
// below it a split saves less than starting its threads costs.
inline constexpr index_t kMinDissectionPart = 10000;

// old = perm[new]. Splits until about `threads` independent parts exist (depth ceil(log2 threads))
// or the parts have fewer than min_part vertices, then orders the parts on `threads` threads
// (run_on_startup_cpus() in sparse/host_threads.hpp: they may use every CPU the process started with).
// The result depends on g, threads and min_part only, never on which thread finishes first.
// threads <= 1, a graph smaller than min_part, or a degenerate first split (one side empty) give
// exactly metis_nested_dissection(g); a degenerate split further down orders that part whole.
// Same errors as metis_nested_dissection. `weight`: METIS vertex weights (empty: all 1).
std::vector<index_t> parallel_nested_dissection(const AdjacencyGraph& g, int threads,
                                                index_t min_part = kMinDissectionPart,
                                                const std::vector<index_t>& weight = {});

}  // namespace hetsparse::cholesky
