// Structural features of a triangular matrix that SpTRSV algorithm selectors use. Each group
// follows one paper's definitions (shared/papers/): YuenyeungSpTRSV Eq. (1) and Table 8,
// AG-SpTRSV's model inputs, and the split-execution framework's Section 4.2.1. All counts refer to
// the normalised matrix (one diagonal entry per row, duplicates merged), so nnz includes the
// diagonal even when a unit diagonal was not stored.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_analysis.hpp"
#include "sparse/types.hpp"

namespace hetsparse::sptrsv {

struct TriangularFeatures {
  // YuenyeungSpTRSV.
  double delta = 0.0;  // parallel granularity, Eq. (1): log10(log10(beta) / log10(alpha + 0.01) + 0.01)
  double alpha = 0.0;  // nonzeros per row
  double beta = 0.0;   // components (rows) per level

  // AG-SpTRSV.
  std::int64_t m = 0;          // rows
  std::int64_t nnz = 0;        // stored entries
  double rnnz = 0.0;           // mean entries per row
  std::int64_t rnnz_max = 0;   // longest row
  double rnnz_cov = 0.0;       // coefficient of variation (population std / mean) of row lengths
  double lnnz = 0.0;           // mean entries per level
  std::int64_t lnnz_max = 0;   // entries of the fullest level
  double lnnz_cov = 0.0;       // coefficient of variation of entries per level
  std::int64_t layer_num = 0;  // levels
  double dep_dist = 0.0;       // mean over rows of 1 / (distance to the nearest dependency), 0 for none

  // Split execution (Ahmad et al.).
  std::int64_t nl = 0;          // NL: levels
  double ap = 0.0;              // AP: rows / NL
  double pfl = 0.0;             // PFL: % of levels with >= pf_min_rows rows ("parallel friendly")
  double pfr = 0.0;             // PFR: % of rows in parallel-friendly levels
  std::int64_t mcl = 0;         // MCL: longest column (entries, diagonal included), over all levels
  std::int64_t mrl = 0;         // MRL: longest row, over all levels
  // Not a model feature: kernels::RowStatistics::long_column_extra_warps (-1: not counted), which
  // spares the split's structure a second count of the columns.
  std::int64_t long_column_extra_warps = -1;
  double arl = 0.0;             // ARL: nnz / rows
  std::int64_t pf_min_rows = 0;  // the m of PFL/PFR (200 in the paper)

  double analysis_ms = 0.0;  // wall time of the analysis that produced these

  // (name, value) in the order above; names are the papers' symbols (delta, NL, ...).
  std::vector<std::pair<std::string, double>> as_list() const;
  // One "name value" per line.
  std::string to_text() const;
  // A flat JSON object of as_list(); integers printed exactly, reals with 17 significant digits.
  std::string to_json() const;
};

// Eq. (1) of YuenyeungSpTRSV with its default bases (10) and biases (0.01).
double parallel_granularity(double rows_per_level, double nnz_per_row);

// Features from the row sums (host or GPU analysis) and the level schedule; analysis_ms left 0.
TriangularFeatures features_from_statistics(const kernels::RowStatistics& rows, index_t n, index_t num_levels,
                                            const index_t* level_ptr, const std::int64_t* level_nnz,
                                            std::int64_t pf_min_rows);

// Features of a normalised matrix with its level schedule (t.level_* set); analysis_ms left 0.
// O(n + nnz + levels).
TriangularFeatures compute_features(const kernels::TriangularView& t, std::int64_t pf_min_rows);

}  // namespace hetsparse::sptrsv
