// Feature extraction: the row pass (kernels::row_statistics, or its GPU twin) and one pass over
// the levels. Nothing here is more than O(n + nnz).
#include "sptrsv/features.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"

namespace hetsparse::sptrsv {
namespace {

// Population coefficient of variation std/mean (two-pass, so no cancellation); 0 for no data.
template <typename Get>
double coefficient_of_variation(std::int64_t count, double mean, Get value) {
  if (count == 0 || mean == 0.0) return 0.0;
  double squares = 0.0;
  for (std::int64_t k = 0; k < count; ++k) {
    const double d = value(k) - mean;
    squares += d * d;
  }
  return std::sqrt(squares / static_cast<double>(count)) / mean;
}

std::string format_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

}  // namespace

double parallel_granularity(double rows_per_level, double nnz_per_row) {
  if (!(rows_per_level >= 1.0) || !(nnz_per_row >= 1.0)) {
    throw InvalidArgument("parallel_granularity: needs rows per level >= 1 and nonzeros per row >= 1, got " +
                          format_number(rows_per_level) + " and " + format_number(nnz_per_row));
  }
  constexpr double b1 = 0.01, b2 = 0.01;
  return std::log10(std::log10(rows_per_level) / std::log10(nnz_per_row + b1) + b2);
}

TriangularFeatures features_from_statistics(const kernels::RowStatistics& rows, index_t n, index_t num_levels,
                                            const index_t* level_ptr, const std::int64_t* level_nnz,
                                            std::int64_t pf_min_rows) {
  TriangularFeatures f;
  f.pf_min_rows = pf_min_rows;
  if (n == 0) return f;
  const std::int64_t nnz = rows.nnz;
  const std::int64_t levels = num_levels;
  std::int64_t fullest_level = 0, friendly_levels = 0, friendly_rows = 0;
  for (index_t l = 0; l < num_levels; ++l) {
    fullest_level = std::max(fullest_level, level_nnz[l]);
    const index_t level_rows = level_ptr[l + 1] - level_ptr[l];
    if (level_rows >= pf_min_rows) {
      ++friendly_levels;
      friendly_rows += level_rows;
    }
  }

  const double rows_d = static_cast<double>(n), levels_d = static_cast<double>(levels);
  f.alpha = static_cast<double>(nnz) / rows_d;
  f.beta = rows_d / levels_d;
  f.delta = parallel_granularity(f.beta, f.alpha);

  f.m = n;
  f.nnz = nnz;
  f.rnnz = f.alpha;
  f.rnnz_max = rows.longest_row;
  f.rnnz_cov = f.rnnz == 0.0 ? 0.0 : std::sqrt(rows.row_length_squares / rows_d) / f.rnnz;
  f.lnnz = static_cast<double>(nnz) / levels_d;
  f.lnnz_max = fullest_level;
  f.lnnz_cov = coefficient_of_variation(levels, f.lnnz, [&](std::int64_t l) { return double(level_nnz[l]); });
  f.layer_num = levels;
  f.dep_dist = rows.inverse_distance_sum / rows_d;

  f.nl = levels;
  f.ap = f.beta;
  f.pfl = 100.0 * static_cast<double>(friendly_levels) / levels_d;
  f.pfr = 100.0 * static_cast<double>(friendly_rows) / rows_d;
  f.mcl = rows.longest_column;
  f.long_column_extra_warps = rows.long_column_extra_warps;
  f.mrl = rows.longest_row;
  f.arl = f.alpha;
  return f;
}

TriangularFeatures compute_features(const kernels::TriangularView& t, std::int64_t pf_min_rows) {
  if (t.n == 0) return features_from_statistics({}, 0, 0, nullptr, nullptr, pf_min_rows);
  return features_from_statistics(kernels::row_statistics(t), t.n, t.num_levels, t.level_ptr, t.level_nnz,
                                  pf_min_rows);
}

std::vector<std::pair<std::string, double>> TriangularFeatures::as_list() const {
  const auto d = [](std::int64_t v) { return static_cast<double>(v); };
  return {{"delta", delta},       {"alpha", alpha},           {"beta", beta},
          {"m", d(m)},            {"nnz", d(nnz)},            {"rnnz", rnnz},
          {"rnnz_max", d(rnnz_max)}, {"rnnz_cov", rnnz_cov},  {"lnnz", lnnz},
          {"lnnz_max", d(lnnz_max)}, {"lnnz_cov", lnnz_cov},  {"layer_num", d(layer_num)},
          {"dep_dist", dep_dist}, {"NL", d(nl)},              {"AP", ap},
          {"PFL", pfl},           {"PFR", pfr},               {"MCL", d(mcl)},
          {"MRL", d(mrl)},        {"ARL", arl},               {"pf_min_rows", d(pf_min_rows)},
          {"analysis_ms", analysis_ms}};
}

std::string TriangularFeatures::to_text() const {
  std::string text;
  for (const auto& [name, value] : as_list()) text += name + " " + format_number(value) + "\n";
  return text;
}

std::string TriangularFeatures::to_json() const {
  std::string json = "{";
  for (const auto& [name, value] : as_list()) {
    json += (json.size() > 1 ? ", \"" : "\"") + name + "\": " + format_number(value);
  }
  return json + "}";
}

}  // namespace hetsparse::sptrsv
