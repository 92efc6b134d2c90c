// One supernode's solve on the GPU: its panel against its own unknowns and the compact block of its
// rows below (supernode_solve.hpp). The diagonal block is solved in column blocks of kSolveBlock: a
// small TRSV (TRSM for several right-hand sides) on the block, then one GEMV (GEMM) for the rest of
// the diagonal block below it, so wide top separators run at GEMV bandwidth instead of the single
// thread block of one large cublasDtrsv. The rows below take one GEMV (GEMM) over L21.
#include <algorithm>
#include <string>

#include "hetsparse/error.hpp"
#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/supernode/cublas_stream_scope.hpp"
#include "kernels/supernode/supernode_checks.hpp"
#include "kernels/supernode/supernode_solve.hpp"

namespace hetsparse::kernels {
namespace {

using namespace supernode_detail;

// y = alpha op(A) x + beta y with x, y blocks of nrhs columns (GEMV for one).
void multiply(cublasHandle_t h, cublasOperation_t op, int m, int n, double alpha, const double* A, int lda,
              const double* x, int ldx, double beta, double* y, int ldy, int nrhs, const char* what) {
  if (m == 0 || n == 0) return;
  if (nrhs == 1) {
    check_cublas(cublasDgemv(h, op, m, n, &alpha, A, lda, x, 1, &beta, y, 1), what);
  } else if (op == CUBLAS_OP_N) {
    check_cublas(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, nrhs, n, &alpha, A, lda, x, ldx, &beta, y, ldy), what);
  } else {
    check_cublas(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, nrhs, m, &alpha, A, lda, x, ldx, &beta, y, ldy), what);
  }
}

// x = D^-1 x or D^-T x for the lower-triangular jb x jb block D.
void triangular(cublasHandle_t h, cublasOperation_t op, int jb, const double* D, int ldd, double* x, int ldx,
                int nrhs, const char* what) {
  const double one = 1.0;
  if (nrhs == 1) {
    check_cublas(cublasDtrsv(h, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, jb, D, ldd, x, 1), what);
  } else {
    check_cublas(cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, op, CUBLAS_DIAG_NON_UNIT, jb, nrhs, &one, D,
                             ldd, x, ldx),
                 what);
  }
}

}  // namespace

void supernode_diagonal_forward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc,
                                     double* x, int ldx, int nrhs) {
  constexpr const char* routine = "supernode_diagonal_forward_cuda";
  check_diagonal_solve(routine, D, ld, nc, x, ldx, nrhs);
  if (nc == 0 || nrhs == 0) return;
  CublasStreamScope bound(handle, stream, routine);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  for (int j0 = 0; j0 < nc; j0 += kSolveBlock) {
    const int jb = std::min(kSolveBlock, nc - j0);
    const double* B = D + j0 + static_cast<std::size_t>(j0) * ld;
    triangular(handle, CUBLAS_OP_N, jb, B, ld, x + j0, ldx, nrhs, "diagonal block in supernode_diagonal_forward_cuda");
    multiply(handle, CUBLAS_OP_N, nc - j0 - jb, jb, -1.0, B + jb, ld, x + j0, ldx, 1.0, x + j0 + jb, ldx, nrhs,
             "diagonal-block update in supernode_diagonal_forward_cuda");
  }
}

void supernode_diagonal_backward_cuda(cublasHandle_t handle, cudaStream_t stream, const double* D, int ld, int nc,
                                      double* x, int ldx, int nrhs) {
  constexpr const char* routine = "supernode_diagonal_backward_cuda";
  check_diagonal_solve(routine, D, ld, nc, x, ldx, nrhs);
  if (nc == 0 || nrhs == 0) return;
  CublasStreamScope bound(handle, stream, routine);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  for (int j0 = (nc - 1) / kSolveBlock * kSolveBlock; j0 >= 0; j0 -= kSolveBlock) {
    const int jb = std::min(kSolveBlock, nc - j0);
    const double* B = D + j0 + static_cast<std::size_t>(j0) * ld;
    multiply(handle, CUBLAS_OP_T, nc - j0 - jb, jb, -1.0, B + jb, ld, x + j0 + jb, ldx, 1.0, x + j0, ldx, nrhs,
             "diagonal-block update in supernode_diagonal_backward_cuda");
    triangular(handle, CUBLAS_OP_T, jb, B, ld, x + j0, ldx, nrhs, "diagonal block in supernode_diagonal_backward_cuda");
  }
}

void supernode_panel_forward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int ldx,
                                  double* below, int ldb, int nrhs) {
  constexpr const char* routine = "supernode_panel_forward_cuda";
  check_panel_solve(routine, p, x, ldx, below, ldb, nrhs);
  if (nrhs == 0) return;
  supernode_diagonal_forward_cuda(handle, stream, p.values, p.nrows, p.ncols, x, ldx, nrhs);
  CublasStreamScope bound(handle, stream, routine);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  multiply(handle, CUBLAS_OP_N, p.nrows - p.ncols, p.ncols, 1.0, p.values + p.ncols, p.nrows, x, ldx, 0.0, below, ldb,
           nrhs, "rows below in supernode_panel_forward_cuda");
}

void supernode_panel_backward_cuda(cublasHandle_t handle, cudaStream_t stream, ConstPanelRef p, double* x, int ldx,
                                   const double* below, int ldb, int nrhs) {
  constexpr const char* routine = "supernode_panel_backward_cuda";
  check_panel_solve(routine, p, x, ldx, below, ldb, nrhs);
  if (nrhs == 0) return;
  {
    CublasStreamScope bound(handle, stream, routine);
    CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
    multiply(handle, CUBLAS_OP_T, p.nrows - p.ncols, p.ncols, -1.0, p.values + p.ncols, p.nrows, below, ldb, 1.0, x,
             ldx, nrhs, "rows below in supernode_panel_backward_cuda");
  }
  supernode_diagonal_backward_cuda(handle, stream, p.values, p.nrows, p.ncols, x, ldx, nrhs);
}

}  // namespace hetsparse::kernels
