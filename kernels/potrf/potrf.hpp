// Cholesky factorization of a symmetric positive definite n x n matrix, LAPACK dpotrf conventions,
// column-major: uplo 'L' gives A = L L^T, 'U' gives A = U^T U, written over that triangle of A; the
// other triangle is neither read nor written. Pure kernels, no StarPU.
//
// Info convention (both back ends): 0 on success; k > 0 when the leading minor of order k is not
// positive definite, i.e. the pivot of 1-based column k was <= 0 or NaN (columns before k are
// factored, the rest of the triangle is partly updated). NaN pivots are caught even where the
// library (OpenBLAS, cuSOLVER for 'U') misses them. Invalid arguments throw InvalidArgument.
#pragma once

// Same declarations as cusolverDn.h and driver_types.h, so this header compiles without CUDA.
typedef struct cusolverDnContext* cusolverDnHandle_t;
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

int potrf_cpu(char uplo, int n, double* A, int lda);

// Bytes of device workspace potrf_cuda needs for this shape (A is not read, but cuSOLVER wants it).
int potrf_cuda_workspace_size(cusolverDnHandle_t handle, char uplo, int n, double* A, int lda);

// Enqueues the factorization (and a one-block NaN-pivot check) on `stream` and returns at once;
// A, workspace and dev_info are device memory, workspace_elems is at least
// potrf_cuda_workspace_size(...) / sizeof(double). The info code is written to *dev_info: read it
// with potrf_cuda_info, or keep it on the device to stay asynchronous.
// The handle is bound to `stream` for the call and given back bound to its previous stream.
void potrf_cuda(cusolverDnHandle_t handle, cudaStream_t stream, char uplo, int n, double* A, int lda,
                double* workspace, int workspace_elems, int* dev_info);

// Waits for `stream`, copies *dev_info back and returns it (same convention as potrf_cpu).
int potrf_cuda_info(cudaStream_t stream, const int* dev_info);

}  // namespace hetsparse::kernels
