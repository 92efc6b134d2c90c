// StarPU glue for TRSM: OpenBLAS on CPU workers, cuBLAS on CUDA workers.
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "codelets/trsm/trsm_codelet.hpp"
#include "kernels/trsm/trsm.hpp"

namespace hetsparse::codelets {
namespace {

struct TrsmTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<TrsmArgs>(cl_arg);
    kernels::trsm_cpu(a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]),
                      rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<TrsmArgs>(cl_arg);
    kernels::trsm_cuda(rt::cuda::local_cublas(), a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha,
                       rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]), rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
  }
};

}  // namespace

void bind_trsm(rt::StarpuBindings& b) { b.bind<TrsmTasks>(trsm_kernel()); }

}  // namespace hetsparse::codelets
