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

// The CG step's scalars: a vector of kCgScalars doubles that a step writes and the next may read.
//   kCgRR    r.r                    kCgRZ    r.z (r.r without d)
//   kCgPQ    the p.q it divided by  kCgBeta  r.z / the r.z it started from (the next direction's beta)
//   kCgStop  0 go on; 1 converged (r.r <= tol2); 2 breakdown (p.q <= 0 or NaN, no step taken; or r.z
//            <= 0 or NaN, A or M not positive definite)
enum CgScalar : int { kCgRR, kCgRZ, kCgPQ, kCgStop, kCgBeta, kCgScalars };
inline constexpr double kCgGoOn = 0, kCgConverged = 1, kCgBreakdown = 2;

// Where a step starts from: the previous step's scalars on the device (its r.z; no step at all, and
// its scalars copied, where it stopped), so that the host need not read them before launching the
// next iteration; or, with prev null, r.z given by the host.
struct CgStepFrom {
  double rz = 0;
  const double* prev = nullptr;
  double tol2 = 0;  // converged when r.r <= tol2
};

// The CG step in one pass over the vectors (instead of two axpy, a norm, the preconditioner's scaling
// and a dot, each its own pass and launch), its length alpha = rz / *pq taken from p.q where the dot
// left it (device memory for the CUDA kernel):
//   x += alpha p;  r -= alpha q;  with d: z = d .* r;  out: the scalars above.
// *pq <= 0 or NaN: no step, x and r stay as they were. d and z may be null (no scaling: z is r).
// Sums in a fixed order: the same inputs give the same bits.
void cg_step_cpu(int n, CgStepFrom from, const double* pq, const double* p, const double* q, double* x, double* r,
                 const double* d, double* z, double* out);
// The next direction p = z + s[kCgBeta] p from a step's scalars s, unless that step stopped.
void cg_direction_cpu(int n, const double* z, const double* s, double* p);

// The same on device vectors, asynchronous on `stream`.
void xpby_cuda(cudaStream_t stream, int n, const double* x, double beta, double* y);
void diag_scale_cuda(cudaStream_t stream, int n, const double* d, const double* x, double* y);
void fill_cuda(cudaStream_t stream, int n, double value, double* y);
// workspace: kCgStepWorkspaceDoubles doubles of device scratch (any content; reset on the stream first).
void cg_step_cuda(cudaStream_t stream, int n, CgStepFrom from, const double* pq, const double* p, const double* q,
                  double* x, double* r, const double* d, double* z, double* out, void* workspace);
void cg_direction_cuda(cudaStream_t stream, int n, const double* z, const double* s, double* p);
inline constexpr std::size_t kCgStepWorkspaceDoubles = 2 * 1024 + 1;  // 2 sums a block, an arrival counter

}  // namespace hetsparse::kernels
