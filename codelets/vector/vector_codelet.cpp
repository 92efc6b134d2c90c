// StarPU glue for AXPY, DOT and NRM2 (OpenBLAS / cuBLAS in device pointer mode, so results stay async).
#include "codelets/vector/vector_codelet.hpp"

#include "codelets/vector/vector.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct VectorArgs {
  int n;
  double alpha;
};

void axpy_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  kernels::axpy_cpu(a.n, a.alpha, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
}
void dot_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  *rt::vector_ptr(b[2]) = kernels::dot_cpu(a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
}
void nrm2_cpu_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  *rt::vector_ptr(b[1]) = kernels::nrm2_cpu(a.n, rt::vector_ptr(b[0]));
}

#ifdef HETSPARSE_WITH_CUDA
void axpy_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  kernels::axpy_cuda(rt::cuda::local_cublas(), a.n, a.alpha, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
}
void dot_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  kernels::dot_cuda(rt::cuda::local_cublas(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]), rt::vector_ptr(b[2]));
}
void nrm2_cuda_task(void* b[], void* cl_arg) {
  const auto a = rt::task_args<VectorArgs>(cl_arg);
  kernels::nrm2_cuda(rt::cuda::local_cublas(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]));
}
constexpr starpu_cuda_func_t axpy_cuda_func = rt::guarded<axpy_cuda_task>,
                             dot_cuda_func = rt::guarded<dot_cuda_task>,
                             nrm2_cuda_func = rt::guarded<nrm2_cuda_task>;
#else
constexpr starpu_cuda_func_t axpy_cuda_func = nullptr, dot_cuda_func = nullptr, nrm2_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& axpy_kernel() {
  static rt::StarpuKernel k("axpy", rt::guarded<axpy_cpu_task>, axpy_cuda_func);
  return k;
}
const rt::Kernel& dot_kernel() {
  static rt::StarpuKernel k("dot", rt::guarded<dot_cpu_task>, dot_cuda_func);
  return k;
}
const rt::Kernel& nrm2_kernel() {
  static rt::StarpuKernel k("nrm2", rt::guarded<nrm2_cpu_task>, nrm2_cuda_func);
  return k;
}

void insert_axpy(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, double alpha, rt::HandleId x, rt::HandleId y) {
  rt::TaskSpec t = rt::make_task(axpy_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, alpha});
  t.data = {{x, rt::Access::Read}, {y, rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

void insert_dot(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId y,
                rt::HandleId result) {
  rt::TaskSpec t = rt::make_task(dot_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, 0.0});
  t.data = {{x, rt::Access::Read}, {y, rt::Access::Read}, {result, rt::Access::Write}};
  rt.submit(std::move(t));
}

void insert_nrm2(rt::TaskRuntime& rt, const rt::TaskOptions& opt, int n, rt::HandleId x, rt::HandleId result) {
  rt::TaskSpec t = rt::make_task(nrm2_kernel(), opt, 2.0 * n);
  t.set_args(VectorArgs{n, 0.0});
  t.data = {{x, rt::Access::Read}, {result, rt::Access::Write}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
