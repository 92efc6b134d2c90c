#include "kernels/krylov/krylov.hpp"

#include "kernels/krylov/cg_scalars.hpp"

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

void cg_step_cpu(int n, CgStepFrom from, const double* pq, const double* p, const double* q, double* x, double* r,
                 const double* d, double* z, double* out) {
  if (from.prev != nullptr && from.prev[kCgStop] != kCgGoOn) {  // the previous step stopped: so does this one
    for (int k = 0; k < kCgScalars; ++k) out[k] = from.prev[k];
    return;
  }
  const double rz_old = from.prev != nullptr ? from.prev[kCgRZ] : from.rz;
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
  cg_scalars(rr, d != nullptr ? rz : rr, *pq, rz_old, from.tol2, out);
}

void cg_direction_cpu(int n, const double* z, const double* s, double* p) {
  if (s[kCgStop] != kCgGoOn) return;
  const double beta = s[kCgBeta];
  for (int i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
}

}  // namespace hetsparse::kernels
