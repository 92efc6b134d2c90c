// Symbolic analysis of a supernodal sparse Cholesky factorization P A P^T = L L^T: fill-reducing
// ordering, elimination tree and its postorder, column counts, fundamental supernodes, relaxed
// amalgamation, and the row structure of every supernode panel, with nnz(L) and the flop count.
#pragma once
#include "cholesky/symbolic/analyze_options.hpp"
#include "cholesky/symbolic/symbolic_factor.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::cholesky {

// A is symmetric, given by the part opts.input names; only its pattern is used (values only to
// check a Full input's symmetry). Throws InvalidArgument for a non-square or inconsistent A or bad
// options (user permutation, amalgamation bounds), StructureError naming the first offending entry
// when A does not match opts.input, RuntimeFailure when METIS fails. Missing diagonal entries are
// accepted here (the numeric factorization reports them).
SymbolicFactor analyze(const Csr& a, const AnalyzeOptions& opts = {});

}  // namespace hetsparse::cholesky
