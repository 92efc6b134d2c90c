// The three blocks of a triangle T split at a level (the paper's section 4.3): the sub-triangles
// T1 (the rows of levels [0, cut)) and T2 (the others), each re-indexed from 0, and the rectangular
// A21 (T2's rows, T1's columns) for b2 -= A21 x1. Rows are re-arranged by level class: a stable
// partition of the rows into the two parts, which keeps each part's rows in the input's order, so
// each sub-triangle keeps T's triangle kind, its normalised layout and its rows' locality (each
// part's own level schedule is that of its sub-triangle). Built once at analysis; new values of the
// same pattern are scattered into the blocks through the entry map kept here.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::planners {

class SplitBlocks {
 public:
  // t: a normalised triangle (kernels/sptrsv/sptrsv.hpp) with its level schedule; 0 < cut_level <
  // levels. InvalidArgument otherwise, or when A21 outgrows StarPU's 32-bit CSR.
  SplitBlocks(const kernels::TriangularView& t, index_t cut_level);

  index_t n1() const { return static_cast<index_t>(part1_.rows); }
  index_t n2() const { return static_cast<index_t>(part2_.rows); }
  index_t cut_level() const { return cut_level_; }
  // Split position k holds original row order()[k]: part 1's rows ascending, then part 2's.
  const std::vector<index_t>& order() const { return order_; }
  const Csr& part1() const { return part1_; }
  const Csr& part2() const { return part2_; }
  // A21: n2 rows, n1 columns, StarPU's CSR layout (rowptr[0] = 0).
  const std::vector<std::uint32_t>& a21_rowptr() const { return a21_rowptr_; }
  const std::vector<std::uint32_t>& a21_colind() const { return a21_colind_; }
  const std::vector<double>& a21_values() const { return a21_values_; }
  std::vector<double>& a21_values() { return a21_values_; }
  std::int64_t a21_nnz() const { return static_cast<std::int64_t>(a21_colind_.size()); }

  // The normalised values of the same triangle (t.rowptr[n] entries, in its order) into the blocks.
  void update_values(const double* values);

 private:
  index_t cut_level_ = 0;
  std::vector<index_t> order_;
  std::vector<std::uint8_t> entry_block_;  // per entry of T: 0 -> T1, 1 -> T2, 2 -> A21 (in T's order)
  Csr part1_, part2_;
  std::vector<std::uint32_t> a21_rowptr_, a21_colind_;
  std::vector<double> a21_values_;
};

}  // namespace hetsparse::planners
