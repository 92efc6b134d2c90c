// Triangular solve with many right-hand sides, BLAS dtrsm conventions, column-major:
// side 'L': op(A) X = alpha B (A is m x m); side 'R': X op(A) = alpha B (A is n x n).
// X overwrites the m x n matrix B. Only the `uplo` triangle of A is read; diag 'U' means unit
// diagonal (not read). Pure kernels, no StarPU.
#pragma once

// Same declaration as cublas_api.h, so this header compiles without CUDA and coexists with it.
typedef struct cublasContext* cublasHandle_t;

namespace hetsparse::kernels {

// side 'L'/'R', uplo 'L'/'U', transa 'N'/'T', diag 'N'/'U' (either case); InvalidArgument otherwise.
void trsm_cpu(char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda,
              double* B, int ldb);

// Asynchronous on the handle's stream; device memory, host alpha (pointer mode set and restored).
void trsm_cuda(cublasHandle_t handle, char side, char uplo, char transa, char diag, int m, int n, double alpha,
               const double* A, int lda, double* B, int ldb);

}  // namespace hetsparse::kernels
