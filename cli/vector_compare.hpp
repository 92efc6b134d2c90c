// How far a computed vector is from its reference: max |y - ref| / max |ref| (infinite when y holds a
// NaN, so a poisoned entry left unwritten never passes). What the SpMV command and benchmarks print.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace hetsparse::cli {

inline double max_rel_diff(const std::vector<double>& y, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (std::isnan(y[i])) return std::numeric_limits<double>::infinity();
    num = std::max(num, std::abs(y[i] - ref[i]));
    den = std::max(den, std::abs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

}  // namespace hetsparse::cli
