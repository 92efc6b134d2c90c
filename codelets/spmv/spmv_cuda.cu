// CSR-vector SpMV: a sub-warp of Width lanes reduces each row, the lanes striding through the row's
// entries and meeting through warp shuffles. Memory bound, and for short rows latency bound: a lane
// has only one entry of a stencil row to fetch, behind two dependent loads (colind, then x). So each
// sub-warp takes Rows rows and issues the first pass of all of them before using any result, which
// keeps Rows gathers in flight per lane. The rows of one pass are consecutive across the warp, so its
// colind/values reads stay coalesced. All matrix and x reads go through the read-only path (__ldg).
#include "codelets/spmv/spmv.hpp"

#include <cstdint>

#include "codelets/common/cuda_check.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kBlockThreads = 256;
constexpr unsigned kWarp = 32;

template <unsigned Width, unsigned Rows>
__global__ void __launch_bounds__(kBlockThreads)
    csr_vector_kernel(std::uint32_t nrows, const std::uint32_t* __restrict__ rowptr,
                      const std::uint32_t* __restrict__ colind, const double* __restrict__ values,
                      std::uint32_t first_entry, const double* __restrict__ x, double* __restrict__ y,
                      double alpha, double beta) {
  static_assert(Width >= 2 && Width <= kWarp && (Width & (Width - 1)) == 0, "sub-warp width: power of two");
  constexpr unsigned groups_per_warp = kWarp / Width;
  const std::uint64_t warp = (static_cast<std::uint64_t>(blockIdx.x) * kBlockThreads + threadIdx.x) / kWarp;
  const unsigned group = (threadIdx.x % kWarp) / Width;
  const unsigned lane = threadIdx.x % Width;
  // Pass p of this sub-warp works on row first_row + p * groups_per_warp.
  const std::uint64_t first_row = warp * groups_per_warp * Rows + group;

  std::uint32_t next[Rows];
  std::uint32_t end[Rows];
#pragma unroll
  for (unsigned p = 0; p < Rows; ++p) {
    const std::uint64_t row = first_row + p * groups_per_warp;
    next[p] = end[p] = 0;
    if (row < nrows) {
      next[p] = __ldg(rowptr + row) - first_entry + lane;
      end[p] = __ldg(rowptr + row + 1) - first_entry;
    }
  }

  // First pass of every row: all colind/values loads, then all x gathers, then the products.
  std::uint32_t col[Rows];
  double value[Rows];
  double sum[Rows];
#pragma unroll
  for (unsigned p = 0; p < Rows; ++p) {
    col[p] = 0;
    value[p] = 0.0;
    if (next[p] < end[p]) {
      col[p] = __ldg(colind + next[p]);
      value[p] = __ldg(values + next[p]);
    }
  }
#pragma unroll
  for (unsigned p = 0; p < Rows; ++p) {
    sum[p] = next[p] < end[p] ? value[p] * __ldg(x + col[p]) : 0.0;
    next[p] += Width;
  }
  // Rows longer than the sub-warp.
#pragma unroll
  for (unsigned p = 0; p < Rows; ++p) {
    for (std::uint32_t k = next[p]; k < end[p]; k += Width) {
      sum[p] += __ldg(values + k) * __ldg(x + __ldg(colind + k));
    }
  }

  // Every lane of the warp reaches the shuffles (no early exit), so the full mask is exact.
#pragma unroll
  for (unsigned p = 0; p < Rows; ++p) {
#pragma unroll
    for (unsigned offset = Width / 2; offset > 0; offset /= 2) {
      sum[p] += __shfl_down_sync(0xffffffffu, sum[p], offset, Width);
    }
  }
  if (lane == 0) {
#pragma unroll
    for (unsigned p = 0; p < Rows; ++p) {
      const std::uint64_t row = first_row + p * groups_per_warp;
      if (row < nrows) {
        y[row] = beta == 0.0 ? alpha * sum[p] : alpha * sum[p] + beta * y[row];
      }
    }
  }
}

template <unsigned Width, unsigned Rows>
void launch(cudaStream_t stream, const CsrView& A, const double* x, double* y, double alpha, double beta) {
  constexpr std::uint64_t rows_per_block = kBlockThreads / Width * Rows;
  const auto blocks = static_cast<unsigned>((A.nrows + rows_per_block - 1) / rows_per_block);
  csr_vector_kernel<Width, Rows><<<blocks, kBlockThreads, 0, stream>>>(A.nrows, A.rowptr, A.colind, A.values,
                                                                        A.first_entry, x, y, alpha, beta);
}

}  // namespace

void spmv_cuda(cudaStream_t stream, const CsrView& A, const double* x, double* y, double alpha, double beta) {
  if (A.nrows == 0) {
    return;
  }
  // The smallest power of two covering the mean row length (CUSP's rule): a 7-point stencil row
  // gets 8 lanes and a single pass. Short rows need several rows per sub-warp to hide latency; rows
  // of 16+ entries already give each lane independent loads.
  const std::uint64_t mean = (static_cast<std::uint64_t>(A.nnz) + A.nrows - 1) / A.nrows;
  if (mean <= 2) {
    launch<2, 4>(stream, A, x, y, alpha, beta);
  } else if (mean <= 4) {
    launch<4, 4>(stream, A, x, y, alpha, beta);
  } else if (mean <= 8) {
    launch<8, 4>(stream, A, x, y, alpha, beta);
  } else if (mean <= 16) {
    launch<16, 2>(stream, A, x, y, alpha, beta);
  } else {
    launch<32, 1>(stream, A, x, y, alpha, beta);
  }
  check_cuda(cudaGetLastError(), "csr_vector_kernel launch in spmv_cuda");
}

}  // namespace hetsparse::kernels
