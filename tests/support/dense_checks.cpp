// Dense kernel checks: random operands, poisoned unused storage, comparison with hetsparse::ref
// under a rounding-error bound.
#include "tests/support/dense_checks.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "reference/dense_reference.hpp"

namespace hetsparse::test {
namespace {

bool transposed(char trans) { return trans != 'N' && trans != 'n'; }
bool is_lower(char uplo) { return uplo == 'L' || uplo == 'l'; }

// Entry (i, j) of an n x n matrix lies in the `uplo` triangle (diagonal included).
bool in_triangle(bool lower, int i, int j) { return lower ? i >= j : i <= j; }

template <typename Predicate>
void fill_where(DenseMatrix& m, double value, Predicate where) {
  for (int j = 0; j < m.cols; ++j) {
    for (int i = 0; i < m.rows; ++i) {
      if (where(i, j)) {
        m(i, j) = value;
      }
    }
  }
}

void scale(DenseMatrix& m, double factor) {
  for (int j = 0; j < m.cols; ++j) {
    for (int i = 0; i < m.rows; ++i) {
      m(i, j) *= factor;
    }
  }
}

double max_abs(const DenseMatrix& m) {
  double result = 0.0;
  for (int j = 0; j < m.cols; ++j) {
    for (int i = 0; i < m.rows; ++i) {
      result = std::max(result, std::fabs(m(i, j)));
    }
  }
  return result;
}

// Rounding-error factor for a sum of `terms` products, with a factor 2 of slack.
double gamma(int terms) { return 2.0 * (terms + 2) * kEps; }

// M M^T / n + I: symmetric positive definite with eigenvalues in [1, n + 1), so well conditioned.
DenseMatrix random_spd(Rng& rng, int n, int padding) {
  const DenseMatrix M = random_matrix(rng, n, n, 0);
  DenseMatrix A = random_matrix(rng, n, n, padding);
  ref::gemm('N', 'T', n, n, n, 1.0 / n, M.data.data(), M.ld, M.data.data(), M.ld, 0.0, A.data.data(), A.ld);
  for (int i = 0; i < n; ++i) {
    A(i, i) += 1.0;
  }
  return A;
}

}  // namespace

std::vector<GemmCase> gemm_cases() {
  struct Shape {
    int m, n, k, padding;
  };
  const Shape shapes[] = {{37, 100, 257, 3}, {100, 37, 33, 0}, {257, 64, 5, 7}, {1, 40, 300, 2}};
  std::vector<GemmCase> cases;
  for (const char ta : {'N', 'T'}) {
    for (const char tb : {'N', 'T'}) {
      for (const Shape& s : shapes) {
        for (const double beta : {0.0, -0.75}) {
          cases.push_back({ta, tb, s.m, s.n, s.k, s.padding, 1.25, beta});
        }
      }
    }
  }
  cases.push_back({'t', 'n', 33, 35, 37, 1, -0.5, 0.5});  // BLAS accepts lower-case options
  return cases;
}

std::vector<SyrkCase> syrk_cases() {
  std::vector<SyrkCase> cases;
  for (const char uplo : {'L', 'U'}) {
    for (const char trans : {'N', 'T'}) {
      cases.push_back({uplo, trans, 37, 100, 3, 0.75, 0.0});
      cases.push_back({uplo, trans, 100, 37, 0, -1.0, 0.5});
      cases.push_back({uplo, trans, 257, 8, 5, 1.5, -2.0});
    }
  }
  return cases;
}

std::vector<TrsmCase> trsm_cases() {
  std::vector<TrsmCase> cases;
  for (const char side : {'L', 'R'}) {
    for (const char uplo : {'L', 'U'}) {
      for (const char transa : {'N', 'T'}) {
        for (const char diag : {'N', 'U'}) {
          cases.push_back({side, uplo, transa, diag, 37, 100, 2, 0.8});
          cases.push_back({side, uplo, transa, diag, 257, 33, 0, -1.5});
        }
      }
    }
  }
  cases.push_back({'L', 'U', 'N', 'N', 40, 50, 1, 0.0});  // alpha == 0: B becomes 0, A unread
  return cases;
}

std::vector<PotrfCase> potrf_cases() {
  std::vector<PotrfCase> cases;
  for (const char uplo : {'L', 'U'}) {
    for (const int n : {1, 37, 100, 257}) {
      cases.push_back({uplo, n, n % 2 == 0 ? 0 : 5});
    }
  }
  return cases;
}

std::string describe(const GemmCase& c) {
  std::ostringstream s;
  s << "gemm " << c.transa << c.transb << " m=" << c.m << " n=" << c.n << " k=" << c.k << " pad=" << c.padding
    << " alpha=" << c.alpha << " beta=" << c.beta;
  return s.str();
}
std::string describe(const SyrkCase& c) {
  std::ostringstream s;
  s << "syrk " << c.uplo << c.trans << " n=" << c.n << " k=" << c.k << " pad=" << c.padding << " alpha=" << c.alpha
    << " beta=" << c.beta;
  return s.str();
}
std::string describe(const TrsmCase& c) {
  std::ostringstream s;
  s << "trsm " << c.side << c.uplo << c.transa << c.diag << " m=" << c.m << " n=" << c.n << " pad=" << c.padding
    << " alpha=" << c.alpha;
  return s.str();
}
std::string describe(const PotrfCase& c) {
  return std::string("potrf ") + c.uplo + " n=" + std::to_string(c.n) + " pad=" + std::to_string(c.padding);
}

void check_gemm(const GemmCase& c, std::uint64_t seed, const GemmRunner& run) {
  Rng rng(seed);
  const bool ta = transposed(c.transa);
  const bool tb = transposed(c.transb);
  const DenseMatrix A = ta ? random_matrix(rng, c.k, c.m, c.padding) : random_matrix(rng, c.m, c.k, c.padding);
  const DenseMatrix B = tb ? random_matrix(rng, c.n, c.k, c.padding) : random_matrix(rng, c.k, c.n, c.padding);
  DenseMatrix C = random_matrix(rng, c.m, c.n, c.padding);
  if (c.beta == 0.0) {
    fill_where(C, kNaN, [](int, int) { return true; });
  }
  DenseMatrix expected = C;
  ref::gemm(c.transa, c.transb, c.m, c.n, c.k, c.alpha, A.data.data(), A.ld, B.data.data(), B.ld, c.beta,
            expected.data.data(), expected.ld);
  DenseMatrix bound = absolute(C);
  ref::gemm(c.transa, c.transb, c.m, c.n, c.k, std::fabs(c.alpha), absolute(A).data.data(), A.ld,
            absolute(B).data.data(), B.ld, std::fabs(c.beta), bound.data.data(), bound.ld);
  scale(bound, gamma(c.k));

  run(c, A, B, C);
  EXPECT_TRUE(within_bounds(C, expected, bound));
}

void check_syrk(const SyrkCase& c, std::uint64_t seed, const SyrkRunner& run) {
  Rng rng(seed);
  const bool lower = is_lower(c.uplo);
  const DenseMatrix A =
      transposed(c.trans) ? random_matrix(rng, c.k, c.n, c.padding) : random_matrix(rng, c.n, c.k, c.padding);
  DenseMatrix C = random_matrix(rng, c.n, c.n, c.padding);
  fill_where(C, kNaN, [&](int i, int j) { return !in_triangle(lower, i, j) || c.beta == 0.0; });
  DenseMatrix expected = C;
  ref::syrk(c.uplo, c.trans, c.n, c.k, c.alpha, A.data.data(), A.ld, c.beta, expected.data.data(), expected.ld);
  DenseMatrix bound = absolute(C);
  ref::syrk(c.uplo, c.trans, c.n, c.k, std::fabs(c.alpha), absolute(A).data.data(), A.ld, std::fabs(c.beta),
            bound.data.data(), bound.ld);
  scale(bound, gamma(c.k));

  run(c, A, C);
  EXPECT_TRUE(within_bounds(C, expected, bound));
}

void check_trsm(const TrsmCase& c, std::uint64_t seed, const TrsmRunner& run) {
  Rng rng(seed);
  const int size = (c.side == 'L' || c.side == 'l') ? c.m : c.n;
  const bool lower = is_lower(c.uplo);
  const bool unit = c.diag == 'U' || c.diag == 'u';
  // Diagonal of magnitude in [1, 2) and off-diagonal entries below 1/size: well conditioned.
  DenseMatrix A = random_matrix(rng, size, size, c.padding);
  for (int j = 0; j < size; ++j) {
    for (int i = 0; i < size; ++i) {
      if (i == j) {
        A(i, j) = unit ? kNaN : std::copysign(1.0 + std::fabs(A(i, j)), A(i, j));
      } else {
        A(i, j) = in_triangle(lower, i, j) ? A(i, j) / size : kNaN;
      }
    }
  }
  DenseMatrix B = random_matrix(rng, c.m, c.n, c.padding);
  DenseMatrix expected = B;
  ref::trsm(c.side, c.uplo, c.transa, c.diag, c.m, c.n, c.alpha, A.data.data(), A.ld, expected.data.data(),
            expected.ld);
  DenseMatrix bound = expected;
  fill_where(bound, 16.0 * gamma(size) * std::max(1.0, max_abs(expected)), [](int, int) { return true; });
  if (c.alpha == 0.0) {
    fill_where(bound, 0.0, [](int, int) { return true; });
  }

  run(c, A, B);
  EXPECT_TRUE(within_bounds(B, expected, bound));
}

void check_potrf(const PotrfCase& c, std::uint64_t seed, const PotrfRunner& run) {
  Rng rng(seed);
  const bool lower = is_lower(c.uplo);
  DenseMatrix A = random_spd(rng, c.n, c.padding);
  fill_where(A, kNaN, [&](int i, int j) { return !in_triangle(lower, i, j); });
  DenseMatrix expected = A;
  ASSERT_EQ(ref::potrf(c.uplo, c.n, expected.data.data(), expected.ld), 0);
  DenseMatrix bound = expected;
  fill_where(bound, 16.0 * gamma(c.n) * max_abs(expected), [](int, int) { return true; });

  EXPECT_EQ(run(c.uplo, A), 0);
  EXPECT_TRUE(within_bounds(A, expected, bound));
}

void check_potrf_failure(const PotrfCase& c, int column, bool nan_pivot, std::uint64_t seed,
                         const PotrfRunner& run) {
  Rng rng(seed);
  DenseMatrix A = random_spd(rng, c.n, c.padding);
  A(column, column) = nan_pivot ? kNaN : -0.5;
  DenseMatrix reference = A;
  ASSERT_EQ(ref::potrf(c.uplo, c.n, reference.data.data(), reference.ld), column + 1);
  EXPECT_EQ(run(c.uplo, A), column + 1);
}

std::vector<int> level1_sizes() { return {0, 1, 37, 1000, 4099}; }

void check_axpy(int n, std::uint64_t seed, const AxpyRunner& run) {
  Rng rng(seed);
  const double alpha = -1.75;
  const std::vector<double> x = random_vector(rng, static_cast<std::size_t>(n));
  std::vector<double> y = random_vector(rng, static_cast<std::size_t>(n));
  std::vector<double> expected = y;
  ref::axpy(n, alpha, x.data(), expected.data());
  std::vector<double> bound(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < bound.size(); ++i) {
    bound[i] = 2.0 * kEps * (std::fabs(alpha * x[i]) + std::fabs(y[i]));
  }
  run(alpha, x, y);
  EXPECT_TRUE(within_bounds(y, expected, bound));
}

void check_dot(int n, std::uint64_t seed, const DotRunner& run) {
  Rng rng(seed);
  const std::vector<double> x = random_vector(rng, static_cast<std::size_t>(n));
  const std::vector<double> y = random_vector(rng, static_cast<std::size_t>(n));
  const double expected = ref::dot(n, x.data(), y.data());
  const std::vector<double> x_abs = absolute(x);
  const std::vector<double> y_abs = absolute(y);
  const double bound = gamma(n) * ref::dot(n, x_abs.data(), y_abs.data());
  EXPECT_NEAR(run(x, y), expected, bound);
}

void check_nrm2(int n, double scale_factor, std::uint64_t seed, const Nrm2Runner& run) {
  Rng rng(seed);
  std::vector<double> x = random_vector(rng, static_cast<std::size_t>(n));
  for (double& value : x) {
    value *= scale_factor;
  }
  const double expected = ref::nrm2(n, x.data());
  ASSERT_TRUE(std::isfinite(expected));
  const double actual = run(x);
  EXPECT_NEAR(actual, expected, gamma(n) * expected);
  if (n > 0) {
    EXPECT_GT(actual, 0.0);
  }
}

}  // namespace hetsparse::test
