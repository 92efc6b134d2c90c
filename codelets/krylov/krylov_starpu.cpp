// StarPU glue for XPBY and the diagonal scaling: kernels/krylov on the host or the worker's stream.
#include "codelets/krylov/krylov_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/krylov/krylov.hpp"

namespace hetsparse::codelets {
namespace {

struct XpbyTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::xpby_cpu(a.n, rt::vector_ptr(b[0]), a.beta, rt::vector_ptr(b[1]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::xpby_cuda(rt::cuda::local_stream(), a.n, rt::vector_ptr(b[0]), a.beta, rt::vector_ptr(b[1]));
  }
};

struct DiagScaleTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::diag_scale_cpu(a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]), rt::vector_ptr(b[2]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::diag_scale_cuda(rt::cuda::local_stream(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]),
                             rt::vector_ptr(b[2]));
  }
};

struct FillTasks {  // KrylovArgs::beta is the value
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::fill_cpu(a.n, a.beta, rt::vector_ptr(b[0]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::fill_cuda(rt::cuda::local_stream(), a.n, a.beta, rt::vector_ptr(b[0]));
  }
};

struct CgStepTasks {
  // The kernels' start and buffers from the task's (see insert_cg_step).
  static kernels::CgStepFrom from(void* b[], const CgStepArgs& a) {
    return {a.rz, a.chained ? rt::vector_ptr(b[a.scaled ? 9 : 7]) : nullptr, a.tol2};
  }
  static double* d(void* b[], const CgStepArgs& a) { return a.scaled ? rt::vector_ptr(b[7]) : nullptr; }
  static double* z(void* b[], const CgStepArgs& a) { return a.scaled ? rt::vector_ptr(b[8]) : nullptr; }
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<CgStepArgs>(cl_arg);
    kernels::cg_step_cpu(a.n, from(b, a), rt::vector_ptr(b[6]), rt::vector_ptr(b[0]), rt::vector_ptr(b[1]),
                         rt::vector_ptr(b[2]), rt::vector_ptr(b[3]), d(b, a), z(b, a), rt::vector_ptr(b[4]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<CgStepArgs>(cl_arg);
    kernels::cg_step_cuda(rt::cuda::local_stream(), a.n, from(b, a), rt::vector_ptr(b[6]), rt::vector_ptr(b[0]),
                          rt::vector_ptr(b[1]), rt::vector_ptr(b[2]), rt::vector_ptr(b[3]), d(b, a), z(b, a),
                          rt::vector_ptr(b[4]), rt::vector_ptr<void>(b[5]));
  }
};

struct CgDirectionTasks {
  static void cpu(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::cg_direction_cpu(a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]), rt::vector_ptr(b[2]));
  }
  static void cuda(void* b[], void* cl_arg) {
    const auto a = rt::task_args<KrylovArgs>(cl_arg);
    kernels::cg_direction_cuda(rt::cuda::local_stream(), a.n, rt::vector_ptr(b[0]), rt::vector_ptr(b[1]),
                               rt::vector_ptr(b[2]));
  }
};

}  // namespace

void bind_krylov(rt::StarpuBindings& b) {
  b.bind<XpbyTasks>(xpby_kernel());
  b.bind<DiagScaleTasks>(diag_scale_kernel());
  b.bind<CgStepTasks>(cg_step_kernel());
  b.bind<FillTasks>(fill_kernel());
  b.bind<CgDirectionTasks>(cg_direction_kernel());
}

}  // namespace hetsparse::codelets
