// StarPU glue for GEMM (OpenBLAS on CPU workers, cuBLAS on CUDA workers).
#include "codelets/gemm/gemm_codelet.hpp"

#include "codelets/gemm/gemm.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct GemmArgs {
  char transa, transb;
  int m, n, k;
  double alpha, beta;
};

void gemm_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<GemmArgs>(cl_arg);
  kernels::gemm_cpu(a.transa, a.transb, a.m, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]),
                    rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]), a.beta, rt::matrix_ptr(b[2]), rt::matrix_ld(b[2]));
}

#ifdef HETSPARSE_WITH_CUDA
void gemm_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<GemmArgs>(cl_arg);
  kernels::gemm_cuda(rt::cuda::local_cublas(), a.transa, a.transb, a.m, a.n, a.k, a.alpha, rt::matrix_ptr(b[0]),
                     rt::matrix_ld(b[0]), rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]), a.beta, rt::matrix_ptr(b[2]),
                     rt::matrix_ld(b[2]));
}
constexpr starpu_cuda_func_t gemm_cuda_func = rt::guarded<gemm_cuda_task>;
#else
constexpr starpu_cuda_func_t gemm_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& gemm_kernel() {
  static rt::StarpuKernel k("gemm", rt::guarded<gemm_cpu_task>, gemm_cuda_func);
  return k;
}

void insert_gemm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char transa, char transb, int m, int n, int k,
                 double alpha, rt::HandleId A, rt::HandleId B, double beta, rt::HandleId C) {
  rt::TaskSpec t = rt::make_task(gemm_kernel(), opt, 2.0 * m * n * k);
  t.set_args(GemmArgs{transa, transb, m, n, k, alpha, beta});
  t.data = {{A, rt::Access::Read}, {B, rt::Access::Read}, {C, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
