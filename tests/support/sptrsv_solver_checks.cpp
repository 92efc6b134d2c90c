#include "tests/support/sptrsv_solver_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "reference/sparse_reference.hpp"
#include "sparse/generators.hpp"
#include "tests/support/sptrsv_checks.hpp"

namespace hetsparse::test {
namespace {

double max_rel_diff(const double* x, const double* ref, std::size_t n) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    num = std::max(num, std::abs(x[i] - ref[i]));
    den = std::max(den, std::abs(ref[i]));
  }
  return den > 0 ? num / den : num;
}

}  // namespace

const std::vector<SolverCase>& solver_cases() {
  static const std::vector<SolverCase> c = {{"anchor_laplacian_lower_2_40", anchor_laplacian_lower(2, 40, 7)},
                                            {"anchor_rmat_lower_11_8", anchor_rmat_lower(11, 8, 7)}};
  return c;
}

void expect_matches_reference(const Csr& T, Triangle tri, bool unit, bool transpose, const std::vector<double>& B,
                              const std::vector<double>& X, int nrhs, const std::string& what) {
  const auto n = static_cast<std::size_t>(T.rows);
  std::vector<double> ref(n);
  for (int r = 0; r < nrhs; ++r) {
    const double* b = B.data() + r * n;
    if (transpose) {
      ref::sptrsv_transpose(T, tri, unit, b, ref.data());
    } else {
      ref::sptrsv(T, tri, unit, b, ref.data());
    }
    EXPECT_LE(max_rel_diff(X.data() + r * n, ref.data(), n), 1e-11) << what << ", column " << r;
  }
}

void run_solves(sptrsv::TriangularSolver& s, const Csr& T, Triangle tri, bool unit, const std::string& what) {
  const auto n = static_cast<std::size_t>(T.rows);
  for (bool transpose : {false, true}) {
    for (int nrhs : {1, 3}) {
      const std::vector<double> B = random_values(n * static_cast<std::size_t>(nrhs), 11 + nrhs);
      std::vector<double> X(B.size(), std::nan(""));
      s.solve(B.data(), X.data(), nrhs, transpose);
      expect_matches_reference(T, tri, unit, transpose, B, X, nrhs,
                               what + (transpose ? " transposed" : "") + ", nrhs " + std::to_string(nrhs));
    }
  }
  // In place: x aliasing b.
  std::vector<double> B = random_values(n, 5), X = B;
  s.solve(X.data(), X.data());
  expect_matches_reference(T, tri, unit, false, B, X, 1, what + " in place");
}

}  // namespace hetsparse::test
