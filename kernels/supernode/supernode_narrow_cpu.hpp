// The unchecked plain-loop factorization of a narrow panel (internal to kernels/supernode): shared by
// supernode_factor_cpu, which checks the panel first, and the subtree kernel, which trusts the
// analysis for its one-column panels. Inline: for a one-column panel a call costs more than its
// square root (a diagonal matrix is ~15,000 of them).
#pragma once
#include <cmath>
#include <cstddef>

namespace hetsparse::kernels::supernode_detail {

// Left-looking, a column at a time down the whole panel (potrf and trsm at once), column-major with
// ld = nrows. Returns 0, or the first column (1-based) whose pivot is <= 0 or NaN.
inline int factor_narrow(double* values, int nrows, int ncols) {
  const std::size_t m = static_cast<std::size_t>(nrows);
  for (int j = 0; j < ncols; ++j) {
    double* cj = values + j * m;
    for (int k = 0; k < j; ++k) {
      const double* ck = values + k * m;
      const double ljk = ck[j];
      for (std::size_t i = static_cast<std::size_t>(j); i < m; ++i) cj[i] -= ck[i] * ljk;
    }
    const double d = cj[j];
    if (!(d > 0.0)) return j + 1;  // NaN too
    const double l = std::sqrt(d), inverse = 1.0 / l;
    cj[j] = l;
    for (std::size_t i = static_cast<std::size_t>(j) + 1; i < m; ++i) cj[i] *= inverse;
  }
  return 0;
}

}  // namespace hetsparse::kernels::supernode_detail
