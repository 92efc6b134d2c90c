// StarPU glue for GEMM: OpenBLAS on CPU workers, cuBLAS on CUDA workers.
#include "codelets/gemm/gemm_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/gemm/gemm.hpp"

namespace hetsparse::codelets {
namespace {

struct GemmTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<GemmArgs>(cl_arg);
    kernels::gemm_cpu(a.transa, a.transb, a.m, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]),
                      rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]), a.beta, rt::matrix_ptr(b[2]), rt::matrix_ld(b[2]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<GemmArgs>(cl_arg);
    kernels::gemm_cuda(rt::cuda::local_cublas(), a.transa, a.transb, a.m, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]),
                       rt::matrix_ld(b[0]), rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]), a.beta, rt::matrix_ptr(b[2]),
                       rt::matrix_ld(b[2]));
  }
};

}  // namespace

void bind_gemm(rt::StarpuBindings& b) { b.bind<GemmTasks>(gemm_kernel()); }

}  // namespace hetsparse::codelets
