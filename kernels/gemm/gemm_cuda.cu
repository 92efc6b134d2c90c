// dgemm through cuBLAS, asynchronous on the handle's stream.
#include "kernels/gemm/gemm.hpp"

#include "kernels/common/cublas_params.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void gemm_cuda(cublasHandle_t handle, char transa, char transb, int m, int n, int k, double alpha,
               const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc) {
  constexpr const char* routine = "gemm_cuda";
  const cublasOperation_t opa = cublas_operation(transa, routine);
  const cublasOperation_t opb = cublas_operation(transb, routine);
  require_nonnegative(routine, "m", m);
  require_nonnegative(routine, "n", n);
  require_nonnegative(routine, "k", k);
  require_leading_dimension(routine, "lda", lda, opa == CUBLAS_OP_N ? m : k);
  require_leading_dimension(routine, "ldb", ldb, opb == CUBLAS_OP_N ? k : n);
  require_leading_dimension(routine, "ldc", ldc, m);
  CublasPointerModeScope host_scalars(handle, CUBLAS_POINTER_MODE_HOST, routine);
  check_cublas(cublasDgemm(handle, opa, opb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc),
               "cublasDgemm in gemm_cuda");
}

}  // namespace hetsparse::kernels
