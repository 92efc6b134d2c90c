// A serial preconditioned CG on host arrays (ref::spmv, ref::sptrsv, ref::ic0): the oracle the PCG
// suites compare iteration counts and residual histories with. Header-only: needs hetsparse_reference.
#pragma once
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "reference/ic0_reference.hpp"
#include "reference/sparse_reference.hpp"
#include "sparse/csr.hpp"

namespace hetsparse::test {

using ApplyPreconditioner = std::function<void(const std::vector<double>& r, std::vector<double>& z)>;

struct ReferencePcg {
  int iterations = 0;
  bool converged = false;
  std::vector<double> x, residual_norms;
};

inline double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

// x0 = 0; stops when ||r|| <= rtol ||b|| (the recursive residual), as krylov::PcgSolver and scipy.
inline ReferencePcg reference_pcg(const Csr& A, const std::vector<double>& b, const ApplyPreconditioner& M,
                                  double rtol, int max_iterations) {
  const std::size_t n = b.size();
  ReferencePcg out;
  out.x.assign(n, 0.0);
  std::vector<double> r = b, z(n), p(n), q(n);
  const double tol = rtol * norm2(b);
  out.residual_norms.push_back(norm2(r));
  if (out.residual_norms.back() <= tol) return out.converged = true, out;
  M(r, z);
  double rz = 0;
  for (std::size_t i = 0; i < n; ++i) rz += r[i] * z[i];
  p = z;
  while (out.iterations < max_iterations) {
    ref::spmv(A, p.data(), q.data());
    double pq = 0;
    for (std::size_t i = 0; i < n; ++i) pq += p[i] * q[i];
    const double alpha = rz / pq;
    for (std::size_t i = 0; i < n; ++i) {
      out.x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    ++out.iterations;
    out.residual_norms.push_back(norm2(r));
    if (out.residual_norms.back() <= tol) return out.converged = true, out;
    M(r, z);
    double rz_new = 0;
    for (std::size_t i = 0; i < n; ++i) rz_new += r[i] * z[i];
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rz_new / rz * p[i];
    rz = rz_new;
  }
  return out;
}

// The preconditioners of krylov/preconditioner.hpp by loops: "none", "jacobi", "ic0" (shifted).
inline ApplyPreconditioner reference_preconditioner(const Csr& A, const std::string& kind, double ic0_shift = 0) {
  if (kind == "jacobi") {
    std::vector<double> d(A.rows, 0.0);
    for (index_t i = 0; i < A.rows; ++i)
      for (offset_t t = A.rowptr[i]; t < A.rowptr[i + 1]; ++t)
        if (A.colind[t] == i) d[i] += A.values[t];
    return [d](const std::vector<double>& r, std::vector<double>& z) {
      for (std::size_t i = 0; i < r.size(); ++i) z[i] = r[i] / d[i];
    };
  }
  if (kind == "ic0") {
    Csr shifted = A;
    for (index_t i = 0; i < A.rows; ++i)
      for (offset_t t = A.rowptr[i]; t < A.rowptr[i + 1]; ++t)
        if (A.colind[t] == i) shifted.values[t] *= 1.0 + ic0_shift;
    const Csr L = ref::ic0(shifted);
    return [L](const std::vector<double>& r, std::vector<double>& z) {
      std::vector<double> y(r.size());
      ref::sptrsv(L, Triangle::Lower, false, r.data(), y.data());
      ref::sptrsv_transpose(L, Triangle::Lower, false, y.data(), z.data());
    };
  }
  return [](const std::vector<double>& r, std::vector<double>& z) { z = r; };
}

}  // namespace hetsparse::test
