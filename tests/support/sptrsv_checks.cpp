// Test triangles and comparisons for the SpTRSV tests. Every generated triangle has rows that are
// strictly diagonally dominant (diagonal = sum of |off-diagonals| + 1) unless it is an anchor
// matrix, so solutions stay O(1) and a normwise 1e-12 is far above rounding differences.
#include "tests/support/sptrsv_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "sparse/convert.hpp"
#include "sparse/generators.hpp"
#include "sparse/random.hpp"

namespace hetsparse::test {
namespace {

double random_sign_magnitude(Rng& rng) { return (rng() & 1u) != 0 ? uniform(rng, 0.1, 1.0) : -uniform(rng, 0.1, 1.0); }

// Rows given as sorted distinct earlier columns; values random, diagonal last and dominant.
Csr dominant_lower(const std::vector<std::vector<index_t>>& columns, Rng& rng) {
  Csr a;
  a.rows = a.cols = static_cast<index_t>(columns.size());
  a.rowptr.push_back(0);
  for (index_t i = 0; i < a.rows; ++i) {
    double row_sum = 0.0;
    for (const index_t j : columns[static_cast<std::size_t>(i)]) {
      a.colind.push_back(j);
      a.values.push_back(random_sign_magnitude(rng));
      row_sum += std::abs(a.values.back());
    }
    a.colind.push_back(i);
    a.values.push_back(row_sum + 1.0);
    a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
  }
  return a;
}

// `count` distinct columns from [0, row), sorted (partial Fisher-Yates).
std::vector<index_t> distinct_columns(Rng& rng, index_t row, index_t count) {
  std::vector<index_t> pool(static_cast<std::size_t>(row));
  for (index_t j = 0; j < row; ++j) pool[static_cast<std::size_t>(j)] = j;
  count = std::min(count, row);
  for (index_t k = 0; k < count; ++k) {
    const auto pick = k + static_cast<index_t>(uniform_below(rng, static_cast<std::uint64_t>(row - k)));
    std::swap(pool[static_cast<std::size_t>(k)], pool[static_cast<std::size_t>(pick)]);
  }
  pool.resize(static_cast<std::size_t>(count));
  std::sort(pool.begin(), pool.end());
  return pool;
}

Csr diagonal_only(index_t n, Rng& rng) { return dominant_lower(std::vector<std::vector<index_t>>(n), rng); }

Csr chain(index_t n, Rng& rng) {
  std::vector<std::vector<index_t>> columns(static_cast<std::size_t>(n));
  for (index_t i = 1; i < n; ++i) columns[static_cast<std::size_t>(i)] = {i - 1};
  return dominant_lower(columns, rng);
}

Csr dense_lower(index_t n, double density, Rng& rng) {
  std::vector<std::vector<index_t>> columns(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < i; ++j) {
      if (uniform01(rng) < density) columns[static_cast<std::size_t>(i)].push_back(j);
    }
  }
  return dominant_lower(columns, rng);
}

// Pareto-like row lengths and columns drawn towards low indices (so some columns are hubs that
// many rows wait on), plus three hub rows of 2100, 2500 and 3000 entries.
Csr power_law_hubs(index_t n, Rng& rng) {
  std::vector<std::vector<index_t>> columns(static_cast<std::size_t>(n));
  for (index_t i = 1; i < n; ++i) {
    const double length = 1.0 / std::pow(1.0 - uniform01(rng), 0.9);
    const auto wanted = static_cast<index_t>(std::min<double>(length, i));
    std::vector<index_t>& row = columns[static_cast<std::size_t>(i)];
    for (index_t k = 0; k < wanted; ++k) {
      row.push_back(static_cast<index_t>(static_cast<double>(i) * std::pow(uniform01(rng), 3.0)));
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  // The two longest reach kernels::SegmentPart::kSplitRowMin: yuenyeung splits them into parts.
  const std::pair<index_t, index_t> hubs[] = {{n / 2, 2100}, {3 * n / 4, 4200}, {n - 1, 5500}};
  for (const auto& [row, length] : hubs) columns[static_cast<std::size_t>(row)] = distinct_columns(rng, row, length);
  return dominant_lower(columns, rng);
}

// FNV-1a: a seed per name that is the same with every standard library.
std::uint64_t seed_of(const std::string& name) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

Csr build(const std::string& name) {
  Rng rng(seed_of(name));
  if (name == "anchor_laplacian_2d_60") return anchor_laplacian_lower(2, 60, 3);
  if (name == "anchor_rmat_12_8") return anchor_rmat_lower(12, 8, 5);
  if (name == "banded_wide") return triangle(random_banded(3000, 60, 0.25, 17, false), Triangle::Lower);
  if (name == "banded_narrow") return triangle(random_banded(2000, 4, 0.7, 19, false), Triangle::Lower);
  if (name == "diagonal_only") return diagonal_only(1000, rng);
  if (name == "chain_5000") return chain(5000, rng);
  if (name == "dense_lower_300") return dense_lower(300, 0.9, rng);
  if (name == "dense_lower_1200") return dense_lower(1200, 1.0, rng);  // not in the list: split-rule tests
  if (name == "power_law_hubs") return power_law_hubs(6000, rng);
  throw std::invalid_argument("no SpTRSV test matrix named " + name);
}

}  // namespace

const std::vector<std::string>& sptrsv_matrix_names() {
  static const std::vector<std::string> names{"anchor_laplacian_2d_60", "anchor_rmat_12_8", "banded_wide",
                                              "banded_narrow",          "diagonal_only",    "chain_5000",
                                              "dense_lower_300",        "power_law_hubs"};
  return names;
}

std::vector<NamedTriangle> scheme_test_triangles() {
  std::vector<NamedTriangle> out;
  for (const std::string& name : sptrsv_matrix_names()) out.push_back({name, sptrsv_matrix(name)});
  out.push_back({"laplacian_3d_40", anchor_laplacian_lower(3, 40, 7)});
  return out;
}

const Csr& sptrsv_matrix(const std::string& name) {
  static std::map<std::string, Csr> cache;
  auto found = cache.find(name);
  if (found == cache.end()) found = cache.emplace(name, build(name)).first;
  return found->second;
}

Csr solver_input(const Csr& lower, Triangle tri, bool unit_diagonal, std::uint64_t seed) {
  Csr a = lower;
  if (unit_diagonal) {
    Csr scaled;
    scaled.rows = scaled.cols = a.rows;
    scaled.rowptr.push_back(0);
    for (index_t i = 0; i < a.rows; ++i) {
      double diagonal = 1.0;
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) diagonal = a.colind[p] == i ? a.values[p] : diagonal;
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        if (a.colind[p] == i && i % 2 == 1) continue;  // odd rows: no stored diagonal
        scaled.colind.push_back(a.colind[p]);
        scaled.values.push_back(a.colind[p] == i ? 2.5 : a.values[p] / diagonal);
      }
      scaled.rowptr.push_back(static_cast<offset_t>(scaled.colind.size()));
    }
    a = std::move(scaled);
  }
  if (tri == Triangle::Upper) {
    Csr flipped;
    flipped.rows = flipped.cols = a.rows;
    flipped.rowptr.push_back(0);
    for (index_t r = 0; r < a.rows; ++r) {
      const index_t i = a.rows - 1 - r;
      for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        flipped.colind.push_back(a.rows - 1 - a.colind[p]);
        flipped.values.push_back(a.values[p]);
      }
      flipped.rowptr.push_back(static_cast<offset_t>(flipped.colind.size()));
    }
    a = std::move(flipped);
  }
  Rng rng(seed);
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i + 1] - 1; p > a.rowptr[i]; --p) {
      const auto choices = static_cast<std::uint64_t>(p - a.rowptr[i] + 1);
      const offset_t q = a.rowptr[i] + static_cast<offset_t>(uniform_below(rng, choices));
      std::swap(a.colind[p], a.colind[q]);
      std::swap(a.values[p], a.values[q]);
    }
  }
  return a;
}

std::vector<double> random_values(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> v(count);
  for (double& value : v) value = uniform(rng, -1.0, 1.0);
  return v;
}

double relative_error(const double* x, const std::vector<double>& expected) {
  double difference = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (std::isnan(x[i])) return std::numeric_limits<double>::infinity();
    difference = std::max(difference, std::abs(x[i] - expected[i]));
    scale = std::max(scale, std::abs(expected[i]));
  }
  return scale == 0.0 ? difference : difference / scale;
}

::testing::AssertionResult close_to(const double* x, const std::vector<double>& expected) {
  const double error = relative_error(x, expected);
  if (error <= kSolveTolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "normwise relative error " << error << " > " << kSolveTolerance;
}

std::string SolveCase::label() const {
  return std::string(tri == Triangle::Lower ? "lower" : "upper") + (unit_diagonal ? "/unit" : "/non-unit");
}

const std::vector<SolveCase>& solve_cases() {
  static const std::vector<SolveCase> cases{
      {Triangle::Lower, false}, {Triangle::Lower, true}, {Triangle::Upper, false}, {Triangle::Upper, true}};
  return cases;
}

}  // namespace hetsparse::test
