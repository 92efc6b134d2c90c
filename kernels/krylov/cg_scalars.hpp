// The CG step's scalars from its sums (krylov.hpp's layout), one definition for the host and the
// device kernels, so that both decide convergence and breakdown the same way.
#pragma once
#include "kernels/krylov/krylov.hpp"

#if defined(__CUDACC__)
#define HETSPARSE_HOST_DEVICE __host__ __device__
#else
#define HETSPARSE_HOST_DEVICE
#endif

namespace hetsparse::kernels {

HETSPARSE_HOST_DEVICE inline void cg_scalars(double rr, double rz, double pq, double rz_old, double tol2,
                                             double* out) {
  out[kCgRR] = rr;
  out[kCgRZ] = rz;
  out[kCgPQ] = pq;
  const bool moved = pq > 0;
  out[kCgStop] = !moved ? kCgBreakdown : rr <= tol2 ? kCgConverged : !(rz > 0) ? kCgBreakdown : kCgGoOn;
  out[kCgBeta] = out[kCgStop] == kCgGoOn ? rz / rz_old : 0.0;
}

}  // namespace hetsparse::kernels

#undef HETSPARSE_HOST_DEVICE
