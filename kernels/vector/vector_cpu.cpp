// Level-1 kernels through CBLAS.
#include "kernels/vector/vector.hpp"

#include "kernels/common/blas.hpp"

namespace hetsparse::kernels {

void axpy_cpu(int n, double alpha, const double* x, double* y) { cblas_daxpy(n, alpha, x, 1, y, 1); }

double dot_cpu(int n, const double* x, const double* y) { return cblas_ddot(n, x, 1, y, 1); }

double nrm2_cpu(int n, const double* x) { return cblas_dnrm2(n, x, 1); }

}  // namespace hetsparse::kernels
