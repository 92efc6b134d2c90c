// Slicing a triangle into T1, A21 and T2 at a level, and scattering new values into them.
#include "planners/split_sptrsv_blocks.hpp"

#include <limits>
#include <string>

#include "hetsparse/error.hpp"
#include "planners/split_sptrsv_structure.hpp"

namespace hetsparse::planners {

SplitBlocks::SplitBlocks(const kernels::TriangularView& t, index_t cut_level) : cut_level_(cut_level) {
  if (t.level_ptr == nullptr || t.level_rows == nullptr)
    throw InvalidArgument("SplitBlocks: the triangle has no level schedule");
  if (cut_level < 1 || cut_level >= t.num_levels) {
    throw InvalidArgument("SplitBlocks: cut level " + std::to_string(cut_level) + " outside [1, " +
                          std::to_string(t.num_levels) + ") of this triangle's levels");
  }
  const index_t n = t.n;
  const std::vector<index_t> level = row_levels(t);
  // position[i]: row i's index inside its part (the stable partition).
  std::vector<index_t> position(static_cast<std::size_t>(n));
  index_t n1 = 0, n2 = 0;
  for (index_t i = 0; i < n; ++i) position[i] = level[i] < cut_level ? n1++ : n2++;
  order_.resize(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) order_[static_cast<std::size_t>(level[i] < cut_level ? position[i] : n1 + position[i])] = i;

  const std::int64_t nnz = t.rowptr[n];
  entry_block_.resize(static_cast<std::size_t>(nnz));
  for (Csr* part : {&part1_, &part2_}) {
    part->rows = part->cols = part == &part1_ ? n1 : n2;
    part->rowptr.assign(1, 0);
  }
  a21_rowptr_.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    const bool first = level[i] < cut_level;
    Csr& own = first ? part1_ : part2_;
    for (index_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
      const index_t j = t.colind[p];
      const bool column_first = level[j] < cut_level;  // T1's rows read only T1's columns
      if (!first && column_first) {
        entry_block_[p] = 2;
        a21_colind_.push_back(static_cast<std::uint32_t>(position[j]));
        a21_values_.push_back(t.values[p]);
      } else {
        entry_block_[p] = first ? 0 : 1;
        own.colind.push_back(position[j]);
        own.values.push_back(t.values[p]);
      }
    }
    own.rowptr.push_back(static_cast<offset_t>(own.colind.size()));
    if (!first) {
      if (a21_colind_.size() >= std::numeric_limits<std::uint32_t>::max())
        throw InvalidArgument("SplitBlocks: A21 has 2^32 or more entries (StarPU's CSR is 32-bit)");
      a21_rowptr_.push_back(static_cast<std::uint32_t>(a21_colind_.size()));
    }
  }
}

void SplitBlocks::update_values(const double* values) {
  std::size_t cursor[3] = {0, 0, 0};
  std::vector<double>* target[3] = {&part1_.values, &part2_.values, &a21_values_};
  for (std::size_t p = 0; p < entry_block_.size(); ++p) {
    const int b = entry_block_[p];
    (*target[b])[cursor[b]++] = values[p];
  }
}

}  // namespace hetsparse::planners
