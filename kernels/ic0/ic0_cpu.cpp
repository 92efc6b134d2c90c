// IC(0) on the host: the serial up-looking factorization, its structure check and the level sets the
// CUDA version runs by.
#include <algorithm>
#include <cmath>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/ic0/ic0.hpp"

namespace hetsparse::kernels {

void ic0_check_structure(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t s = rowptr[i], e = rowptr[i + 1];
    if (e <= s) throw StructureError(i, i, "IC(0): row without a diagonal entry");
    for (std::uint32_t t = s; t < e; ++t) {
      if (colind[t] > i) throw StructureError(i, colind[t], "IC(0): entry above the diagonal in the lower triangle");
      if (t > s && colind[t] <= colind[t - 1])
        throw StructureError(i, colind[t], "IC(0): columns not sorted (or duplicated) within the row");
    }
    if (colind[e - 1] != i) throw StructureError(i, i, "IC(0): row without a diagonal entry");
  }
}

int ic0_cpu(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind, double* values) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t s = rowptr[i], diag = rowptr[i + 1] - 1;
    for (std::uint32_t t = s; t < diag; ++t) {
      const std::uint32_t k = colind[t];
      const std::uint32_t kdiag = rowptr[k + 1] - 1;
      // L(i,k) = (A(i,k) - sum_{j<k} L(i,j) L(k,j)) / L(k,k): merge row i (before t) with row k.
      double sum = 0.0;
      std::uint32_t a = s, b = rowptr[k];
      while (a < t && b < kdiag) {
        if (colind[a] < colind[b]) {
          ++a;
        } else if (colind[b] < colind[a]) {
          ++b;
        } else {
          sum += values[a++] * values[b++];
        }
      }
      values[t] = (values[t] - sum) / values[kdiag];
    }
    double sq = 0.0;
    for (std::uint32_t t = s; t < diag; ++t) sq += values[t] * values[t];
    const double d = values[diag] - sq;
    if (!(d > 0.0)) return static_cast<int>(i) + 1;  // also NaN
    values[diag] = std::sqrt(d);
  }
  return 0;
}

Ic0Levels ic0_levels(std::uint32_t n, const std::uint32_t* rowptr, const std::uint32_t* colind) {
  std::vector<std::uint32_t> level(n, 0);
  std::uint32_t top = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint32_t l = 0;
    for (std::uint32_t t = rowptr[i]; t < rowptr[i + 1]; ++t)
      if (colind[t] < i) l = std::max(l, level[colind[t]] + 1);
    level[i] = l;
    top = std::max(top, l + 1);
  }
  Ic0Levels out;
  out.level_ptr.assign(n > 0 ? top + 1 : 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) ++out.level_ptr[level[i] + 1];
  for (std::size_t l = 1; l < out.level_ptr.size(); ++l) out.level_ptr[l] += out.level_ptr[l - 1];
  out.rows.resize(n);
  std::vector<std::uint32_t> next(out.level_ptr.begin(), out.level_ptr.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i) out.rows[next[level[i]]++] = i;
  return out;
}

}  // namespace hetsparse::kernels
