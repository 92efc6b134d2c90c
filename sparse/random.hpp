// Random numbers with fixed algorithms: the <random> distributions are implementation
// defined, so a generator seeded the same way could build different matrices with different
// standard libraries. Everything here depends only on std::mt19937_64, which is specified.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sparse/types.hpp"

namespace hetsparse {

using Rng = std::mt19937_64;

// Uniform on [0, 1) with 53 random bits.
inline double uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Uniform on [lo, hi).
inline double uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * uniform01(rng); }

// Uniform integer on [0, n), n > 0, without modulo bias: draws below 2^64 mod n are
// rejected, leaving a range whose length is a multiple of n.
inline std::uint64_t uniform_below(Rng& rng, std::uint64_t n) {
  const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= threshold) return x % n;
  }
}

// A uniformly random permutation of 0 .. n-1 (Fisher-Yates).
inline std::vector<index_t> random_permutation(index_t n, Rng& rng) {
  std::vector<index_t> p(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  for (index_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::size_t>(uniform_below(rng, static_cast<std::uint64_t>(i) + 1));
    std::swap(p[static_cast<std::size_t>(i)], p[j]);
  }
  return p;
}

// Number of failures before the next success of a Bernoulli(p) trial, 0 < p < 1: lets a
// sparse random pattern skip directly to its next entry instead of testing every position.
inline std::int64_t geometric_gap(Rng& rng, double p) {
  const double u = 1.0 - uniform01(rng);  // (0, 1]: log is finite
  const double gap = std::floor(std::log(u) / std::log1p(-p));
  return gap > 9.0e18 ? std::int64_t{9000000000000000000} : static_cast<std::int64_t>(gap);
}

}  // namespace hetsparse
