// Level-1 BLAS on contiguous vectors (unit stride): axpy, dot, nrm2. Pure kernels, no StarPU.
#pragma once

// Same declaration as cublas_api.h, so this header compiles without CUDA and coexists with it.
typedef struct cublasContext* cublasHandle_t;

namespace hetsparse::kernels {

// y = alpha x + y
void axpy_cpu(int n, double alpha, const double* x, double* y);
// x^T y
double dot_cpu(int n, const double* x, const double* y);
// ||x||_2, computed without overflow or underflow of the squares (as dnrm2)
double nrm2_cpu(int n, const double* x);

// All three are asynchronous on the handle's stream and take device vectors. axpy reads alpha from
// the host. dot and nrm2 write their result to *result_device (device memory) so that no host
// synchronisation happens; the handle's pointer mode is switched for the call and then restored.
void axpy_cuda(cublasHandle_t handle, int n, double alpha, const double* x, double* y);
void dot_cuda(cublasHandle_t handle, int n, const double* x, const double* y, double* result_device);
void nrm2_cuda(cublasHandle_t handle, int n, const double* x, double* result_device);

}  // namespace hetsparse::kernels
