// MSREP's partitions of a sparse matrix for a product over several devices (docs: the MSREP paper,
// Chen et al.): each part holds a share of the nonzeros given by a weight.
//   pCSR  row blocks, rows never split: each part writes its own rows of y, no merge.
//   pCSC  column blocks: each part reads its slice of x and produces a full-length partial y; the
//         partials are summed.
//   pCOO  the nonzeros (in CSR order) split at any position: a row cut between parts is shared, the
//         earlier part owns it and the later parts' pieces of it are added in.
// Plain index arithmetic on the CSR matrix; the part matrices and tasks are made in spmv/.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::planners {

enum class PartitionFormat : std::uint8_t { Pcsr, Pcsc, Pcoo, Auto };
// "pcsr", "pcsc", "pcoo", "auto"; InvalidArgument naming the value otherwise.
PartitionFormat parse_partition_format(const std::string& name);
const char* to_string(PartitionFormat);

struct SpmvPart {
  index_t row_begin = 0, row_end = 0;       // rows of y it computes (pCSC: all rows)
  index_t col_begin = 0, col_end = 0;       // columns of x it reads (pCSR, pCOO: all columns)
  offset_t entry_begin = 0, entry_end = 0;  // pCSR, pCOO: its nonzeros' positions in A's CSR arrays
  offset_t nnz = 0;
  bool shares_first_row = false;  // pCOO: its first row began in an earlier part (which owns it)
  bool shares_last_row = false;   // pCOO: its last row goes on in a later part

  index_t rows() const { return row_end - row_begin; }
  // Rows of y this part owns: all its rows but a first row begun by an earlier part.
  index_t owned_begin() const { return row_begin + (shares_first_row ? 1 : 0); }
};

struct SpmvPartition {
  PartitionFormat format = PartitionFormat::Pcsr;
  index_t rows = 0, cols = 0;
  offset_t nnz = 0;
  std::vector<SpmvPart> parts;  // one per weight, in order; some may hold nothing

  // Whether part k has a task in a product: rows to write (pCSR, pCOO), nonzeros to add (pCSC).
  bool has_task(std::size_t k) const;
};

// weights: one positive weight per part; part k gets about weights[k] / sum of the nonzeros (pCSR
// cuts at the row boundary nearest the target, pCSC at the nearest column boundary).
SpmvPartition partition_pcsr(const Csr& A, const std::vector<double>& weights);
SpmvPartition partition_pcsc(const Csr& A, const std::vector<double>& weights);
SpmvPartition partition_pcoo(const Csr& A, const std::vector<double>& weights);
// One of the three (InvalidArgument for Auto: choose first, spmv_partition_model.hpp).
SpmvPartition make_partition(const Csr& A, PartitionFormat format, const std::vector<double>& weights);

// Nonzeros per column of A: what pCSC cuts on.
std::vector<offset_t> column_counts(const Csr& A);

}  // namespace hetsparse::planners
