// dsyrk through CBLAS.
#include "kernels/syrk/syrk.hpp"

#include "kernels/common/blas.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void syrk_cpu(char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta,
              double* C, int ldc) {
  constexpr const char* routine = "syrk_cpu";
  const CBLAS_UPLO fill = cblas_uplo(uplo, routine);
  const CBLAS_TRANSPOSE op = cblas_transpose(trans, routine);
  require_nonnegative(routine, "n", n);
  require_nonnegative(routine, "k", k);
  require_leading_dimension(routine, "lda", lda, op == CblasNoTrans ? n : k);
  require_leading_dimension(routine, "ldc", ldc, n);
  cblas_dsyrk(CblasColMajor, fill, op, n, k, alpha, A, lda, beta, C, ldc);
}

}  // namespace hetsparse::kernels
