// GPU pass of the powered right-hand side (see sptrsv_powered.hpp): CSR SpMV with a sub-warp of
// Lanes threads per row, Lanes the power of two at or above the mean row length (at most 32), so
// the short stencil rows (3 to 45 entries) keep most lanes busy and the loads coalesced.
#include "kernels/common/cuda_check.hpp"
#include "kernels/sptrsv/sptrsv_powered.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kThreads = 256;

template <unsigned Lanes>
__global__ void __launch_bounds__(kThreads) powered_rhs_kernel(PowerFactorView a, const double* __restrict__ scale,
                                                                const double* __restrict__ in,
                                                                double* __restrict__ out) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const auto row = static_cast<index_t>(thread / Lanes);
  const unsigned lane = threadIdx.x % Lanes;
  // Whole groups leave together (Lanes divides 32 and the block), so the shuffles stay converged.
  if (row >= a.n) return;
  const unsigned mask = Lanes == 32 ? 0xffffffffu : ((1u << Lanes) - 1u) << (threadIdx.x % 32 / Lanes * Lanes);
  double sum = 0.0;
  for (index_t p = __ldg(a.rowptr + row) + static_cast<index_t>(lane); p < __ldg(a.rowptr + row + 1);
       p += static_cast<index_t>(Lanes)) {
    const index_t j = __ldg(a.colind + p);
    const double v = scale != nullptr ? __ldg(scale + j) * __ldg(in + j) : __ldg(in + j);
    sum += __ldg(a.values + p) * v;
  }
#pragma unroll
  for (unsigned offset = Lanes / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(mask, sum, offset, Lanes);
  if (lane == 0) out[row] = (scale != nullptr ? scale[row] * in[row] : in[row]) + sum;
}

template <unsigned Lanes>
void launch(cudaStream_t stream, const PowerFactorView& a, const double* scale, const double* in, double* out) {
  const std::int64_t threads = static_cast<std::int64_t>(a.n) * Lanes;
  const auto blocks = static_cast<unsigned>((threads + kThreads - 1) / kThreads);
  powered_rhs_kernel<Lanes><<<blocks, kThreads, 0, stream>>>(a, scale, in, out);
}

}  // namespace

void powered_rhs_step_cuda(cudaStream_t stream, const PowerFactorView& a, const double* scale, const double* in,
                           double* out) {
  if (a.n == 0) return;
  const double mean = static_cast<double>(a.nnz) / static_cast<double>(a.n);
  if (mean <= 2) launch<2>(stream, a, scale, in, out);
  else if (mean <= 4) launch<4>(stream, a, scale, in, out);
  else if (mean <= 8) launch<8>(stream, a, scale, in, out);
  else if (mean <= 16) launch<16>(stream, a, scale, in, out);
  else launch<32>(stream, a, scale, in, out);
  check_cuda(cudaGetLastError(), "powered_rhs_kernel launch in powered_rhs_step_cuda");
}

}  // namespace hetsparse::kernels
