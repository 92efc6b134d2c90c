// The traffic model behind the partition choice (spmv_partition_model.hpp). Bytes follow
// docs/benchmarks.md: 12 per nonzero (value + column index) and, per row, 4 of row offset and 8 of y;
// x costs 8 per column a part may touch: its slice (pCSC), else at most its nonzeros.
#include "planners/spmv_partition_model.hpp"

#include <algorithm>
#include <cmath>

#include "hetsparse/error.hpp"

namespace hetsparse::planners {

MatrixProfile matrix_profile(const Csr& A) {
  MatrixProfile p;
  p.rows = A.rows;
  p.cols = A.cols;
  p.nnz = A.nnz();
  if (A.rows == 0) return p;
  p.mean_row = double(p.nnz) / A.rows;
  double squares = 0;
  for (index_t r = 0; r < A.rows; ++r) {
    const offset_t len = A.rowptr[r + 1] - A.rowptr[r];
    p.max_row = std::max(p.max_row, len);
    squares += (double(len) - p.mean_row) * (double(len) - p.mean_row);
  }
  p.row_cv = p.mean_row > 0 ? std::sqrt(squares / A.rows) / p.mean_row : 0.0;
  for (offset_t c : column_counts(A)) p.max_col = std::max(p.max_col, c);
  return p;
}

double part_bytes(const SpmvPartition& p, std::size_t k) {
  const SpmvPart& part = p.parts.at(k);
  if (!p.has_task(k)) return 0.0;
  const double nnz = double(part.nnz), rows = double(part.rows());
  switch (p.format) {
    case PartitionFormat::Pcsr:
      return 12 * nnz + 12 * rows + 8 * std::min(double(p.cols), nnz);
    case PartitionFormat::Pcoo:  // + its partial segment written, then read by the merge
      return 12 * nnz + 28 * rows + 8 * std::min(double(p.cols), nnz);
    case PartitionFormat::Pcsc:  // every row's offset and a full-length partial, its slice of x
      return 12 * nnz + 12 * double(p.rows) + 8 * double(part.col_end - part.col_begin);
    case PartitionFormat::Auto: break;
  }
  return 0.0;
}

FormatCost partition_cost(const SpmvPartition& p, const std::vector<double>& rates, const ModelOptions& o) {
  if (rates.size() != p.parts.size())
    throw InvalidArgument("partition_cost: " + std::to_string(rates.size()) + " rates for " +
                          std::to_string(p.parts.size()) + " parts");
  FormatCost c;
  c.format = p.format;
  double slowest = 0, total = 0;
  std::size_t working = 0;
  for (std::size_t k = 0; k < p.parts.size(); ++k) {
    const double s = part_bytes(p, k) / rates[k];
    slowest = std::max(slowest, s);
    total += s;
    working += p.has_task(k);
  }
  c.imbalance = total > 0 ? slowest * double(working) / total : 1.0;
  if (p.format == PartitionFormat::Pcsc && p.rows > 0) {
    // Every partial read once and y written once, on y's device, after every part.
    c.merge_seconds = 8.0 * double(p.rows) * double(working + 1) / o.merge_bytes_per_s + o.step_overhead_s;
  } else if (p.format == PartitionFormat::Pcoo && working > 1) {
    // Each owner merges its rows on its device, in parallel: the largest owner's rows.
    double largest = 0;
    for (std::size_t k = 0; k < p.parts.size(); ++k)
      largest = std::max(largest, 24.0 * double(p.parts[k].row_end - p.parts[k].owned_begin()) / rates[k]);
    c.merge_seconds = largest + o.step_overhead_s;
  }
  c.seconds = slowest + c.merge_seconds;
  return c;
}

PartitionChoice choose_partition(const Csr& A, const std::vector<double>& weights, const std::vector<double>& rates,
                                 PartitionFormat only, const ModelOptions& o) {
  PartitionChoice choice;
  for (PartitionFormat f : {PartitionFormat::Pcsr, PartitionFormat::Pcoo, PartitionFormat::Pcsc}) {
    if (only != PartitionFormat::Auto && f != only) continue;
    choice.costs.push_back(partition_cost(make_partition(A, f, weights), rates, o));
  }
  // Cheapest first; ties keep the order above (pCSR before pCOO before pCSC: fewer tasks).
  std::stable_sort(choice.costs.begin(), choice.costs.end(),
                   [](const FormatCost& a, const FormatCost& b) { return a.seconds < b.seconds; });
  choice.format = choice.costs.front().format;
  return choice;
}

}  // namespace hetsparse::planners
