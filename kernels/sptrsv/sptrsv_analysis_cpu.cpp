// Serial row pass of the selector features: the oracle for row_statistics_cuda.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/sptrsv/sptrsv_analysis.hpp"

namespace hetsparse::kernels {

RowStatistics row_statistics(const TriangularView& t) {
  RowStatistics s;
  const index_t n = t.n;
  if (n == 0) return s;
  s.nnz = t.rowptr[n];
  const double mean = static_cast<double>(s.nnz) / static_cast<double>(n);
  // 32-bit counters (a column has at most n entries): the increments are random over n counters,
  // so half the memory is about half the cache misses.
  std::vector<index_t> column_length(static_cast<std::size_t>(n), 0);
  for (index_t i = 0; i < n; ++i) {
    const index_t begin = t.rowptr[i], end = t.rowptr[i + 1];
    s.longest_row = std::max<std::int64_t>(s.longest_row, end - begin);
    const double d = static_cast<double>(end - begin) - mean;  // two-pass: no cancellation
    s.row_length_squares += d * d;
    for (index_t p = begin; p < end; ++p) ++column_length[static_cast<std::size_t>(t.colind[p])];
    if (end - begin > 1) {  // nearest dependency: the off-diagonal next to the diagonal slot
      const index_t nearest = t.upper ? t.colind[begin + 1] : t.colind[end - 2];
      s.inverse_distance_sum += 1.0 / std::abs(static_cast<double>(i) - static_cast<double>(nearest));
    }
  }
  s.long_column_extra_warps = 0;
  for (const index_t c : column_length) {
    s.longest_column = std::max<std::int64_t>(s.longest_column, c);
    s.long_column_extra_warps += column_extra_warps(c, kColumnWarp);
  }
  return s;
}

}  // namespace hetsparse::kernels
