// Serial reference sparse kernels.
#include "reference/sparse_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hetsparse/error.hpp"

namespace hetsparse::ref {
namespace {

// max that lets a NaN through: a backward error must not hide a NaN in x or b - A x.
double nan_max(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  return std::max(a, b);
}

bool on_wrong_side(Triangle tri, index_t row, index_t col) {
  return tri == Triangle::Lower ? col > row : col < row;
}

// Checks that T is square and triangular and returns its diagonal (duplicates summed; all
// ones for a unit diagonal). Runs before any output is written, so a failed solve leaves x
// untouched.
std::vector<double> checked_diagonal(const Csr& t, Triangle tri, bool unit_diagonal, const char* who) {
  if (t.rows != t.cols) {
    throw InvalidArgument(std::string(who) + ": matrix must be square, got " + std::to_string(t.rows) + " x " +
                          std::to_string(t.cols));
  }
  const char* side = tri == Triangle::Lower ? "above" : "below";
  std::vector<double> diagonal(static_cast<std::size_t>(t.rows), unit_diagonal ? 1.0 : 0.0);
  std::vector<bool> has_diagonal(static_cast<std::size_t>(t.rows), unit_diagonal);
  for (index_t i = 0; i < t.rows; ++i) {
    for (offset_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
      const index_t j = t.colind[p];
      if (on_wrong_side(tri, i, j)) {
        throw StructureError(i, j, std::string(who) + ": entry " + side + " the diagonal of a " +
                                       (tri == Triangle::Lower ? "lower" : "upper") + " triangular matrix");
      }
      if (j == i && !unit_diagonal) {
        diagonal[static_cast<std::size_t>(i)] += t.values[p];
        has_diagonal[static_cast<std::size_t>(i)] = true;
      }
    }
    if (!has_diagonal[static_cast<std::size_t>(i)]) {
      throw StructureError(i, i, std::string(who) + ": diagonal entry missing");
    }
    if (diagonal[static_cast<std::size_t>(i)] == 0.0) {
      throw StructureError(i, i, std::string(who) + ": diagonal entry is zero");
    }
  }
  return diagonal;
}

}  // namespace

void spmv(const Csr& a, const double* x, double* y, double alpha, double beta) {
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = 0.0;
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) sum += a.values[p] * x[a.colind[p]];
    y[i] = beta == 0.0 ? alpha * sum : alpha * sum + beta * y[i];
  }
}

void sptrsv(const Csr& t, Triangle tri, bool unit_diagonal, const double* b, double* x) {
  const std::vector<double> diagonal = checked_diagonal(t, tri, unit_diagonal, "sptrsv");
  // Row i needs every x[j] on its side of the diagonal: forward for lower, backward for upper.
  const bool forward = tri == Triangle::Lower;
  for (index_t k = 0; k < t.rows; ++k) {
    const index_t i = forward ? k : t.rows - 1 - k;
    double sum = b[i];  // read before x[i] is written: b may alias x
    for (offset_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
      if (t.colind[p] != i) sum -= t.values[p] * x[t.colind[p]];
    }
    x[i] = sum / diagonal[static_cast<std::size_t>(i)];
  }
}

void sptrsv_transpose(const Csr& t, Triangle tri, bool unit_diagonal, const double* b, double* x) {
  const std::vector<double> diagonal = checked_diagonal(t, tri, unit_diagonal, "sptrsv_transpose");
  // Column-oriented: row i of T is column i of T^T. Once x[i] is final, its contribution is
  // removed from the right-hand sides of the unknowns that come later.
  std::copy(b, b + t.rows, x);  // a no-op copy when b == x
  const bool forward = tri == Triangle::Upper;  // T^T is lower when T is upper
  for (index_t k = 0; k < t.rows; ++k) {
    const index_t i = forward ? k : t.rows - 1 - k;
    x[i] /= diagonal[static_cast<std::size_t>(i)];
    for (offset_t p = t.rowptr[i]; p < t.rowptr[i + 1]; ++p) {
      if (t.colind[p] != i) x[t.colind[p]] -= t.values[p] * x[i];
    }
  }
}

double backward_error(const Csr& a, const double* x, const double* b) {
  double residual = 0.0, a_norm = 0.0, x_norm = 0.0, b_norm = 0.0;
  for (index_t i = 0; i < a.rows; ++i) {
    double ax = 0.0, row_abs = 0.0;
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      ax += a.values[p] * x[a.colind[p]];
      row_abs += std::abs(a.values[p]);
    }
    residual = nan_max(residual, std::abs(b[i] - ax));
    a_norm = nan_max(a_norm, row_abs);
    b_norm = nan_max(b_norm, std::abs(b[i]));
  }
  for (index_t j = 0; j < a.cols; ++j) x_norm = nan_max(x_norm, std::abs(x[j]));
  const double denominator = a_norm * x_norm + b_norm;
  if (denominator == 0.0) return residual == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return residual / denominator;
}

}  // namespace hetsparse::ref
