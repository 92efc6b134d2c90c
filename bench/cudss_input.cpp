// The part of the cuDSS anchor that needs neither the library nor a GPU (tested in tests/bench).
#include <limits>

#include "bench/cudss_anchor.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::bench {

std::vector<std::int32_t> cudss_row_offsets(const Csr& lower) {
  if (lower.rows != lower.cols || static_cast<index_t>(lower.rowptr.size()) != lower.rows + 1)
    throw InvalidArgument("cuDSS anchor: the matrix must be square with rows + 1 row offsets");
  if (lower.nnz() > std::numeric_limits<std::int32_t>::max())
    throw InvalidArgument("cuDSS anchor: " + std::to_string(lower.nnz()) +
                          " entries in the lower triangle exceed 32-bit row offsets");
  std::vector<std::int32_t> rowptr(lower.rowptr.size());
  for (index_t i = 0; i < lower.rows; ++i) {
    rowptr[i] = static_cast<std::int32_t>(lower.rowptr[i]);
    for (offset_t k = lower.rowptr[i]; k < lower.rowptr[i + 1]; ++k)
      if (lower.colind[k] > i)
        throw InvalidArgument("cuDSS anchor: entry (" + std::to_string(i) + ", " + std::to_string(lower.colind[k]) +
                              ") above the diagonal: cuDSS is given the lower triangle");
  }
  rowptr[lower.rows] = static_cast<std::int32_t>(lower.nnz());
  return rowptr;
}

}  // namespace hetsparse::bench
