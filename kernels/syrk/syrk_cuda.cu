// dsyrk through cuBLAS, asynchronous on the handle's stream.
#include "kernels/syrk/syrk.hpp"

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void syrk_cuda(cublasHandle_t handle, char uplo, char trans, int n, int k, double alpha, const double* A,
               int lda, double beta, double* C, int ldc) {
  constexpr const char* routine = "syrk_cuda";
  const cublasFillMode_t fill = cublas_fill_mode(uplo, routine);
  const cublasOperation_t op = cublas_operation(trans, routine);
  require_nonnegative(routine, "n", n);
  require_nonnegative(routine, "k", k);
  require_leading_dimension(routine, "lda", lda, op == CUBLAS_OP_N ? n : k);
  require_leading_dimension(routine, "ldc", ldc, n);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  check_cublas(cublasDsyrk(handle, fill, op, n, k, &alpha, A, lda, &beta, C, ldc), "cublasDsyrk in syrk_cuda");
}

}  // namespace hetsparse::kernels
