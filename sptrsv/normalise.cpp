// Input checks and normalisation. The checks are what make the sync-free GPU kernels
// deadlock-free: a thread or warp solving row i waits only for rows solved before i (columns < i for
// lower, > i for upper) and stops when its walk reaches the diagonal slot. An entry on the wrong
// side of the diagonal would make it wait for a row claimed after it, possibly by a warp that
// cannot be scheduled until it finishes; a missing diagonal would walk it into the next row. So
// both are rejected here, before any kernel sees the matrix.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/host_threads.hpp"
#include "sptrsv/structure.hpp"

namespace hetsparse::sptrsv::detail {

void check_row(const Csr& t, Triangle tri, bool unit_diagonal, index_t row) {
  const bool lower = tri == Triangle::Lower;
  bool has_diagonal = false;
  double diagonal = 0.0;
  for (offset_t p = t.rowptr[row]; p < t.rowptr[row + 1]; ++p) {
    const index_t col = t.colind[p];
    if (!std::isfinite(t.values[p])) {
      throw StructureError(row, col, "sptrsv analysis: value is not finite (" + std::to_string(t.values[p]) + ")");
    }
    if (lower ? col > row : col < row) {
      throw StructureError(row, col, std::string("sptrsv analysis: entry ") + (lower ? "above" : "below") +
                                         " the diagonal of a " + (lower ? "lower" : "upper") + " triangular matrix");
    }
    if (col == row) {
      has_diagonal = true;
      diagonal += t.values[p];
    }
  }
  if (unit_diagonal) return;
  if (!has_diagonal) throw StructureError(row, row, "sptrsv analysis: diagonal entry missing");
  if (diagonal == 0.0) throw StructureError(row, row, "sptrsv analysis: diagonal entry is zero");
}

namespace {

using RowBuffer = std::vector<std::pair<index_t, offset_t>>;  // (column, input position)

void check_size(std::int64_t total, index_t row) {
  if (total > std::numeric_limits<index_t>::max()) {
    throw InvalidArgument("sptrsv analysis: the normalised matrix has more than 2^31 - 1 entries (at row " +
                          std::to_string(row) + "): the kernels use 32-bit offsets");
  }
}

// True when row i (already check_row-clean) is in normalised form: strictly increasing columns and
// the diagonal in its slot, last (lower) or first (upper), or absent for a unit diagonal. With
// increasing columns all on the right side, a diagonal can only be in that slot.
bool already_normalised(const Csr& t, index_t i, bool upper, bool unit_diagonal) {
  const offset_t begin = t.rowptr[i], end = t.rowptr[i + 1];
  for (offset_t p = begin + 1; p < end; ++p) {
    if (t.colind[p] <= t.colind[p - 1]) return false;
  }
  if (begin == end) return unit_diagonal;
  return unit_diagonal || (upper ? t.colind[begin] : t.colind[end - 1]) == i;
}

// Appends a normalised row as it is (adding a missing unit diagonal); returns its length.
std::int64_t append_as_is(const Csr& t, index_t i, bool upper, bool unit_diagonal, std::int64_t total,
                          NormalisedPattern& out) {
  const offset_t begin = t.rowptr[i], end = t.rowptr[i + 1];
  const bool stored_diagonal = begin < end && (upper ? t.colind[begin] : t.colind[end - 1]) == i;
  const std::int64_t length = (end - begin) + (stored_diagonal ? 0 : 1);
  check_size(total + length, i);
  auto slot = static_cast<index_t>(total);
  if (upper && !stored_diagonal) {
    out.colind.push_back(i);
    ++slot;
  }
  for (offset_t p = begin; p < end; ++p, ++slot) {
    out.colind.push_back(t.colind[p]);
    // A stored unit diagonal is ignored: its slot gets 1.0 in normalised_values.
    out.entry_slot[static_cast<std::size_t>(p)] = unit_diagonal && t.colind[p] == i ? -1 : slot;
  }
  if (!upper && !stored_diagonal) out.colind.push_back(i);
  return length;
}

// Appends any row: off-diagonals sorted (stably, so duplicates are summed in input order) and
// merged, the diagonal put in its slot; returns the normalised length.
std::int64_t append_sorted(const Csr& t, index_t i, bool upper, bool unit_diagonal, std::int64_t total,
                           NormalisedPattern& out, RowBuffer& row) {
  row.clear();
  for (offset_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
    if (t.colind[p] != i) row.emplace_back(t.colind[p], p);
  }
  const auto by_column = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(row.begin(), row.end(), by_column)) std::stable_sort(row.begin(), row.end(), by_column);
  std::int64_t distinct = 0;
  for (std::size_t k = 0; k < row.size(); ++k) distinct += (k == 0 || row[k].first != row[k - 1].first) ? 1 : 0;
  check_size(total + distinct + 1, i);

