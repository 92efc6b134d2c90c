// The data movement of the split SpTRSV (planners/split_sptrsv.hpp): the right-hand side gathered
// into the two parts' row orders, and the two parts' solutions scattered back. `order` lists the
// original rows in split order: order[0 .. n1) are part 1's rows, order[n1 .. n1 + n2) part 2's.
// Column-major blocks of nrhs columns with their leading dimensions. Pure kernels, no StarPU.
#pragma once
#include "sparse/types.hpp"

// Same declaration as driver_types.h, so this header compiles without CUDA.
typedef struct CUstream_st* cudaStream_t;

namespace hetsparse::kernels {

// dst1[i + r ld1] = src[order[i] + r lds] (i < n1), dst2[i + r ld2] = src[order[n1 + i] + r lds] (i < n2).
void split_gather_cpu(const index_t* order, index_t n1, index_t n2, const double* src, index_t lds, double* dst1,
                      index_t ld1, double* dst2, index_t ld2, index_t nrhs);
// dst[order[i] + r ldd] = src1[i + r ld1] (i < n1), dst[order[n1 + i] + r ldd] = src2[i + r ld2] (i < n2).
void split_scatter_cpu(const index_t* order, index_t n1, index_t n2, const double* src1, index_t ld1,
                       const double* src2, index_t ld2, double* dst, index_t ldd, index_t nrhs);

// The same on device arrays (order too), enqueued on `stream`; CudaError on a failed launch.
void split_gather_cuda(cudaStream_t stream, const index_t* order, index_t n1, index_t n2, const double* src,
                       index_t lds, double* dst1, index_t ld1, double* dst2, index_t ld2, index_t nrhs);
void split_scatter_cuda(cudaStream_t stream, const index_t* order, index_t n1, index_t n2, const double* src1,
                        index_t ld1, const double* src2, index_t ld2, double* dst, index_t ldd, index_t nrhs);

}  // namespace hetsparse::kernels
