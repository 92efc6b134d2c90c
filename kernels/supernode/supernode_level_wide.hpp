// The wide class of the level-ordered solve with several right-hand sides (supernode_level_solve_cuda.cu):
// the diagonal block D (nc x nc lower triangle, leading dimension ld) against x (nc x nrhs, ld ldx)
// in column steps of kSolveBlock like supernode_diagonal_{forward,backward}_cuda, each step's
// triangle solved by thread blocks of the level solve's team code, a block per right-hand side
// (with cuBLAS TRSM the class took three times its one-column time), the rest of the step by one
// cuBLAS GEMM. Asynchronous on `stream`; the cuBLAS handle is bound to it for the call.
#pragma once
#include "kernels/supernode/supernode.hpp"

namespace hetsparse::kernels {

void level_wide_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc, double* x,
                             int ldx, int nrhs);
void level_wide_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc, double* x,
                              int ldx, int nrhs);

}  // namespace hetsparse::kernels
