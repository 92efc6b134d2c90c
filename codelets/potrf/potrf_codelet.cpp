// StarPU glue for POTRF (LAPACKE on CPU workers, cuSOLVER on CUDA workers; devInfo lands straight in
// the info handle's device copy).
#include "codelets/potrf/potrf_codelet.hpp"

#include "codelets/potrf/potrf.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct PotrfArgs {
  char uplo;
  int n;
};

void potrf_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<PotrfArgs>(cl_arg);
  *rt::vector_ptr<int>(b[1]) = kernels::potrf_cpu(a.uplo, a.n, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]));
}

#ifdef HETSPARSE_WITH_CUDA
void potrf_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<PotrfArgs>(cl_arg);
  cusolverDnHandle_t h = rt::cuda::local_cusolver();
  double* A = rt::matrix_ptr(b[0]);
  const int lda = rt::matrix_ld(b[0]);
  const int bytes = kernels::potrf_cuda_workspace_size(h, a.uplo, a.n, A, lda);
  auto* work = static_cast<double*>(rt::cuda::local_workspace(static_cast<std::size_t>(bytes)));
  kernels::potrf_cuda(h, starpu_cuda_get_local_stream(), a.uplo, a.n, A, lda, work,
                      bytes / static_cast<int>(sizeof(double)), rt::vector_ptr<int>(b[1]));
}
constexpr starpu_cuda_func_t potrf_cuda_func = rt::guarded<potrf_cuda_task>;
#else
constexpr starpu_cuda_func_t potrf_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& potrf_kernel() {
  static rt::StarpuKernel k("potrf", rt::guarded<potrf_cpu_task>, potrf_cuda_func);
  return k;
}

void insert_potrf(rt::TaskRuntime& rt, const rt::TaskOptions& opt, char uplo, int n, rt::HandleId A,
                  rt::HandleId info) {
  rt::TaskSpec t = rt::make_task(potrf_kernel(), opt, double(n) * n * n / 3.0);
  t.set_args(PotrfArgs{uplo, n});
  t.data = {{A, rt::Access::ReadWrite}, {info, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
