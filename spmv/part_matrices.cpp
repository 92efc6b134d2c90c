#include "spmv/part_matrices.hpp"

#include <algorithm>

namespace hetsparse {
namespace {

using planners::SpmvPart;

// Rows [row_begin, row_end) of A, keeping only entries in [entry_begin, entry_end).
Csr clipped_rows(const Csr& A, const SpmvPart& part) {
  Csr c;
  c.rows = part.rows();
  c.cols = A.cols;
  c.rowptr.assign(static_cast<std::size_t>(c.rows) + 1, 0);
  const offset_t lo = part.entry_begin, hi = std::max(part.entry_begin, part.entry_end);
  for (index_t i = 0; i < c.rows; ++i) {
    const index_t r = part.row_begin + i;
    const offset_t b = std::clamp(A.rowptr[r], lo, hi), e = std::clamp(A.rowptr[r + 1], lo, hi);
    c.rowptr[i + 1] = c.rowptr[i] + (e - b);
  }
  const offset_t first = std::clamp(A.rowptr[part.row_begin], lo, hi);
  const offset_t last = std::clamp(A.rowptr[part.row_end], lo, hi);
  c.colind.assign(A.colind.begin() + first, A.colind.begin() + last);
  c.values.assign(A.values.begin() + first, A.values.begin() + last);
  return c;
}

// Every column block at once: one pass to count, one to fill (entries keep their order in a row).
std::vector<Csr> column_blocks(const Csr& A, const planners::SpmvPartition& p) {
  const std::size_t P = p.parts.size();
  std::vector<index_t> starts;
  for (const SpmvPart& part : p.parts) starts.push_back(part.col_begin);
  const auto part_of = [&](index_t c) {
    // The last part starting at or before c that is not empty (empty parts start where the next does).
    std::size_t k = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), c) - starts.begin()) - 1;
    while (p.parts[k].col_end <= c) ++k;
    return k;
  };
  std::vector<Csr> out(P);
  for (std::size_t k = 0; k < P; ++k) {
    out[k].rows = A.rows;
    out[k].cols = p.parts[k].col_end - p.parts[k].col_begin;
    out[k].rowptr.assign(static_cast<std::size_t>(A.rows) + 1, 0);
  }
  std::vector<std::size_t> owner(A.colind.size());
  for (index_t r = 0; r < A.rows; ++r)
    for (offset_t e = A.rowptr[r]; e < A.rowptr[r + 1]; ++e) {
      owner[e] = part_of(A.colind[e]);
      ++out[owner[e]].rowptr[r + 1];
    }
  for (Csr& c : out) {
    for (index_t r = 0; r < A.rows; ++r) c.rowptr[r + 1] += c.rowptr[r];
    c.colind.resize(c.rowptr.back());
    c.values.resize(c.rowptr.back());
  }
  std::vector<offset_t> fill(P);
  for (index_t r = 0; r < A.rows; ++r) {
    for (std::size_t k = 0; k < P; ++k) fill[k] = out[k].rowptr[r];
    for (offset_t e = A.rowptr[r]; e < A.rowptr[r + 1]; ++e) {
      Csr& c = out[owner[e]];
      c.colind[fill[owner[e]]] = A.colind[e] - p.parts[owner[e]].col_begin;
      c.values[fill[owner[e]]++] = A.values[e];
    }
  }
  return out;
}

}  // namespace

std::vector<Csr> part_matrices(const Csr& A, const planners::SpmvPartition& p) {
  if (p.format == planners::PartitionFormat::Pcsc) return column_blocks(A, p);
  std::vector<Csr> out;
  for (const SpmvPart& part : p.parts) out.push_back(clipped_rows(A, part));
  return out;
}

}  // namespace hetsparse
