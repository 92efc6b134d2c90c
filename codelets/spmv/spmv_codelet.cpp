// StarPU glue for CSR SpMV: arguments, codelet with history model, insert_spmv().
#include "codelets/spmv/spmv_codelet.hpp"

#include "codelets/spmv/spmv.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

struct SpmvArgs {
  double alpha, beta;
  SpmvCudaImpl cuda_impl;
};

kernels::CsrView csr_view(void* buffer) {
  return {STARPU_CSR_GET_NROW(buffer), STARPU_CSR_GET_NNZ(buffer),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_ROWPTR(buffer)),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_COLIND(buffer)),
          reinterpret_cast<const double*>(STARPU_CSR_GET_NZVAL(buffer)), STARPU_CSR_GET_FIRSTENTRY(buffer)};
}
const double* vec_in(void* b) { return rt::vector_ptr(b); }
double* vec_out(void* b) { return rt::vector_ptr(b); }

void spmv_cpu_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<SpmvArgs>(cl_arg);
  kernels::spmv_cpu(csr_view(buffers[0]), vec_in(buffers[1]), vec_out(buffers[2]), a.alpha, a.beta);
}

#ifdef HETSPARSE_WITH_CUDA
void spmv_cuda_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<SpmvArgs>(cl_arg);
  cudaStream_t s = starpu_cuda_get_local_stream();
  if (a.cuda_impl == SpmvCudaImpl::Cusparse) {
    // The kernel may free and regrow the worker's workspace: hand the block back on every exit path.
    struct Lend {
      rt::cuda::DeviceWorkspace& w;
      kernels::CusparseWorkspace ws{w.ptr, w.bytes};
      ~Lend() { w = {ws.ptr, ws.bytes}; }
    } lend{rt::cuda::local_workspace()};
    kernels::spmv_cusparse(rt::cuda::local_cusparse(), s, csr_view(buffers[0]),
                           static_cast<std::uint32_t>(STARPU_VECTOR_GET_NX(buffers[1])), vec_in(buffers[1]),
                           vec_out(buffers[2]), a.alpha, a.beta, lend.ws);
  } else {
    kernels::spmv_cuda(s, csr_view(buffers[0]), vec_in(buffers[1]), vec_out(buffers[2]), a.alpha, a.beta);
  }
}
constexpr starpu_cuda_func_t spmv_cuda_func = rt::guarded<spmv_cuda_task>;
#else
constexpr starpu_cuda_func_t spmv_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& spmv_kernel() {
  static rt::StarpuKernel k("spmv", rt::guarded<spmv_cpu_task>, spmv_cuda_func);
  return k;
}

void insert_spmv(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId A, rt::HandleId x, rt::HandleId y,
                 double alpha, double beta, SpmvCudaImpl cuda_impl) {
  rt::TaskSpec t = rt::make_task(spmv_kernel(), opt, 0.0);
  t.set_args(SpmvArgs{alpha, beta, cuda_impl});
  t.data = {{A, rt::Access::Read}, {x, rt::Access::Read}, {y, beta == 0.0 ? rt::Access::Write : rt::Access::ReadWrite}};
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
