// dtrsm through cuBLAS, asynchronous on the handle's stream.
#include "kernels/trsm/trsm.hpp"

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void trsm_cuda(cublasHandle_t handle, char side, char uplo, char transa, char diag, int m, int n, double alpha,
               const double* A, int lda, double* B, int ldb) {
  constexpr const char* routine = "trsm_cuda";
  const cublasSideMode_t side_mode = cublas_side_mode(side, routine);
  const cublasFillMode_t fill = cublas_fill_mode(uplo, routine);
  const cublasOperation_t op = cublas_operation(transa, routine);
  const cublasDiagType_t diag_type = cublas_diag_type(diag, routine);
  require_nonnegative(routine, "m", m);
  require_nonnegative(routine, "n", n);
  require_leading_dimension(routine, "lda", lda, side_mode == CUBLAS_SIDE_LEFT ? m : n);
  require_leading_dimension(routine, "ldb", ldb, m);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  check_cublas(cublasDtrsm(handle, side_mode, fill, op, diag_type, m, n, &alpha, A, lda, B, ldb),
               "cublasDtrsm in trsm_cuda");
}

}  // namespace hetsparse::kernels
