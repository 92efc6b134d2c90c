// The vector updates a preconditioned Krylov iteration needs besides axpy/dot/nrm2 (kernels/vector):
// p = z + beta p, and the Jacobi preconditioner z = d .* r. Pure kernels on contiguous vectors.
#pragma once

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// y = x + beta * y; beta == 0: y = x (y is only written, it may hold NaN on entry, as in BLAS)
void xpby_cpu(int n, const double* x, double beta, double* y);
// y = d .* x (element-wise)
void diag_scale_cpu(int n, const double* d, const double* x, double* y);

// The same on device vectors, asynchronous on `stream`.
void xpby_cuda(cudaStream_t stream, int n, const double* x, double beta, double* y);
void diag_scale_cuda(cudaStream_t stream, int n, const double* d, const double* x, double* y);

}  // namespace hetsparse::kernels
