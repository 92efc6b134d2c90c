// The sparse triangular solve as a task: its kernel and insert_sptrsv() (no StarPU; the glue is
// sptrsv_starpu.cpp).
#include "codelets/sptrsv/sptrsv_codelet.hpp"

#include "codelets/cuda_build.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::codelets {

const rt::Kernel& sptrsv_kernel() {
  static const rt::Kernel k{"sptrsv", kCpuAndCuda};
  return k;
}

std::vector<std::string> sptrsv_cuda_variants() {
  if constexpr (kCudaBuild) {
    return kernels::gpu_variants();
  } else {
    return {};
  }
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
  // A prepared scheme holds the matrix on the device itself: on CUDA workers only, the task needs b
  // and x (each more handle is StarPU bookkeeping on every solve), and T's values, which it holds but
  // never reads: the solver unregisters them before it lets the scheme go (update_values, a new
  // analysis, its end), and unregistering waits for the tasks that hold them.
  const bool prepared_only = params.plans != nullptr && opt.where == rt::Where::Cuda;
  t.set_args(SptrsvArgs{params, T.has_device_data, T.has_device_data && T.has_level_copy, prepared_only});
  if (prepared_only) {
    t.data = {{b, rt::Access::Read}, {x, rt::Access::Write}, {T.values, rt::Access::Read}};
    rt.submit(std::move(t));
    return;
  }
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

void insert_sptrsv_host(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const SptrsvMatrixHandles& T,
                        const double* b, double* x, const SptrsvParams& params, std::int64_t nnz) {
  const bool cuda = opt.where == rt::Where::Cuda;
  if (params.nrhs != 1 || params.transpose || !(cuda || opt.where == rt::Where::Cpu) || (cuda && params.plans == nullptr))
    throw InvalidArgument(
        "insert_sptrsv_host: one right-hand side, no transpose, on CPU workers or a prepared scheme on CUDA workers");
  if (params.n > 0 && (b == nullptr || x == nullptr)) throw InvalidArgument("insert_sptrsv_host: null b or x");
  rt::TaskSpec t = rt::make_task(sptrsv_kernel(), opt, 2.0 * static_cast<double>(nnz));
  SptrsvArgs args{params, false, false, cuda};
  args.host_b = b;
  args.host_x = x;
  t.set_args(args);
  if (cuda) {
    t.data = {{T.values, rt::Access::Read}};  // held so that the prepared scheme outlives the task
  } else {
    t.data = {{T.rowptr, rt::Access::Read}, {T.colind, rt::Access::Read}, {T.values, rt::Access::Read}};
  }
  rt.submit(std::move(t));
}

namespace {

rt::TaskSpec inline_task(const rt::TaskOptions& opt, const SptrsvParams& params, std::int64_t nnz, const char* caller) {
  if (params.plans == nullptr || params.nrhs != 1 || params.transpose || opt.where == rt::Where::Cpu)
    throw InvalidArgument(std::string(caller) + ": a prepared scheme's solve of one right-hand side, not transposed, on a GPU");
  return rt::make_task(sptrsv_kernel(), opt, 2.0 * static_cast<double>(nnz));
}

}  // namespace

bool run_sptrsv_inline(rt::TaskRuntime& rt, const rt::TaskOptions& opt, rt::HandleId b, rt::HandleId x,
                       const SptrsvParams& params, std::int64_t nnz) {
  rt::TaskSpec t = inline_task(opt, params, nnz, "run_sptrsv_inline");
  // The prepared-only buffer order, without T's values: the caller waits, so the scheme outlives the call.
  t.set_args(SptrsvArgs{params, false, false, true});
  t.data = {{b, rt::Access::Read}, {x, rt::Access::Write}};
  return rt.run_inline(t);
}

bool run_sptrsv_host_inline(rt::TaskRuntime& rt, const rt::TaskOptions& opt, const double* host_b, double* host_x,
                            const SptrsvParams& params, std::int64_t nnz) {
  rt::TaskSpec t = inline_task(opt, params, nnz, "run_sptrsv_host_inline");
  if (params.n > 0 && (host_b == nullptr || host_x == nullptr)) throw InvalidArgument("run_sptrsv_host_inline: null b or x");
  SptrsvArgs args{params, false, false, true};
  args.host_b = host_b;
  args.host_x = host_x;
  t.set_args(args);
  return rt.run_inline(t);
}

}  // namespace hetsparse::codelets
