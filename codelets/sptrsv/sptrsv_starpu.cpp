// StarPU glue for the sparse triangular solve: serial substitution on CPU workers; on CUDA workers one
// of kernels::gpu_variants() on the registered buffers, or a prepared scheme (SptrsvCudaPlans).
#include <string>
#include <vector>

#include "codelets/sptrsv/sptrsv_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "hetsparse/error.hpp"
#include "kernels/sptrsv/sptrsv.hpp"

namespace hetsparse::codelets {
namespace {

template <class T>
const T* in(void* buffer) {
  return rt::vector_ptr<const T>(buffer);
}

void sptrsv_cpu_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<SptrsvArgs>(cl_arg);
  kernels::TriangularView t;
  t.n = a.p.n;
  t.upper = a.p.upper;
  t.rowptr = in<index_t>(buffers[0]);
  t.colind = in<index_t>(buffers[1]);
  t.values = in<double>(buffers[2]);
  if (a.host_b != nullptr) {  // insert_sptrsv_host: one vector in host memory, x possibly b
    kernels::sptrsv_cpu(t, a.host_b, a.p.n, a.host_x, a.p.n, 1);
    return;
  }
  const rt::Columns bc = rt::columns(buffers[3]), xc = rt::columns(buffers[4]);  // matrix or vector handles
  const double* b = bc.ptr;
  double* x = xc.ptr;
  const index_t ldb = bc.ld, ldx = xc.ld;
  if (a.p.transpose) {
    kernels::sptrsv_cpu_transpose(t, b, ldb, x, ldx, a.p.nrhs);
  } else {
    kernels::sptrsv_cpu(t, b, ldb, x, ldx, a.p.nrhs);
  }
}

// inline: emitted only where SptrsvTasks::cuda calls it, i.e. in CUDA builds (starpu_binding.hpp).
inline void sptrsv_cuda_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<SptrsvArgs>(cl_arg);
  if (a.p.nrhs != 1 || a.p.transpose) {
    throw InvalidArgument("sptrsv codelet: the CUDA variants solve T x = b for one right-hand side only");
  }
  cudaStream_t s = rt::cuda::local_stream();
  if (a.p.plans != nullptr) {
    // Host vectors: the device copies of b and x follow the solve workspace in the worker's buffer.
    const std::size_t ws_bytes = (kernels::solve_workspace_bytes(a.p.n) + 255) / 256 * 256;
    const std::size_t scratch_bytes = a.host_b ? 2 * static_cast<std::size_t>(a.p.n) * sizeof(double) : 0;
    char* base = static_cast<char*>(rt::cuda::local_workspace(ws_bytes + scratch_bytes));
    const kernels::SolveWorkspace ws = kernels::make_solve_workspace(base, a.p.n);
    const int worker = rt::cuda::local_worker_key();  // a worker's id, or the inline key (run_inline)
    if (a.host_b) {
      a.p.plans->solve_host(worker, s, a.p.n, a.host_b, a.host_x, reinterpret_cast<double*>(base + ws_bytes), ws);
      return;
    }
    const int b = a.prepared_only ? 0 : 3;  // the buffer order of sptrsv_codelet.hpp
    a.p.plans->solve(worker, s, rt::columns(buffers[b]).ptr, rt::columns(buffers[b + 1]).ptr, ws);
    return;
  }
  if (!a.has_device_data) throw InvalidArgument("sptrsv codelet: CUDA task without the level schedule data");
  const std::vector<std::string> variants = kernels::gpu_variants();
  if (a.p.cuda_variant < 0 || a.p.cuda_variant >= static_cast<int>(variants.size())) {
    throw InvalidArgument("sptrsv codelet: CUDA variant index " + std::to_string(a.p.cuda_variant) + " out of range");
  }
  kernels::TriangularDeviceView v;
  v.n = a.p.n;
  v.upper = a.p.upper;
  v.rowptr = in<index_t>(buffers[0]);
  v.colind = in<index_t>(buffers[1]);
  v.values = in<double>(buffers[2]);
  v.num_levels = a.p.num_levels;
  v.level_rows = in<index_t>(buffers[5]);
  v.host_level_ptr = a.p.host_level_ptr;
  v.host_level_nnz = a.p.host_level_nnz;
  v.num_segments = a.p.num_segments;
  v.segments = in<index_t>(buffers[6]);
  v.num_level_segments = a.p.num_level_segments;
  v.level_segments = in<index_t>(buffers[7]);
  if (a.has_level_copy) {
    v.level_rowptr = in<index_t>(buffers[8]);
    v.level_colind = in<index_t>(buffers[9]);
    v.level_values = in<double>(buffers[10]);
  }
  const kernels::SolveWorkspace ws =
      kernels::make_solve_workspace(rt::cuda::local_workspace(kernels::solve_workspace_bytes(v.n)), v.n);
  kernels::reset_solve_workspace(s, ws);
  kernels::solve_cuda(variants[static_cast<std::size_t>(a.p.cuda_variant)], s, v, rt::columns(buffers[3]).ptr,
                      rt::columns(buffers[4]).ptr, ws);
}
struct SptrsvTasks {
  static void cpu(void* b[], void* cl_arg) { sptrsv_cpu_task(b, cl_arg); }
  static void cuda(void* b[], void* cl_arg) { sptrsv_cuda_task(b, cl_arg); }
};

}  // namespace

void bind_sptrsv(rt::StarpuBindings& b) { b.bind<SptrsvTasks>(sptrsv_kernel()); }

}  // namespace hetsparse::codelets
