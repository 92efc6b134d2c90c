// The "powered" form of a triangular system, a transform that shortens its dependency chain.
// Write T = D (I - M), D the diagonal and M = -D^-1 (T - D) strictly triangular. Since
//   (I - M)(I + M)(I + M^2)(I + M^4) ... (I + M^(K/2)) = I - M^K     (K = 2^p),
// T x = b is the same system as
//   (I - M^K) x = d,   d = (I + M^(K/2)) ... (I + M^2)(I + M) D^-1 b.
// d takes p SpMV-like passes with no dependencies between rows (a GPU streams through them); the
// triangle I - M^K has a unit diagonal and M^K's dependency graph: an entry (i, j) of M^K is a
// path of exactly K steps in M's graph, each step at least one level down, so I - M^K has at most
// ceil(L / K) levels where T has L. On stencil matrices, where a solve is a chain of L latency-bound
// steps, M^K stays sparse (3D 7-point lower triangle: 3, 6, 15 entries per row for K = 1, 2, 4)
// and the solve gets up to K times fewer dependent steps for a few more bytes. On power-law
// matrices M^K explodes (R-MAT 2^18: 135x the entries at K = 2): the limits below refuse it.
//
// Numerically the product form is exact; in floating point it amplifies rounding by about the
// largest absolute row sum of the powers (growth()), which is below 1 for diagonally dominant rows.
#pragma once
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "kernels/sptrsv/sptrsv.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"
#include "sptrsv/analysis.hpp"

namespace hetsparse::sptrsv {

// Strictly triangular rows (no diagonal), sorted columns.
struct StrictRows {
  std::vector<index_t> rowptr, colind;
  std::vector<double> values;
  std::int64_t nnz() const { return static_cast<std::int64_t>(colind.size()); }
  kernels::PowerFactorView view() const;
};

struct PowerLimits {
  // M^K may hold at most this many times T's stored entries.
  double max_entry_ratio = 8.0;
  // Largest absolute row sum of any power used; above it the transform would amplify rounding
  // too much to be the same solve.
  double max_growth = 100.0;
};

// The powers K a scheme may name ("powK:base"): 2, 4, 8, 16.
bool is_valid_power(int power);

// "powK:BASE" split into K and BASE; nullopt for a scheme without the "pow" prefix. Does not check
// K or BASE (check_scheme does).
struct PoweredSchemeName {
  int power = 0;
  std::string base;
};
std::optional<PoweredSchemeName> parse_powered_scheme(const std::string& scheme);

class PoweredTriangle {
 public:
  // t: an analysed (normalised) triangle. InvalidArgument for a power not in {2, 4, 8, 16}, and,
  // naming K and the figure, when M^K passes limits.max_entry_ratio or limits.max_growth.
  PoweredTriangle(const kernels::TriangularView& t, int power, const PowerLimits& limits = {});

  int power() const { return power_; }
  const std::vector<double>& inverse_diagonal() const { return inverse_diagonal_; }
  // M, M^2, ..., M^(K/2): the factors of d, applied in this order.
  const std::vector<StrictRows>& factors() const { return factors_; }
  // I - M^K, analysed (levels, segments, features), unit diagonal, same triangle as T.
  const TriangularPattern& pattern() const { return *pattern_; }
  double growth() const { return growth_; }
  double build_seconds() const { return build_seconds_; }

  // d for one right-hand side, on the host (the reference for the GPU passes): scratch and d hold
  // n entries each; d may not alias b.
  void rhs_cpu(const double* b, double* d, std::vector<double>& scratch) const;

 private:
  int power_ = 0;
  std::vector<double> inverse_diagonal_;
  std::vector<StrictRows> factors_;
  std::unique_ptr<TriangularPattern> pattern_;
  double growth_ = 0;
  double build_seconds_ = 0;
};

// The transforms of one matrix, built once per power and shared by every scheme prepared from it
// (the search times several bases on the same powered triangle). Thread-safe; a failed build is
// remembered and rethrown on every later get(). t must outlive the cache.
class PoweredCache {
 public:
  explicit PoweredCache(const kernels::TriangularView& t) : t_(t) {}
  std::shared_ptr<const PoweredTriangle> get(int power);

 private:
  kernels::TriangularView t_;
  std::mutex mutex_;
  std::map<int, std::shared_ptr<const PoweredTriangle>> built_;
  std::map<int, std::exception_ptr> failed_;
};

namespace detail {
// Row-parallel sparse product of two strictly triangular matrices of order n (sorted, merged rows).
// Throws InvalidArgument when the product would exceed max_entries entries.
StrictRows multiply_strict(const StrictRows& a, const StrictRows& b, std::int64_t max_entries);
}  // namespace detail

}  // namespace hetsparse::sptrsv
