// StarPU glue for AXPY, DOT and NRM2: OpenBLAS, or cuBLAS in device pointer mode (results stay async).
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "codelets/vector/vector_codelet.hpp"
#include "kernels/vector/vector.hpp"

namespace hetsparse::codelets {
namespace {

struct AxpyTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    kernels::axpy_cpu(a.n, a.alpha, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    kernels::axpy_cuda(rt::cuda::local_cublas(), a.n, a.alpha, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
  }
};

struct DotTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    *rt::vector_ptr(b[2]) = kernels::dot_cpu(a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    kernels::dot_cuda(rt::cuda::local_cublas(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]),
                      rt::vector_ptr(b[2]));
  }
};

struct Nrm2Tasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    *rt::vector_ptr(b[1]) = kernels::nrm2_cpu(a.n, rt::vector_ptr(b[0]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<VectorArgs>(cl_arg);
    kernels::nrm2_cuda(rt::cuda::local_cublas(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
  }
};

}  // namespace

void bind_vector(rt::StarpuBindings& b) {
  b.bind<AxpyTasks>(axpy_kernel());
  b.bind<DotTasks>(dot_kernel());
  b.bind<Nrm2Tasks>(nrm2_kernel());
}

}  // namespace hetsparse::codelets
