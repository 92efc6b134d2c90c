// Panel factorization on the GPU: potrf_cuda on the diagonal block (cuSOLVER plus hetsparse's NaN
// pivot check), then cublasDtrsm for the rows below, all enqueued on the caller's stream.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <string>

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/potrf/potrf.hpp"
#include "kernels/supernode/cublas_stream_scope.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

std::size_t supernode_factor_cuda_work_bytes(cusolverDnHandle_t solver, PanelRef p) {
  supernode_detail::check_panel_shape("supernode_factor_cuda_work_bytes", "panel", as_const(p), false);
  return static_cast<std::size_t>(potrf_cuda_workspace_size(solver, 'L', p.ncols, p.values, p.nrows));
}

void supernode_factor_cuda(cusolverDnHandle_t solver, cublasHandle_t blas, cudaStream_t stream, PanelRef p,
                           void* work_device, std::size_t work_bytes, int* dev_info) {
  constexpr const char* routine = "supernode_factor_cuda";
  supernode_detail::check_panel_shape(routine, "panel", as_const(p), false);
  if (dev_info == nullptr) throw InvalidArgument(std::string(routine) + ": no dev_info");
  const std::size_t needed = supernode_factor_cuda_work_bytes(solver, p);
  if (work_bytes < needed || (needed > 0 && work_device == nullptr)) {
    throw InvalidArgument(std::string(routine) + ": work of " + std::to_string(work_bytes) + " bytes is below the " +
                          std::to_string(needed) + " cuSOLVER needs");
  }
  const int elems = static_cast<int>(std::min<std::size_t>(work_bytes / sizeof(double), INT_MAX));
  potrf_cuda(solver, stream, 'L', p.ncols, p.values, p.nrows, static_cast<double*>(work_device), elems, dev_info);

  // Enqueued whatever the info code turns out to be (it is on the device): after a failed potrf the
  // rows below hold unspecified values, as documented.
  const int below = p.nrows - p.ncols;
  if (below == 0) return;
  supernode_detail::CublasStreamScope bound(blas, stream, routine);
  CublasPointerModeScope host_scalars(blas, CUBLAS_POINTER_MODE_HOST, routine);
  const double one = 1.0;
  check_cublas(cublasDtrsm(blas, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, below,
                           p.ncols, &one, p.values, p.nrows, p.values + p.ncols, p.nrows),
               "cublasDtrsm in supernode_factor_cuda");
}

}  // namespace hetsparse::kernels
