// Structural analysis for the SpTRSV engine: checks and normalises a CSR triangular matrix, builds
// its level schedule, YuenyeungSpTRSV's warp segmentation and the selector features, and hands the
// kernels (kernels/sptrsv/sptrsv.hpp) a view of it all. Pure host code, no StarPU, no CUDA.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "sparse/csr.hpp"
#include "sparse/types.hpp"
#include "sptrsv/features.hpp"
#include "sptrsv/preparation_steps.hpp"
#include "sptrsv/structure.hpp"

namespace hetsparse::sptrsv {

struct AnalysisOptions {
  // Fusion (YuenyeungSpTRSV Algorithm 6): a group of 32 consecutive rows whose mean entries per row
  // (diagonal included) reach this is solved a warp per row, otherwise a thread per row; calibrate
  // per device. 8: on the H100 it beat 16 on every R-MAT anchor (rmat22_ef4 3.10 vs 3.45 ms,
  // rmat20_ef8 2.66 vs 2.83, rmat18_ef8 1.52 vs 1.55; bench_sptrsv --fusion-sweep, docs/benchmarks.md),
  // while 2 and 4 lost 10-30 % on rmat22.
  double fusion_threshold = 8.0;
  // The m of the split-execution features PFL/PFR: a level with at least this many rows is
  // "parallel friendly" (the paper uses 200).
  std::int64_t parallel_friendly_rows = 200;
  // Keep a second copy of the rows, contiguous in level order, for the level-ordered kernels (CPU
  // levels, GPU levelset and *_levelorder): they then stream through the matrix instead of taking
  // several cache misses per row, which made the CPU level-order solve 3-4x faster on 1M-row
  // Laplacian and R-MAT triangles. Costs 12 B per entry and 4 B per row.
  bool level_ordered_copy = true;
  // Which hub rows yuenyeung splits into parts (kernels::SplitRule).
  kernels::SplitRule split_rule;
};

// YuenyeungSpTRSV's execute_row_id for a normalised matrix: segment boundaries in the given solve
// order (see kernels::TriangularView; level order needs t.level_rows). Chunks of 32 positions; a
// chunk whose mean row length is >= threshold becomes 32 one-position (warp-level) segments,
// otherwise one thread-level segment; a warp-level row of at least split.min_off_diagonals
// off-diagonals becomes up to SegmentPart::kMaxParts part segments (while the workspace's partial
// slots last: a row is split when the parts of all such rows up to it fit). Returns the boundaries followed by one SegmentPart code per segment (see
// kernels::TriangularView). InvalidArgument for a NaN or negative threshold or a split rule below 1. O(n).
std::vector<index_t> fusion_segments(const kernels::TriangularView& t, double threshold,
                                     kernels::SolveOrder order = kernels::SolveOrder::Natural,
                                     const kernels::SplitRule& split = {});

// An analysed triangular matrix T (lower or upper, unit or non-unit diagonal). The input may list a
// row's entries in any order, with the diagonal anywhere and duplicates (summed). It is stored
// normalised: off-diagonals sorted by column and merged, then exactly one diagonal entry, LAST in
// each row for lower and FIRST for upper; a unit diagonal is stored as 1.0 and any stored diagonal
// value is ignored. Rejected, naming the entry (StructureError, 0-based): a non-finite value, an
// entry on the wrong side of the diagonal, and for a non-unit diagonal a missing or zero one (see
// normalise.cpp for why the GPU kernels depend on this). InvalidArgument: non-square, inconsistent
// CSR, or 2^31 or more normalised entries.
class TriangularPattern {
 public:
  TriangularPattern(const Csr& t, Triangle tri, bool unit_diagonal, const AnalysisOptions& options = {});

  // New values for the same pattern (rows, rowptr and colind identical to the analysed input, else
  // InvalidArgument naming the first differing row); checks them as the constructor does. Levels,
  // segments and features are kept. On any error the pattern is left unchanged.
  void update_values(const Csr& t);
  // Recomputes the fusion segments (both orders) for another threshold (calibration). O(n).
  void set_fusion_threshold(double threshold);

  index_t rows() const { return n_; }
  Triangle triangle() const { return tri_; }
  bool unit_diagonal() const { return unit_diagonal_; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(colind_.size()); }

  // The normalised CSR.
  const std::vector<index_t>& rowptr() const { return rowptr_; }
  const std::vector<index_t>& colind() const { return colind_; }
  const std::vector<double>& values() const { return values_; }

  // Level schedule: row_level()[i] is row i's 0-based level; level_rows() lists rows by level
  // (ascending within one), level l at [level_ptr()[l], level_ptr()[l+1]).
  index_t num_levels() const { return static_cast<index_t>(level_ptr_.size()) - 1; }
  const std::vector<index_t>& row_level() const { return row_level_; }
  const std::vector<index_t>& level_ptr() const { return level_ptr_; }
  const std::vector<index_t>& level_rows() const { return level_rows_; }
  const std::vector<std::int64_t>& level_nnz() const { return level_nnz_; }
  bool has_level_ordered_copy() const { return !level_copy_.rowptr.empty(); }

  double fusion_threshold() const { return fusion_threshold_; }
  // Boundaries then part codes, as fusion_segments returns them.
  const std::vector<index_t>& segments() const { return segments_; }              // natural order
  const std::vector<index_t>& level_segments() const { return level_segments_; }  // level order

  const TriangularFeatures& features() const { return features_; }
  // Wall time of the constructor's analysis (also features().analysis_ms, in ms).
  double analysis_seconds() const { return features_.analysis_ms * 1e-3; }
  // The same by step: normalise, levels, level-ordered copy, segments, features.
  const PreparationSteps& steps() const { return steps_; }

  // Host view for the CPU kernels and for DeviceTriangular; valid while this object lives unchanged.
  kernels::TriangularView host_view() const;

 private:
  index_t n_ = 0;
  Triangle tri_;
  bool unit_diagonal_;
  // The analysed input pattern and where each input entry lands (for update_values).
  std::vector<offset_t> input_rowptr_;
  std::vector<index_t> input_colind_;
  std::vector<index_t> entry_slot_;
  std::vector<index_t> rowptr_, colind_;
  std::vector<double> values_;
  std::vector<index_t> row_level_, level_ptr_, level_rows_;
  std::vector<std::int64_t> level_nnz_;
  detail::LevelOrderedRows level_copy_;
  double fusion_threshold_ = 0.0;
  kernels::SplitRule split_rule_;
  std::vector<index_t> segments_, level_segments_;
  TriangularFeatures features_;
  PreparationSteps steps_;
};

}  // namespace hetsparse::sptrsv
