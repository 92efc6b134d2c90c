// dtrsm through CBLAS.
#include "kernels/trsm/trsm.hpp"

#include "kernels/common/blas.hpp"
#include "kernels/common/dimension_checks.hpp"

namespace hetsparse::kernels {

void trsm_cpu(char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda,
              double* B, int ldb) {
  constexpr const char* routine = "trsm_cpu";
  const CBLAS_SIDE side_mode = cblas_side(side, routine);
  const CBLAS_UPLO fill = cblas_uplo(uplo, routine);
  const CBLAS_TRANSPOSE op = cblas_transpose(transa, routine);
  const CBLAS_DIAG diag_type = cblas_diag(diag, routine);
  require_nonnegative(routine, "m", m);
  require_nonnegative(routine, "n", n);
  require_leading_dimension(routine, "lda", lda, side_mode == CblasLeft ? m : n);
  require_leading_dimension(routine, "ldb", ldb, m);
  cblas_dtrsm(CblasColMajor, side_mode, fill, op, diag_type, m, n, alpha, A, lda, B, ldb);
}

}  // namespace hetsparse::kernels
