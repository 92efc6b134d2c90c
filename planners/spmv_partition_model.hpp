// Which partition to use for a product over given devices: a traffic model of each format on the
// matrix. A part costs its bytes over its device's rate; the product costs its slowest part plus the
// merge. Row-length skew enters through the balance pCSR can reach (rows are never split), the
// width of the matrix through the x traffic (pCSC reads only its columns of x) and the height
// through pCSC's full-length partials and its serial merge.
#pragma once
#include <string>
#include <vector>

#include "planners/spmv_partition.hpp"

namespace hetsparse::planners {

// The shape of a matrix the choice reads (cheap: one pass over rowptr and colind).
struct MatrixProfile {
  index_t rows = 0, cols = 0;
  offset_t nnz = 0;
  double mean_row = 0, row_cv = 0;  // nonzeros per row, their std. deviation / mean
  offset_t max_row = 0, max_col = 0;
};
MatrixProfile matrix_profile(const Csr& A);

struct ModelOptions {
  double merge_bytes_per_s = 1.5e12;  // where the merges run (y's device)
  double step_overhead_s = 2e-5;      // one dependent task step of the runtime (a merge after the parts)
};

struct FormatCost {
  PartitionFormat format = PartitionFormat::Pcsr;
  double seconds = 0;          // predicted time of one product
  double imbalance = 1;        // slowest part / mean part
  double merge_seconds = 0;
};

struct PartitionChoice {
  PartitionFormat format = PartitionFormat::Pcsr;
  std::vector<FormatCost> costs;  // of every format considered, cheapest first
};

// Bytes a part moves in a product (matrix, x, y and its partial/merge traffic).
double part_bytes(const SpmvPartition& p, std::size_t k);
// The modelled cost of one partition; rates[k] in bytes/s for part k.
FormatCost partition_cost(const SpmvPartition& p, const std::vector<double>& rates, const ModelOptions& o = {});
// The cheapest of pCSR, pCSC and pCOO for these part weights and rates (one rate per weight). With
// `only` other than Auto, that format's cost alone.
PartitionChoice choose_partition(const Csr& A, const std::vector<double>& weights, const std::vector<double>& rates,
                                 PartitionFormat only = PartitionFormat::Auto, const ModelOptions& o = {});

}  // namespace hetsparse::planners
