// Element-wise Krylov updates: grid-stride loops, memory bound.
#include "kernels/common/block_sum.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/krylov/krylov.hpp"
#include "kernels/krylov/cg_scalars.hpp"

namespace hetsparse::kernels {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(int n) {
  const long long b = (static_cast<long long>(n) + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 * 16 ? (b > 0 ? b : 1) : 65535 * 16);
}

__global__ void xpby_kernel(int n, const double* __restrict__ x, double beta, double* __restrict__ y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    y[i] = beta == 0.0 ? x[i] : x[i] + beta * y[i];
}

__global__ void diag_scale_kernel(int n, const double* __restrict__ d, const double* __restrict__ x,
                                  double* __restrict__ y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    y[i] = d[i] * x[i];
}

__global__ void fill_kernel(int n, double value, double* __restrict__ y) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    y[i] = value;
}

// The fused CG step: each block sums its elements' r.r and r.z, writes them to the workspace, and the
// last block to finish (an arrival counter) adds the blocks' sums in block order.
constexpr unsigned kStepBlocks = 1024;  // at most; grid-stride beyond
static_assert(kCgStepWorkspaceDoubles >= 2 * kStepBlocks + 1, "the workspace holds the sums and the counter");

struct StepWorkspace {
  double* partials;    // 2 per block
  unsigned* arrivals;  // after them
};
StepWorkspace step_workspace(void* w) {
  auto* partials = static_cast<double*>(w);
  return {partials, reinterpret_cast<unsigned*>(partials + 2 * kStepBlocks)};
}

__global__ void __launch_bounds__(kThreads) cg_step_kernel(int n, CgStepFrom from, const double* pq,
                                                           const double* __restrict__ p,
                                                           const double* __restrict__ q, double* __restrict__ x,
                                                           double* __restrict__ r, const double* __restrict__ d,
                                                           double* __restrict__ z, double* out, StepWorkspace w) {
  __shared__ double warp_sums[kThreads / 32];
  __shared__ bool last;
  if (from.prev != nullptr && from.prev[kCgStop] != kCgGoOn) {  // the previous step stopped (uniform)
    if (blockIdx.x == 0 && threadIdx.x < kCgScalars) out[threadIdx.x] = from.prev[threadIdx.x];
    return;
  }
  const double rz_old = from.prev != nullptr ? from.prev[kCgRZ] : from.rz;
  const bool moves = *pq > 0;  // else a breakdown: no step (uniform over the grid)
  const double alpha = moves ? rz_old / *pq : 0.0;
  double rr = 0.0, rz = 0.0;
  for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * kThreads) {
    double ri = r[i];
    if (moves) {
      x[i] += alpha * p[i];
      ri -= alpha * q[i];
      r[i] = ri;
    }
    rr += ri * ri;
    if (d != nullptr) {
      const double zi = d[i] * ri;
      z[i] = zi;
      rz += ri * zi;
    }
  }
  rr = block_sum<kThreads>(rr, warp_sums);
  __syncthreads();  // warp 0 has read warp_sums
  rz = block_sum<kThreads>(rz, warp_sums);
  if (threadIdx.x == 0) {
    w.partials[2 * blockIdx.x] = rr;
    w.partials[2 * blockIdx.x + 1] = rz;
    __threadfence();  // the sums are visible before the arrival is counted
    last = atomicAdd(w.arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  // The last block: thread t adds blocks t, t + kThreads, ... in order, then the block sums them.
  double a = 0.0, b = 0.0;
  for (unsigned k = threadIdx.x; k < gridDim.x; k += kThreads) {
    a += __ldcg(w.partials + 2 * k);
    b += __ldcg(w.partials + 2 * k + 1);
  }
  a = block_sum<kThreads>(a, warp_sums);
  __syncthreads();
  b = block_sum<kThreads>(b, warp_sums);
  if (threadIdx.x == 0) cg_scalars(a, d != nullptr ? b : a, *pq, rz_old, from.tol2, out);
}

__global__ void cg_direction_kernel(int n, const double* __restrict__ z, const double* s, double* __restrict__ p) {
  if (s[kCgStop] != kCgGoOn) return;
  const double beta = s[kCgBeta];
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    p[i] = z[i] + beta * p[i];
}

}  // namespace

void fill_cuda(cudaStream_t stream, int n, double value, double* y) {
  if (n <= 0) return;
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, value, y);
  check_cuda(cudaGetLastError(), "launching fill_cuda");
}

void cg_step_cuda(cudaStream_t stream, int n, CgStepFrom from, const double* pq, const double* p, const double* q,
                  double* x, double* r, const double* d, double* z, double* out, void* workspace) {
  const StepWorkspace w = step_workspace(workspace);
  check_cuda(cudaMemsetAsync(w.arrivals, 0, sizeof(unsigned), stream), "cudaMemsetAsync in cg_step_cuda");
  const long long need = (static_cast<long long>(n < 1 ? 1 : n) + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(need < kStepBlocks ? need : kStepBlocks);
  cg_step_kernel<<<blocks, kThreads, 0, stream>>>(n, from, pq, p, q, x, r, d, z, out, w);
  check_cuda(cudaGetLastError(), "launching cg_step_cuda");
}

void xpby_cuda(cudaStream_t stream, int n, const double* x, double beta, double* y) {
  if (n <= 0) return;
  xpby_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, x, beta, y);
  check_cuda(cudaGetLastError(), "launching xpby_cuda");
}

void cg_direction_cuda(cudaStream_t stream, int n, const double* z, const double* s, double* p) {
  if (n <= 0) return;
  cg_direction_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, z, s, p);
  check_cuda(cudaGetLastError(), "launching cg_direction_cuda");
}

void diag_scale_cuda(cudaStream_t stream, int n, const double* d, const double* x, double* y) {
  if (n <= 0) return;
  diag_scale_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, d, x, y);
  check_cuda(cudaGetLastError(), "launching diag_scale_cuda");
}

}  // namespace hetsparse::kernels
