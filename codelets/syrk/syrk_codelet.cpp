// StarPU glue for SYRK (OpenBLAS / cuBLAS).
#include "codelets/syrk/syrk_codelet.hpp"

#include "codelets/syrk/syrk.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct SyrkArgs {
  char uplo, trans;
  int n, k;
  double alpha, beta;
};

void syrk_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SyrkArgs>(cl_arg);
  kernels::syrk_cpu(a.uplo, a.trans, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]), a.beta,
                    rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
}

#ifdef HETSPARSE_WITH_CUDA
void syrk_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<SyrkArgs>(cl_arg);
  kernels::syrk_cuda(rt::cuda::local_cublas(), a.uplo, a.trans, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]),
                     rt::matrix_ld(b[0]), a.beta, rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
}
constexpr starpu_cuda_func_t syrk_cuda_func = rt::guarded<syrk_cuda_task>;
#else
constexpr starpu_cuda_func_t syrk_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& syrk_kernel() {
  static rt::StarpuKernel k("syrk", rt::guarded<syrk_cpu_task>, syrk_cuda_func);
  return k;
}

void insert_syrk(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, char trans, int n, int k, double alpha,
                 rt::HandleId A, double beta, rt::HandleId C) {
  rt::TaskSpec t = rt::make_task(syrk_kernel(), opt, double(n) * (n + 1) * k);
  t.set_args(SyrkArgs{uplo, trans, n, k, alpha, beta});
  t.data = {{A, rt::Access::Read}, {C, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
