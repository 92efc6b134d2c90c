// Level sets of a normalised triangular matrix: level[i] = 1 + the highest level among row i's
// dependencies (0 for none), found in one pass in solve order, then rows bucketed by level.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sparse/host_threads.hpp"
#include "sptrsv/structure.hpp"

namespace hetsparse::sptrsv::detail {

LevelSchedule compute_levels(index_t n, bool upper, const std::vector<index_t>& rowptr,
                             const std::vector<index_t>& colind) {
  LevelSchedule s;
  s.row_level.assign(static_cast<std::size_t>(n), 0);
  index_t num_levels = 0;
  for (index_t k = 0; k < n; ++k) {
    const index_t i = upper ? n - 1 - k : k;
    // Off-diagonals only: the diagonal slot is the last (lower) or first (upper) entry.
    const index_t begin = rowptr[i] + (upper ? 1 : 0), end = rowptr[i + 1] - (upper ? 0 : 1);
    index_t level = 0;
    for (index_t p = begin; p < end; ++p) level = std::max(level, s.row_level[static_cast<std::size_t>(colind[p])] + 1);
    s.row_level[static_cast<std::size_t>(i)] = level;
    num_levels = std::max(num_levels, level + 1);
  }
  s.level_ptr.assign(static_cast<std::size_t>(num_levels) + 1, 0);
  s.level_nnz.assign(static_cast<std::size_t>(num_levels), 0);
  for (index_t i = 0; i < n; ++i) {
    const auto level = static_cast<std::size_t>(s.row_level[static_cast<std::size_t>(i)]);
    ++s.level_ptr[level + 1];
    s.level_nnz[level] += rowptr[i + 1] - rowptr[i];
  }
  for (std::size_t l = 0; l < static_cast<std::size_t>(num_levels); ++l) s.level_ptr[l + 1] += s.level_ptr[l];
  s.level_rows.resize(static_cast<std::size_t>(n));
  std::vector<index_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
  for (index_t i = 0; i < n; ++i) {
    index_t& slot = next[static_cast<std::size_t>(s.row_level[static_cast<std::size_t>(i)])];
    s.level_rows[static_cast<std::size_t>(slot++)] = i;
  }
  return s;
}

namespace {

constexpr std::size_t kRowsPerThread = std::size_t(1) << 16;  // below, thread start-up dominates

// position[row] = k where level_rows[k] == row.
std::vector<index_t> positions_of(const std::vector<index_t>& level_rows) {
  std::vector<index_t> position(level_rows.size());
  for (std::size_t k = 0; k < level_rows.size(); ++k) {
    position[static_cast<std::size_t>(level_rows[k])] = static_cast<index_t>(k);
  }
  return position;
}

// Copies each row's entries to its level-order slot. Rows are read in natural order (streaming) and
// written scattered: scattered reads would stall on each row's misses, scattered writes do not.
// Every row has its own slot, so blocks of rows copy in parallel (a third of the analysis of
// rmat20_ef8 on one core).
template <typename T>
std::vector<T> scatter_rows(const std::vector<index_t>& position, const std::vector<index_t>& rowptr,
                            const std::vector<T>& entries, const std::vector<index_t>& level_rowptr) {
  std::vector<T> ordered(entries.size());
  parallel_chunks(position.size(), kRowsPerThread, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      std::copy(entries.begin() + rowptr[i], entries.begin() + rowptr[i + 1],
                ordered.begin() + level_rowptr[static_cast<std::size_t>(position[i])]);
    }
  });
  return ordered;
}

}  // namespace

LevelOrderedRows level_ordered_rows(const std::vector<index_t>& level_rows, const std::vector<index_t>& rowptr,
                                    const std::vector<index_t>& colind, const std::vector<double>& values) {
  const std::vector<index_t> position = positions_of(level_rows);
  LevelOrderedRows copy;
  copy.rowptr.assign(rowptr.size(), 0);
  for (std::size_t i = 0; i < position.size(); ++i) {
    copy.rowptr[static_cast<std::size_t>(position[i]) + 1] = rowptr[i + 1] - rowptr[i];
  }
  for (std::size_t k = 1; k < copy.rowptr.size(); ++k) copy.rowptr[k] += copy.rowptr[k - 1];
  copy.colind = scatter_rows(position, rowptr, colind, copy.rowptr);
  copy.values = scatter_rows(position, rowptr, values, copy.rowptr);
  return copy;
}

std::vector<double> level_ordered_values(const std::vector<index_t>& level_rows, const std::vector<index_t>& rowptr,
                                         const std::vector<double>& values, const std::vector<index_t>& level_rowptr) {
  return scatter_rows(positions_of(level_rows), rowptr, values, level_rowptr);
}

}  // namespace hetsparse::sptrsv::detail
