// Solve sweeps over one supernode on the GPU: cuBLAS on the panel, and hetsparse's kernels to
// scatter (forward) or gather (backward) the rows below the diagonal block by global row, through
// the contiguous work buffer. Level-2 cuBLAS for one right-hand side.
#include <algorithm>
#include <cstddef>

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/cublas_stream_scope.hpp"
#include "kernels/supernode/supernode.hpp"
#include "kernels/supernode/supernode_checks.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

constexpr int kRowThreads = 256;
constexpr std::size_t kMaxRowBlocks = 4096;  // grid-stride beyond: enough blocks to fill any GPU

// Element e = i + r * below of the below-rows block: x[rows[i] + r * ldx] <-> work[e]. Rows are
// distinct, so no two threads touch the same x entry. kGather: work = x, else x -= work.
template <bool kGather>
__global__ void __launch_bounds__(kRowThreads)
    move_below_rows(const std::int32_t* __restrict__ rows, int below, std::size_t total, double* __restrict__ x,
                    int ldx, double* __restrict__ work) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kRowThreads;
  for (std::size_t e = static_cast<std::size_t>(blockIdx.x) * kRowThreads + threadIdx.x; e < total; e += stride) {
    const std::size_t r = e / static_cast<std::size_t>(below);
    const std::size_t i = e - r * static_cast<std::size_t>(below);
    const std::int32_t row = rows[i];
    if (row < 0 || row >= ldx) continue;  // a row list the planner got wrong: stay inside x
    double* entry = x + static_cast<std::size_t>(row) + r * static_cast<std::size_t>(ldx);
    if constexpr (kGather) {
      work[e] = *entry;
    } else {
      *entry -= work[e];
    }
  }
}

template <bool kGather>
void launch_move(cudaStream_t stream, const ConstPanelRef& p, double* x, int nrhs, int ldx, double* work,
                 const char* what) {
  const int below = p.nrows - p.ncols;
  const std::size_t total = static_cast<std::size_t>(below) * static_cast<std::size_t>(nrhs);
  const std::size_t blocks = std::min(kMaxRowBlocks, (total + kRowThreads - 1) / kRowThreads);
  move_below_rows<kGather>
      <<<static_cast<unsigned>(blocks), kRowThreads, 0, stream>>>(p.rows + p.ncols, below, total, x, ldx, work);
  check_cuda(cudaGetLastError(), what);
}

}  // namespace

void supernode_forward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int nrhs, int ldx,
                            double* work_device) {
  constexpr const char* routine = "supernode_forward_cuda";
  check_solve_shape(routine, p, x, nrhs, ldx, work_device);
  if (nrhs == 0) return;
  const int below = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  double* own = x + p.first_col;
  const double one = 1.0;
  const double zero = 0.0;
  {
    CublasStreamScope bound(handle, stream, routine);
    CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
    // x[own] = L11^-1 x[own]; work = L21 x[own]
    if (nrhs == 1) {
      check_cublas(cublasDtrsv(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, p.ncols, p.values,
                               p.nrows, own, 1),
                   "cublasDtrsv in supernode_forward_cuda");
      if (below > 0) {
        check_cublas(cublasDgemv(handle, CUBLAS_OP_N, below, p.ncols, &one, L21, p.nrows, own, 1, &zero, work_device,
                                 1),
                     "cublasDgemv in supernode_forward_cuda");
      }
    } else {
      check_cublas(cublasDtrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                               p.ncols, nrhs, &one, p.values, p.nrows, own, ldx),
                   "cublasDtrsm in supernode_forward_cuda");
      if (below > 0) {
        check_cublas(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, below, nrhs, p.ncols, &one, L21, p.nrows, own, ldx,
                                 &zero, work_device, below),
                     "cublasDgemm in supernode_forward_cuda");
      }
    }
  }
  if (below > 0) {
    launch_move<false>(stream, p, x, nrhs, ldx, work_device, "move_below_rows launch in supernode_forward_cuda");
  }
}

void supernode_backward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int nrhs,
                             int ldx, double* work_device) {
  constexpr const char* routine = "supernode_backward_cuda";
  check_solve_shape(routine, p, x, nrhs, ldx, work_device);
  if (nrhs == 0) return;
  const int below = p.nrows - p.ncols;
  const double* L21 = p.values + p.ncols;
  double* own = x + p.first_col;
  const double one = 1.0;
  const double minus_one = -1.0;
  if (below > 0) {
    launch_move<true>(stream, p, x, nrhs, ldx, work_device, "move_below_rows launch in supernode_backward_cuda");
  }
  CublasStreamScope bound(handle, stream, routine);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  // x[own] -= L21^T work; x[own] = L11^-T x[own]
  if (nrhs == 1) {
    if (below > 0) {
      check_cublas(cublasDgemv(handle, CUBLAS_OP_T, below, p.ncols, &minus_one, L21, p.nrows, work_device, 1, &one,
                               own, 1),
                   "cublasDgemv in supernode_backward_cuda");
    }
    check_cublas(cublasDtrsv(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, p.ncols, p.values,
                             p.nrows, own, 1),
                 "cublasDtrsv in supernode_backward_cuda");
  } else {
    if (below > 0) {
      check_cublas(cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, p.ncols, nrhs, below, &minus_one, L21, p.nrows,
                               work_device, below, &one, own, ldx),
                   "cublasDgemm in supernode_backward_cuda");
    }
    check_cublas(cublasDtrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
                             p.ncols, nrhs, &one, p.values, p.nrows, own, ldx),
                 "cublasDtrsm in supernode_backward_cuda");
  }
}

}  // namespace hetsparse::kernels
