// dgemm through CBLAS.
#include "kernels/gemm/gemm.hpp"

#include "kernels/common/blas.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void gemm_cpu(char transa, char transb, int m, int n, int k, double alpha, const double* A, int lda,
              const double* B, int ldb, double beta, double* C, int ldc) {
  constexpr const char* routine = "gemm_cpu";
  const CBLAS_TRANSPOSE opa = cblas_transpose(transa, routine);
  const CBLAS_TRANSPOSE opb = cblas_transpose(transb, routine);
  require_nonnegative(routine, "m", m);
  require_nonnegative(routine, "n", n);
  require_nonnegative(routine, "k", k);
  require_leading_dimension(routine, "lda", lda, opa == CblasNoTrans ? m : k);
  require_leading_dimension(routine, "ldb", ldb, opb == CblasNoTrans ? k : n);
  require_leading_dimension(routine, "ldc", ldc, m);
  cblas_dgemm(CblasColMajor, opa, opb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace hetsparse::kernels
