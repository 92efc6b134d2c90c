// CSR-vector SpMV: one sub-warp per row, the lanes stride through the row's entries and the partial
// sums meet through warp shuffles. Memory bound: every load is a read-only (__ldg) load, and rows
// of a warp are contiguous, so the warp's colind/values reads coalesce even when rows are short.
#include "codelets/spmv/spmv.hpp"

#include <cstdint>

#include "codelets/common/cuda_check.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kBlockThreads = 256;

template <unsigned Width>
__global__ void __launch_bounds__(kBlockThreads)
    csr_vector_kernel(std::uint32_t nrows, const std::uint32_t* __restrict__ rowptr,
                      const std::uint32_t* __restrict__ colind, const double* __restrict__ values,
                      std::uint32_t first_entry, const double* __restrict__ x, double* __restrict__ y,
                      double alpha, double beta) {
  static_assert(Width >= 2 && Width <= 32 && (Width & (Width - 1)) == 0, "sub-warp width: power of two");
  const std::uint64_t thread = static_cast<std::uint64_t>(blockIdx.x) * kBlockThreads + threadIdx.x;
  const std::uint64_t row = thread / Width;
  const unsigned lane = threadIdx.x % Width;

  double sum = 0.0;
  if (row < nrows) {
    const std::uint32_t begin = __ldg(rowptr + row) - first_entry;
    const std::uint32_t end = __ldg(rowptr + row + 1) - first_entry;
    for (std::uint32_t k = begin + lane; k < end; k += Width) {
      sum += __ldg(values + k) * __ldg(x + __ldg(colind + k));
    }
  }
  // Every lane of the warp reaches this point (no early exit), so the full mask is exact.
  for (unsigned offset = Width / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset, Width);
  }
  if (lane == 0 && row < nrows) {
    y[row] = beta == 0.0 ? alpha * sum : alpha * sum + beta * y[row];
  }
}

template <unsigned Width>
void launch(cudaStream_t stream, const CsrView& A, const double* x, double* y, double alpha, double beta) {
  const std::uint64_t threads = static_cast<std::uint64_t>(A.nrows) * Width;
  const auto blocks = static_cast<unsigned>((threads + kBlockThreads - 1) / kBlockThreads);
  csr_vector_kernel<Width><<<blocks, kBlockThreads, 0, stream>>>(A.nrows, A.rowptr, A.colind, A.values,
                                                                  A.first_entry, x, y, alpha, beta);
}

// The smallest power of two covering the mean row length (CUSP's rule): a 7-point stencil row gets
// 8 lanes and one pass, long rows get a whole warp. Integer ceiling, no floating point.
unsigned subwarp_width(const CsrView& A) {
  const std::uint64_t mean_ceil = (static_cast<std::uint64_t>(A.nnz) + A.nrows - 1) / A.nrows;
  unsigned width = 2;
  while (width < 32 && width < mean_ceil) {
    width *= 2;
  }
  return width;
}

}  // namespace

void spmv_cuda(cudaStream_t stream, const CsrView& A, const double* x, double* y, double alpha, double beta) {
  if (A.nrows == 0) {
    return;
  }
  switch (subwarp_width(A)) {
    case 2: launch<2>(stream, A, x, y, alpha, beta); break;
    case 4: launch<4>(stream, A, x, y, alpha, beta); break;
    case 8: launch<8>(stream, A, x, y, alpha, beta); break;
    case 16: launch<16>(stream, A, x, y, alpha, beta); break;
    default: launch<32>(stream, A, x, y, alpha, beta); break;
  }
  check_cuda(cudaGetLastError(), "csr_vector_kernel launch in spmv_cuda");
}

}  // namespace hetsparse::kernels
