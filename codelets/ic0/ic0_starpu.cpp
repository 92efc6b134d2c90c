// StarPU glue for IC(0): the serial kernel on a CPU worker, the level-scheduled one on a CUDA worker.
#include <cstdint>

#include "codelets/ic0/ic0_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/ic0/ic0.hpp"

namespace hetsparse::codelets {
namespace {

const std::uint32_t* rowptr(void* csr) { return reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_ROWPTR(csr)); }
const std::uint32_t* colind(void* csr) { return reinterpret_cast<const std::uint32_t*>(STARPU_CSR_GET_COLIND(csr)); }
double* values(void* csr) { return reinterpret_cast<double*>(STARPU_CSR_GET_NZVAL(csr)); }

struct Ic0Tasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<Ic0Args>(cl_arg);
    *rt::vector_ptr<int>(b[2]) = kernels::ic0_cpu(a.n, rowptr(b[0]), colind(b[0]), values(b[0]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<Ic0Args>(cl_arg);
    kernels::ic0_cuda(rt::cuda::local_stream(), rowptr(b[0]), colind(b[0]), values(b[0]),
                      rt::vector_ptr<const std::uint32_t>(b[1]), a.host_level_ptr, a.num_levels,
                      rt::vector_ptr<int>(b[2]));
  }
};

}  // namespace

void bind_ic0(rt::StarpuBindings& b) { b.bind<Ic0Tasks>(ic0_kernel()); }

}  // namespace hetsparse::codelets
