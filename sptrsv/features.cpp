// Feature extraction: one pass over the rows (lengths, nearest dependency, column counts) and one
// over the levels. Nothing here is more than O(n + nnz).
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

TriangularFeatures compute_features(const kernels::TriangularView& t, std::int64_t pf_min_rows) {
  TriangularFeatures f;
  f.pf_min_rows = pf_min_rows;
  const index_t n = t.n;
  if (n == 0) return f;
  const std::int64_t nnz = t.rowptr[n];
  const auto row_length = [&](std::int64_t i) { return static_cast<double>(t.rowptr[i + 1] - t.rowptr[i]); };

  std::vector<std::int64_t> column_length(static_cast<std::size_t>(n), 0);
  double inverse_distance_sum = 0.0;
  std::int64_t longest_row = 0;
  for (index_t i = 0; i < n; ++i) {
    const index_t begin = t.rowptr[i], end = t.rowptr[i + 1];
    longest_row = std::max<std::int64_t>(longest_row, end - begin);
    for (index_t p = begin; p < end; ++p) ++column_length[static_cast<std::size_t>(t.colind[p])];
    if (end - begin > 1) {  // nearest dependency: the off-diagonal next to the diagonal slot
      const index_t nearest = t.upper ? t.colind[begin + 1] : t.colind[end - 2];
      inverse_distance_sum += 1.0 / std::abs(static_cast<double>(i) - static_cast<double>(nearest));
    }
  }

  const std::int64_t levels = t.num_levels;
  std::int64_t fullest_level = 0, friendly_levels = 0, friendly_rows = 0;
  for (index_t l = 0; l < t.num_levels; ++l) {
    fullest_level = std::max(fullest_level, t.level_nnz[l]);
    const index_t rows = t.level_ptr[l + 1] - t.level_ptr[l];
    if (rows >= pf_min_rows) {
      ++friendly_levels;
      friendly_rows += rows;
    }
  }

  const double rows_d = static_cast<double>(n), levels_d = static_cast<double>(levels);
  f.alpha = static_cast<double>(nnz) / rows_d;
  f.beta = rows_d / levels_d;
  f.delta = parallel_granularity(f.beta, f.alpha);

  f.m = n;
  f.nnz = nnz;
  f.rnnz = f.alpha;
  f.rnnz_max = longest_row;
  f.rnnz_cov = coefficient_of_variation(n, f.rnnz, row_length);
  f.lnnz = static_cast<double>(nnz) / levels_d;
  f.lnnz_max = fullest_level;
  f.lnnz_cov = coefficient_of_variation(levels, f.lnnz, [&](std::int64_t l) { return double(t.level_nnz[l]); });
  f.layer_num = levels;
  f.dep_dist = inverse_distance_sum / rows_d;

  f.nl = levels;
  f.ap = f.beta;
  f.pfl = 100.0 * static_cast<double>(friendly_levels) / levels_d;
  f.pfr = 100.0 * static_cast<double>(friendly_rows) / rows_d;
  f.mcl = *std::max_element(column_length.begin(), column_length.end());
  f.mrl = longest_row;
  f.arl = f.alpha;
  return f;
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
