// StarPU glue for CSR SpMV: hetsparse's kernel on CPU workers, its own CUDA kernel or cuSPARSE on
// CUDA workers.
#include <cstdint>

#include "codelets/spmv/spmv_codelet.hpp"
#include "codelets/spmv/spmv_workers.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/spmv/spmv.hpp"

namespace hetsparse::codelets {
namespace {

const double* vec_in(void* b) { return rt::vector_ptr(b); }
double* vec_out(void* b) { return rt::vector_ptr(b); }

struct SpmvTasks {
  static void cpu(void* buffers[], void* cl_arg) {
    const auto a = rt::task_args<SpmvArgs>(cl_arg);
    kernels::spmv_cpu(rt::csr_view(buffers[0]), vec_in(buffers[1]), vec_out(buffers[2]), a.alpha, a.beta);
  }
  static void cuda(void* buffers[], void* cl_arg) {
    const auto a = rt::task_args<SpmvArgs>(cl_arg);
    cudaStream_t s = rt::cuda::local_stream();
    if (a.cuda_impl == SpmvCudaImpl::Cusparse) {
      spmv_cusparse_on_worker(rt::csr_view(buffers[0]), static_cast<std::uint32_t>(STARPU_VECTOR_GET_NX(buffers[1])),
                              vec_in(buffers[1]), vec_out(buffers[2]), a.alpha, a.beta);
    } else {
      kernels::spmv_cuda(s, rt::csr_view(buffers[0]), vec_in(buffers[1]), vec_out(buffers[2]), a.alpha, a.beta);
    }
  }
};

}  // namespace

void bind_spmv(rt::StarpuBindings& b) { b.bind<SpmvTasks>(spmv_kernel()); }

}  // namespace hetsparse::codelets
