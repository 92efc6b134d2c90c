// Element-wise Krylov updates: grid-stride loops, memory bound.
#include "kernels/common/cuda_check.hpp"
#include "kernels/krylov/krylov.hpp"

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

}  // namespace

void xpby_cuda(cudaStream_t stream, int n, const double* x, double beta, double* y) {
  if (n <= 0) return;
  xpby_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, x, beta, y);
  check_cuda(cudaGetLastError(), "launching xpby_cuda");
}

void diag_scale_cuda(cudaStream_t stream, int n, const double* d, const double* x, double* y) {
  if (n <= 0) return;
  diag_scale_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, d, x, y);
  check_cuda(cudaGetLastError(), "launching diag_scale_cuda");
}

}  // namespace hetsparse::kernels
