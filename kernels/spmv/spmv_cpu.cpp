// Row-by-row CSR product on one core.
#include "kernels/spmv/spmv.hpp"

namespace hetsparse::kernels {

void spmv_cpu(const CsrView& A, const double* x, double* y, double alpha, double beta) {
  const std::uint32_t* colind = A.colind;
  const double* values = A.values;
  for (std::uint32_t row = 0; row < A.nrows; ++row) {
    const std::uint32_t begin = A.rowptr[row] - A.first_entry;
    const std::uint32_t end = A.rowptr[row + 1] - A.first_entry;
    double sum = 0.0;
    for (std::uint32_t k = begin; k < end; ++k) {
      sum += values[k] * x[colind[k]];
    }
    // beta == 0 must not read y: 0 * NaN would poison the result.
    y[row] = beta == 0.0 ? alpha * sum : alpha * sum + beta * y[row];
  }
}

}  // namespace hetsparse::kernels
