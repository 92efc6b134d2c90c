// C = alpha op(A) op(A)^T + beta C on the `uplo` triangle of the n x n matrix C, column-major,
// BLAS dsyrk conventions: op(A) = A (n x k) for trans 'N', A^T (A is k x n) for 'T'.
// The other triangle of C is neither read nor written. Pure kernels, no StarPU.
#pragma once

// Same declaration as cublas_api.h, so this header compiles without CUDA and coexists with it.
typedef struct cublasContext* cublasHandle_t;

namespace hetsparse::kernels {

// uplo: 'L' or 'U'; trans: 'N' or 'T' (either case). Throws InvalidArgument otherwise.
void syrk_cpu(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta,
              double* C, int ldc);

// Asynchronous on the handle's stream; device memory, host scalars (pointer mode set and restored).
void syrk_cuda(cublasHandle_t handle, char uplo, char trans, int n, int k, double alpha, const double* A,
               int lda, double beta, double* C, int ldc);

}  // namespace hetsparse::kernels
