// StarPU glue of the partitioned-product tasks: spmv_cpu / the own CUDA kernels / cuSPARSE for a part,
// spmv_merge_cpu / _cuda for merges.
#include <cstdint>
#include <vector>

#include "codelets/spmv/spmv_workers.hpp"
#include "codelets/spmv_part/spmv_part_codelet.hpp"
#include "codelets/support/cuda_libraries.hpp"
#include "codelets/support/starpu_binding.hpp"
#include "codelets/support/task_buffers.hpp"
#include "kernels/spmv/spmv.hpp"
#include "kernels/spmv/spmv_merge.hpp"

namespace hetsparse::codelets {
namespace {


struct SpmvPartTasks {
  static void cpu(void* buffers[], void* cl_arg) {
    const auto a = rt::task_args<SpmvPartArgs>(cl_arg);
    kernels::spmv_cpu(rt::csr_view(buffers[0]), rt::vector_ptr(buffers[2]), rt::vector_ptr(buffers[3]), a.alpha,
                      a.beta);
  }
  static void cuda(void* buffers[], void* cl_arg) {
    const auto a = rt::task_args<SpmvPartArgs>(cl_arg);
    cudaStream_t s = rt::cuda::local_stream();
    const kernels::CsrView A = rt::csr_view(buffers[0]);
    const double* x = rt::vector_ptr(buffers[2]);
    double* y = rt::vector_ptr(buffers[3]);
    if (a.cuda_impl == SpmvCudaImpl::Cusparse) {
      spmv_cusparse_on_worker(A, static_cast<std::uint32_t>(STARPU_VECTOR_GET_NX(buffers[2])), x, y, a.alpha, a.beta);
    } else if (a.path == kernels::SpmvPath::Subwarp) {
      kernels::spmv_cuda(s, A, x, y, a.alpha, a.beta);
    } else {
      const kernels::TilePlanView plan =
          kernels::tile_plan_view(rt::vector_ptr<const std::uint32_t>(buffers[1]), a.tiles, a.long_rows, a.max_entries,
                                  a.block_threads);
      void* workspace = a.long_rows > 0 ? rt::vector_ptr<void>(buffers[4]) : nullptr;
      kernels::spmv_tiled_cuda(s, plan, A, x, y, a.alpha, a.beta, workspace);
    }
  }
};

std::vector<kernels::MergeSource> merge_sources(void* buffers[], const void* cl_arg, const MergeHeader& h) {
  const std::vector<MergeItem> items = rt::task_items<MergeHeader, MergeItem>(cl_arg, h.inputs);
  std::vector<kernels::MergeSource> sources;
  sources.reserve(items.size());
  for (std::size_t j = 0; j < items.size(); ++j)
    sources.push_back({rt::vector_ptr(buffers[j + 1]), items[j].src, items[j].dst, items[j].count});
  return sources;
}

struct SpmvMergeTasks {
  static void cpu(void* buffers[], void* cl_arg) {
    const auto h = rt::task_args<MergeHeader>(cl_arg);
    const auto sources = merge_sources(buffers, cl_arg, h);
    kernels::spmv_merge_cpu(rt::vector_ptr(buffers[0]), h.n, h.beta, sources.data(), h.inputs);
  }
  static void cuda(void* buffers[], void* cl_arg) {
    const auto h = rt::task_args<MergeHeader>(cl_arg);
    const auto sources = merge_sources(buffers, cl_arg, h);
    kernels::spmv_merge_cuda(rt::cuda::local_stream(), rt::vector_ptr(buffers[0]), h.n, h.beta, sources.data(),
                             h.inputs);
  }
};

}  // namespace

void bind_spmv_part(rt::StarpuBindings& b) {
  b.bind<SpmvPartTasks>(spmv_part_kernel());
  b.bind<SpmvMergeTasks>(spmv_merge_kernel());
}

}  // namespace hetsparse::codelets
