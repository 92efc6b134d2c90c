// C = alpha op(A) op(B) + beta C, column-major, BLAS dgemm conventions (op(A) is m x k, op(B) k x n).
// Pure kernels, no StarPU: the CPU one calls CBLAS, the CUDA one cuBLAS.
#pragma once

// Same declaration as cublas_api.h, so this header compiles without CUDA and coexists with it.
typedef struct cublasContext* cublasHandle_t;

namespace hetsparse::kernels {

// transa/transb: 'N' or 'T' (either case). Throws InvalidArgument on any other character.
void gemm_cpu(char transa, char transb, int m, int n, int k, double alpha, const double* A, int lda,
              const double* B, int ldb, double beta, double* C, int ldc);

// Asynchronous on the handle's stream; A, B, C in device memory, alpha/beta read from the host
// (the handle's pointer mode is set to host for the call and restored afterwards).
void gemm_cuda(cublasHandle_t handle, char transa, char transb, int m, int n, int k, double alpha,
               const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc);

}  // namespace hetsparse::kernels
