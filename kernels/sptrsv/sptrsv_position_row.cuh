// The entries of the row at position p of a level schedule, as the device packs read them: the row is
// stored at p itself (a copy in level order) or at level_rows[p]; its diagonal is its first entry in an
// upper triangle and its last in a lower one (normalised rows), the off-diagonals the rest.
#pragma once
#include "sparse/types.hpp"

namespace hetsparse::kernels {

struct PositionRow {
  index_t off_begin, off_end;  // the off-diagonals' entry range
  index_t diagonal;            // the diagonal's entry
};

__device__ __forceinline__ PositionRow position_row(index_t p, bool upper, bool by_position,
                                                    const index_t* __restrict__ level_rows,
                                                    const index_t* __restrict__ rowptr) {
  const index_t stored = by_position ? p : level_rows[p];
  const index_t first = rowptr[stored], last = rowptr[stored + 1];
  return upper ? PositionRow{first + 1, last, first} : PositionRow{first, last - 1, last - 1};
}

}  // namespace hetsparse::kernels
