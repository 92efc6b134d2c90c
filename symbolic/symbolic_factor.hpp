// The result of the symbolic analysis: the final permutation, the elimination tree, the column
// counts and the supernodal structure of L that the numeric factorization allocates and walks.
#pragma once
#include <vector>

#include "sparse/types.hpp"

namespace hetsparse::cholesky {

// Columns first_col .. first_col + ncols - 1 of L, stored as a dense nrows x ncols panel whose row
// indices are SymbolicFactor::rows[row_begin .. row_begin + nrows): the ncols diagonal-block rows
// first_col, first_col + 1, ... first, then the rows below, increasing.
struct Supernode {
  index_t first_col;
  index_t ncols;
  offset_t row_begin;
  offset_t nrows;
  index_t parent;  // supernode holding the etree parent of the last column; -1 at a root
};

struct SymbolicFactor {
  index_t n = 0;
  // new i = iperm[old], old = perm[new]: the requested ordering followed by a postorder of its
  // elimination tree (a relabelling that changes neither fill nor flops).
  std::vector<index_t> perm, iperm;
  std::vector<index_t> etree;         // parent of each column of L (final order), -1 at roots
  std::vector<offset_t> col_counts;   // exact nnz of each column of L incl. the diagonal (final order)
  std::vector<Supernode> supernodes;  // in postorder: every child before its parent
  std::vector<index_t> rows;          // row indices of all panels, addressed by Supernode::row_begin
  std::vector<index_t> col_to_supernode;

  offset_t nnz_L = 0;        // entries stored in the panels' lower trapezoids, incl. explicit zeros
  offset_t nnz_L_exact = 0;  // sum of col_counts: nnz(L) without amalgamation zeros
  // CHOLMOD's flop convention (Common->fl): sum over columns of c_j^2, c_j the column count with the
  // diagonal. flops uses the exact counts (comparable with CHOLMOD's report); flops_amalgamated uses
  // the panel column lengths, i.e. what the supernodal factorization executes.
  double flops = 0.0;
  double flops_amalgamated = 0.0;

  struct Timings {
    double input_s = 0, ordering_s = 0, etree_s = 0, counts_s = 0, supernodes_s = 0, structure_s = 0,
           total_s = 0;
  } timings;  // seconds; input_s: checking A and building its graph; etree_s includes both postorders

  index_t num_supernodes() const { return static_cast<index_t>(supernodes.size()); }
};

}  // namespace hetsparse::cholesky
