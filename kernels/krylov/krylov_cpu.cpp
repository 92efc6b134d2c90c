#include "kernels/krylov/krylov.hpp"

namespace hetsparse::kernels {

void xpby_cpu(int n, const double* x, double beta, double* y) {
  if (beta == 0.0) {
    for (int i = 0; i < n; ++i) y[i] = x[i];
    return;
  }
  for (int i = 0; i < n; ++i) y[i] = x[i] + beta * y[i];
}

void diag_scale_cpu(int n, const double* d, const double* x, double* y) {
  for (int i = 0; i < n; ++i) y[i] = d[i] * x[i];
}

}  // namespace hetsparse::kernels
