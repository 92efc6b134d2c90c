// StarPU glue for SYRK: OpenBLAS on CPU workers, cuBLAS on CUDA workers.
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "codelets/syrk/syrk_codelet.hpp"
#include "kernels/syrk/syrk.hpp"

namespace hetsparse::codelets {
namespace {

struct SyrkTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SyrkArgs>(cl_arg);
    kernels::syrk_cpu(a.uplo, a.trans, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]), a.beta,
                      rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SyrkArgs>(cl_arg);
    kernels::syrk_cuda(rt::cuda::local_cublas(), a.uplo, a.trans, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]),
                       rt::matrix_ld(b[0]), a.beta, rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
  }
};

}  // namespace

void bind_syrk(rt::StarpuBindings& b) { b.bind<SyrkTasks>(syrk_kernel()); }

}  // namespace hetsparse::codelets
