// Format conversions. Everything is a counting sort (O(nnz + n), stable), so results are
// deterministic and rows come out sorted without a comparison sort.
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/memory_budget.hpp"

namespace hetsparse {
namespace {

// Compressed arrays of one orientation (CSR rows or CSC columns).
struct Compressed {
  std::vector<offset_t> ptr;
  std::vector<index_t> idx;
  std::vector<double> val;
};

// Transposes compressed storage with `n_outer` outer slots and inner indices < n_inner.
// Outer slot k of the result lists, in increasing order, the outer slots of the input that
// hold index k, so the result is sorted even when the input is not.
Compressed counting_transpose(index_t n_outer, index_t n_inner, const std::vector<offset_t>& ptr,
                              const std::vector<index_t>& idx, const std::vector<double>& val) {
  Compressed out;
  const offset_t nnz = n_outer == 0 ? 0 : ptr[static_cast<std::size_t>(n_outer)];
  out.ptr.assign(static_cast<std::size_t>(n_inner) + 1, 0);
  for (offset_t p = 0; p < nnz; ++p) ++out.ptr[static_cast<std::size_t>(idx[p]) + 1];
  std::partial_sum(out.ptr.begin(), out.ptr.end(), out.ptr.begin());
  out.idx.resize(static_cast<std::size_t>(nnz));
  out.val.resize(static_cast<std::size_t>(nnz));
  std::vector<offset_t> next(out.ptr.begin(), out.ptr.end() - 1);
  for (index_t i = 0; i < n_outer; ++i) {
    for (offset_t p = ptr[i]; p < ptr[i + 1]; ++p) {
      const offset_t q = next[static_cast<std::size_t>(idx[p])]++;
      out.idx[q] = i;
      out.val[q] = val[p];
    }
  }
  return out;
}

Csr make_csr(index_t rows, index_t cols, Compressed&& c) {
  Csr a;
  a.rows = rows;
  a.cols = cols;
  a.rowptr = std::move(c.ptr);
  a.colind = std::move(c.idx);
  a.values = std::move(c.val);
  return a;
}

// Merges adjacent equal column indices within each row (rows must already be sorted).
void sum_adjacent_duplicates(Csr& a) {
  offset_t out = 0;
  offset_t row_begin = 0;
  for (index_t i = 0; i < a.rows; ++i) {
    const offset_t row_end = a.rowptr[i + 1];
    for (offset_t p = row_begin; p < row_end; ++p) {
      if (out > a.rowptr[i] && a.colind[out - 1] == a.colind[p]) {
        a.values[out - 1] += a.values[p];
      } else {
        a.colind[out] = a.colind[p];
        a.values[out] = a.values[p];
        ++out;
      }
    }
    row_begin = row_end;
    a.rowptr[i + 1] = out;
  }
  a.colind.resize(static_cast<std::size_t>(out));
  a.values.resize(static_cast<std::size_t>(out));
}

}  // namespace

Csr to_csr(const Coo& coo) {
  if (coo.rows < 0 || coo.cols < 0) {
    throw InvalidArgument("to_csr: negative dimension " + std::to_string(coo.rows) + " x " +
                          std::to_string(coo.cols));
  }
  if (coo.col.size() != coo.row.size() || coo.val.size() != coo.row.size()) {
    throw InvalidArgument("to_csr: COO arrays differ in length (row " +
                          std::to_string(coo.row.size()) + ", col " + std::to_string(coo.col.size()) +
                          ", val " + std::to_string(coo.val.size()) + ")");
  }
  const offset_t nnz = coo.nnz();
  const bool rows_sorted = std::is_sorted(coo.row.begin(), coo.row.end());
  // The peak of the path taken below: the row pointer and a copy of the entries, plus, when
  // bucketing, the column pointer, both cursors and a second copy.
  ByteCount peak;
  peak.add(static_cast<std::uint64_t>(coo.rows) + 1, sizeof(offset_t))
      .add(static_cast<std::uint64_t>(nnz), sizeof(index_t) + sizeof(double));
  if (!rows_sorted) {
    peak.add(static_cast<std::uint64_t>(coo.rows) + 1, sizeof(offset_t))
        .add(2 * (static_cast<std::uint64_t>(coo.cols) + 1), sizeof(offset_t))
        .add(static_cast<std::uint64_t>(nnz), sizeof(index_t) + sizeof(double));
  }
  require_memory(peak.bytes(), "a CSR copy of the " + std::to_string(coo.rows) + " x " + std::to_string(coo.cols) +
                                   " matrix with " + std::to_string(nnz) + " entries");
  for (offset_t p = 0; p < nnz; ++p) {
    if (coo.row[p] < 0 || coo.row[p] >= coo.rows || coo.col[p] < 0 || coo.col[p] >= coo.cols) {
      throw StructureError(coo.row[p], coo.col[p],
                           "to_csr: COO entry " + std::to_string(p) + " outside the " +
                               std::to_string(coo.rows) + " x " + std::to_string(coo.cols) + " matrix");
    }
  }
  // Files written row by row (and to_coo output) need no bucketing: build the rows directly,
  // then sort within rows (stable, so duplicates keep input order).
  if (rows_sorted) {
    Csr a;
    a.rows = coo.rows;
    a.cols = coo.cols;
    a.rowptr.assign(static_cast<std::size_t>(coo.rows) + 1, 0);
    for (offset_t p = 0; p < nnz; ++p) ++a.rowptr[static_cast<std::size_t>(coo.row[p]) + 1];
    std::partial_sum(a.rowptr.begin(), a.rowptr.end(), a.rowptr.begin());
    a.colind = coo.col;
    a.values = coo.val;
    sort_rows(a);
    sum_adjacent_duplicates(a);
    return a;
  }
  // Otherwise bucket by column first (stable), then by row: the second pass visits columns
  // in order, so each row ends up sorted, with duplicates adjacent and in input order.
  Compressed by_col;
  by_col.ptr.assign(static_cast<std::size_t>(coo.cols) + 1, 0);
  for (offset_t p = 0; p < nnz; ++p) ++by_col.ptr[static_cast<std::size_t>(coo.col[p]) + 1];
  std::partial_sum(by_col.ptr.begin(), by_col.ptr.end(), by_col.ptr.begin());
  by_col.idx.resize(static_cast<std::size_t>(nnz));
  by_col.val.resize(static_cast<std::size_t>(nnz));
  std::vector<offset_t> next(by_col.ptr.begin(), by_col.ptr.end() - 1);
  for (offset_t p = 0; p < nnz; ++p) {
    const offset_t q = next[static_cast<std::size_t>(coo.col[p])]++;
    by_col.idx[q] = coo.row[p];
    by_col.val[q] = coo.val[p];
  }
  Csr a = make_csr(coo.rows, coo.cols,
                   counting_transpose(coo.cols, coo.rows, by_col.ptr, by_col.idx, by_col.val));
  sum_adjacent_duplicates(a);
  return a;
}

Coo to_coo(const Csr& a) {
  Coo coo;
  coo.rows = a.rows;
  coo.cols = a.cols;
  coo.row.resize(static_cast<std::size_t>(a.nnz()));
  for (index_t i = 0; i < a.rows; ++i) {
    std::fill(coo.row.begin() + a.rowptr[i], coo.row.begin() + a.rowptr[i + 1], i);
  }
  coo.col = a.colind;
  coo.val = a.values;
  return coo;
}

Csr transpose(const Csr& a) {
  return make_csr(a.cols, a.rows, counting_transpose(a.rows, a.cols, a.rowptr, a.colind, a.values));
}

// The CSC arrays of A are the CSR arrays of A^T.
Csc to_csc(const Csr& a) {
  Compressed t = counting_transpose(a.rows, a.cols, a.rowptr, a.colind, a.values);
  Csc c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.colptr = std::move(t.ptr);
  c.rowind = std::move(t.idx);
  c.values = std::move(t.val);
  return c;
}

Csr to_csr(const Csc& c) {
  return make_csr(c.rows, c.cols, counting_transpose(c.cols, c.rows, c.colptr, c.rowind, c.values));
}

void sort_rows(Csr& a) {
  std::vector<std::pair<index_t, double>> row;
  for (index_t i = 0; i < a.rows; ++i) {
    const auto first = a.colind.begin() + a.rowptr[i];
    const auto last = a.colind.begin() + a.rowptr[i + 1];
    if (std::is_sorted(first, last)) continue;
    row.clear();
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) row.emplace_back(a.colind[p], a.values[p]);
    std::stable_sort(row.begin(), row.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    offset_t p = a.rowptr[i];
    for (const auto& [c, v] : row) {
      a.colind[p] = c;
      a.values[p] = v;
      ++p;
    }
  }
}

}  // namespace hetsparse
