// StarPU glue for TRSM (OpenBLAS / cuBLAS).
#include "codelets/trsm/trsm_codelet.hpp"

#include "codelets/trsm/trsm.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct TrsmArgs {
  char side, uplo, transa, diag;
  int m, n;
  double alpha;
};

void trsm_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<TrsmArgs>(cl_arg);
  kernels::trsm_cpu(a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]),
                    rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
}

#ifdef HETSPARSE_WITH_CUDA
void trsm_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<TrsmArgs>(cl_arg);
  kernels::trsm_cuda(rt::cuda::local_cublas(), a.side, a.uplo, a.transa, a.diag, a.m, a.n, a.alpha,
                     rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]), rt::matrix_ptr(b[1]), rt::matrix_ld(b[1]));
}
constexpr starpu_cuda_func_t trsm_cuda_func = rt::guarded<trsm_cuda_task>;
#else
constexpr starpu_cuda_func_t trsm_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& trsm_kernel() {
  static rt::StarpuKernel k("trsm", rt::guarded<trsm_cpu_task>, trsm_cuda_func);
  return k;
}

void insert_trsm(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char side, char uplo, char transa, char diag, int m,
                 int n, double alpha, rt::HandleId A, rt::HandleId B) {
  const double tri = (side == 'L' || side == 'l') ? double(m) : double(n);
  rt::TaskSpec t = rt::make_task(trsm_kernel(), opt, double(m) * n * tri);
  t.set_args(TrsmArgs{side, uplo, transa, diag, m, n, alpha});
  t.data = {{A, rt::Access::Read}, {B, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
