// cli::triangular_backward_error, the check `hetsparse sptrsv` applies: near rounding for a right x
// however T is scaled (where ||b - T x|| / ||b|| is not), O(1) for a wrong one; the triangle and a unit
// diagonal are taken as solved, against a dense computation of the same norms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cli/result_checks.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/convert.hpp"
#include "sparse/generators.hpp"

namespace hetsparse::test {
namespace {

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double& e : v) e = u(rng);
  return v;
}

double inf_norm(const std::vector<double>& v) {
  double m = 0;
  for (double e : v) m = std::fmax(m, std::fabs(e));
  return m;
}

// Rows of huge entries that cancel in T x: the old relative residual grows, the backward error does not.
TEST(ResultChecks, BackwardErrorOfASolveIsNearRoundingWhateverTheScale) {
  Csr T = anchor_laplacian_lower(2, 40, 3);  // 1,600 rows
  for (double& v : T.values) v *= 1e9;
  const std::vector<double> b = random_vector(static_cast<std::size_t>(T.rows), 5);
  std::vector<double> x(b.size()), Tx(b.size()), r(b);
  ref::sptrsv(T, Triangle::Lower, false, b.data(), x.data());
  ref::spmv(T, x.data(), Tx.data());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] -= Tx[i];
  EXPECT_LT(cli::triangular_backward_error(T, false, false, x, b, r), 1e-15);
  std::vector<double> wrong = x;
  wrong[100] += 1e-6;
  ref::spmv(T, wrong.data(), Tx.data());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - Tx[i];
  EXPECT_GT(cli::triangular_backward_error(T, false, false, wrong, b, r), 1e-9);
}

TEST(ResultChecks, BackwardErrorTakesTheTriangleAndTheUnitDiagonalAsSolved) {
  const Csr A = anchor_rmat_lower(8, 4, 2);  // lower with diagonal; its mirror above is to be ignored
  const Csr full = full_from_triangle(A);
  const std::size_t n = static_cast<std::size_t>(A.rows);
  const std::vector<double> x = random_vector(n, 7), b = random_vector(n, 8), r = random_vector(n, 9);
  for (const bool unit : {false, true}) {
    double tnorm = 0;
    for (index_t i = 0; i < full.rows; ++i) {
      double row = unit ? 1.0 : 0.0;
      for (offset_t p = full.rowptr[i]; p < full.rowptr[i + 1]; ++p) {
        const index_t j = full.colind[p];
        if (j < i || (j == i && !unit)) row += std::fabs(full.values[p]);
      }
      tnorm = std::fmax(tnorm, row);
    }
    const double expected = inf_norm(r) / (tnorm * inf_norm(x) + inf_norm(b));
    EXPECT_NEAR(cli::triangular_backward_error(full, false, unit, x, b, r), expected, 1e-15 * expected) << unit;
  }
}

}  // namespace
}  // namespace hetsparse::test
