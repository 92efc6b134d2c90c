// Symbolic analysis of a supernodal sparse Cholesky factorization P A P^T = L L^T: fill-reducing
// ordering, elimination tree and its postorder, column counts, fundamental supernodes, relaxed
// amalgamation, and the row structure of every supernode panel, with nnz(L) and the flop count.
#pragma once
#include <optional>
#include <vector>

#include "symbolic/adjacency_graph.hpp"
#include "symbolic/analyze_options.hpp"
#include "symbolic/supervariables.hpp"
#include "symbolic/symbolic_factor.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

// A is symmetric, given by the part opts.input names; only its pattern is used (values only to
// check a Full input's symmetry). Throws InvalidArgument for a non-square or inconsistent A or bad
// options (user permutation, amalgamation bounds), StructureError naming the first offending entry
// when A does not match opts.input, RuntimeFailure when METIS fails. Missing diagonal entries are
// accepted here (the numeric factorization reports them).
SymbolicFactor analyze(const Csr& a, const AnalyzeOptions& opts = {});

// analyze() in two halves, for callers that try several amalgamations of one matrix (the
// auto-tuner): the ordering, elimination tree and column counts do not depend on the amalgamation.
struct SymbolicSkeleton {
  AdjacencyGraph graph;   // A's graph in its own numbering
  // A's supervariables when the ordering keeps them together: the panel rows come from their graph.
  std::optional<Supervariables> supervariables;
  SymbolicFactor factor;  // n, perm, iperm, etree, col_counts and their timings; no supernodes yet
  std::vector<Supernode> fundamental;
};
// Same checks and errors as analyze(); opts.amalgamation and opts.amalgamate are not used.
SymbolicSkeleton analyze_skeleton(const Csr& a, const AnalyzeOptions& opts = {});
// The supernode part of analyze() on a skeleton: amalgamation (per opts.amalgamation and
// opts.amalgamate), panel row structures and statistics. analyze(a, o) ==
// amalgamate_skeleton(analyze_skeleton(a, o), o).
SymbolicFactor amalgamate_skeleton(const SymbolicSkeleton& skeleton, const AnalyzeOptions& opts);

}  // namespace hetsparse::cholesky
