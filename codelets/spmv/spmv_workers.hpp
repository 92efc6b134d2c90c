// What the SpMV glue files share on a CUDA worker (StarPU glue only): cuSPARSE on the worker's
// stream, handle and workspace. Inline, so a CPU-only build, which calls it nowhere, links no cuSPARSE.
#pragma once
#include <cstdint>

#include "codelets/support/cuda_libraries.hpp"
#include "kernels/spmv/spmv.hpp"

namespace hetsparse::codelets {

// y = alpha A x + beta y (x of ncols entries). The kernel may free and regrow the worker's
// workspace: the block is handed back on every exit path.
inline void spmv_cusparse_on_worker(const kernels::CsrView& A, std::uint32_t ncols, const double* x, double* y,
                                    double alpha, double beta) {
  struct Lend {
    rt::cuda::DeviceWorkspace& w;
    kernels::CusparseWorkspace ws{w.ptr, w.bytes};
    ~Lend() { w = {ws.ptr, ws.bytes}; }
  } lend{rt::cuda::local_workspace()};
  kernels::spmv_cusparse(rt::cuda::local_cusparse(), rt::cuda::local_stream(), A, ncols, x, y, alpha, beta, lend.ws);
}

}  // namespace hetsparse::codelets
