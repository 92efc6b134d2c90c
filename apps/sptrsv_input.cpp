// The triangle `hetsparse sptrsv` solves and the checks of its result (sptrsv_input.hpp).
#include "apps/sptrsv_input.hpp"

#include <algorithm>
#include <cmath>

#include "cli/common.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::cli {

Triangle parse_triangle(const std::string& s) {
  if (s == "lower") return Triangle::Lower;
  if (s == "upper") return Triangle::Upper;
  throw UsageError("hetsparse sptrsv: --triangle must be lower or upper, not '" + s + "'");
}

Csr requested_triangle(const Csr& A, Triangle tri) {
  const Triangle other = tri == Triangle::Lower ? Triangle::Upper : Triangle::Lower;
  if (triangle(A, tri, false).nnz() == 0 && triangle(A, other, false).nnz() > 0) return triangle(transpose(A), tri);
  return triangle(A, tri);
}

double min_abs_diagonal(const Csr& T) {
  double m = HUGE_VAL;
  for (index_t i = 0; i < T.rows; ++i) {
    double d = 0;
    for (offset_t k = T.rowptr[i]; k < T.rowptr[i + 1]; ++k)
      if (T.colind[k] == i) d += T.values[k];
    m = std::min(m, std::abs(d));
  }
  return m;
}

bool same_solution(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return a.size() == b.size() && diff <= 1e-12 * scale;
}

}  // namespace hetsparse::cli
