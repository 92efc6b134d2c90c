// Loop-by-loop definitions of the BLAS/LAPACK operations, the yardstick for every dense kernel.
#include "reference/dense_reference.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <string>

#include "hetsparse/error.hpp"

namespace hetsparse::ref {
namespace {

void require(bool ok, const char* routine, const std::string& what) {
  if (!ok) {
    throw InvalidArgument(std::string("ref::") + routine + ": " + what);
  }
}

// Returns true for a transpose, false for none.
bool parse_trans(char c, const char* routine) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  require(u == 'N' || u == 'T' || u == 'C', routine, std::string("invalid trans '") + c + "'");
  return u != 'N';
}

// Returns true for the option spelled `first`, false for `second`.
bool parse_choice(char c, char first, char second, const char* routine, const char* option) {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  require(u == first || u == second, routine, std::string("invalid ") + option + " '" + c + "'");
  return u == first;
}

void require_ld(int ld, int rows, const char* routine, const char* name) {
  require(ld >= std::max(1, rows), routine, std::string(name) + " = " + std::to_string(ld) + " < max(1, " +
                                                std::to_string(rows) + ")");
}

std::size_t idx(int i, int j, int ld) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld; }

// Element (i, j) of op(M) for a column-major M.
double op_at(const double* M, int ld, bool trans, int i, int j) { return trans ? M[idx(j, i, ld)] : M[idx(i, j, ld)]; }

// Solves T x = b in place for the triangular size x size matrix T whose element (i, p) is t(i, p);
// only the triangle named by `lower` is read. x has stride `stride`.
template <typename Element>
void solve_triangular(int size, bool lower, bool unit, const Element& t, double* x, std::size_t stride) {
  for (int step = 0; step < size; ++step) {
    const int i = lower ? step : size - 1 - step;
    double sum = x[i * stride];
    const int p_begin = lower ? 0 : i + 1;
    const int p_end = lower ? i : size;
    for (int p = p_begin; p < p_end; ++p) {
      sum -= t(i, p) * x[p * stride];
    }
    x[i * stride] = unit ? sum : sum / t(i, i);
  }
}

}  // namespace

void gemm(char transa, char transb, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
          int ldb, double beta, double* C, int ldc) {
  const bool ta = parse_trans(transa, "gemm");
  const bool tb = parse_trans(transb, "gemm");
  require(m >= 0 && n >= 0 && k >= 0, "gemm", "negative dimension");
  require_ld(lda, ta ? k : m, "gemm", "lda");
  require_ld(ldb, tb ? n : k, "gemm", "ldb");
  require_ld(ldc, m, "gemm", "ldc");
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0;
      if (alpha != 0.0) {
        for (int p = 0; p < k; ++p) {
          sum += op_at(A, lda, ta, i, p) * op_at(B, ldb, tb, p, j);
        }
      }
      double& c = C[idx(i, j, ldc)];
      c = beta == 0.0 ? alpha * sum : alpha * sum + beta * c;
    }
  }
}

void syrk(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta, double* C,
          int ldc) {
  const bool lower = parse_choice(uplo, 'L', 'U', "syrk", "uplo");
  const bool ta = parse_trans(trans, "syrk");
  require(n >= 0 && k >= 0, "syrk", "negative dimension");
  require_ld(lda, ta ? k : n, "syrk", "lda");
  require_ld(ldc, n, "syrk", "ldc");
  for (int j = 0; j < n; ++j) {
    const int i_begin = lower ? j : 0;
    const int i_end = lower ? n : j + 1;
    for (int i = i_begin; i < i_end; ++i) {
      double sum = 0.0;
      if (alpha != 0.0) {
        for (int p = 0; p < k; ++p) {
          sum += op_at(A, lda, ta, i, p) * op_at(A, lda, ta, j, p);
        }
      }
      double& c = C[idx(i, j, ldc)];
      c = beta == 0.0 ? alpha * sum : alpha * sum + beta * c;
    }
  }
}

void trsm(char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda,
          double* B, int ldb) {
  const bool left = parse_choice(side, 'L', 'R', "trsm", "side");
  const bool lower = parse_choice(uplo, 'L', 'U', "trsm", "uplo");
  const bool ta = parse_trans(transa, "trsm");
  const bool unit = parse_choice(diag, 'U', 'N', "trsm", "diag");
  require(m >= 0 && n >= 0, "trsm", "negative dimension");
  require_ld(lda, left ? m : n, "trsm", "lda");
  require_ld(ldb, m, "trsm", "ldb");
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double& b = B[idx(i, j, ldb)];
      b = alpha == 0.0 ? 0.0 : alpha * b;
    }
  }
  if (alpha == 0.0) {
    return;
  }
  // op(A) is lower triangular when A is lower and not transposed, or upper and transposed.
  const bool op_lower = lower != ta;
  const auto op_a = [&](int i, int p) { return op_at(A, lda, ta, i, p); };
  if (left) {
    // op(A) X = B, one column of B at a time.
    for (int j = 0; j < n; ++j) {
      solve_triangular(m, op_lower, unit, op_a, B + idx(0, j, ldb), 1);
    }
  } else {
    // X op(A) = B  <=>  op(A)^T X^T = B^T, one row of B at a time; op(A)^T flips the triangle.
    const auto op_a_transposed = [&](int i, int p) { return op_a(p, i); };
    for (int i = 0; i < m; ++i) {
      solve_triangular(n, !op_lower, unit, op_a_transposed, B + i, static_cast<std::size_t>(ldb));
    }
  }
}

int potrf(char uplo, int n, double* A, int lda) {
  const bool lower = parse_choice(uplo, 'L', 'U', "potrf", "uplo");
  require(n >= 0, "potrf", "negative dimension");
  require_ld(lda, n, "potrf", "lda");
  // Factor element (i, j), i >= j, of L (lower) or its mirror (j, i) of U = L^T (upper).
  const auto f = [&](int i, int j) -> double& { return lower ? A[idx(i, j, lda)] : A[idx(j, i, lda)]; };
  for (int j = 0; j < n; ++j) {
    double pivot = f(j, j);
    for (int p = 0; p < j; ++p) {
      pivot -= f(j, p) * f(j, p);
    }
    if (!(pivot > 0.0)) {  // also catches NaN
      f(j, j) = pivot;
      return j + 1;
    }
    const double diagonal = std::sqrt(pivot);
    f(j, j) = diagonal;
    for (int i = j + 1; i < n; ++i) {
      double sum = f(i, j);
      for (int p = 0; p < j; ++p) {
        sum -= f(i, p) * f(j, p);
      }
      f(i, j) = sum / diagonal;
    }
  }
  return 0;
}

void axpy(int n, double alpha, const double* x, double* y) {
  for (int i = 0; i < n; ++i) {
    y[i] += alpha * x[i];
  }
}

double dot(int n, const double* x, const double* y) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    sum += x[i] * y[i];
  }
  return sum;
}

double nrm2(int n, const double* x) {
  double scale = 0.0;
  for (int i = 0; i < n; ++i) {
    if (std::isnan(x[i])) {
      return x[i];
    }
    scale = std::max(scale, std::fabs(x[i]));
  }
  if (scale == 0.0 || std::isinf(scale)) {
    return scale;
  }
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double scaled = x[i] / scale;
    sum += scaled * scaled;
  }
  return scale * std::sqrt(sum);
}

}  // namespace hetsparse::ref
