// StarPU glue for POTRF: LAPACKE on CPU workers, cuSOLVER on CUDA workers (devInfo lands straight in
// the info handle's device copy).
#include "codelets/potrf/potrf_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/potrf/potrf.hpp"

namespace hetsparse::codelets {
namespace {

struct PotrfTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<PotrfArgs>(cl_arg);
    *rt::vector_ptr<int>(b[1]) = kernels::potrf_cpu(a.uplo, a.n, rt::matrix_ptr(b[0]), rt::matrix_ld(b[0]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<PotrfArgs>(cl_arg);
    cusolverDnHandle_t h = rt::cuda::local_cusolver();
    double* A = rt::matrix_ptr(b[0]);
    const int lda = rt::matrix_ld(b[0]);
    const int bytes = kernels::potrf_cuda_workspace_size(h, a.uplo, a.n, A, lda);
    auto* work = static_cast<double*>(rt::cuda::local_workspace(static_cast<std::size_t>(bytes)));
    kernels::potrf_cuda(h, rt::cuda::local_stream(), a.uplo, a.n, A, lda, work,
                        bytes / static_cast<int>(sizeof(double)), rt::vector_ptr<int>(b[1]));
  }
};

}  // namespace

void bind_potrf(rt::StarpuBindings& b) { b.bind<PotrfTasks>(potrf_kernel()); }

}  // namespace hetsparse::codelets
