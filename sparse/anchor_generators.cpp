// The lower-triangular SpTRSV anchor matrices (shared/notes/anchors.md): the cuSPARSE
// baselines were measured on exactly these structures and value distributions.
#include <string>

#include "hetsparse/error.hpp"
#include "sparse/generator_support.hpp"
#include "sparse/generators.hpp"

namespace hetsparse {
namespace {

// Anchor values: diagonal 4 + u, off-diagonals -u / 8, a fresh u ~ U(0.1, 1) per entry, drawn
// in storage order.
void fill_anchor_values(Csr& lower, Rng& rng) {
  for (index_t i = 0; i < lower.rows; ++i) {
    for (offset_t p = lower.rowptr[i]; p < lower.rowptr[i + 1]; ++p) {
      const double u = uniform(rng, 0.1, 1.0);
      lower.values[p] = lower.colind[p] == i ? 4.0 + u : -u / 8.0;
    }
  }
}

}  // namespace

Csr anchor_laplacian_lower(int dims, index_t n, std::uint64_t seed) {
  if (dims != 2 && dims != 3) {
    throw InvalidArgument("anchor_laplacian_lower: dims must be 2 or 3, got " + std::to_string(dims));
  }
  const Grid g("anchor_laplacian_lower", n, n, dims == 3 ? n : 1);
  // The star offsets up to and including the centre are the lower part, in column order,
  // so the diagonal comes last in each row.
  std::vector<Offset> lower;
  for (const Offset& o : stencil_offsets(dims, false)) {
    lower.push_back(o);
    if (o.is_center()) break;
  }
  Csr a = assemble_stencil(g, lower, [](index_t, index_t, index_t, const Offset& o) {
    return o.is_center() ? 1.0 : -1.0;  // placeholders: the values are drawn below
  });
  Rng rng(seed);
  fill_anchor_values(a, rng);
  return a;
}

Csr anchor_rmat_lower(int scale, int edge_factor, std::uint64_t seed) {
  constexpr double a = 0.57, b = 0.19, c = 0.19, d = 0.05;
  check_rmat("anchor_rmat_lower", scale, edge_factor, a, b, c, d);
  Rng rng(seed);
  const auto edges = draw_rmat_edges(scale, edge_factor, a, b, c, rng);
  // (max, min) keeps every column below its row, so sorted rows end with the diagonal.
  Csr lower = pattern_from_edges(index_t{1} << scale, edges, EdgeStorage::Lower, true);
  fill_anchor_values(lower, rng);
  return lower;
}

}  // namespace hetsparse
