// Structural operations on CSR matrices: triangles, symmetric expansion, symmetric
// permutation and row blocks.
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"

namespace hetsparse {
namespace {

void require_square(const Csr& a, const char* who) {
  if (a.rows != a.cols) {
    throw InvalidArgument(std::string(who) + ": matrix must be square, got " + std::to_string(a.rows) +
                          " x " + std::to_string(a.cols));
  }
}

// Keeps the entries of each row for which keep(row, col) holds, in their original order.
template <class Keep>
Csr filter_entries(const Csr& a, Keep keep) {
  Csr out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.rowptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (keep(i, a.colind[p])) {
        out.colind.push_back(a.colind[p]);
        out.values.push_back(a.values[p]);
      }
    }
    out.rowptr[static_cast<std::size_t>(i) + 1] = static_cast<offset_t>(out.colind.size());
  }
  return out;
}

}  // namespace

Csr triangle(const Csr& a, Triangle tri, bool keep_diagonal) {
  require_square(a, "triangle");
  if (tri == Triangle::Lower) {
    return filter_entries(a, [keep_diagonal](index_t i, index_t j) { return j < i || (keep_diagonal && j == i); });
  }
  return filter_entries(a, [keep_diagonal](index_t i, index_t j) { return j > i || (keep_diagonal && j == i); });
}

Csr full_from_triangle(const Csr& tri) {
  require_square(tri, "full_from_triangle");
  bool has_lower = false, has_upper = false;
  for (index_t i = 0; i < tri.rows; ++i) {
    for (offset_t p = tri.rowptr[i]; p < tri.rowptr[i + 1]; ++p) {
      has_lower = has_lower || tri.colind[p] < i;
      has_upper = has_upper || tri.colind[p] > i;
      if (has_lower && has_upper) {
        throw InvalidArgument("full_from_triangle: input has entries on both sides of the diagonal (found "
                              "one at row " + std::to_string(i) + ", column " +
                              std::to_string(tri.colind[p]) + ")");
      }
    }
  }
  // Each stored entry once, each off-diagonal entry mirrored; to_csr sorts and sums any
  // duplicates the triangle itself carried.
  Coo coo;
  coo.rows = tri.rows;
  coo.cols = tri.cols;
  const auto reserve = static_cast<std::size_t>(2 * tri.nnz());
  coo.row.reserve(reserve);
  coo.col.reserve(reserve);
  coo.val.reserve(reserve);
  for (index_t i = 0; i < tri.rows; ++i) {
    for (offset_t p = tri.rowptr[i]; p < tri.rowptr[i + 1]; ++p) {
      const index_t j = tri.colind[p];
      coo.row.push_back(i);
      coo.col.push_back(j);
      coo.val.push_back(tri.values[p]);
      if (j != i) {
        coo.row.push_back(j);
        coo.col.push_back(i);
        coo.val.push_back(tri.values[p]);
      }
    }
  }
  return to_csr(coo);
}

Csr symmetric_permute(const Csr& a, const std::vector<index_t>& perm) {
  require_square(a, "symmetric_permute");
  if (perm.size() != static_cast<std::size_t>(a.rows)) {
    throw InvalidArgument("symmetric_permute: permutation has " + std::to_string(perm.size()) +
                          " entries for a matrix with " + std::to_string(a.rows) + " rows");
  }
  // inverse[old] = new; a repeated or out-of-range entry means perm is no permutation.
  std::vector<index_t> inverse(perm.size(), -1);
  for (index_t k = 0; k < a.rows; ++k) {
    const index_t old = perm[static_cast<std::size_t>(k)];
    if (old < 0 || old >= a.rows) {
      throw InvalidArgument("symmetric_permute: perm[" + std::to_string(k) + "] = " + std::to_string(old) +
                            " is outside [0, " + std::to_string(a.rows) + ")");
    }
    if (inverse[static_cast<std::size_t>(old)] != -1) {
      throw InvalidArgument("symmetric_permute: perm[" + std::to_string(k) + "] = " + std::to_string(old) +
                            " repeats perm[" + std::to_string(inverse[static_cast<std::size_t>(old)]) + "]");
    }
    inverse[static_cast<std::size_t>(old)] = k;
  }
  Csr b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.rowptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  b.colind.resize(static_cast<std::size_t>(a.nnz()));
  b.values.resize(static_cast<std::size_t>(a.nnz()));
  offset_t q = 0;
  for (index_t i = 0; i < b.rows; ++i) {
    const index_t src = perm[static_cast<std::size_t>(i)];
    for (offset_t p = a.rowptr[src]; p < a.rowptr[src + 1]; ++p, ++q) {
      b.colind[q] = inverse[static_cast<std::size_t>(a.colind[p])];
      b.values[q] = a.values[p];
    }
    b.rowptr[static_cast<std::size_t>(i) + 1] = q;
  }
  sort_rows(b);
  return b;
}

Csr row_block(const Csr& a, index_t first_row, index_t end_row) {
  if (first_row < 0 || first_row > end_row || end_row > a.rows) {
    throw InvalidArgument("row_block: rows [" + std::to_string(first_row) + ", " + std::to_string(end_row) +
                          ") are not a range inside [0, " + std::to_string(a.rows) + ")");
  }
  Csr b;
  b.rows = end_row - first_row;
  b.cols = a.cols;
  b.rowptr.resize(static_cast<std::size_t>(b.rows) + 1);
  const offset_t base = a.rows == 0 ? 0 : a.rowptr[first_row];
  for (index_t i = 0; i <= b.rows; ++i) {
    b.rowptr[static_cast<std::size_t>(i)] = a.rows == 0 ? 0 : a.rowptr[first_row + i] - base;
  }
  if (b.rows > 0) {
    b.colind.assign(a.colind.begin() + base, a.colind.begin() + a.rowptr[end_row]);
    b.values.assign(a.values.begin() + base, a.values.begin() + a.rowptr[end_row]);
  }
  return b;
}

}  // namespace hetsparse
