// Input checks of the symbolic analysis.
#include "symbolic/input_checks.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"
#include "sparse/convert.hpp"

namespace hetsparse::cholesky {
namespace {

// Throws for the first stored (i, j) with wrong(i, j), in row-major order (rows may be unsorted).
template <class Wrong>
void check_triangle(const Csr& a, Wrong wrong, const char* what) {
  for (index_t i = 0; i < a.rows; ++i) {
    index_t first_bad = -1;
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const index_t j = a.colind[p];
      if (wrong(i, j) && (first_bad < 0 || j < first_bad)) first_bad = j;
    }
    if (first_bad >= 0) throw StructureError(i, first_bad, what);
  }
}

bool same_value(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }

// A full matrix must equal its transpose, duplicates summed in storage order on both sides.
// Throws for the first asymmetric position in row-major order.
void check_full_symmetry(const Csr& a) {
  const Csr t = transpose(a);  // row i of t is column i of a
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<index_t> stamp_a(n, -1), stamp_t(n, -1);  // == i: (i, c) is stored in a / in t
  std::vector<double> sum_a(n), sum_t(n);
  const auto accumulate = [](const Csr& m, index_t i, std::vector<index_t>& stamp, std::vector<double>& sum) {
    for (offset_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) {
      const index_t c = m.colind[p];
      if (stamp[c] != i) {
        stamp[c] = i;
        sum[c] = 0.0;
      }
      sum[c] += m.values[p];
    }
  };
  for (index_t i = 0; i < a.rows; ++i) {
    accumulate(a, i, stamp_a, sum_a);
    accumulate(t, i, stamp_t, sum_t);
    index_t first_bad = -1;
    bool structural = false;
    const auto consider = [&](const Csr& m) {
      for (offset_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) {
        const index_t c = m.colind[p];
        const bool both = stamp_a[c] == i && stamp_t[c] == i;
        if ((!both || !same_value(sum_a[c], sum_t[c])) && (first_bad < 0 || c < first_bad)) {
          first_bad = c;
          structural = !both;
        }
      }
    };
    consider(a);
    consider(t);
    if (first_bad >= 0) {
      throw StructureError(i, first_bad,
                           structural ? "analyze: 'full' input is structurally asymmetric: only one of A(row, col) "
                                        "and A(col, row) is stored"
                                      : "analyze: 'full' input is numerically asymmetric: A(row, col) != A(col, row)");
    }
  }
}

}  // namespace

void check_input(const Csr& a, InputTriangle input) {
  if (a.rows != a.cols) {
    throw InvalidArgument("analyze: matrix must be square, got " + std::to_string(a.rows) + " x " +
                          std::to_string(a.cols));
  }
  validate(a);
  switch (input) {
    case InputTriangle::Lower:
      check_triangle(a, [](index_t i, index_t j) { return j > i; },
                     "analyze: entry above the diagonal in a matrix given by its lower triangle");
      break;
    case InputTriangle::Upper:
      check_triangle(a, [](index_t i, index_t j) { return j < i; },
                     "analyze: entry below the diagonal in a matrix given by its upper triangle");
      break;
    case InputTriangle::Full:
      check_full_symmetry(a);
      break;
  }
}

}  // namespace hetsparse::cholesky
