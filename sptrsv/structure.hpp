// Building blocks of the SpTRSV analysis (internal to sptrsv/): checking and normalising the input
// CSR, and the level schedule. TriangularPattern (analysis.hpp) is the public face.
#pragma once
#include <cstdint>
#include <vector>

#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::sptrsv::detail {

// The pattern of the normalised matrix plus, for every input entry p, the normalised slot its value
// is added to (-1: a stored diagonal entry ignored because the diagonal is unit).
struct NormalisedPattern {
  std::vector<index_t> rowptr, colind;
  std::vector<index_t> entry_slot;
};

// Checks row i of the input (StructureError naming the entry): every value finite, no entry on the
// wrong side of the diagonal, and (non-unit) a diagonal present whose duplicates sum to nonzero.
void check_row(const Csr& t, Triangle tri, bool unit_diagonal, index_t row);

// Square, consistent (validate()), every row check_row-clean, normalised nnz < 2^31; then the
// normalised pattern: off-diagonals sorted and merged, the diagonal last (lower) or first (upper).
NormalisedPattern normalise_pattern(const Csr& t, Triangle tri, bool unit_diagonal);

// Normalised values of an input whose normalised rowptr and entry slots normalise_pattern built:
// duplicates summed in input order, the unit diagonal 1.0. No checks (check_row does them).
std::vector<double> normalised_values(const Csr& t, bool upper, bool unit_diagonal, const std::vector<index_t>& rowptr,
                                      const std::vector<index_t>& entry_slot);

struct LevelSchedule {
  std::vector<index_t> row_level;   // level of each row, 0-based
  std::vector<index_t> level_ptr;   // num_levels + 1
  std::vector<index_t> level_rows;  // rows by level, ascending within a level
  std::vector<std::int64_t> level_nnz;
};

// One pass in solve order (level = 1 + the highest dependency level), then a counting sort.
LevelSchedule compute_levels(index_t n, bool upper, const std::vector<index_t>& rowptr,
                             const std::vector<index_t>& colind);

// The rows again, contiguous in level order (see kernels::TriangularView::level_rowptr).
struct LevelOrderedRows {
  std::vector<index_t> rowptr, colind;
  std::vector<double> values;
};
LevelOrderedRows level_ordered_rows(const std::vector<index_t>& level_rows, const std::vector<index_t>& rowptr,
                                    const std::vector<index_t>& colind, const std::vector<double>& values);
// The level-ordered values for (new) values of the same rows; level_rowptr from level_ordered_rows.
std::vector<double> level_ordered_values(const std::vector<index_t>& level_rows, const std::vector<index_t>& rowptr,
                                         const std::vector<double>& values, const std::vector<index_t>& level_rowptr);

}  // namespace hetsparse::sptrsv::detail
