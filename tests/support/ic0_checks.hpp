// IC(0) inputs and checks shared by the CPU and CUDA kernel tests and the PCG suites (header-only:
// needs hetsparse_reference and hetsparse_sparse).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference/ic0_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {

// SPD matrices (both triangles) on which IC(0) exists, each bigger than a warp: M-matrices, a
// diagonally dominant random band and graph, and a 9-point anisotropic operator that is no M-matrix.
inline std::vector<std::pair<std::string, Csr>> ic0_matrices() {
  return {{"lap2d_19x21", laplacian_2d(19, 21)},
          {"lap3d_7x6x5", laplacian_3d(7, 6, 5)},
          {"banded_300", random_banded(300, 25, 0.4, 7, true)},
          {"rmat_spd_8", rmat_spd({8, 6, 0.57, 0.19, 0.19, 0.05, 3})},
          {"aniso_16", anisotropic_2d(16, 16, 0.05, 0.5)}};
}

// The lower triangle, sorted, in the 32-bit layout the kernels take.
struct Lower32 {
  std::uint32_t n = 0;
  std::vector<std::uint32_t> rowptr, colind;
  std::vector<double> values;
  explicit Lower32(const Csr& A) {
    Csr l = triangle(A, Triangle::Lower);
    sort_rows(l);
    n = static_cast<std::uint32_t>(l.rows);
    rowptr.assign(l.rowptr.begin(), l.rowptr.end());
    colind.assign(l.colind.begin(), l.colind.end());
    values = l.values;
  }
};

// Every entry of `values` (on L's pattern) within a relative 1e-12 of ref::ic0(A)'s.
inline ::testing::AssertionResult matches_reference_ic0(const Csr& A, const std::vector<double>& values) {
  const Csr ref = ref::ic0(A);
  if (ref.values.size() != values.size())
    return ::testing::AssertionFailure() << values.size() << " entries, the reference has " << ref.values.size();
  for (index_t i = 0; i < ref.rows; ++i)
    for (offset_t t = ref.rowptr[i]; t < ref.rowptr[i + 1]; ++t) {
      const double e = ref.values[t], a = values[t];
      if (!(std::abs(a - e) <= 1e-12 * std::max(1.0, std::abs(e))))
        return ::testing::AssertionFailure() << "L(" << i << ", " << ref.colind[t] << ") = " << a << ", reference "
                                             << e;
    }
  return ::testing::AssertionSuccess();
}

// (L L^T)_ij == A_ij wherever tril(A) has an entry: the defining property, independent of any IC(0) code.
inline ::testing::AssertionResult reproduces_a_on_pattern(const Csr& A, const Lower32& L) {
  const Lower32 a(A);
  for (std::uint32_t i = 0; i < L.n; ++i)
    for (std::uint32_t t = L.rowptr[i]; t < L.rowptr[i + 1]; ++t) {
      const std::uint32_t j = L.colind[t];
      double s = 0, scale = 0;  // row i . row j over the common columns
      for (std::uint32_t u = L.rowptr[i]; u < L.rowptr[i + 1]; ++u)
        for (std::uint32_t v = L.rowptr[j]; v < L.rowptr[j + 1]; ++v)
          if (L.colind[u] == L.colind[v]) {
            s += L.values[u] * L.values[v];
            scale += std::abs(L.values[u] * L.values[v]);
          }
      if (!(std::abs(s - a.values[t]) <= 1e-13 * (scale + std::abs(a.values[t]))))
        return ::testing::AssertionFailure() << "(L L^T)(" << i << ", " << j << ") = " << s << ", A has " << a.values[t];
    }
  return ::testing::AssertionSuccess();
}

// SPD 4 x 4 blocks with a failing pivot at row 2: [[4,1],[1,4]] and [[-2,1],[1,4]] (not SPD).
inline Csr indefinite_at_row_2() {
  Coo c;
  c.rows = c.cols = 4;
  const double v[4][4] = {{4, 1, 0, 0}, {1, 4, 0, 0}, {0, 0, -2, 1}, {0, 0, 1, 4}};
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 4; ++j)
      if (v[i][j] != 0) {
        c.row.push_back(i);
        c.col.push_back(j);
        c.val.push_back(v[i][j]);
      }
  return to_csr(c);
}

}  // namespace hetsparse::test
