// Random-structure matrices: R-MAT graphs (power-law degrees, the hard case for
// level-scheduled solvers) and random banded matrices.
#include <algorithm>
#include <cmath>
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/generator_support.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

// Magnitude U(0.1, 1) with a random sign: bounded away from zero, so no entry is negligible.
double signed_weight(Rng& rng) {
  const double w = uniform(rng, 0.1, 1.0);
  return (rng() & 1u) != 0 ? w : -w;
}

}  // namespace

Csr rmat_graph(const RmatParams& params) {
  check_rmat("rmat_graph", params.scale, params.edge_factor, params.a, params.b, params.c, params.d);
  Rng rng(params.seed);
  const auto edges = draw_rmat_edges(params.scale, params.edge_factor, params.a, params.b, params.c, rng);
  Csr g = pattern_from_edges(index_t{1} << params.scale, edges, EdgeStorage::Symmetric, false);
  std::fill(g.values.begin(), g.values.end(), 1.0);
  return g;
}

Csr rmat_spd(const RmatParams& params) {
  check_rmat("rmat_spd", params.scale, params.edge_factor, params.a, params.b, params.c, params.d);
  Rng rng(params.seed);
  const auto edges = draw_rmat_edges(params.scale, params.edge_factor, params.a, params.b, params.c, rng);
  Csr a = pattern_from_edges(index_t{1} << params.scale, edges, EdgeStorage::Symmetric, true);
  // Rows are visited in order: an entry above the diagonal draws its weight, one below copies
  // the weight its mirror received when the earlier row was filled (binary search in sorted rows).
  for (index_t i = 0; i < a.rows; ++i) {
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const index_t j = a.colind[p];
      if (j > i) {
        a.values[p] = -uniform(rng, 0.1, 1.0);
      } else if (j < i) {
        const auto first = a.colind.begin() + a.rowptr[j];
        const auto mirror = std::lower_bound(first, a.colind.begin() + a.rowptr[j + 1], i);
        a.values[p] = a.values[static_cast<std::size_t>(mirror - a.colind.begin())];
      }
    }
  }
  make_diagonally_dominant(a, 1.0);
  return a;
}

Csr random_banded(index_t n, index_t bandwidth, double density, std::uint64_t seed, bool spd) {
  if (n < 1 || bandwidth < 0 || !(density >= 0.0 && density <= 1.0)) {
    throw InvalidArgument("random_banded: need n >= 1, bandwidth >= 0 and density in [0, 1], got n=" +
                          std::to_string(n) + " bandwidth=" + std::to_string(bandwidth) +
                          " density=" + std::to_string(density));
  }
  const index_t bw = std::min(bandwidth, n - 1);
  require_generator_memory("random_banded", n, static_cast<double>(n) * (1.0 + 2.0 * bw * density));
  Rng rng(seed);
  Coo coo;
  coo.rows = n;
  coo.cols = n;
  auto push = [&coo](index_t i, index_t j, double v) {
    coo.row.push_back(i);
    coo.col.push_back(j);
    coo.val.push_back(v);
  };
  // Visits a random subset of the columns [first, last), each present with probability
  // `density`, skipping geometric gaps instead of testing each position.
  auto sample_columns = [&](index_t first, index_t last, auto&& visit) {
    if (density <= 0.0) return;
    std::int64_t j = first + (density < 1.0 ? geometric_gap(rng, density) : 0);
    while (j < last) {
      visit(static_cast<index_t>(j));
      j += 1 + (density < 1.0 ? geometric_gap(rng, density) : 0);
    }
  };
  for (index_t i = 0; i < n; ++i) {
    push(i, i, 0.0);  // the diagonal, set once the row is complete
    if (spd) {
      // Draw the strict lower part of row i; its mirror is the upper part of column i.
      sample_columns(std::max<index_t>(0, i - bw), i, [&](index_t j) {
        const double v = signed_weight(rng);
        push(i, j, v);
        push(j, i, v);
      });
    } else {
      // The off-diagonal positions of row i, as one range with the diagonal skipped.
      const index_t first = std::max<index_t>(0, i - bw), last = std::min<index_t>(n - 1, i + bw);
      sample_columns(first, last, [&](index_t j) { push(i, j < i ? j : j + 1, signed_weight(rng)); });
    }
  }
  Csr a = to_csr(coo);
  make_diagonally_dominant(a, 1.0);
  return a;
}

}  // namespace hetsparse
