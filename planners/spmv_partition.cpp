// The three MSREP partitions as index ranges.
#include "planners/spmv_partition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetsparse/error.hpp"
#include "sparse/named_values.hpp"

namespace hetsparse::planners {
namespace {

void check_weights(const std::vector<double>& weights) {
  if (weights.empty()) throw InvalidArgument("SpMV partition: no parts (at least one weight is needed)");
  for (std::size_t k = 0; k < weights.size(); ++k)
    if (!(weights[k] > 0) || !std::isfinite(weights[k]))
      throw InvalidArgument("SpMV partition: the weight of part " + std::to_string(k) + " is " +
                            std::to_string(weights[k]) + ", not a positive number");
}

// Target positions: cumulative shares of `total`, rounded; 0 first and `total` last.
std::vector<offset_t> targets(const std::vector<double>& weights, offset_t total) {
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<offset_t> t{0};
  double running = 0;
  for (std::size_t k = 0; k + 1 < weights.size(); ++k) {
    running += weights[k];
    t.push_back(std::clamp<offset_t>(std::llround(double(total) * running / sum), t.back(), total));
  }
  t.push_back(total);
  return t;
}

// Boundaries 0 = b_0 <= ... <= b_P = n on a prefix array (n + 1 entries): b_k is the boundary whose
// prefix is nearest target k, never before the previous one.
std::vector<index_t> nearest_cuts(const std::vector<offset_t>& prefix, const std::vector<offset_t>& t) {
  const auto n = static_cast<index_t>(prefix.size() - 1);
  std::vector<index_t> b{0};
  for (std::size_t k = 1; k + 1 < t.size(); ++k) {
    auto r = static_cast<index_t>(std::lower_bound(prefix.begin(), prefix.end(), t[k]) - prefix.begin());
    if (r > 0 && t[k] - prefix[r - 1] < prefix[std::min(r, n)] - t[k]) --r;  // the lower boundary is nearer
    b.push_back(std::clamp(r, b.back(), n));
  }
  b.push_back(n);
  return b;
}

// The row holding entry e of A (e < nnz): the last row starting at or before e.
index_t row_of_entry(const Csr& A, offset_t e) {
  return static_cast<index_t>(std::upper_bound(A.rowptr.begin(), A.rowptr.end(), e) - A.rowptr.begin()) - 1;
}

SpmvPartition empty_partition(const Csr& A, PartitionFormat f, std::size_t parts) {
  SpmvPartition p;
  p.format = f;
  p.rows = A.rows;
  p.cols = A.cols;
  p.nnz = A.nnz();
  p.parts.resize(parts);
  for (SpmvPart& part : p.parts) part.col_end = A.cols;
  return p;
}

}  // namespace

constexpr Named<PartitionFormat> kFormats[] = {{PartitionFormat::Pcsr, "pcsr"},
                                                {PartitionFormat::Pcsc, "pcsc"},
                                                {PartitionFormat::Pcoo, "pcoo"},
                                                {PartitionFormat::Auto, "auto"}};

PartitionFormat parse_partition_format(const std::string& name) {
  return parse_named(name, kFormats, "partition format");
}

const char* to_string(PartitionFormat f) { return name_of(f, kFormats); }

bool SpmvPartition::has_task(std::size_t k) const {
  const SpmvPart& p = parts.at(k);
  return format == PartitionFormat::Pcsc ? p.nnz > 0 : p.rows() > 0;
}

std::vector<offset_t> column_counts(const Csr& A) {
  std::vector<offset_t> counts(static_cast<std::size_t>(A.cols), 0);
  for (index_t c : A.colind) ++counts[static_cast<std::size_t>(c)];
  return counts;
}

SpmvPartition partition_pcsr(const Csr& A, const std::vector<double>& weights) {
  check_weights(weights);
  SpmvPartition p = empty_partition(A, PartitionFormat::Pcsr, weights.size());
  if (A.rows == 0) return p;
  const std::vector<index_t> cuts = nearest_cuts(A.rowptr, targets(weights, A.nnz()));
  for (std::size_t k = 0; k < weights.size(); ++k) {
    SpmvPart& part = p.parts[k];
    part.row_begin = cuts[k];
    part.row_end = cuts[k + 1];
    part.entry_begin = A.rowptr[part.row_begin];
    part.entry_end = A.rowptr[part.row_end];
    part.nnz = part.entry_end - part.entry_begin;
  }
  return p;
}

SpmvPartition partition_pcsc(const Csr& A, const std::vector<double>& weights) {
  check_weights(weights);
  SpmvPartition p = empty_partition(A, PartitionFormat::Pcsc, weights.size());
  const std::vector<offset_t> counts = column_counts(A);
  std::vector<offset_t> prefix(counts.size() + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), prefix.begin() + 1);
  const std::vector<index_t> cuts = nearest_cuts(prefix, targets(weights, A.nnz()));
  for (std::size_t k = 0; k < weights.size(); ++k) {
    SpmvPart& part = p.parts[k];
    part.row_end = A.rows;
    part.col_begin = cuts[k];
    part.col_end = cuts[k + 1];
    part.nnz = prefix[part.col_end] - prefix[part.col_begin];
  }
  return p;
}

SpmvPartition partition_pcoo(const Csr& A, const std::vector<double>& weights) {
  check_weights(weights);
  SpmvPartition p = empty_partition(A, PartitionFormat::Pcoo, weights.size());
  if (A.rows == 0) return p;
  const std::vector<offset_t> cut = targets(weights, A.nnz());
  std::size_t previous = weights.size();  // the last part with nonzeros so far
  for (std::size_t k = 0; k < weights.size(); ++k) {
    if (cut[k] == cut[k + 1]) continue;  // no nonzeros: no rows either
    SpmvPart& part = p.parts[k];
    part.entry_begin = cut[k];
    part.entry_end = cut[k + 1];
    part.nnz = cut[k + 1] - cut[k];
    const index_t first = row_of_entry(A, cut[k]), last = row_of_entry(A, cut[k + 1] - 1);
    part.shares_first_row = cut[k] > A.rowptr[first];
    part.shares_last_row = cut[k + 1] < A.rowptr[last + 1];
    part.row_begin = first;
    part.row_end = last + 1;
    // Empty rows between two parts' nonzeros go to the earlier part; those before the first to it.
    if (previous == weights.size()) {
      part.row_begin = 0;
    } else {
      p.parts[previous].row_end = std::max(p.parts[previous].row_end, first + (part.shares_first_row ? 1 : 0));
    }
    previous = k;
  }
  if (previous == weights.size()) {  // no nonzeros at all: part 0 writes beta y
    p.parts[0].row_end = A.rows;
  } else {
    p.parts[previous].row_end = A.rows;
  }
  return p;
}

SpmvPartition make_partition(const Csr& A, PartitionFormat format, const std::vector<double>& weights) {
  switch (format) {
    case PartitionFormat::Pcsr: return partition_pcsr(A, weights);
    case PartitionFormat::Pcsc: return partition_pcsc(A, weights);
    case PartitionFormat::Pcoo: return partition_pcoo(A, weights);
    case PartitionFormat::Auto: break;
  }
  throw InvalidArgument("make_partition: format auto must be resolved first (choose_partition)");
}

}  // namespace hetsparse::planners
