// Test oracles for the dense kernels: plain loops, no BLAS/LAPACK, written for obviousness rather
// than speed. Same signatures and conventions as the CPU kernels in codelets/ (column-major, BLAS
// option characters in either case, 'C' = transpose for real data), including the BLAS rules that
// an output is not read when its beta is 0 and inputs are not read when alpha is 0.
// Bad option characters or sizes throw hetsparse::InvalidArgument.
#pragma once

namespace hetsparse::ref {

// C = alpha op(A) op(B) + beta C; op(A) is m x k, op(B) is k x n.
void gemm(char transa, char transb, int m, int n, int k, double alpha, const double* A, int lda, const double* B,
          int ldb, double beta, double* C, int ldc);

// C = alpha op(A) op(A)^T + beta C on the uplo triangle of the n x n C; op(A) is n x k.
void syrk(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta, double* C,
          int ldc);

// B = alpha op(A)^-1 B (side 'L', A m x m) or alpha B op(A)^-1 (side 'R', A n x n); B is m x n.
void trsm(char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda,
          double* B, int ldb);

// Unblocked Cholesky on the uplo triangle; returns 0 or the 1-based column whose pivot is <= 0 or NaN.
int potrf(char uplo, int n, double* A, int lda);

void axpy(int n, double alpha, const double* x, double* y);
double dot(int n, const double* x, const double* y);
double nrm2(int n, const double* x);  // scaled, so squares neither overflow nor underflow

}  // namespace hetsparse::ref
