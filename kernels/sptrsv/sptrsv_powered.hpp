// The right-hand-side passes of the powered SpTRSV form (sptrsv/powered_triangle.hpp): with A one
// strictly triangular factor M^(2^t) and s an optional row scale (D^-1 for the first pass),
//   out = s*in + A (s*in),   i.e. out_i = s_i in_i + sum_j A_ij s_j in_j.
// Rows are independent: a pass is an SpMV, bandwidth-bound on the GPU. Pure kernels, no StarPU.
#pragma once
#include <cstdint>

#include "sparse/types.hpp"

typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// CSR of a strictly triangular factor (no diagonal stored), host or device arrays.
struct PowerFactorView {
  index_t n = 0;
  std::int64_t nnz = 0;  // rowptr[n], known on the host (sizes the CUDA launch)
  const index_t* rowptr = nullptr;
  const index_t* colind = nullptr;
  const double* values = nullptr;
};

// One pass on the host; scale may be null (ones). out must not alias in.
void powered_rhs_step_cpu(const PowerFactorView& a, const double* scale, const double* in, double* out);

// The same pass enqueued on `stream` (device arrays, out must not alias in); rows are split among
// 1 to 32 lanes by the mean row length, and each row sums in a fixed lane order and tree.
void powered_rhs_step_cuda(cudaStream_t stream, const PowerFactorView& a, const double* scale, const double* in,
                           double* out);

}  // namespace hetsparse::kernels
