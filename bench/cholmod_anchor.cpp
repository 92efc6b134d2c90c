#include "bench/cholmod_anchor.hpp"

#include <suitesparse/cholmod.h>

#include <chrono>
#include <cstring>

#include "reference/sparse_reference.hpp"
#include "kernels/common/blas_threads.hpp"


namespace hetsparse::bench {
namespace {
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The CSR lower triangle, read column-wise, is the CSC upper triangle: stype = +1. nullptr when
// CHOLMOD cannot allocate it (c->status says why).
cholmod_sparse* upper_csc(const Csr& lower, cholmod_common* c) {
  const std::size_t n = lower.rows, nnz = lower.nnz();
  cholmod_sparse* A = cholmod_allocate_sparse(n, n, nnz, 1, 1, 1, CHOLMOD_REAL, c);
  if (!A) return nullptr;
  auto* Ap = static_cast<int*>(A->p);
  for (std::size_t i = 0; i <= n; ++i) Ap[i] = static_cast<int>(lower.rowptr[i]);
  std::memcpy(A->i, lower.colind.data(), nnz * sizeof(int));
  std::memcpy(A->x, lower.values.data(), nnz * sizeof(double));
  return A;
}
// Supernodal, postordered, one ordering method: how both anchors run CHOLMOD.
void start_supernodal(cholmod_common* c, int ordering) {
  cholmod_start(c);
  c->nmethods = 1;
  c->method[0].ordering = ordering;
  c->postorder = 1;
  c->supernodal = CHOLMOD_SUPERNODAL;
}
}  // namespace

CholmodAnalysis cholmod_analyze_metis(const Csr& lower) {
  CholmodAnalysis r;
  cholmod_common c;
  start_supernodal(&c, CHOLMOD_METIS);
  cholmod_sparse* A = upper_csc(lower, &c);
  if (!A) {
    r.error = "cholmod_allocate_sparse failed (status " + std::to_string(c.status) + ")";
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    cholmod_factor* L = cholmod_analyze(A, &c);
    r.seconds = since(t0);
    if (!L || c.status < CHOLMOD_OK) {
      r.error = c.status == CHOLMOD_TOO_LARGE ? "problem too large" : "cholmod_analyze (METIS) failed";
    } else {
      r.ok = true;
      r.flops = c.fl;
      r.nnz_L = c.lnz;
    }
    if (L) cholmod_free_factor(&L, &c);
    cholmod_free_sparse(&A, &c);
  }
  cholmod_finish(&c);
  return r;
}

CholmodResult run_cholmod(const Csr& full, const Csr& lower, const std::vector<index_t>& perm,
                          const std::vector<double>& b, int blas_threads) {
  CholmodResult r;
  const CholmodAnalysis own = cholmod_analyze_metis(lower);
  r.analyze_metis_s = own.seconds;
  r.flops_metis = own.flops;
  r.nnz_L_metis = own.nnz_L;
  kernels::set_blas_threads(blas_threads);
  cholmod_common c;
  start_supernodal(&c, CHOLMOD_GIVEN);
  const std::size_t n = lower.rows;
  cholmod_sparse* A = upper_csc(lower, &c);
  cholmod_factor* L = nullptr;
  cholmod_dense *B = nullptr, *X = nullptr;
  if (!A) {
    r.error = "cholmod_allocate_sparse failed (status " + std::to_string(c.status) + ")";
  } else {
    std::vector<int> p(perm.begin(), perm.end());
    auto t0 = std::chrono::steady_clock::now();
    L = cholmod_analyze_p(A, p.data(), nullptr, 0, &c);
    r.analyze_s = since(t0);
    if (!L || c.status < CHOLMOD_OK) {
      r.error = c.status == CHOLMOD_TOO_LARGE ? "problem too large" : "cholmod_analyze_p failed";
    } else {
      t0 = std::chrono::steady_clock::now();
      cholmod_factorize(A, L, &c);
      r.factorize_s = since(t0);
      r.flops = c.fl;
      r.nnz_L = c.lnz;
      if (c.status == CHOLMOD_NOT_POSDEF) {
        r.error = "not positive definite";
      } else if (c.status < CHOLMOD_OK) {
        r.error = c.status == CHOLMOD_TOO_LARGE ? "problem too large" : "cholmod_factorize failed";
      } else {
        B = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, &c);
        std::memcpy(B->x, b.data(), n * sizeof(double));
        t0 = std::chrono::steady_clock::now();
        X = cholmod_solve(CHOLMOD_A, L, B, &c);
        r.solve_s = since(t0);
        if (X) {
          r.backward_error = ref::backward_error(full, static_cast<const double*>(X->x), b.data());
          r.ok = true;
        } else {
          r.error = "cholmod_solve failed";
        }
      }
    }
  }
  if (X) cholmod_free_dense(&X, &c);
  if (B) cholmod_free_dense(&B, &c);
  if (L) cholmod_free_factor(&L, &c);
  if (A) cholmod_free_sparse(&A, &c);
  cholmod_finish(&c);
  kernels::set_blas_threads(1);  // back to one thread per StarPU worker
  return r;
}

}  // namespace hetsparse::bench