  const auto base = static_cast<index_t>(total);
  const index_t diagonal_slot = upper ? base : base + static_cast<index_t>(distinct);
  index_t slot = upper ? base : base - 1;  // the off-diagonals start after (upper) or at base (lower)
  if (upper) out.colind.push_back(i);
  for (std::size_t k = 0; k < row.size(); ++k) {
    if (k == 0 || row[k].first != row[k - 1].first) {
      ++slot;
      out.colind.push_back(row[k].first);
    }
    out.entry_slot[static_cast<std::size_t>(row[k].second)] = slot;
  }
  if (!upper) out.colind.push_back(i);
  if (!unit_diagonal) {
    for (offset_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
      if (t.colind[p] == i) out.entry_slot[static_cast<std::size_t>(p)] = diagonal_slot;
    }
  }
  return distinct + 1;
}

}  // namespace

NormalisedPattern normalise_pattern(const Csr& t, Triangle tri, bool unit_diagonal) {
  validate(t);
  if (t.rows != t.cols) {
    throw InvalidArgument("sptrsv analysis: matrix must be square, got " + std::to_string(t.rows) + " x " +
                          std::to_string(t.cols));
  }
  const index_t n = t.rows;
  const bool upper = tri == Triangle::Upper;
  NormalisedPattern out;
  out.rowptr.reserve(static_cast<std::size_t>(n) + 1);
  out.rowptr.push_back(0);
  out.colind.reserve(static_cast<std::size_t>(std::min<offset_t>(t.nnz() + n, std::numeric_limits<index_t>::max())));
  out.entry_slot.assign(static_cast<std::size_t>(t.nnz()), -1);

  RowBuffer row;
  std::int64_t total = 0;
  for (index_t i = 0; i < n; ++i) {
    check_row(t, tri, unit_diagonal, i);
    // Sorted input (generators, to_csr) takes the copy path; anything else is sorted and merged.
    if (already_normalised(t, i, upper, unit_diagonal)) {
      total += append_as_is(t, i, upper, unit_diagonal, total, out);
    } else {
      total += append_sorted(t, i, upper, unit_diagonal, total, out, row);
    }
    out.rowptr.push_back(static_cast<index_t>(total));
  }
  return out;
}

std::vector<double> normalised_values(const Csr& t, bool upper, bool unit_diagonal, const std::vector<index_t>& rowptr,
                                      const std::vector<index_t>& entry_slot) {
  std::vector<double> values(static_cast<std::size_t>(rowptr.back()), 0.0);
  // An entry's slot lies in its own row: blocks of input rows fill disjoint slots, in parallel, each
  // row's duplicates summed in input order as before.
  if (t.rows == 0) return values;  // an empty matrix may not even carry rowptr[0]
  parallel_chunks(static_cast<std::size_t>(t.rows), std::size_t(1) << 16, [&](std::size_t first, std::size_t last) {
    for (offset_t p = t.rowptr[first]; p < t.rowptr[last]; ++p) {
      const index_t slot = entry_slot[static_cast<std::size_t>(p)];
      if (slot >= 0) values[static_cast<std::size_t>(slot)] += t.values[static_cast<std::size_t>(p)];
    }
  });
  if (unit_diagonal) {
    const auto n = static_cast<index_t>(rowptr.size()) - 1;
    for (index_t i = 0; i < n; ++i) {
      values[static_cast<std::size_t>(upper ? rowptr[i] : rowptr[i + 1] - 1)] = 1.0;
    }
  }
  return values;
}

}  // namespace hetsparse::sptrsv::detail
