// Consistency checks for CSR matrices built by hand or received from outside.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"

namespace hetsparse {

void validate(const Csr& a) {
  if (a.rows < 0 || a.cols < 0) {
    throw InvalidArgument("validate: negative dimension " + std::to_string(a.rows) + " x " +
                          std::to_string(a.cols));
  }
  if (a.rows == 0 && a.rowptr.empty() && a.colind.empty() && a.values.empty()) return;
  if (a.rowptr.size() != static_cast<std::size_t>(a.rows) + 1) {
    throw InvalidArgument("validate: rowptr has " + std::to_string(a.rowptr.size()) + " entries, expected rows + 1 = " +
                          std::to_string(static_cast<offset_t>(a.rows) + 1));
  }
  if (a.rowptr[0] != 0) {
    throw InvalidArgument("validate: rowptr[0] is " + std::to_string(a.rowptr[0]) + ", expected 0");
  }
  for (index_t i = 0; i < a.rows; ++i) {
    if (a.rowptr[i + 1] < a.rowptr[i]) {
      throw InvalidArgument("validate: rowptr decreases at row " + std::to_string(i) + " (rowptr[" +
                            std::to_string(i) + "] = " + std::to_string(a.rowptr[i]) + ", rowptr[" +
                            std::to_string(i + 1) + "] = " + std::to_string(a.rowptr[i + 1]) + ")");
    }
  }
  const offset_t nnz = a.rowptr.back();
  if (a.colind.size() != static_cast<std::size_t>(nnz) || a.values.size() != static_cast<std::size_t>(nnz)) {
    throw InvalidArgument("validate: rowptr ends at " + std::to_string(nnz) + " but colind has " +
                          std::to_string(a.colind.size()) + " and values " + std::to_string(a.values.size()) +
                          " entries");
  }
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (a.colind[p] < 0 || a.colind[p] >= a.cols) {
        throw StructureError(i, a.colind[p],
                             "validate: column index outside [0, " + std::to_string(a.cols) + ")");
      }
    }
  }
}

bool is_structurally_symmetric(const Csr& a) {
  if (a.rows != a.cols) return false;
  // transpose() returns sorted rows; sort a copy of A to compare row by row, ignoring duplicates.
  // Both copies are scratch: std::unique reorders within each row, which is harmless here.
  Csr t = transpose(a);
  Csr s = a;
  sort_rows(s);
  for (index_t i = 0; i < a.rows; ++i) {
    const auto s_first = s.colind.begin() + s.rowptr[i];
    const auto s_last = std::unique(s_first, s.colind.begin() + s.rowptr[i + 1]);
    const auto t_first = t.colind.begin() + t.rowptr[i];
    const auto t_last = std::unique(t_first, t.colind.begin() + t.rowptr[i + 1]);
    if (!std::equal(s_first, s_last, t_first, t_last)) return false;
  }
  return true;
}

}  // namespace hetsparse
