// The CSR matrices of a partition's parts, in the 32-bit layout the runtime registers.
//   pCSR, pCOO: the part's rows [row_begin, row_end), each cut to the part's entries (pCOO's first
//               and last rows may be pieces); all columns.
//   pCSC:       every row, the entries of the part's columns, renumbered from col_begin (so the part
//               reads its slice of x).
#pragma once
#include <vector>

#include "planners/spmv_partition.hpp"
#include "sparse/csr.hpp"

namespace hetsparse {

// One CSR per part (empty ones included); A's rows may be unsorted.
std::vector<Csr> part_matrices(const Csr& A, const planners::SpmvPartition& p);

}  // namespace hetsparse
