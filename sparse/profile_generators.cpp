// Lower triangles with a prescribed level profile (generators.hpp: level_profile_lower), for the
// split SpTRSV's corpus: serial chains glued to wide blocks and the like.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/generators.hpp"
#include "sparse/random.hpp"

namespace hetsparse {
namespace {

// Rows per level of one segment: "cN" (N levels of one row) or "bRxL" (R rows over L levels).
void append_segment(const std::string& seg, std::vector<index_t>& level_rows) {
  const auto number = [&seg](std::size_t from, std::size_t to) -> long long {
    if (from >= to || to - from > 10) throw InvalidArgument("level profile: segment '" + seg + "' needs a count of 1 to 10 digits");
    for (std::size_t k = from; k < to; ++k)
      if (!std::isdigit(static_cast<unsigned char>(seg[k])))
        throw InvalidArgument("level profile: '" + seg.substr(from, to - from) + "' in '" + seg + "' is not a count");
    return std::stoll(seg.substr(from, to - from));
  };
  if (seg.size() > 1 && seg[0] == 'c') {
    const long long n = number(1, seg.size());
    if (n < 1 || n > (1LL << 30)) throw InvalidArgument("level profile: chain '" + seg + "' needs 1 to 2^30 rows");
    level_rows.insert(level_rows.end(), static_cast<std::size_t>(n), 1);
    return;
  }
  const std::size_t x = seg.find('x');
  if (seg.size() > 1 && seg[0] == 'b' && x != std::string::npos) {
    const long long rows = number(1, x), levels = number(x + 1, seg.size());
    if (levels < 1 || rows < levels || rows > (1LL << 30))
      throw InvalidArgument("level profile: block '" + seg + "' needs at least one row per level, at most 2^30 rows");
    for (long long l = 0; l < levels; ++l)  // rows spread evenly, the remainder on the first levels
      level_rows.push_back(static_cast<index_t>(rows / levels + (l < rows % levels ? 1 : 0)));
    return;
  }
  throw InvalidArgument("level profile: segment '" + seg + "' is neither cN (a chain) nor bRxL (a block)");
}

}  // namespace

Csr level_profile_lower(const std::string& profile, int off_diagonals, std::uint64_t seed) {
  if (off_diagonals < 1) throw InvalidArgument("level_profile_lower: off_diagonals must be at least 1");
  std::vector<index_t> level_rows;
  std::size_t start = 0;
  for (;;) {
    const std::size_t plus = profile.find('+', start);
    append_segment(profile.substr(start, plus - start), level_rows);
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  long long n = 0;
  for (index_t r : level_rows) n += r;
  if (n >= (1LL << 31)) throw InvalidArgument("level_profile_lower: 2^31 or more rows");
  constexpr std::size_t kWindow = 4;  // the other dependencies reach this many levels back
  std::vector<long long> first(level_rows.size() + 1, 0);
  for (std::size_t l = 0; l < level_rows.size(); ++l) first[l + 1] = first[l] + level_rows[l];
  Rng rng(seed);
  Csr a;
  a.rows = a.cols = static_cast<index_t>(n);
  a.rowptr.assign(1, 0);
  std::vector<index_t> deps;
  for (std::size_t l = 0; l < level_rows.size(); ++l) {
    for (long long i = first[l]; i < first[l + 1]; ++i) {
      deps.clear();
      if (l > 0) {
        // One dependency in the previous level pins the row's level; the rest reach back kWindow levels.
        deps.push_back(static_cast<index_t>(first[l - 1] + static_cast<long long>(uniform_below(rng, level_rows[l - 1]))));
        const long long lo = first[l >= kWindow ? l - kWindow : 0], span = first[l] - lo;
        for (int k = 1; k < off_diagonals; ++k)
          deps.push_back(static_cast<index_t>(lo + static_cast<long long>(uniform_below(rng, static_cast<std::uint64_t>(span)))));
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      }
      double sum = 0.0;
      for (index_t j : deps) {
        const double v = uniform(rng, 0.1, 1.0) * (uniform01(rng) < 0.5 ? -1.0 : 1.0);
        a.colind.push_back(j);
        a.values.push_back(v);
        sum += std::abs(v);
      }
      a.colind.push_back(static_cast<index_t>(i));  // diagonal last: strictly dominant, so well conditioned
      a.values.push_back(1.0 + sum);
      a.rowptr.push_back(static_cast<offset_t>(a.colind.size()));
    }
  }
  return a;
}

}  // namespace hetsparse
