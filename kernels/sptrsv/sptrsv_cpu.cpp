// Serial substitution kernels on the normalised CSR: forward/backward, transposed, and a range of
// level-ordered rows. The diagonal's fixed slot (last for lower, first for upper) means no row
// needs to search for it.
#include <cstddef>

#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::kernels {
namespace {

// Off-diagonal entries of a row are [begin, end), the diagonal at `diagonal`.
struct RowSpan {
  index_t begin, end, diagonal;
};

// The span of the row stored at rowptr[index] .. rowptr[index + 1].
RowSpan row_span(bool upper, const index_t* rowptr, index_t index) {
  const index_t first = rowptr[index];
  const index_t last = rowptr[index + 1];
  return upper ? RowSpan{first + 1, last, first} : RowSpan{first, last - 1, last - 1};
}

std::size_t at(index_t row, index_t column, index_t ld) {
  return static_cast<std::size_t>(row) + static_cast<std::size_t>(column) * static_cast<std::size_t>(ld);
}

// start - the row's products with x (colind/values[span]), in two partial sums: the products do not
// wait on one chain of dependent subtractions.
inline double minus_row_products(double start, const RowSpan& span, const index_t* colind, const double* values,
                                 const double* x) {
  double even = start, odd = 0.0;
  index_t p = span.begin;
  for (; p + 1 < span.end; p += 2) {
    even -= values[p] * x[colind[p]];
    odd -= values[p + 1] * x[colind[p + 1]];
  }
  if (p < span.end) even -= values[p] * x[colind[p]];
  return even + odd;
}

// x[row] for every right-hand side, from x entries already final; the row's entries are
// colind/values[span]. b is read before x is written.
void solve_row(index_t row, const RowSpan& span, const index_t* colind, const double* values, const double* b,
               index_t ldb, double* x, index_t ldx, index_t nrhs) {
  const double diagonal = values[span.diagonal];
  for (index_t r = 0; r < nrhs; ++r) {
    const double* x_column = x + static_cast<std::size_t>(r) * static_cast<std::size_t>(ldx);
    x[at(row, r, ldx)] = minus_row_products(b[at(row, r, ldb)], span, colind, values, x_column) / diagonal;
  }
}

}  // namespace

void sptrsv_cpu(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx, index_t nrhs) {
  if (nrhs == 1) {  // one column: no column strides in the loop (docs/benchmarks.md, issue 16)
    for (index_t k = 0; k < t.n; ++k) {
      const index_t row = t.upper ? t.n - 1 - k : k;
      const RowSpan span = row_span(t.upper, t.rowptr, row);
      x[row] = minus_row_products(b[row], span, t.colind, t.values, x) / t.values[span.diagonal];
    }
    return;
  }
  for (index_t k = 0; k < t.n; ++k) {
    const index_t row = t.upper ? t.n - 1 - k : k;
    solve_row(row, row_span(t.upper, t.rowptr, row), t.colind, t.values, b, ldb, x, ldx, nrhs);
  }
}

void sptrsv_cpu_transpose(const TriangularView& t, const double* b, index_t ldb, double* x, index_t ldx,
                          index_t nrhs) {
  // T^T is upper when T is lower: its last unknown is final first.
  for (index_t r = 0; r < nrhs; ++r) {
    const double* b_column = b + static_cast<std::size_t>(r) * static_cast<std::size_t>(ldb);
    double* x_column = x + static_cast<std::size_t>(r) * static_cast<std::size_t>(ldx);
    if (b_column != x_column) {
      for (index_t i = 0; i < t.n; ++i) x_column[i] = b_column[i];
    }
    for (index_t k = 0; k < t.n; ++k) {
      const index_t i = t.upper ? k : t.n - 1 - k;
      const RowSpan span = row_span(t.upper, t.rowptr, i);
      const double xi = x_column[i] / t.values[span.diagonal];
      x_column[i] = xi;
      for (index_t p = span.begin; p < span.end; ++p) {
        x_column[t.colind[p]] -= t.values[p] * xi;
      }
    }
  }
}

void sptrsv_cpu_level(const TriangularView& t, index_t level_begin, index_t level_end, const double* b,
                      index_t ldb, double* x, index_t ldx, index_t nrhs) {
  if (t.level_rowptr != nullptr) {  // contiguous rows: streams instead of jumping between rows
    for (index_t pos = level_begin; pos < level_end; ++pos) {
      solve_row(t.level_rows[pos], row_span(t.upper, t.level_rowptr, pos), t.level_colind, t.level_values, b, ldb,
                x, ldx, nrhs);
    }
    return;
  }
  for (index_t pos = level_begin; pos < level_end; ++pos) {
    const index_t row = t.level_rows[pos];
    solve_row(row, row_span(t.upper, t.rowptr, row), t.colind, t.values, b, ldb, x, ldx, nrhs);
  }
}

}  // namespace hetsparse::kernels
