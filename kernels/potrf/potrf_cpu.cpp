// dpotrf through LAPACKE. The _work variant skips LAPACKE's NaN scan of the input and, for
// column-major data, calls LAPACK directly without a transposed copy.
#include "kernels/potrf/potrf.hpp"

#include <cmath>
#include <cstddef>
#include <string>

#include "kernels/common/blas.hpp"
#include "kernels/common/dimension_checks.hpp"
#include "hetsparse/error.hpp"

namespace hetsparse::kernels {

int potrf_cpu(char uplo, int n, double* A, int lda) {
  constexpr const char* routine = "potrf_cpu";
  const char fill = lapack_uplo(uplo, routine);
  // Checked here so that LAPACK's xerbla never prints; a negative info below would be our bug.
  require_nonnegative(routine, "n", n);
  require_leading_dimension(routine, "lda", lda, n);
  const lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, fill, n, A, lda);
  if (info < 0) {
    throw InvalidArgument("potrf_cpu: LAPACKE_dpotrf_work rejected argument " + std::to_string(-info));
  }
  if (info > 0) {
    return static_cast<int>(info);
  }
  // OpenBLAS's own dpotrf only tests pivot <= 0 and lets a NaN pivot through with info = 0. A NaN
  // pivot turns every later pivot into NaN, so the first NaN on the diagonal is the failing column.
  for (int j = 0; j < n; ++j) {
    if (std::isnan(A[static_cast<std::size_t>(j) * (static_cast<std::size_t>(lda) + 1)])) {
      return j + 1;
    }
  }
  return 0;
}

}  // namespace hetsparse::kernels
