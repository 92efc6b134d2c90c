// StarPU glue for the sparse triangular solve: arguments, codelet with history model, insert_sptrsv().
#include "codelets/sptrsv/sptrsv_codelet.hpp"

#include "codelets/sptrsv/sptrsv.hpp"
#include "hetsparse/error.hpp"
#include "runtime/codelet.hpp"
#include "runtime/cuda_libraries.hpp"

namespace hetsparse::codelets {
namespace {

// Buffer order: 0 rowptr, 1 colind, 2 values, 3 b, 4 x; with device data 5 level_rows, 6 segments,
// 7 level_segments; with the level-ordered copy 8 level_rowptr, 9 level_colind, 10 level_values.
struct SptrsvArgs {
  SptrsvParams p;
  bool has_device_data;
  bool has_level_copy;
};

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
  const double* b = rt::matrix_ptr(buffers[3]);
  double* x = rt::matrix_ptr(buffers[4]);
  const index_t ldb = rt::matrix_ld(buffers[3]), ldx = rt::matrix_ld(buffers[4]);
  if (a.p.transpose) {
    kernels::sptrsv_cpu_transpose(t, b, ldb, x, ldx, a.p.nrhs);
  } else {
    kernels::sptrsv_cpu(t, b, ldb, x, ldx, a.p.nrhs);
  }
}

#ifdef HETSPARSE_WITH_CUDA
void sptrsv_cuda_task(void* buffers[], void* cl_arg) {
  const auto a = rt::task_args<SptrsvArgs>(cl_arg);
  if (a.p.nrhs != 1 || a.p.transpose) {
    throw InvalidArgument("sptrsv codelet: the CUDA variants solve T x = b for one right-hand side only");
  }
  cudaStream_t s = starpu_cuda_get_local_stream();
  if (a.p.plans != nullptr) {
    const kernels::SolveWorkspace ws =
        kernels::make_solve_workspace(rt::cuda::local_workspace(kernels::solve_workspace_bytes(a.p.n)), a.p.n);
    a.p.plans->solve(starpu_worker_get_id_check(), s, rt::matrix_ptr(buffers[3]), rt::matrix_ptr(buffers[4]), ws);
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
  kernels::solve_cuda(variants[static_cast<std::size_t>(a.p.cuda_variant)], s, v, rt::matrix_ptr(buffers[3]),
                      rt::matrix_ptr(buffers[4]), ws);
}
constexpr starpu_cuda_func_t sptrsv_cuda_func = rt::guarded<sptrsv_cuda_task>;
#else
constexpr starpu_cuda_func_t sptrsv_cuda_func = nullptr;
#endif

}  // namespace

const rt::Kernel& sptrsv_kernel() {
  static rt::StarpuKernel k("sptrsv", rt::guarded<sptrsv_cpu_task>, sptrsv_cuda_func);
  return k;
}

std::vector<std::string> sptrsv_cuda_variants() {
#ifdef HETSPARSE_WITH_CUDA
  return kernels::gpu_variants();
#else
  return {};
#endif
}

void insert_sptrsv(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T, rt::HandleId b,
                   rt::HandleId x, const SptrsvParams& params, std::int64_t nnz) {
  if (params.nrhs < 1) throw InvalidArgument("insert_sptrsv: nrhs must be at least 1");
  if (opt.where != rt::Where::Cpu) {
    const auto fail = [](const std::string& why) {
      throw InvalidArgument("insert_sptrsv: a task that may run on CUDA " + why + " (restrict it to CPU workers)");
    };
    if (params.nrhs != 1) fail("takes one right-hand side only");
    if (params.transpose) fail("cannot solve with T^T");
    if (params.plans == nullptr && !T.has_device_data) fail("needs the level schedule and segment handles");
    const int nvariants = static_cast<int>(sptrsv_cuda_variants().size());
    if (params.plans == nullptr && nvariants > 0 && (params.cuda_variant < 0 || params.cuda_variant >= nvariants)) {
      fail("needs a variant index below " + std::to_string(nvariants));
    }
  }
  rt::TaskSpec t = rt::make_task(sptrsv_kernel(), opt, 2.0 * static_cast<double>(nnz) * params.nrhs);
  t.set_args(SptrsvArgs{params, T.has_device_data, T.has_device_data && T.has_level_copy});
  t.data = {{T.rowptr, rt::Access::Read}, {T.colind, rt::Access::Read}, {T.values, rt::Access::Read},
            {b, rt::Access::Read}, {x, rt::Access::Write}};
  if (T.has_device_data) {
    t.data.push_back({T.level_rows, rt::Access::Read});
    t.data.push_back({T.segments, rt::Access::Read});
    t.data.push_back({T.level_segments, rt::Access::Read});
    if (T.has_level_copy) {
      t.data.push_back({T.level_rowptr, rt::Access::Read});
      t.data.push_back({T.level_colind, rt::Access::Read});
      t.data.push_back({T.level_values, rt::Access::Read});
    }
  }
  rt.submit(std::move(t));
}

}  // namespace hetsparse::codelets
