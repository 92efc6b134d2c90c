// TriangularPattern: runs the checks, normalisation, level schedule, segmentation and features, and
// keeps what update_values needs to swap values in without redoing any of it.
#include "sptrsv/analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sptrsv/structure.hpp"

namespace hetsparse::sptrsv {
namespace {

constexpr index_t kWarpRows = 32;

void check_threshold(double threshold) {
  if (std::isnan(threshold) || threshold < 0.0) {
    throw InvalidArgument("sptrsv analysis: fusion threshold must be >= 0, got " + std::to_string(threshold));
  }
}

void check_split_rule(const kernels::SplitRule& split) {
  if (split.min_off_diagonals < 1 || split.entries_per_part < 1) {
    throw InvalidArgument(
        "sptrsv analysis: a split rule needs rows of >= 1 off-diagonal and parts of >= 1 entry, got " +
        std::to_string(split.min_off_diagonals) + " and " + std::to_string(split.entries_per_part));
  }
}

// Stored entries of the rows at solve positions [start, end).
std::int64_t entries_at(const kernels::TriangularView& t, kernels::SolveOrder order, index_t start, index_t end) {
  if (order == kernels::SolveOrder::Level) {
    if (t.level_rowptr != nullptr) return t.level_rowptr[end] - t.level_rowptr[start];
    std::int64_t entries = 0;
    for (index_t k = start; k < end; ++k) entries += t.rowptr[t.level_rows[k] + 1] - t.rowptr[t.level_rows[k]];
    return entries;
  }
  // Natural order: rows [start, end) for lower, rows (n - end, n - start] for upper.
  return t.upper ? t.rowptr[t.n - start] - t.rowptr[t.n - end] : t.rowptr[end] - t.rowptr[start];
}

}  // namespace

std::vector<index_t> fusion_segments(const kernels::TriangularView& t, double threshold, kernels::SolveOrder order,
                                     const kernels::SplitRule& split) {
  check_threshold(threshold);
  check_split_rule(split);
  if (order == kernels::SolveOrder::Level && t.n > 0 && t.level_rows == nullptr) {
    throw InvalidArgument("fusion_segments: level order needs the level schedule");
  }
  std::vector<index_t> segments{0};
  std::vector<index_t> codes;  // one per segment, appended after the boundaries (SegmentPart)
  // Slots go to split rows in solve order while they last: a row is split when the parts of every
  // candidate row up to it fit (a prefix rule, so the GPU analysis can decide each row by a scan).
  std::int64_t requested = 0;
  for (index_t start = 0; start < t.n; start += std::min(kWarpRows, t.n - start)) {
    const index_t end = start + std::min(kWarpRows, t.n - start);
    const std::int64_t entries = entries_at(t, order, start, end);
    if (static_cast<double>(entries) >= threshold * static_cast<double>(end - start)) {
      for (index_t position = start; position < end; ++position) {
        const int parts = split.parts(entries_at(t, order, position, position + 1) - 1);
        const auto slot = static_cast<int>(requested);
        requested += parts;
        if (parts > 0 && requested <= kernels::SegmentPart::kSlots) {
          for (int q = 0; q < parts; ++q) {
            segments.push_back(q + 1 < parts ? position : position + 1);
            codes.push_back(kernels::SegmentPart::encode(slot, q, parts));
          }
        } else {
          segments.push_back(position + 1);
          codes.push_back(0);
        }
      }
    } else {
      segments.push_back(end);
      codes.push_back(0);
    }
  }
  segments.insert(segments.end(), codes.begin(), codes.end());
  return segments;
}

TriangularPattern::TriangularPattern(const Csr& t, Triangle tri, bool unit_diagonal, const AnalysisOptions& options)
    : tri_(tri), unit_diagonal_(unit_diagonal) {
  const auto start = std::chrono::steady_clock::now();
  check_threshold(options.fusion_threshold);
  check_split_rule(options.split_rule);
  split_rule_ = options.split_rule;
  if (options.parallel_friendly_rows < 1) {
    throw InvalidArgument("sptrsv analysis: parallel_friendly_rows must be >= 1, got " +
                          std::to_string(options.parallel_friendly_rows));
  }
  auto mark = std::chrono::steady_clock::now();
  const auto step = [&](const char* name) {
    const auto now = std::chrono::steady_clock::now();
    steps_.add(name, std::chrono::duration<double>(now - mark).count());
    mark = now;
  };
  detail::NormalisedPattern pattern = detail::normalise_pattern(t, tri, unit_diagonal);
  n_ = t.rows;
  values_ = detail::normalised_values(t, tri == Triangle::Upper, unit_diagonal, pattern.rowptr, pattern.entry_slot);
  rowptr_ = std::move(pattern.rowptr);
  colind_ = std::move(pattern.colind);
  entry_slot_ = std::move(pattern.entry_slot);
  input_rowptr_ = t.rowptr;
  input_colind_ = t.colind;
  step("normalise");

  detail::LevelSchedule levels = detail::compute_levels(n_, tri == Triangle::Upper, rowptr_, colind_);
  row_level_ = std::move(levels.row_level);
  level_ptr_ = std::move(levels.level_ptr);
  level_rows_ = std::move(levels.level_rows);
  level_nnz_ = std::move(levels.level_nnz);
  step("levels");
  if (options.level_ordered_copy) level_copy_ = detail::level_ordered_rows(level_rows_, rowptr_, colind_, values_);
  step("level_copy");

  set_fusion_threshold(options.fusion_threshold);
  step("segments");
  features_ = compute_features(host_view(), options.parallel_friendly_rows);
  step("features");
  features_.analysis_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void TriangularPattern::update_values(const Csr& t) {
  validate(t);
  if (t.rows != n_ || t.cols != n_ || t.rowptr.size() != input_rowptr_.size()) {
    throw InvalidArgument("sptrsv update_values: got a " + std::to_string(t.rows) + " x " + std::to_string(t.cols) +
                          " matrix, the analysed one is " + std::to_string(n_) + " x " + std::to_string(n_));
  }
  for (index_t i = 0; i < n_; ++i) {
    const offset_t begin = t.rowptr[i], end = t.rowptr[i + 1];
    if (begin != input_rowptr_[i] || end != input_rowptr_[i + 1] ||
        !std::equal(t.colind.begin() + begin, t.colind.begin() + end, input_colind_.begin() + begin)) {
      throw InvalidArgument("sptrsv update_values: the pattern of row " + std::to_string(i) +
                            " (0-based) differs from the analysed one");
    }
  }
  for (index_t i = 0; i < n_; ++i) detail::check_row(t, tri_, unit_diagonal_, i);
  std::vector<double> values =
      detail::normalised_values(t, tri_ == Triangle::Upper, unit_diagonal_, rowptr_, entry_slot_);
  if (has_level_ordered_copy()) {
    std::vector<double> ordered = detail::level_ordered_values(level_rows_, rowptr_, values, level_copy_.rowptr);
    level_copy_.values.swap(ordered);  // cannot throw: the pattern stays consistent
  }
  values_.swap(values);
}

void TriangularPattern::set_fusion_threshold(double threshold) {
  std::vector<index_t> segments = fusion_segments(host_view(), threshold, kernels::SolveOrder::Natural, split_rule_);
  std::vector<index_t> level_segments =
      fusion_segments(host_view(), threshold, kernels::SolveOrder::Level, split_rule_);
  segments_.swap(segments);
  level_segments_.swap(level_segments);
  fusion_threshold_ = threshold;
}

kernels::TriangularView TriangularPattern::host_view() const {
  kernels::TriangularView v;
  v.n = n_;
  v.upper = tri_ == Triangle::Upper;
  v.rowptr = rowptr_.data();
  v.colind = colind_.data();
  v.values = values_.data();
  v.num_levels = num_levels();
  v.level_ptr = level_ptr_.data();
  v.level_rows = level_rows_.data();
  v.level_nnz = level_nnz_.data();
  v.num_segments = segments_.empty() ? 0 : static_cast<index_t>(segments_.size() - 1) / 2;
  v.segments = segments_.data();
  v.num_level_segments = level_segments_.empty() ? 0 : static_cast<index_t>(level_segments_.size() - 1) / 2;
  v.level_segments = level_segments_.data();
  if (has_level_ordered_copy()) {
    v.level_rowptr = level_copy_.rowptr.data();
    v.level_colind = level_copy_.colind.data();
    v.level_values = level_copy_.values.data();
  }
  return v;
}

}  // namespace hetsparse::sptrsv
