// StarPU glue for the split SpTRSV's gather / update / scatter: kernels/split on either device, and
// the update as one SpMV (kernels/spmv, alpha -1, beta 1) per right-hand side.
#include <cstddef>
#include <cstdint>

#include "codelets/split/split_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/spmv/spmv.hpp"
#include "kernels/split/split.hpp"

namespace hetsparse::codelets {
namespace {

kernels::CsrView csr_view(void* buffer) {
  return {STARPU_CSR_GET_NROW(buffer), STARPU_CSR_GET_NNZ(buffer),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_ROWPTR(buffer)),
          reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_COLIND(buffer)),
          reinterpret_cast<const double*>(STARPU_CSR_GET_NZVAL(buffer)), STARPU_CSR_GET_FIRSTENTRY(buffer)};
}
const index_t* order_of(void* buffer) { return rt::vector_ptr<const index_t>(buffer); }

struct GatherTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const rt::Columns src = rt::columns(b[1]), d1 = rt::columns(b[2]), d2 = rt::columns(b[3]);
    kernels::split_gather_cpu(order_of(b[0]), a.n1, a.n2, src.ptr, src.ld, d1.ptr, d1.ld, d2.ptr, d2.ld, a.nrhs);
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const rt::Columns src = rt::columns(b[1]), d1 = rt::columns(b[2]), d2 = rt::columns(b[3]);
    kernels::split_gather_cuda(rt::cuda::local_stream(), order_of(b[0]), a.n1, a.n2, src.ptr, src.ld, d1.ptr, d1.ld,
                               d2.ptr, d2.ld, a.nrhs);
  }
};

struct ScatterTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const rt::Columns s1 = rt::columns(b[1]), s2 = rt::columns(b[2]), dst = rt::columns(b[3]);
    kernels::split_scatter_cpu(order_of(b[0]), a.n1, a.n2, s1.ptr, s1.ld, s2.ptr, s2.ld, dst.ptr, dst.ld, a.nrhs);
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const rt::Columns s1 = rt::columns(b[1]), s2 = rt::columns(b[2]), dst = rt::columns(b[3]);
    kernels::split_scatter_cuda(rt::cuda::local_stream(), order_of(b[0]), a.n1, a.n2, s1.ptr, s1.ld, s2.ptr, s2.ld,
                                dst.ptr, dst.ld, a.nrhs);
  }
};

struct UpdateTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const kernels::CsrView A = csr_view(b[0]);
    const rt::Columns x1 = rt::columns(b[1]), b2 = rt::columns(b[2]);
    for (index_t r = 0; r < a.nrhs; ++r) {
      kernels::spmv_cpu(A, x1.ptr + static_cast<std::ptrdiff_t>(r) * x1.ld, b2.ptr + static_cast<std::ptrdiff_t>(r) * b2.ld,
                        -1.0, 1.0);
    }
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<SplitArgs>(cl_arg);
    const kernels::CsrView A = csr_view(b[0]);
    const rt::Columns x1 = rt::columns(b[1]), b2 = rt::columns(b[2]);
    for (index_t r = 0; r < a.nrhs; ++r) {
      kernels::spmv_cuda(rt::cuda::local_stream(), A, x1.ptr + static_cast<std::ptrdiff_t>(r) * x1.ld,
                         b2.ptr + static_cast<std::ptrdiff_t>(r) * b2.ld, -1.0, 1.0);
    }
  }
};

}  // namespace

void bind_split(rt::StarpuBindings& b) {
  b.bind<GatherTasks>(split_gather_kernel());
  b.bind<ScatterTasks>(split_scatter_kernel());
  b.bind<UpdateTasks>(split_update_kernel());
}

}  // namespace hetsparse::codelets
