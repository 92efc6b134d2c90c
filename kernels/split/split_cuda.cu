// Gather and scatter of the split SpTRSV's two parts on the GPU: one thread per (row, column) of the
// split order, the n1 + n2 rows of a column in one grid-stride sweep.
#include "kernels/split/split.hpp"

#include <cstdint>

#include "kernels/common/cuda_check.hpp"

namespace hetsparse::kernels {
namespace {

constexpr unsigned kThreads = 256;

// Gather = true: part rows <- whole rows; false: whole rows <- part rows.
template <bool Gather>
__global__ void split_rows_kernel(const index_t* __restrict__ order, index_t n1, index_t n2, const double* whole_in,
                                  double* whole_out, index_t ldw, const double* part1_in, double* part1_out,
                                  index_t ld1, const double* part2_in, double* part2_out, index_t ld2,
                                  index_t nrhs) {
  const std::int64_t n = static_cast<std::int64_t>(n1) + n2;
  const std::int64_t total = n * nrhs;
  for (std::int64_t k = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t r = k / n, i = k % n;
    const std::int64_t w = __ldg(order + i) + r * ldw;
    const bool first = i < n1;
    const std::int64_t p = first ? i + r * ld1 : (i - n1) + r * ld2;
    if constexpr (Gather) {
      (first ? part1_out : part2_out)[p] = whole_in[w];
    } else {
      whole_out[w] = (first ? part1_in : part2_in)[p];
    }
  }
}

unsigned blocks_for(std::int64_t total) {
  const std::int64_t b = (total + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65535 * 16 ? b : 65535 * 16);
}

}  // namespace

void split_gather_cuda(cudaStream_t stream, const index_t* order, index_t n1, index_t n2, const double* src,
                       index_t lds, double* dst1, index_t ld1, double* dst2, index_t ld2, index_t nrhs) {
  const std::int64_t total = (static_cast<std::int64_t>(n1) + n2) * nrhs;
  if (total == 0) return;
  split_rows_kernel<true><<<blocks_for(total), kThreads, 0, stream>>>(order, n1, n2, src, nullptr, lds, nullptr, dst1,
                                                                      ld1, nullptr, dst2, ld2, nrhs);
  check_cuda(cudaGetLastError(), "split_rows_kernel launch in split_gather_cuda");
}

void split_scatter_cuda(cudaStream_t stream, const index_t* order, index_t n1, index_t n2, const double* src1,
                        index_t ld1, const double* src2, index_t ld2, double* dst, index_t ldd, index_t nrhs) {
  const std::int64_t total = (static_cast<std::int64_t>(n1) + n2) * nrhs;
  if (total == 0) return;
  split_rows_kernel<false><<<blocks_for(total), kThreads, 0, stream>>>(order, n1, n2, nullptr, dst, ldd, src1, nullptr,
                                                                       ld1, src2, nullptr, ld2, nrhs);
  check_cuda(cudaGetLastError(), "split_rows_kernel launch in split_scatter_cuda");
}

}  // namespace hetsparse::kernels
