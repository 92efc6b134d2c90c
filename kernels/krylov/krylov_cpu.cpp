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

void fill_cpu(int n, double value, double* y) {
  for (int i = 0; i < n; ++i) y[i] = value;
}

void cg_step_cpu(int n, double rz_old, const double* pq, const double* p, const double* q, double* x, double* r,
                 const double* d, double* z, double* dots) {
  const bool moves = *pq > 0;  // else a breakdown: no step
  const double alpha = moves ? rz_old / *pq : 0.0;
  double rr = 0.0, rz = 0.0;
  for (int i = 0; i < n; ++i) {
    if (moves) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    rr += r[i] * r[i];
    if (d != nullptr) {
      z[i] = d[i] * r[i];
      rz += r[i] * z[i];
    }
  }
  dots[0] = rr;
  dots[1] = d != nullptr ? rz : rr;
  dots[2] = *pq;
}

}  // namespace hetsparse::kernels
