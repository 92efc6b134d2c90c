// Serial reference ("oracle") sparse kernels: plain loops, written to be obviously correct
// rather than fast. Tests compare every optimized CPU and GPU kernel against these.
#pragma once
#include "sparse/csr.hpp"
#include "sparse/types.hpp"

namespace hetsparse::ref {

// y = alpha * A x + beta * y, with x of length A.cols and y of length A.rows. With beta == 0,
// y is only written (it may hold NaN on entry). Duplicates in A are summed.
void spmv(const Csr& a, const double* x, double* y, double alpha = 1.0, double beta = 0.0);

// Solves T x = b for a square triangular T whose entries may be in any order within a row
// (the diagonal anywhere; duplicates are summed). unit_diagonal: the diagonal is taken as 1
// and any stored diagonal entry is ignored. Throws StructureError naming the entry for an
// entry on the wrong side of the diagonal, and for a missing or zero diagonal when
// !unit_diagonal. x and b have length T.rows and may be the same array.
void sptrsv(const Csr& t, Triangle tri, bool unit_diagonal, const double* b, double* x);

// Solves T^T x = b with T stored as for sptrsv (tri says which triangle T, not T^T, is);
// same checks and aliasing rule.
void sptrsv_transpose(const Csr& t, Triangle tri, bool unit_diagonal, const double* b, double* x);

// Normwise backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf), 0 when both
// numerator and denominator are 0. A square or not: x has A.cols entries, b has A.rows.
double backward_error(const Csr& a, const double* x, const double* b);

}  // namespace hetsparse::ref
