// The vector updates a preconditioned Krylov iteration needs besides axpy/dot/nrm2 (kernels/vector):
// p = z + beta p, the Jacobi preconditioner z = d .* r, a fill, and the fused CG step. Pure kernels on
// contiguous vectors.
#pragma once
#include <cstddef>

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// y = x + beta * y; beta == 0: y = x (y is only written, it may hold NaN on entry, as in BLAS)
void xpby_cpu(int n, const double* x, double beta, double* y);
// y = d .* x (element-wise)
void diag_scale_cpu(int n, const double* d, const double* x, double* y);
// y = value (every element; y is only written)
void fill_cpu(int n, double value, double* y);

// The CG step in one pass over the vectors (instead of two axpy, a norm, the preconditioner's scaling
// and a dot, each its own pass and launch), its length alpha = rz / *pq taken from p.q where the dot
// left it (device memory for the CUDA kernel), so that the host need not read p.q first:
//   x += alpha p;  r -= alpha q;  with d: z = d .* r;  dots = {r.r, r.z (r.r without d), *pq}.
// *pq <= 0 or NaN (A not positive definite): no step, x and r stay as they were, and dots[2] tells
// the caller. d and z may be null (no scaling: z is r). Sums in a fixed order: the same inputs
// give the same bits.
void cg_step_cpu(int n, double rz, const double* pq, const double* p, const double* q, double* x, double* r,
                 const double* d, double* z, double* dots);

// The same on device vectors, asynchronous on `stream`.
void xpby_cuda(cudaStream_t stream, int n, const double* x, double beta, double* y);
void diag_scale_cuda(cudaStream_t stream, int n, const double* d, const double* x, double* y);
void fill_cuda(cudaStream_t stream, int n, double value, double* y);
// workspace: kCgStepWorkspaceDoubles doubles of device scratch (any content; reset on the stream first).
void cg_step_cuda(cudaStream_t stream, int n, double rz, const double* pq, const double* p, const double* q, double* x,
                  double* r, const double* d, double* z, double* dots, void* workspace);
inline constexpr std::size_t kCgStepWorkspaceDoubles = 2 * 1024 + 1;  // 2 sums a block, an arrival counter

}  // namespace hetsparse::kernels
