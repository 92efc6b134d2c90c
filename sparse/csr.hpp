// The three storage formats hetsparse moves between: coordinate (as read from files),
// compressed sparse row (what kernels run on) and compressed sparse column (what a
// left-looking or supernodal factorization walks). Plain aggregates: anyone may build one;
// validate() in convert.hpp checks that the arrays are consistent.
#pragma once
#include <vector>

#include "sparse/types.hpp"

namespace hetsparse {

// Triplets in any order; duplicates allowed (they are summed on conversion to CSR).
struct Coo {
  index_t rows = 0, cols = 0;
  std::vector<index_t> row, col;
  std::vector<double> val;

  offset_t nnz() const { return static_cast<offset_t>(row.size()); }
};

// Row i holds colind/values[rowptr[i] .. rowptr[i+1]); rowptr has rows + 1 entries.
// Column indices are sorted within a row unless stated otherwise by the producer.
struct Csr {
  index_t rows = 0, cols = 0;
  std::vector<offset_t> rowptr;
  std::vector<index_t> colind;
  std::vector<double> values;

  // A default-constructed (0 x 0) Csr has an empty rowptr: nnz() is 0 then, too.
  offset_t nnz() const { return rowptr.empty() ? 0 : rowptr.back(); }
};

// Column j holds rowind/values[colptr[j] .. colptr[j+1]); colptr has cols + 1 entries.
struct Csc {
  index_t rows = 0, cols = 0;
  std::vector<offset_t> colptr;
  std::vector<index_t> rowind;
  std::vector<double> values;

  offset_t nnz() const { return colptr.empty() ? 0 : colptr.back(); }
};

}  // namespace hetsparse
