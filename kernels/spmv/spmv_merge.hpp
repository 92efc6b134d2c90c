// Merging partial SpMV results: y = beta y + the sum of several partial vectors, each added over a
// range of y. What partitioned products need when parts share rows (pCOO's cut rows) or all of y
// (pCSC's full-length partials). Pure kernels, no StarPU.
#pragma once
#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// y[dst + i] += data[src + i] for i < count.
struct MergeSource {
  const double* data;
  std::uint32_t src, dst, count;
};

// y[0, n) = beta y + the sources, added in the order given (so results do not depend on timing).
// beta == 0: y is only written, never read (as spmv_cpu). Sources must lie inside [0, n).
void spmv_merge_cpu(double* y, std::uint32_t n, double beta, const MergeSource* sources, std::uint32_t count);
// The same on `stream`, y and every source in device memory (the MergeSource array on the host).
void spmv_merge_cuda(cudaStream_t stream, double* y, std::uint32_t n, double beta, const MergeSource* sources,
                     std::uint32_t count);

}  // namespace hetsparse::kernels
