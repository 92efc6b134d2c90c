// CHOLMOD (supernodal, BLAS threads as given) on the same matrix and ordering as hetsparse: the
// anchor of the Cholesky benchmarks, run in the same process.
#pragma once
#include <string>
#include <vector>

#include "sparse/csr.hpp"

namespace hetsparse::bench {

struct CholmodResult {
  bool ok = false;
  std::string error;  // e.g. CHOLMOD's "problem too large" or "not positive definite"
  double analyze_s = 0, factorize_s = 0, solve_s = 0, flops = 0, nnz_L = 0, backward_error = 0;
};

// lower: the lower triangle of A (CSR); perm: the ordering to give CHOLMOD (old = perm[new]);
// b: right-hand side; blas_threads: OpenBLAS threads for CHOLMOD's BLAS calls.
CholmodResult run_cholmod(const Csr& full, const Csr& lower, const std::vector<index_t>& perm,
                          const std::vector<double>& b, int blas_threads);

}  // namespace hetsparse::bench
